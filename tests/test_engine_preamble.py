"""The checks that open every game's apply (engine/actions.py), on the six games: the same
refusals, with each game's own error codes, before any rule is read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.base import get_game
from engine.errors import EngineError

FIXTURES = Path(__file__).parent / "fixtures" / "snapshots"
GAMES = ("durak", "king", "bridge", "whist", "preferans", "preferans_ru")


def states(name: str):
    """(a state waiting for a player, an ended state) from the stored snapshots."""
    game = get_game(name)
    loaded = [game.load(e["dump"]) for e in json.loads((FIXTURES / f"{name}.json").read_text())]
    waiting = next(s for s in loaded if not game.is_over(s) and game.to_act(s))
    over = next(s for s in loaded if game.is_over(s))
    return game, waiting, over


def refusal(game, state, seat, action) -> str:
    before = json.dumps(game.dump(state), sort_keys=True)
    with pytest.raises(EngineError) as caught:
        game.apply(state, seat, action)
    assert json.dumps(game.dump(state), sort_keys=True) == before
    return caught.value.code


@pytest.mark.parametrize("name", GAMES)
def test_every_game_opens_apply_with_the_same_checks(name):
    game, waiting, over = states(name)
    seat = game.to_act(waiting)[0]
    legal = game.legal_actions(waiting, seat)[0]
    players = len(game.dump(waiting)["hands"])
    assert refusal(game, waiting, seat, "") == "bad_syntax"
    assert refusal(game, waiting, seat, "juggle") == "bad_syntax"
    assert refusal(game, over, seat, legal) == "game_over"
    assert refusal(game, over, None, "forfeit 0") == "game_over"
    assert refusal(game, waiting, seat, "forfeit 0") == "system_only"
    for outside in (players, -1):
        assert refusal(game, waiting, outside, legal) == "bad_syntax"
    # a player's verb from the system: whist names it, the others find nobody's turn
    assert refusal(game, waiting, None, legal) == ("players_only" if name == "whist" else "not_your_turn")
    game.apply(waiting, seat, legal)  # and the legal action passes them all
