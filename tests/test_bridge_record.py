"""``cardbot score`` for rubber bridge (docs/rules/records.md §2): the example record, the
JSON shape, several rubbers, incomplete rubbers, options, and malformed records."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from engine.games.bridge.record import score, text
from engine.score import ScoreError
from engine.score import score as dispatch_score

EXAMPLE = {
    "game": "bridge",
    "options": {"preset": "seed"},
    "deals": [
        {"declarer": "N", "contract": "2H", "tricks": 10},
        {"declarer": "E", "contract": "4SX", "tricks": 8},
        {"passed_out": True},
        {"declarer": "S", "contract": "6NTXX", "tricks": 12, "honours": {"side": "EW", "held": 4}},
    ],
}


def test_records_md_example():
    out = dispatch_score(EXAMPLE)
    assert out["game"] == "bridge"
    # deal 1 exactly as records.md shows it: 2H+2 -> 60 below, 60 above
    assert out["deals"][0] == {
        "n": 1,
        "rubber": 1,
        "passed_out": False,
        "NS": {"above": 60, "below": 60},
        "EW": {"above": 0, "below": 0},
    }
    # 4SX -2 not vulnerable: 100 + 200 to NS
    assert out["deals"][1]["NS"] == {"above": 300, "below": 0}
    assert out["deals"][2] == {
        "n": 3,
        "rubber": 1,
        "passed_out": True,
        "NS": {"above": 0, "below": 0},
        "EW": {"above": 0, "below": 0},
    }
    # 6NTXX = 12 tricks: 190 x 4 = 760 below; insult 50 (seed), small slam 500, game premium 100;
    # EW's four aces 150
    assert out["deals"][3] == {
        "n": 4,
        "rubber": 1,
        "passed_out": False,
        "NS": {"above": 650, "below": 760},
        "EW": {"above": 150, "below": 0},
    }
    # records.md's output block shows the format (its totals belong to a longer record)
    assert out["rubbers"] == [
        {
            "complete": False,
            "games": {"NS": 1, "EW": 0},
            "totals": {"NS": 1830, "EW": 150},
            "settlement": {"NS": 17, "EW": -17},
        }
    ]
    assert out["vulnerable"] == {"NS": True, "EW": False}
    assert set(out) >= {"game", "deals", "rubbers", "vulnerable"}


def test_acbl_preset_changes_the_insult():
    out = score({**EXAMPLE, "options": {"preset": "acbl"}})
    # XX insult 100, no per-game premium
    assert out["deals"][3]["NS"] == {"above": 100 + 500, "below": 760}


def test_complete_rubber_then_a_new_one():
    deals = [
        {"declarer": "N", "contract": "4S", "tricks": 10},
        {"declarer": "E", "contract": "3NT", "tricks": 9},
        {"declarer": "S", "contract": "5C", "tricks": 11},
        {"declarer": "W", "contract": "1NT", "tricks": 7},
    ]
    out = score({"game": "bridge", "deals": deals})
    first, second = out["rubbers"]
    assert first["complete"] and first["games"] == {"NS": 2, "EW": 1}
    assert first["bonus"] == {"side": "NS", "points": 500}
    # NS: 120 + 100 + 100 + 100 + 500; EW: 100 + 100
    assert first["totals"] == {"NS": 920, "EW": 200} and first["settlement"] == {"NS": 7, "EW": -7}
    assert out["deals"][2]["NS"] == {"above": 600, "below": 100}  # game premium + rubber bonus
    assert not second["complete"] and second["totals"] == {"NS": 0, "EW": 40}
    assert out["deals"][3]["rubber"] == 2 and out["vulnerable"] == {"NS": False, "EW": False}


def test_rubber_complete_at_the_end_leaves_nobody_vulnerable():
    deals = [{"declarer": "N", "contract": "4S", "tricks": 10}] * 2
    out = score({"game": "bridge", "deals": deals})
    assert len(out["rubbers"]) == 1 and out["rubbers"][0]["bonus"]["points"] == 700
    assert out["vulnerable"] == {"NS": False, "EW": False}


def test_unfinished_bonus_and_rounding_options():
    deals = [{"declarer": "N", "contract": "4S", "tricks": 10}, {"declarer": "E", "contract": "2C", "tricks": 8}]
    out = score({"game": "bridge", "options": {"unfinished_rubber_bonus": True}, "deals": deals})
    rubber = out["rubbers"][0]
    assert rubber["unfinished_bonus"] == [
        {"side": "NS", "points": 300, "kind": "unfinished_game"},
        {"side": "EW", "points": 100, "kind": "unfinished_part"},
    ]
    assert rubber["totals"] == {"NS": 120 + 100 + 300, "EW": 40 + 100}
    exact = score({"game": "bridge", "options": {"rounding": "none"}, "deals": deals})
    assert exact["rubbers"][0]["settlement"] == {"NS": "9/5", "EW": "-9/5"}  # 180 / 100
    more = deals[:1] + [{"declarer": "N", "contract": "1NT", "tricks": 8}]  # 220 + 70 = 290
    assert (
        score({"game": "bridge", "options": {"rounding": "down"}, "deals": more})["rubbers"][0]["settlement"]["NS"] == 2
    )
    assert score({"game": "bridge", "deals": more})["rubbers"][0]["settlement"]["NS"] == 3


@pytest.mark.parametrize(
    "deal,entry,words",
    [
        ({"declarer": "N", "contract": "4S", "tricks": 14}, 2, "tricks"),
        ({"declarer": "N", "contract": "4S", "tricks": -1}, 2, "tricks"),
        ({"declarer": "N", "contract": "4S", "tricks": True}, 2, "tricks"),
        ({"declarer": "N", "contract": "8S", "tricks": 7}, 2, "contract"),
        ({"declarer": "N", "contract": "4Z", "tricks": 7}, 2, "contract"),
        ({"declarer": "X", "contract": "4S", "tricks": 7}, 2, "declarer"),
        ({"contract": "4S", "tricks": 7}, 2, "declarer"),
        ({"declarer": "N", "contract": "3NT", "tricks": 9, "honours": {"side": "NS", "held": 5}}, 2, "aces"),
        ({"declarer": "N", "contract": "3H", "tricks": 9, "honours": {"side": "NS", "held": 3}}, 2, "honours"),
        ({"declarer": "N", "contract": "3H", "tricks": 9, "honours": {"side": "N", "held": 4}}, 2, "side"),
        ({"passed_out": True, "tricks": 3}, 2, "passed-out"),
        ({"declarer": "N", "contract": "3H", "tricks": 9, "trick": 9}, 2, "unknown"),
        ("4S by N", 2, "object"),
    ],
)
def test_malformed_records(deal, entry, words):
    record = {"game": "bridge", "deals": [{"passed_out": True}, deal]}
    with pytest.raises(ScoreError) as info:
        score(record)
    assert info.value.entry == entry and words in info.value.message


def test_malformed_record_itself():
    for record, words in (
        (["x"], "object"),
        ({"game": "bridge"}, "deals"),
        ({"game": "bridge", "deals": [], "options": {"preset": "x"}}, "preset"),
        ({"game": "bridge", "deals": [], "options": []}, "options"),
    ):
        with pytest.raises(ScoreError) as info:
            score(record)
        assert info.value.entry == 0 and words in str(info.value)


def test_text_is_the_posted_sheet():
    sheet = text(EXAMPLE, "en")
    lines = sheet.splitlines()
    assert lines[0] == "Rubber 1"
    assert "We │ They" in lines[1]
    assert any(line.startswith("Total") and line.split()[-3:] == ["1830", "│", "150"] for line in lines)
    assert "The rubber is not finished" in sheet and "We are ahead by 1680 points; in units of 100: 17." in sheet
    ru = text(EXAMPLE, "ru")
    assert ru.startswith("Роббер 1") and "Мы │ Они" in ru


def test_cli_score(tmp_path, capsys):
    path = tmp_path / "rubber.json"
    path.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    assert main(["score", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rubbers"][0]["totals"] == {"NS": 1830, "EW": 150}
    assert main(["score", "--text", "--lang", "en", str(path)]) == 0
    assert "Rubber 1" in capsys.readouterr().out
    bad = dict(EXAMPLE, deals=EXAMPLE["deals"] + [{"declarer": "N", "contract": "2H", "tricks": 14}])
    path.write_text(json.dumps(bad), encoding="utf-8")
    assert main(["score", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "entry 5" in captured.err
