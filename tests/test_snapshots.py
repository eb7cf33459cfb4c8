"""Snapshots already stored in users' databases still load, and mean the same.

tests/fixtures/snapshots/<game>.json holds dumps written by each game's state before the
states became declarative (engine/state.py): random games at a few points (before the deal,
mid-deal, between deals, over), and for the fields added after the first release the dump
that the old code made of a snapshot without that field. Loading one and dumping it again
must give the stored dump back, byte for byte as JSON — but for the options added since,
which an old snapshot gets with the value that keeps its game as it was played.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.base import get_game

FIXTURES = Path(__file__).parent / "fixtures" / "snapshots"
GAMES = ("durak", "king", "bridge", "whist", "preferans", "preferans_ru")


def entries(name: str) -> list[dict]:
    return json.loads((FIXTURES / f"{name}.json").read_text())


# options added after the fixtures were written, with the value an old snapshot takes
OPTIONS_ADDED = {
    "durak": {"throw_in": "all_covered"},  # old tables threw in only once all was covered
    # snapshots older than `scoring` are rubbers, where `chicago_scoring` changes nothing
    "bridge": {"scoring": "rubber", "chicago_scoring": "laws"},
    "preferans_ru": {
        "whist_quota": "shared",
        "raspasy_reset": "any_deal",
        "consolation_rate": "price",
        "raspasy_tie": "full",
    },
}


def as_json(data: dict) -> dict:
    return json.loads(json.dumps(data))


def without_added_options(name: str, dump: dict, stored: dict) -> dict:
    """``dump`` with the options added since ``stored`` was written taken out, once they
    are checked to hold the value that keeps an old game as it was."""
    dump = as_json(dump)
    options = dump.get("options")
    if isinstance(options, dict) and isinstance(stored.get("options"), dict):
        added = {k: v for k, v in options.items() if k not in stored["options"]}
        assert added == {k: v for k, v in OPTIONS_ADDED.get(name, {}).items() if k in added}
        assert set(added) == set(OPTIONS_ADDED.get(name, {})) - set(stored["options"])
        dump["options"] = {k: v for k, v in options.items() if k not in added}
    return dump


@pytest.mark.parametrize("name", GAMES)
def test_a_stored_snapshot_loads_and_dumps_the_same(name):
    game = get_game(name)
    stored = entries(name)
    assert len(stored) >= 8
    for entry in stored:
        state = game.load(entry["dump"])
        assert without_added_options(name, game.dump(state), entry["dump"]) == entry["dump"]
        assert without_added_options(name, game.dump(state.clone()), entry["dump"]) == entry["dump"]


@pytest.mark.parametrize("name", GAMES)
def test_a_snapshot_older_than_a_field_loads_as_before(name):
    game = get_game(name)
    checked = 0
    for entry in entries(name):
        for key, expected in entry["without"].items():
            old = {k: v for k, v in entry["dump"].items() if k != key}
            assert without_added_options(name, game.dump(game.load(old)), expected) == expected, key
            checked += 1
    assert checked or name not in ("durak", "whist", "preferans")


@pytest.mark.parametrize("name", GAMES)
def test_a_loaded_game_plays_on(name):
    game = get_game(name)
    rng = random.Random(7)
    for entry in entries(name):
        state = game.load(entry["dump"])
        before = as_json(game.dump(state))
        if game.is_over(state) or not game.to_act(state):
            continue
        seat = game.to_act(state)[0]
        after, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        assert as_json(game.dump(state)) == before  # apply never changes the state it is given
        assert as_json(game.dump(game.load(as_json(game.dump(after))))) == as_json(game.dump(after))
