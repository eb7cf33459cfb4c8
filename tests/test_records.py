"""Game records: replay, the first bad action, the example file, self-play."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from engine.base import get_game
from engine.records import RecordError, main, make_record, replay
from engine.selfplay import selfplay

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "durak_game.json"
G = get_game("durak")


def example() -> dict:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


def test_example_record_replays():
    out = replay(example())
    assert out["game"] == "durak" and out["players"] == 3
    assert out["actions"] == len(example()["actions"])
    assert out["result"] == out["final"]["result"] and out["final"]["phase"] == "over"
    durak = out["result"]["durak"]
    assert [bool(h) for h in out["final"]["hands"]] == [i == durak for i in range(3)]
    assert out["final"]["seat"] is None and "hand" not in out["final"]


def test_dict_and_string_entries_are_the_same():
    rec = example()
    as_dicts = dict(rec)
    entries = []
    for a in rec["actions"]:
        if ":" in a.split()[0]:
            seat, text = a.split(":", 1)
            entries.append({"seat": int(seat), "action": text.strip()})
        else:
            entries.append({"seat": None, "action": a})
    as_dicts["actions"] = entries
    assert replay(as_dicts) == replay(rec)


def test_bad_action_is_named():
    rec = example()
    bad = copy.deepcopy(rec)
    # the first beat covers with the turned trump card, which lies under the stock
    trump_card = bad["actions"][0].split()[3 + 18]
    i = next(k for k, a in enumerate(bad["actions"]) if ": beat " in a)
    seat, rest = bad["actions"][i].split(": ", 1)
    attack = rest.split()[1]
    text = f"beat {attack} {trump_card}"
    bad["actions"][i] = f"{seat}: {text}"
    with pytest.raises(RecordError) as info:
        replay(bad)
    e = info.value
    assert e.index == i and e.action == text and e.code == "not_in_hand"
    assert str(e) == f"action {i} ({text!r}): You do not hold {trump_card}."
    # everything before it was fine: the same record cut there replays
    bad["actions"] = bad["actions"][:i]
    assert replay(bad)["actions"] == i


def test_out_of_turn_and_garbage_entries():
    rec = example()
    wrong = copy.deepcopy(rec)
    seat, rest = wrong["actions"][1].split(": ", 1)
    wrong["actions"][1] = f"{(int(seat) + 1) % 3}: {rest}"
    with pytest.raises(RecordError) as info:
        replay(wrong)
    assert info.value.index == 1 and info.value.code == "not_your_turn"
    junk = copy.deepcopy(rec)
    junk["actions"][2] = 17
    with pytest.raises(RecordError) as info:
        replay(junk)
    assert info.value.index == 2
    late = copy.deepcopy(rec)
    late["actions"].append("0: attack 7S")
    with pytest.raises(RecordError) as info:
        replay(late)
    assert info.value.index == len(rec["actions"]) and info.value.code == "game_over"
    nodeal = copy.deepcopy(rec)
    nodeal["actions"] = nodeal["actions"][1:]
    with pytest.raises(RecordError) as info:
        replay(nodeal)
    assert info.value.index == 0


@pytest.mark.parametrize(
    "change",
    [
        {"game": "chess"},
        {"players": 9},
        {"options": {"deck_size": 40}},
        {"options": {"colour": "red"}},
        {"actions": "deal"},
        {"rules_version": 99},
    ],
)
def test_malformed_records(change):
    rec = example()
    rec.update(change)
    with pytest.raises(RecordError) as info:
        replay(rec)
    assert info.value.index is None and str(info.value)


def test_cli(tmp_path, capsys):
    assert main([str(EXAMPLE)]) == 0
    assert json.loads(capsys.readouterr().out)["result"]["durak"] in (0, 1, 2)
    bad = example()
    bad["actions"][3] = "0: take"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    assert main([str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("action 3 ")
    assert len(captured.err.strip().splitlines()) == 1


def test_make_record_round_trip():
    rng = random.Random(4)
    o = G.Options(base_game="perevodnoy", blind_beating=True)
    s = G.initial_state(o, 2)
    log = [(None, G.new_deal(o, 2, rng, []))]
    s, _ = G.apply(s, None, log[0][1])
    while not G.is_over(s):
        seat = G.to_act(s)[0]
        a = rng.choice(G.legal_actions(s, seat))
        s, _ = G.apply(s, seat, a)
        log.append((seat, a))
    rec = json.loads(json.dumps(make_record("durak", 2, o, log)))
    out = replay(rec)
    assert out["result"] == G.result(s) and out["actions"] == len(log)


def test_selfplay_is_deterministic():
    a = selfplay("durak", 30, 7, players=3)
    b = selfplay("durak", 30, 7, players=3)
    assert a["games"] == 30 and a["actions"] == b["actions"] and a["results"] == b["results"]
    assert a["games_per_second"] > 0 and len(a["results"]) == 30
    r = selfplay("durak", 10, 1, players=4, options={"base_game": "perevodnoy"}, policy="random")
    assert r["games"] == 10 and all(("durak" in x) != ("draw" in x) for x in r["results"])
