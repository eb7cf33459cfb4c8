"""The score-only sheet engine ``bridge_score``: the entry wizard's steps and validation,
undo, stop, the end of the rubber, and that it scores exactly like ``cardbot score``."""

from __future__ import annotations

import json
import random

import pytest

from engine.base import get_game
from engine.games.bridge.record import score as record_score
from engine.errors import BadSyntax, GameOver, IllegalAction, NotYourTurn

G = get_game("bridge_score")


def opened(players=2, options=None, history=()):
    opts = G.Options(**(options or {}))
    state = G.initial_state(opts, players)
    state, events = G.apply(state, None, G.new_deal(opts, players, random.Random(1), list(history)))
    return state


def enter(state, *actions, seat=0):
    events = []
    for action in actions:
        state, ev = G.apply(state, seat, action)
        events += ev
    return state, events


def test_first_step_and_every_seat_may_enter():
    state = opened(3)
    assert G.to_act(state) == [0, 1, 2]
    legal = G.legal_actions(state, 2)
    assert legal == ["declarer N", "declarer E", "declarer S", "declarer W", "passed_out"]
    assert G.legal_actions(state, 0) == legal and G.legal_actions(state, 5) == []
    assert G.view(state, 1)["hand"] == [] and "hand" not in G.view(state, None)
    assert G.view(state, None)["dealer"] == 0


def test_the_steps_in_order():
    state = opened()
    state, _ = enter(state, "declarer E")
    assert G.legal_actions(state, 0) == [f"level {n}" for n in range(1, 8)] + ["cancel"]
    state, _ = enter(state, "level 4", seat=1)
    assert G.legal_actions(state, 0)[:5] == ["strain C", "strain D", "strain H", "strain S", "strain NT"]
    state, _ = enter(state, "strain S")
    assert G.legal_actions(state, 0) == ["doubling none", "doubling X", "doubling XX", "cancel"]
    state, _ = enter(state, "doubling X")
    assert G.legal_actions(state, 0) == [f"tricks {n}" for n in range(14)] + ["cancel"]
    state, _ = enter(state, "tricks 8")
    assert G.legal_actions(state, 0) == [
        "honours none",
        "honours NS 4",
        "honours NS 5",
        "honours EW 4",
        "honours EW 5",
        "cancel",
    ]
    state, _ = enter(state, "honours none")
    assert G.legal_actions(state, 0) == ["confirm", "cancel"]
    state, events = enter(state, "confirm")
    scored = events[-1]
    assert scored["type"] == "deal_scored" and scored["contract"] == {"level": 4, "strain": "S", "doubling": 1}
    assert scored["points"]["NS"] == {"above": 300, "below": 0}
    assert G.view(state, None)["dealer"] == 1  # the deal passed to E


def test_wrong_steps_are_refused_and_change_nothing():
    state = opened()
    before = json.dumps(G.dump(state))
    for action, kind in (
        ("level 3", IllegalAction),
        ("confirm", IllegalAction),
        ("undo", IllegalAction),
        ("stop", IllegalAction),
        ("declarer Q", IllegalAction),
        ("", BadSyntax),
        ("hello", BadSyntax),
    ):
        with pytest.raises(kind):
            G.apply(state, 0, action)
        assert json.dumps(G.dump(state)) == before
    with pytest.raises(NotYourTurn):
        G.apply(state, None, "declarer N")
    with pytest.raises(IllegalAction):
        G.apply(state, 0, "deal dealer=N")
    state, _ = enter(state, "declarer N", "level 3", "strain NT", "doubling none", "tricks 9")
    # in NT only the four aces score: no "5" offered, and "honours NS 5" refused
    assert G.legal_actions(state, 0) == ["honours none", "honours NS 4", "honours EW 4", "cancel"]
    with pytest.raises(IllegalAction) as info:
        G.apply(state, 0, "honours NS 5")
    assert info.value.code == "bad_honours"
    state, _ = enter(state, "cancel")
    assert G.view(state, None)["pending"] is None and G.view(state, None)["deals"] == 0


def test_without_honours_the_step_is_skipped():
    state = opened(options={"score_honours": False})
    state, _ = enter(state, "declarer S", "level 1", "strain C", "doubling none", "tricks 7")
    assert G.legal_actions(state, 0) == ["confirm", "cancel"]


def test_undo_and_stop():
    state = opened(options={"unfinished_rubber_bonus": True})
    state, _ = enter(
        state, "declarer N", "level 4", "strain H", "doubling none", "tricks 10", "honours NS 4", "confirm"
    )
    state, _ = enter(state, "passed_out", "confirm")
    assert G.view(state, None)["dealer"] == 2 and "undo" in G.legal_actions(state, 0)
    undone, events = enter(state, "undo")
    assert events[-1]["type"] == "undone" and events[-1]["deal"] == {"passed_out": True}
    assert G.view(undone, None)["dealer"] == 1 and G.view(undone, None)["deals"] == 1
    undone, _ = enter(undone, "undo")
    assert undone.sheet.entries == [] and "undo" not in G.legal_actions(undone, 0)
    # stop: the unfinished rubber is settled (NS has the only game: +300)
    state, _ = enter(state, "stop")
    assert G.legal_actions(state, 0) == ["confirm", "cancel"]
    over, events = enter(state, "confirm")
    assert G.is_over(over) and events[-1]["type"] == "game_over"
    result = G.result(over)
    assert not result["complete"] and result["totals"] == {"NS": 120 + 100 + 100 + 300, "EW": 0}
    assert result["units"] == {"NS": 6, "EW": -6}
    with pytest.raises(GameOver):
        G.apply(over, 0, "declarer N")


def test_a_full_rubber_matches_cardbot_score():
    deals = [
        ("N", 2, "H", "none", 10, None),
        ("E", 4, "S", "X", 8, None),
        None,
        ("S", 6, "NT", "XX", 12, ("EW", 4)),
        ("N", 4, "S", "none", 10, None),
    ]
    state = opened()
    record = []
    for deal in deals:
        if deal is None:
            state, events = enter(state, "passed_out", "confirm")
            record.append({"passed_out": True})
            continue
        declarer, level, strain, doubling, tricks, honours = deal
        honour = "honours none" if honours is None else f"honours {honours[0]} {honours[1]}"
        state, events = enter(
            state,
            f"declarer {declarer}",
            f"level {level}",
            f"strain {strain}",
            f"doubling {doubling}",
            f"tricks {tricks}",
            honour,
            "confirm",
        )
        entry = {
            "declarer": declarer,
            "contract": f"{level}{strain}{'' if doubling == 'none' else doubling}",
            "tricks": tricks,
        }
        if honours:
            entry["honours"] = {"side": honours[0], "held": honours[1]}
        record.append(entry)
    assert G.is_over(state)
    expected = record_score({"game": "bridge", "deals": record})
    result = G.result(state)
    rubber = expected["rubbers"][0]
    assert result["complete"] and rubber["complete"] and result["games"] == rubber["games"]
    assert result["totals"] == rubber["totals"] and result["units"] == rubber["settlement"]
    assert state.deals == record
    assert result["next_dealer"] == 1  # five deals from N: E deals next
    # a rematch continues the rotation
    again = opened(history=[result])
    assert G.view(again, None)["dealer"] == 1


def test_forfeit_and_dump_round_trip():
    state = opened()
    state, _ = enter(state, "declarer W", "level 1")
    assert G.dump(G.load(json.loads(json.dumps(G.dump(state))))) == G.dump(state)
    over, events = G.apply(state, None, "forfeit 0")
    assert G.is_over(over) and G.result(over)["forfeit"] == 0
    with pytest.raises(Exception):
        G.initial_state(G.Options(), 5)
    assert G.seat_range(G.Options()) == (1, 4)
