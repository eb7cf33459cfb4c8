"""Random play for the render tests: a game of any kind dealt and played on with
uniformly random legal moves, to see every screen and post a real game produces."""

from __future__ import annotations

import random
from typing import Any

from bot.game_registry import all_uis
from engine.base import get_game


def every_ui_and_seat_count() -> list[tuple[str, int]]:
    """(game, players) for every game the bot shows, at each number of seats it takes."""
    return [
        (ui.name, players)
        for ui in all_uis()
        for players in sorted(set(get_game(ui.name).seat_range(get_game(ui.name).Options())))
    ]


def first_deal(game: Any, players: int, rng: random.Random) -> tuple[Any, list[dict]]:
    """The state and events after the first deal, with the game's default options."""
    options = game.Options()
    return game.apply(game.initial_state(options, players), None, game.new_deal(options, players, rng, []))


def random_step(game: Any, state: Any, rng: random.Random) -> tuple[Any, list[dict]]:
    """One step on: the game's system action when it has one now (the next deal of a
    match), else a uniformly random legal move of the seat to act."""
    system = getattr(game, "system_action", None)
    action = system(state, rng) if system else None
    if action is not None:
        return game.apply(state, None, action)
    seat = game.to_act(state)[0]
    return game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
