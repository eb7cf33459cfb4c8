"""Rubber bridge scoring (docs/rules/bridge.md §5–§7): the tables of both presets, one
deal's entries, the sheet of a rubber (games, vulnerability, rubber bonus) and the
settlement."""

from __future__ import annotations

import itertools
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from engine.games.bridge.options import PRESETS, BridgeOptions, parse_options, scoring_table
from engine.games.bridge.scoring import (
    Contract,
    Sheet,
    deal_items,
    honours_held,
    honours_points,
    parse_contract,
    trick_points,
    undertrick_points,
    units,
)
from engine.errors import BadOptions

SEED, ACBL = scoring_table({"preset": "seed"}), scoring_table({"preset": "acbl"})
RULES = Path(__file__).parent.parent / "docs" / "rules" / "bridge.md"


def c(text: str) -> Contract:
    return parse_contract(text)


def by_kind(items):
    out = {}
    for item in items:
        out[item["kind"]] = out.get(item["kind"], 0) + item["points"]
    return out


def test_presets_are_the_rules_json():
    text = RULES.read_text(encoding="utf-8")
    block = re.search(r"```json\n(\{.*?\})\n```", text, re.S).group(1)
    assert json.loads(block) == PRESETS


def test_parse_contract():
    assert c("4S") == Contract(4, "S", 0) and str(c("4S")) == "4S"
    assert c("3NT") == Contract(3, "NT", 0) and c("6HXX") == Contract(6, "H", 2)
    assert c("7NTX") == Contract(7, "NT", 1) and c("1C").need == 7
    for bad in ("8S", "0H", "4", "4Z", "4SXXX", "NT3", "", None, 4, "4sx"):
        with pytest.raises(ValueError):
            parse_contract(bad)


@pytest.mark.parametrize("level", range(1, 8))
def test_trick_points(level):
    for strain, per in (("C", 20), ("D", 20), ("H", 30), ("S", 30)):
        for doubling, f in ((0, 1), (1, 2), (2, 4)):
            assert trick_points(Contract(level, strain, doubling)) == per * level * f
    for doubling, f in ((0, 1), (1, 2), (2, 4)):
        assert trick_points(Contract(level, "NT", doubling)) == (40 + 30 * (level - 1)) * f
    # the §5.1 per-trick table: NT first trick 40/80/160, later 30/60/120
    assert trick_points(c("1NTXX")) == 160 and trick_points(c("2NTXX")) == 280


def test_overtricks_undoubled_doubled_redoubled():
    assert by_kind(deal_items(c("2C"), 10, False, SEED))["overtricks"] == 40
    assert by_kind(deal_items(c("2D"), 10, True, SEED))["overtricks"] == 40
    assert by_kind(deal_items(c("2H"), 10, False, SEED))["overtricks"] == 60
    assert by_kind(deal_items(c("1NT"), 9, False, SEED))["overtricks"] == 60  # 30, never 40
    for table in (SEED, ACBL):
        assert by_kind(deal_items(c("2CX"), 10, False, table))["overtricks"] == 200
        assert by_kind(deal_items(c("2CX"), 10, True, table))["overtricks"] == 400
        assert by_kind(deal_items(c("2SXX"), 10, False, table))["overtricks"] == 400
        assert by_kind(deal_items(c("2SXX"), 10, True, table))["overtricks"] == 800


def test_made_contract_entries_and_insult():
    items = deal_items(c("4SX"), 10, False, SEED)
    assert [(i["to"], i["line"], i["kind"], i["points"]) for i in items] == [
        ("declarer", "below", "contract", 240),
        ("declarer", "above", "insult", 50),
    ]
    assert by_kind(deal_items(c("4SXX"), 10, False, SEED))["insult"] == 50
    assert by_kind(deal_items(c("4SXX"), 10, False, ACBL))["insult"] == 100
    assert "insult" not in by_kind(deal_items(c("4S"), 10, False, SEED))
    assert by_kind(deal_items(c("3NT"), 9, True, SEED)) == {"contract": 100}


@pytest.mark.parametrize("table,small,grand", [(SEED, (500, 700), (750, 1500)), (ACBL, (500, 750), (1000, 1500))])
def test_slams(table, small, grand):
    for vul, i in ((False, 0), (True, 1)):
        for doubling in ("", "X", "XX"):  # slam premiums do not depend on doubling
            assert by_kind(deal_items(c("6H" + doubling), 12, vul, table))["small_slam"] == small[i]
            assert by_kind(deal_items(c("7NT" + doubling), 13, vul, table))["grand_slam"] == grand[i]
    assert "small_slam" not in by_kind(deal_items(c("5H"), 12, False, table))  # not bid
    assert "small_slam" not in by_kind(deal_items(c("6H"), 11, False, table))  # not made


UNDER = {  # (table, vulnerable, doubling) -> values of undertricks 1..7 (cumulative)
    ("seed", False, 0): [50, 100, 150, 200, 250, 300, 350],
    ("seed", True, 0): [100, 200, 300, 400, 500, 600, 700],
    ("seed", False, 1): [100, 300, 500, 700, 900, 1100, 1300],
    ("acbl", False, 1): [100, 300, 500, 800, 1100, 1400, 1700],
    ("seed", True, 1): [200, 500, 800, 1100, 1400, 1700, 2000],
    ("acbl", True, 1): [200, 500, 800, 1100, 1400, 1700, 2000],
    ("seed", False, 2): [200, 600, 1000, 1400, 1800, 2200, 2600],
    ("acbl", False, 2): [200, 600, 1000, 1600, 2200, 2800, 3400],
    ("seed", True, 2): [400, 1000, 1600, 2200, 2800, 3400, 4000],
}


@pytest.mark.parametrize("key", sorted(UNDER, key=str))
def test_undertricks(key):
    preset, vul, doubling = key
    table = scoring_table({"preset": preset})
    for down, value in enumerate(UNDER[key], start=1):
        contract = Contract(7, "S", doubling)
        assert undertrick_points(contract, down, vul, table) == value
        items = deal_items(contract, 13 - down, vul, table)
        assert items == [{"to": "defenders", "line": "above", "kind": "undertricks", "points": value}]


def test_honours():
    assert honours_points("H", 4, SEED) == 100 and honours_points("S", 5, SEED) == 150
    assert honours_points("NT", 4, SEED) == 150
    with pytest.raises(ValueError):
        honours_points("NT", 5, SEED)
    with pytest.raises(ValueError):
        honours_points("H", 3, SEED)
    hands = [["AH", "KH", "QH", "JH", "2C"], ["TH", "AS", "AC", "AD"], [], ["3H", "AH"]]
    assert honours_held("H", hands) == (0, 4)
    assert honours_held("S", hands) is None
    hands = [["AH", "KH", "QH", "JH", "TH"], ["AS", "AC", "AD", "2H"], [], []]
    assert honours_held("H", hands) == (0, 5)
    assert honours_held("NT", [["AS"], ["AH", "AC", "AD", "AS"], [], []]) == (1, 4)
    assert honours_held("NT", [["AS", "AH", "AC"], ["AD"], [], []]) is None


def test_units_rounding():
    # invariant 10: |d| = 150 -> 2, 149 -> 1, 50 -> 1, 49 -> 0 (never banker's rounding)
    for d, k in ((150, 2), (149, 1), (50, 1), (49, 0), (250, 3), (0, 0), (1680, 17)):
        assert units(d, "half_up") == k and units(-d, "half_up") == -k
    assert units(199, "down") == 1 and units(-199, "down") == -1
    assert units(1680, "none") == Fraction(84, 5) and units(300, "none") == 3


# ------------------------------------------------------------------------- the sheet
def test_game_closes_both_partscores_and_vulnerability():
    s = Sheet(SEED)
    assert s.vul() == {"NS": False, "EW": False}
    s.add_deal(1, c("2S"), 8)  # EW 60 partscore
    s.add_deal(0, c("2H"), 8)  # NS 60
    assert s.below == {"NS": 60, "EW": 60}
    written = s.add_deal(2, c("2D"), 8)  # NS 60 + 40 = 100: game
    assert s.games == {"NS": 1, "EW": 0} and s.below == {"NS": 0, "EW": 0}
    assert [e["kind"] for e in written] == ["contract", "game_bonus"]
    assert written[-1] == {"deal": 3, "side": "NS", "line": "above", "kind": "game_bonus", "points": 100, "game": 1}
    assert s.vul() == {"NS": True, "EW": False}
    # the old partscore stays in the totals
    assert s.totals() == {"NS": 60 + 40 + 100, "EW": 60}
    s.add_deal(3, c("4S"), 10)
    assert s.vul() == {"NS": True, "EW": True} and not s.complete
    last = s.add_deal(0, c("3NT"), 10)
    assert s.complete and s.winner == "NS"
    assert [e["kind"] for e in last] == ["contract", "overtricks", "game_bonus", "rubber_bonus"]
    assert last[-1]["points"] == 500
    with pytest.raises(ValueError):
        s.add_deal(0, c("1C"), 7)


def test_rubber_bonus_700_and_acbl_no_game_premium():
    s = Sheet(ACBL)
    s.add_deal(0, c("4H"), 10)
    s.add_passed_out()
    last = s.add_deal(2, c("5C"), 11)
    assert s.complete and [e["kind"] for e in last] == ["contract", "rubber_bonus"]
    assert last[-1]["points"] == 700 and s.deals == 3
    assert s.totals() == {"NS": 120 + 100 + 700, "EW": 0}
    assert s.settlement("half_up") == {"diff": 920, "units": {"NS": 9, "EW": -9}}


def test_overtricks_never_count_toward_game():
    s = Sheet(SEED)
    s.add_deal(0, c("1NT"), 13)  # 40 below, 180 above
    assert s.games["NS"] == 0 and s.below["NS"] == 40


def test_honours_for_the_defenders_and_doubled_game():
    s = Sheet(SEED)
    s.add_deal(0, c("2SX"), 8, honours=("EW", 4))  # 120 below: a doubled partscore makes game
    assert s.games["NS"] == 1
    assert s.deal_points(1) == {"NS": {"above": 50 + 100, "below": 120}, "EW": {"above": 100, "below": 0}}


def test_unfinished_rubber_stop():
    s = Sheet(SEED)
    s.add_deal(0, c("4S"), 10)  # NS game
    s.add_deal(1, c("2C"), 8)  # EW partscore 40
    extra = s.clone().stop(True)
    assert [(e["side"], e["points"]) for e in extra] == [("NS", 300), ("EW", 100)]
    t = s.clone()
    t.add_deal(0, c("1C"), 7)  # both have partscores: no 100
    assert [(e["side"], e["points"]) for e in t.clone().stop(True)] == [("NS", 300)]
    assert s.clone().stop(False) == []


def test_forfeit_writes_the_rubber_bonus_for_the_other_side():
    s = Sheet(SEED)
    s.add_deal(1, c("3NT"), 9)
    entries = s.clone().forfeit("EW")
    assert entries[-1]["side"] == "NS" and entries[-1]["points"] == 500
    entries = s.clone().forfeit("NS")
    assert entries[-1]["side"] == "EW" and entries[-1]["points"] == 700


def test_dump_load_round_trip():
    s = Sheet(SEED)
    s.add_deal(0, c("4S"), 11, ("NS", 5))
    s.add_passed_out()
    assert Sheet.load(json.loads(json.dumps(s.dump())), SEED).dump() == s.dump()


# ------------------------------------------------------------------------- options
def test_options_overrides_merge_into_the_preset():
    opts = BridgeOptions(preset="acbl", insult={"XX": 75}, per_game_bonus=50)
    table = scoring_table(opts)
    assert table["insult"] == {"X": 50, "XX": 75} and table["per_game_bonus"] == 50
    assert table["small_slam"] == PRESETS["acbl"]["small_slam"]
    assert PRESETS["acbl"]["insult"]["XX"] == 100  # the preset itself is untouched
    assert scoring_table({})["per_game_bonus"] == 100
    for bad in (
        {"preset": "chicago"},
        {"rounding": "up"},
        {"nonsense": 1},
        {"insult": {"Y": 1}},
        {"undertrick_doubled": {"nv": []}},
        {"game_threshold": 0},
        {"first_dealer": "X"},
    ):
        with pytest.raises(BadOptions):
            parse_options(bad)


def test_presets_differ_only_where_the_rules_say():
    """Invariant 11: a deal that touches no per-game premium, XX insult, vulnerable small
    slam, non-vulnerable grand slam or 4th+ non-vulnerable (re)doubled undertrick scores
    the same under both presets."""
    differ = {k for k in PRESETS["seed"] if PRESETS["seed"][k] != PRESETS["acbl"][k]}
    assert differ == {"per_game_bonus", "insult", "small_slam", "grand_slam", "undertrick_doubled"}
    same = 0
    for level, strain, doubling, tricks, vul in itertools.product(
        range(1, 8), ("C", "H", "NT"), (0, 1, 2), range(14), (False, True)
    ):
        contract = Contract(level, strain, doubling)
        touches = (
            (doubling == 2 and tricks >= contract.need)
            or (level == 6 and vul and tricks >= 12)
            or (level == 7 and not vul and tricks == 13)
            or (doubling and not vul and contract.need - tricks >= 4)
        )
        a, b = deal_items(contract, tricks, vul, SEED), deal_items(contract, tricks, vul, ACBL)
        if not touches:
            assert a == b, (contract, tricks, vul)
            same += 1
        else:
            assert a != b, (contract, tricks, vul)
    assert same > 1000
