"""The score-only wizard ``preferans_score``: only valid choices are offered, undo and
cancel, the seed example, and the same sheet as the played engine for random pulkas."""

from __future__ import annotations

import random

import pytest

from engine.base import get_game
from engine.errors import EngineError
from engine.games.preferans.scoring import BETTEL, NAME_OF, defenders
from engine.games.preferans.record import score
from tests.test_preferans_random import play_pulka

S = get_game("preferans_score")
LETTERS = "ABC"


def started(**options):
    s = S.initial_state(S.Options(**options), 3)
    s, _ = S.apply(s, None, S.new_deal(S.Options(**options), 3, random.Random(1), []))
    return s


def step(s, action, seat=0):
    assert action in S.legal_actions(s, seat), (action, S.legal_actions(s, seat))
    assert S.legal_actions(s, 0) == S.legal_actions(s, 1) == S.legal_actions(s, 2)
    return S.apply(s, seat, action)


def enter_row(s, row, seat=0):
    """Press the wizard's steps for one sheet row of the played engine."""
    events = []

    def go(action):
        nonlocal s
        s, ev = step(s, action, seat)
        events.extend(ev)

    if row["type"] == "all_pass":
        go("allpass")
        go("confirm")
        return s, events
    d = row["declarer"]
    d1, d2 = defenders(d)
    dec = {int(k): v for k, v in row["defence"].items()}
    go(f"declarer {LETTERS[d]}")
    go(f"contract {NAME_OF[row['number']]}")
    go("igra yes" if row["igra"] else "igra no")
    if row["number"] != BETTEL:
        go("d1 " + ("play" if dec[d1] in ("play", "invite") else "pass"))
        if dec[d2] == "invite":
            go("d2 invite")
        else:
            go("d2 " + ("pass" if dec[d2] == "invited" else dec[d2]))
    if s.pending["step"] == "kontra":
        k = row["kontra"]
        go("kontra none" if not k else "kontra both" if len(k) == 2 else f"kontra {LETTERS[k[0]]}")
        if s.pending["step"] == "level":
            go(f"level {row['level']}")
    while s.pending["step"] == "tricks":
        go(f"tricks {row['tricks'][s.pending['tseat']]}")
    go("confirm")
    return s, events


def test_seed_example_by_steps():
    s = started(bula=30)
    assert S.legal_actions(s, 0) == ["declarer A", "declarer B", "declarer C", "allpass", "cancel"][:4]
    for action in [
        "declarer C",
        "contract D",
        "igra no",
        "d1 play",
        "d2 play",
        "kontra none",
        "tricks 6",
        "tricks 2",
        "confirm",
    ]:
        s, _ = step(s, action)
    assert [s.pending, len(s.entries)] == [None, 1]
    s, _ = step(s, "declarer B")
    s, _ = step(s, "contract C")
    s, _ = step(s, "igra no")
    s, _ = step(s, "d1 play")  # D1 of B is C
    s, _ = step(s, "d2 pass")  # D2 is A
    s, _ = step(s, "kontra none")
    assert S.legal_actions(s, 0)[:3] == ["tricks 0", "tricks 1", "tricks 2"]
    s, _ = step(s, "tricks 7")
    assert s.pending["step"] == "confirm" and s.pending["tricks"] == {"1": 7, "2": 3}
    s, _ = step(s, "confirm")
    s, _ = step(s, "allpass")
    s, _ = step(s, "confirm")
    for action in ["declarer A", "contract C", "igra no", "d1 pass", "d2 play", "kontra none", "tricks 7", "confirm"]:
        s, events = step(s, action)
    scored = next(e for e in events if e["type"] == "deal_scored")
    assert scored["sheet"]["settlement"] == [32, -38, 6]
    assert S.view(s, None)["sheet"]["settlement"] == [32, -38, 6]
    data = S.dump(s)
    assert S.dump(S.load(data)) == data


def test_only_valid_choices_are_offered():
    s = started()
    s, _ = step(s, "declarer A")
    assert S.legal_actions(s, 1) == [f"contract {c}" for c in ("S", "D", "H", "C", "BETTEL", "SANS")] + ["cancel"]
    s, _ = step(s, "contract BETTEL")
    s, _ = step(s, "igra no")
    assert s.pending["step"] == "kontra"  # bettel: both defenders always play
    assert S.legal_actions(s, 0) == ["kontra none", "kontra B", "kontra C", "kontra both", "cancel"]
    s, _ = step(s, "kontra none")
    assert S.legal_actions(s, 0) == ["tricks 0", "tricks 1", "cancel"]
    s, _ = step(s, "tricks 1")
    assert S.legal_actions(s, 0)[-2:] == ["tricks 9", "cancel"]
    s, _ = step(s, "tricks 4")
    assert S.legal_actions(s, 0)[-2:] == ["tricks 5", "cancel"]
    with pytest.raises(EngineError):
        S.apply(s, 0, "tricks 6")
    s, _ = step(s, "tricks 0")
    s, _ = step(s, "confirm")
    assert s.pull.contract[0] == -42 and s.pull.soups[1][0] == 60
    # d2 invite only after d1 passed; an invited defender cannot kontra; the "two" is not played
    s, _ = step(s, "declarer B")
    s, _ = step(s, "contract S")
    s, _ = step(s, "igra no")
    s, _ = step(s, "d1 play")
    assert "d2 invite" not in S.legal_actions(s, 0)
    s, _ = step(s, "d2 play")
    s, _ = step(s, "kontra none")
    assert s.pending["step"] == "confirm" and s.pending["tricks"] is None
    s, _ = step(s, "cancel")
    s, _ = step(s, "declarer B")
    s, _ = step(s, "contract H")
    s, _ = step(s, "igra yes")
    s, _ = step(s, "d1 pass")
    s, _ = step(s, "d2 invite")
    assert S.legal_actions(s, 0) == ["kontra none", "kontra A", "cancel"]
    s, _ = step(s, "kontra A")
    assert S.legal_actions(s, 0)[:2] == ["level 1", "level 2"] and "level 8" in S.legal_actions(s, 0)
    s, _ = step(s, "level 2")
    s, _ = step(s, "tricks 7")
    s, _ = step(s, "tricks 2")  # C (invited) took 2, A 1
    s, _ = step(s, "confirm")
    assert s.pull.contract[1] == -30 + 10 * 4 and s.pull.contract[0] == -42 - 40
    assert s.pull.soups[0][1] == 3 * 10 * 4


def test_kontra_level_cap_and_lone_kontra():
    s = started(allow_subkontra=False)
    for action in ["declarer A", "contract C", "igra no", "d1 play", "d2 pass", "kontra B"]:
        s, _ = step(s, action)
    assert S.legal_actions(s, 0) == ["level 1", "level 2", "cancel"]
    s, _ = step(s, "level 1")
    assert s.pending["defence"] == {"1": "invite", "2": "invited"}
    s = started(max_kontra_level=1)
    for action in ["declarer A", "contract C", "igra no", "d1 play", "d2 play", "kontra both"]:
        s, _ = step(s, action)
    assert s.pending["step"] == "tricks" and s.pending["level"] == 1


def test_undo_and_cancel():
    s = started()
    s, _ = step(s, "allpass")
    s, _ = step(s, "confirm")
    assert s.pull.refe == (1, 1, 1)
    for action in ["declarer A", "contract C", "igra no", "d1 pass", "d2 pass"]:
        s, _ = step(s, action)
    s, _ = step(s, "confirm")
    assert s.pull.contract[0] == -10 and s.pull.refe == (0, 1, 1)
    assert "undo" in S.legal_actions(s, 2)
    s, events = step(s, "undo", seat=2)
    assert any(e["type"] == "entry_undone" for e in events)
    assert s.pull.contract[0] == -30 and s.pull.refe == (1, 1, 1) and len(s.entries) == 1
    s, _ = step(s, "undo")
    assert s.entries == [] and "undo" not in S.legal_actions(s, 0)
    s, _ = step(s, "declarer C")
    s, _ = step(s, "cancel")
    assert s.pending is None and s.entries == []


def test_the_sheet_ends_at_zero_and_forfeit():
    s = started(bula=4)
    for _ in range(2):
        for action in ["declarer A", "contract C", "igra no", "d1 pass", "d2 pass", "confirm"]:
            s, events = step(s, action)
    assert S.is_over(s) and S.result(s)["finished"] and s.pull.total == 0
    assert any(e["type"] == "game_over" for e in events)
    assert S.legal_actions(s, 0) == [] and S.to_act(s) == []
    s = started()
    s, _ = S.apply(s, None, "forfeit 2")
    assert S.is_over(s) and S.result(s)["forfeit"] == 2 and s.pull.contract[2] == -60
    with pytest.raises(EngineError):
        S.apply(started(), 0, "start")


def test_same_sheet_as_the_played_engine():
    """Random pulkas of the played engine, entered row by row in the wizard, give the
    same sheet; and the record format gives the same numbers again."""
    for seed in range(500, 530):
        opts, state, _, _ = play_pulka(seed, max_hands=15, policy_mix=0.4, junk_every=0)
        s = S.initial_state(opts, 3)
        s, _ = S.apply(s, None, "start")
        for row in state.pull.rows:
            s, _ = enter_row(s, row, seat=seed % 3)
        assert s.pull.contract == state.pull.contract and s.pull.soups == state.pull.soups
        assert s.pull.refe == state.pull.refe and s.pull.hats == state.pull.hats
        assert S.is_over(s) == state.pull.finished
        record = {
            "game": "preferans",
            "options": opts.model_dump(),
            "players": ["A", "B", "C"],
            "hands": [record_hand(row) for row in state.pull.rows],
        }
        out = score(record)
        assert [out["players"][p]["contract"] for p in "ABC"] == S.view(s, None)["sheet"]["contract"]
        assert list(out["settlement"].values()) == S.view(s, None)["sheet"]["settlement"]


def record_hand(row):
    if row["type"] == "all_pass":
        return {"all_pass": True}
    h = {
        "declarer": LETTERS[row["declarer"]],
        "contract": NAME_OF[row["number"]],
        "igra": row["igra"],
        "defence": {LETTERS[int(k)]: v for k, v in row["defence"].items()},
        "tricks": None if row["tricks"] is None else dict(zip(LETTERS, row["tricks"])),
    }
    if row["kontra"]:
        h["kontra"] = {"by": [LETTERS[k] for k in row["kontra"]], "level": row["level"]}
    return h
