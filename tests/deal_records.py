"""Game records for the deal-analysis tests and benchmark: a deal given by its deck (or
shuffled from a seed), then seeded random legal actions (or the easy computers) until
the record holds ``deals`` finished deals (random play never claims or concedes)."""

from __future__ import annotations

import random
from typing import Any

from engine.base import get_game
from engine.jsondata import JsonDict
from engine.records import make_record


def play_record(
    name: str,
    seed: int,
    players: int,
    deals: int = 1,
    first_deal: str | None = None,
    policy: str = "random",
    options: Any = None,
) -> JsonDict:
    game = get_game(name)
    opts = game.Options.model_validate(options or {})
    rng = random.Random(seed)
    state = game.initial_state(opts, players)
    log: list[tuple[int | None, str]] = [(None, first_deal or game.new_deal(opts, players, rng, []))]
    state, _ = game.apply(state, None, log[0][1])
    dealt = 1
    system_action = getattr(game, "system_action", None)
    while not game.is_over(state):
        deal = system_action(state, rng) if system_action else None
        if deal is not None:
            if dealt >= deals:
                break
            dealt += 1
            log.append((None, deal))
            state, _ = game.apply(state, None, deal)
            continue
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        if policy == "random":
            # claims and concessions would cut the play short: the tests want it played out
            played_out = [a for a in legal if a.split()[0] not in ("claim", "concede")] or legal
            action = rng.choice(played_out)
        else:
            action = game.computer_action(game.view(state, seat), legal, rng, level="easy")
        log.append((seat, action))
        state, _ = game.apply(state, seat, action)
    return make_record(name, players, opts.model_dump(), log)
