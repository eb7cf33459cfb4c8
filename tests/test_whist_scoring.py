"""Whist scoring (rules §5–§6) through the shared Sheet, the score record of records.md
and ``cardbot score``: game values, premiums, honours, the order of writing, options."""

from __future__ import annotations

import json

import pytest

from bot.cli import main as cli
from engine.score import ScoreError
from engine.score import score as any_score
from engine.games.whist.options import WhistOptions
from engine.games.whist.record import score, text
from engine.games.whist.scoring import EntryError, Sheet, game_value


def e(ns_tricks: int, ns_honours: int, honours: int = 5) -> dict:
    return {
        "tricks": {"NS": ns_tricks, "EW": 13 - ns_tricks},
        "honours": {"NS": ns_honours, "EW": honours - ns_honours},
    }


def sheet(*entries, **options) -> Sheet:
    return Sheet.replay(WhistOptions(**options), list(entries))


# ------------------------------------------------------------------ one deal
def test_two_points_a_trick_over_six_and_honours_in_tricks():
    s = sheet(e(9, 3))
    assert s.deals[0]["tricks"] == {"NS": 6, "EW": 0}
    assert s.deals[0]["honours"] == {"NS": 2, "EW": 0}
    assert s.current == {"NS": 8, "EW": 0}
    s = sheet(e(7, 1))  # 4 honours to EW: 4 points
    assert s.current == {"NS": 2, "EW": 4}
    s = sheet(e(2, 0))  # EW 11 tricks (10) + 5 honours (6): game
    assert s.games[0]["winner"] == "EW" and s.deals[0]["EW"] == 16


def test_game_values_single_double_triple():
    # triple: the losers have nothing
    s = sheet(e(12, 5))
    assert s.games[0] == {"winner": "NS", "value": 3, "points": {"NS": 18, "EW": 0}, "rubber": 1, "n": 1, "deal": 1}
    # double: 1..4
    s = sheet(e(6, 3), e(11, 3))  # EW 2, NS 2; then NS 10+2
    assert s.games[0]["value"] == 2 and s.games[0]["points"] == {"NS": 14, "EW": 2}
    # single: 5 or more
    s = sheet(e(4, 2), e(11, 3))  # EW 6 (tricks 3*2=6), then NS 10 + 2
    assert s.games[0]["value"] == 1
    assert [game_value(WhistOptions(), n) for n in (0, 1, 4, 5, 9)] == [3, 2, 2, 1, 1]
    assert game_value(WhistOptions(triple_at_zero=False), 0) == 2


def test_tricks_score_first_and_the_other_sides_honours_are_dropped():
    # NS take 12 tricks (12 points, game); EW hold 3 honours in their one trick: dropped
    s = sheet(e(12, 2))
    d = s.deals[0]
    assert d["dropped"] == {"side": "EW", "points": 2} and d["EW"] == 0
    assert s.games[0]["value"] == 3  # the losers still have 0
    # with honours_after_game_out they are written and the game is only a double
    s = sheet(e(12, 2), honours_after_game_out=True)
    assert s.deals[0]["EW"] == 2 and s.games[0]["value"] == 2
    # the trick side's own honours are written even though they change nothing
    s = sheet(e(12, 5))
    assert s.deals[0]["NS"] == 12 + 6


def test_a_game_won_by_honours_alone():
    s = sheet(e(9, 3))  # NS 8
    s.add(e(6, 3))  # EW 7 tricks: 2; NS 3 honours: 10 -> game by honours
    assert s.games[0]["winner"] == "NS" and s.games[0]["points"] == {"NS": 10, "EW": 2}
    assert s.games[0]["value"] == 2 and s.current == {"NS": 0, "EW": 0}


def test_points_over_ten_are_lost_and_both_restart():
    s = sheet(e(13, 5), e(7, 3))
    assert s.games[0]["points"]["NS"] == 20
    assert s.current == {"NS": 4, "EW": 0}


def test_rubber_premiums_short_and_long_and_totals():
    short = sheet(e(12, 5), e(12, 5))
    r = short.rubbers[0]
    assert (r["winner"], r["premium"], r["games"], r["total"]) == ("NS", 5, {"NS": 2, "EW": 0}, {"NS": 11, "EW": 0})
    assert r["credited"] == {"NS": 11, "EW": 0}
    long = sheet(e(12, 5), e(1, 0), e(6, 3), e(12, 5))  # NS ×3, EW ×3, then NS ×2
    r = long.rubbers[0]
    assert r["games"] == {"NS": 2, "EW": 1} and r["premium"] == 3
    assert r["total"] == {"NS": 3 + long.games[2]["value"] + 3, "EW": 3}
    assert r["credited"] == {"NS": r["total"]["NS"], "EW": 0}  # no deduction in seed


def test_deduct_loser_games_and_the_match_balance():
    s = sheet(e(12, 5), e(1, 0), e(12, 5), deduct_loser_games=True)
    r = s.rubbers[0]
    assert r["credited"] == {"NS": r["total"]["NS"] - r["total"]["EW"], "EW": 0}
    assert s.balance["NS"] + s.balance["EW"] == 0
    assert s.players() == [s.balance["NS"], s.balance["EW"], s.balance["NS"], s.balance["EW"]]


def test_match_ends_at_the_agreed_number_of_rubbers():
    s = sheet(e(12, 5), e(12, 5), match_rubbers_to_win=1)
    assert s.finished and s.winner == "NS"
    with pytest.raises(EntryError, match="already over"):
        s.add(e(7, 3))
    s = sheet(e(12, 5), e(12, 5), e(0, 0), e(0, 0), match_rubbers_to_win=2)
    assert not s.finished and s.rubbers_won == {"NS": 1, "EW": 1}
    assert s.balance == {"NS": 0, "EW": 0}


def test_classical_held_honours_barred_and_short_game():
    # classical_long: 1 point a trick, held honours AKQJ, 2-2 scores nothing
    s = sheet(e(8, 2, honours=4), preset="classical_long")
    assert s.current == {"NS": 2, "EW": 0}
    s = sheet(e(8, 3, honours=4), preset="classical_long")
    assert s.current == {"NS": 4, "EW": 0}
    # a side at 9 or more cannot score honours (honours_barred_from = 9)
    s = sheet(e(12, 3, honours=4), e(7, 4, honours=4), preset="classical_long")
    # deal 1: 6 + 2 = 8; deal 2: NS 1 -> 9 ... honours start-of-deal score 8 < 9 so +4 -> game
    assert s.games and s.games[0]["points"]["NS"] == 13
    s = sheet(e(12, 4, honours=4), e(6, 4, honours=4), preset="classical_long")  # 6+4=10 game
    assert s.games[0]["points"]["NS"] == 10
    s = sheet(e(13, 2, honours=4), e(7, 4, honours=4), preset="classical_long")
    # deal 1: 7 (2-2 no honours); deal 2: 7+1 = 8 then honours 4 -> 12
    assert s.games[0]["points"] == {"NS": 12, "EW": 0}
    s = sheet(e(13, 2, honours=4), e(8, 2, honours=4), e(6, 4, honours=4), preset="classical_long")
    # 7, 9; then at 9 NS are barred: EW 1 trick point only
    assert s.deals[2]["barred"] == "NS" and s.current == {"NS": 9, "EW": 1}
    # classical_short: game to 5, double below 3
    s = sheet(e(9, 2, honours=4), e(9, 2, honours=4), preset="classical_short")
    assert s.games[0]["points"] == {"NS": 6, "EW": 0} and s.games[0]["value"] == 3


def test_bad_entries_are_refused_with_a_reason():
    s = Sheet(WhistOptions())
    for bad, reason in [
        ({"tricks": {"NS": 7, "EW": 7}, "honours": {"NS": 3, "EW": 2}}, "not 13"),
        ({"tricks": {"NS": 13, "EW": 0}, "honours": {"NS": 4, "EW": 1}}, "cannot hold"),
        ({"tricks": {"NS": 7, "EW": 6}, "honours": {"NS": 4, "EW": 2}}, "not 5"),
        ({"tricks": {"NS": 7, "EW": 6}}, "honours are missing"),
        ({"tricks": {"NS": -1, "EW": 14}, "honours": {"NS": 3, "EW": 2}}, "≥ 0"),
        ({"tricks": {"NS": 7}, "honours": {"NS": 3, "EW": 2}}, "NS and EW"),
        ("7-6", "an object"),
    ]:
        with pytest.raises(EntryError, match=reason):
            s.add(bad)
    assert s.entries == [] and s.current == {"NS": 0, "EW": 0}


# ------------------------------------------------------------------ the record
EXAMPLE = {"game": "whist", "options": {}, "deals": [{"tricks": {"NS": 9, "EW": 4}, "honours": {"NS": 3, "EW": 2}}]}
EXAMPLE_GAMES = [{"winner": "NS", "value": 2, "points": {"NS": 10, "EW": 2}}]
EXAMPLE_RUBBERS = [{"complete": True, "winner": "NS", "premium": 5, "total": {"NS": 9, "EW": 0}}]


def test_records_md_example():
    out = any_score(EXAMPLE)
    assert out["game"] == "whist"
    assert out["deals"] == [{**out["deals"][0], "n": 1, "NS": 8, "EW": 0}]
    assert {"deals", "games", "rubbers", "current"} <= set(out)
    assert out["current"] == {"NS": 8, "EW": 0} and out["games"] == []
    # the example's games and rubbers belong to a longer record: its first deal, then
    # EW 7 tricks with our 3 honours (10:2, a double), then a second double game
    longer = dict(EXAMPLE, deals=EXAMPLE["deals"] + [e(6, 3), e(6, 2), e(11, 3)])
    out = score(longer)
    assert out["deals"][0] == {**out["deals"][0], "n": 1, "NS": 8, "EW": 0}
    for want, got in zip(EXAMPLE_GAMES, out["games"]):
        assert {k: got[k] for k in want} == want
    assert [{k: r[k] for k in EXAMPLE_RUBBERS[0]} for r in out["rubbers"]] == EXAMPLE_RUBBERS
    assert out["current"] == {"NS": 0, "EW": 0}
    assert out["match"]["balance"] == {"NS": 9, "EW": -9}


def test_record_text_is_the_posted_sheet():
    longer = dict(EXAMPLE, deals=EXAMPLE["deals"] + [e(6, 3), e(6, 2), e(11, 3)])
    sheet_en = text(longer, "en")
    assert sheet_en.splitlines()[:5] == [
        "Whist — score sheet",
        "Rubber 1",
        "  #│ We (N–S) │They (E–W)",
        "   │ tr hn   =│ tr hn   =",
        "  1│  6  2   8│  ·  ·   0",
    ]
    assert "─── game 1: We ×2 (10:2)" in sheet_en
    assert "═══ rubber 1: We 2:0, premium 5" in sheet_en and "totals: We 9 · They 0" in sheet_en
    assert "Rubber 1" in text(EXAMPLE, "en") and "Роббер 1" in text(EXAMPLE, "ru")
    assert text({"game": "whist", "deals": []}, "ru").endswith("Матч: робберы 0:0 (до 10)\nв зачёт 0:0")


def test_bad_records_name_the_entry():
    with pytest.raises(ScoreError) as info:
        score({"game": "whist", "deals": [e(7, 3), {"tricks": {"NS": 8, "EW": 6}, "honours": {"NS": 3, "EW": 2}}]})
    assert info.value.entry == 2 and "not 13" in info.value.message
    with pytest.raises(ScoreError) as info:
        score({"game": "whist", "options": {"preset": "nope"}, "deals": []})
    assert info.value.entry == 0
    with pytest.raises(ScoreError) as info:
        score({"game": "whist", "options": {"match_rubbers_to_win": 1}, "deals": [e(12, 5), e(12, 5), e(7, 3)]})
    assert info.value.entry == 3 and "over" in info.value.message
    with pytest.raises(ScoreError):
        score({"game": "whist", "deals": "none"})


def test_cardbot_score_command(tmp_path, capsys):
    good = tmp_path / "w.json"
    good.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    assert cli(["score", str(good)]) == 0
    assert json.loads(capsys.readouterr().out)["deals"][0]["NS"] == 8
    assert cli(["score", "--text", "--lang", "en", str(good)]) == 0
    assert capsys.readouterr().out.startswith("Whist — score sheet\nRubber 1")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "whist", "deals": [e(7, 3), e(14, 3)]}), encoding="utf-8")
    assert cli(["score", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "entry 2" in captured.err and captured.err.count("\n") == 1
