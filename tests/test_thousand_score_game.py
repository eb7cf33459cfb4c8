"""The ``thousand_score`` wizard: it offers only the choices that still make a valid deal,
so any walk through its buttons writes deals the record accepts; a dump reloads the same
sheet; the opponents on the бочка are not asked; тёмная and распишись only where the
table plays them; undo, cancel and a forfeit; bad actions change nothing."""

from __future__ import annotations

import random

import pytest

from engine.base import get_game
from engine.errors import EngineError
from engine.score import score

S = get_game("thousand_score")


def started(options=None, players=3):
    state = S.initial_state(options or {}, players)
    state, _ = S.apply(state, None, S.new_deal(S.Options(**(options or {})), players, random.Random(0), []))
    return state


def enter(state, *actions, seat=0):
    for action in actions:
        assert action in S.legal_actions(state, seat), (action, S.legal_actions(state, seat))
        state, _ = S.apply(state, seat, action)
    return state


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [
        (3, 1, {}),
        (4, 2, {"dark": True}),
        (3, 3, {"bid_step": 10, "rounding": 10, "target": 500, "barrel_at": 400}),
        (4, 4, {"concede": False, "bolts": False, "barrel": False}),
    ],
)
def test_any_walk_through_the_buttons_writes_valid_deals(players, seed, options):
    rng = random.Random(seed)
    state = started(options, players)
    for _ in range(600):
        if S.is_over(state):
            break
        seat = rng.randrange(players)
        legal = S.legal_actions(state, seat)
        assert legal == S.legal_actions(state, (seat + 1) % players)  # anybody at the table
        # mostly forward: a cancel or an undo now and then
        forward = [a for a in legal if a not in ("cancel", "undo")] or legal
        action = rng.choice(legal) if rng.random() < 0.05 else rng.choice(forward)
        state, events = S.apply(state, seat, action)
        reloaded = S.load(S.dump(state))
        assert S.dump(reloaded) == S.dump(state)
        assert S.view(reloaded, None) == S.view(state, None)
    view = S.view(state, None)
    out = score(view["record"])  # the record of the deals written is a valid one
    assert list(out["totals"].values()) == view["totals"]
    assert len(out["deals"]) == len(view["entries"]) >= 5


def test_only_the_deal_s_players_declare_and_only_the_forehand_bids_blind():
    state = started({"dark": True}, players=4)
    # A deals and sits out; B is the forehand
    assert S.legal_actions(state, 0) == ["declarer B", "declarer C", "declarer D"]
    assert "dark" in S.legal_actions(enter(state, "declarer B"), 0)
    assert "dark" not in S.legal_actions(enter(state, "declarer C"), 0)
    state = enter(state, "declarer B", "dark")
    assert S.legal_actions(state, 0) == ["made", "failed", "cancel"]  # a blind contract is not conceded
    state = enter(state, "made", "points 20", "points 10", "confirm")
    assert S.view(state, None)["totals"] == [0, 200, 20, 10]
    assert S.legal_actions(started({"concede": False}), 0)[:3] == ["declarer B", "declarer C", "declarer A"]
    no_concede = enter(started({"concede": False}), "declarer B", "contract 100")
    assert "concede" not in S.legal_actions(no_concede, 0)


def test_an_opponent_on_the_barrel_is_not_asked():
    state = started()
    # B climbs to 880 as an opponent of A's lost contracts, and stops there
    for _ in range(8):
        state = enter(state, "declarer A", "contract 100", "failed")
        while state.pending["step"] == "points":
            state = enter(state, *(["band 100", "points 110"] if state.pending["ask"] == "B" else ["points 0"]))
        state = enter(state, "confirm")
    view = S.view(state, None)
    assert view["totals"][1] == 880 and view["barrel"][1] == 0
    state = enter(state, "declarer A", "contract 100", "failed")
    assert state.pending["ask"] == "C"
    state = enter(state, "points 5")
    assert state.pending["step"] == "confirm"  # B was not asked
    assert S.dump(enter(state, "confirm"))["deals"][-1]["points"] == {"C": 5}


def test_bands_show_the_other_hundreds_and_only_possible_points():
    state = enter(started(), "declarer B")
    legal = S.legal_actions(state, 0)
    assert legal[:2] == ["contract 100", "contract 105"] and "contract 200" not in legal
    assert {"band 200", "band 300"} <= set(legal)
    state = enter(state, "band 300")
    assert S.legal_actions(state, 0)[-4:] == ["contract 400", "band 100", "band 200", "cancel"]
    state = enter(state, "contract 400", "made")
    # 400 made: the declarer had every card point and every marriage
    assert S.legal_actions(state, 0) == ["bolt", "points 0", "cancel"]


def test_undo_cancel_and_forfeit():
    state = enter(started(), "declarer B", "contract 120", "made", "points 20", "points 5", "confirm")
    assert S.view(state, None)["totals"] == [5, 120, 20]
    state = enter(state, "declarer C", "contract 100", "cancel")
    assert state.pending is None and "undo" in S.legal_actions(state, 1)
    state = enter(state, "undo")
    assert S.view(state, None)["totals"] == [0, 0, 0] and "undo" not in S.legal_actions(state, 0)
    state, events = S.apply(state, None, "forfeit 2")
    assert events[-1]["type"] == "game_over" and S.result(state)["forfeit"] == 2
    assert S.legal_actions(state, 0) == []


@pytest.mark.parametrize("action", ["points 999", "contract 120", "confirm", "frobnicate", "declarer Z", ""])
def test_a_bad_action_is_refused_and_changes_nothing(action):
    state = started()
    before = S.dump(state)
    with pytest.raises(EngineError):
        S.apply(state, 0, action)
    with pytest.raises(EngineError):
        S.apply(state, 5, "declarer B")  # nobody in that seat
    assert S.dump(state) == before
