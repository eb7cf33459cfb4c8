"""Russian preferans scoring (docs/rules/preferans_ru.md §6, §8, §9, §11): the worked example
hand by hand in all three systems, the score-only record's output and every invalid case,
and the scoring invariants over random hand sequences."""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games.preferans_ru.hand import AllPassHand, GameHand, MisereHand, parse_contract
from engine.games.preferans_ru.options import parse_options
from engine.games.preferans_ru.record import score, text
from engine.games.preferans_ru.scoring import ScoringError, Sheet, apply_hand, finished, settlement
from engine.games.preferans_ru.sheet import WIDTH, HandLine, sheet_text
from engine.score import ScoreError
from engine.score import score as score_any

F = Fraction

# ------------------------------------------------------------------------------ §8
EXAMPLE = [
    {"declarer": "A", "contract": "6S", "whist": {"B": "whist", "C": "whist"}, "tricks": {"A": 6, "B": 2, "C": 2}},
    {"declarer": "B", "contract": "7H", "whist": {"C": "whist", "A": "pass"}, "tricks": {"B": 9, "C": 1, "A": 0}},
    {"declarer": "C", "contract": "8C", "whist": {"A": "whist", "B": "whist"}, "tricks": {"C": 10, "A": 0, "B": 0}},
    {"all_pass": True, "tricks": {"A": 0, "B": 4, "C": 6}},
    {"all_pass": True, "tricks": {"A": 3, "B": 5, "C": 2}},
    {"declarer": "C", "contract": "MISERE", "tricks": {"C": 1, "A": 5, "B": 4}},
    {"declarer": "A", "contract": "7S", "whist": {"B": "whist", "C": "pass"}, "tricks": {"A": 5, "B": 4, "C": 1}},
    {"declarer": "B", "contract": "6H", "whist": {"C": "pass", "A": "half"}},
    {"declarer": "C", "contract": "6NT", "whist": {"A": "pass", "B": "pass"}},
    {"declarer": "A", "contract": "9H", "whist": {"B": "pass", "C": "pass"}},
    {"declarer": "B", "contract": "8S", "whist": {"C": "pass", "A": "pass"}},
]

# Every figure of §8's tables: per hand, the non-zero pool, mountain and whist entries.
SOCHI = [
    ({"A": 2}, {}, {"BA": 4, "CA": 4}),
    ({"B": 4}, {"C": 4}, {"CB": 4}),
    ({"C": 6}, {"B": 6}, {}),
    ({"A": 1}, {"B": 4, "C": 6}, {}),
    ({}, {"A": 6, "B": 10, "C": 4}, {}),
    ({}, {"C": 10}, {}),
    ({}, {"A": 8}, {"BA": 28, "CA": 8}),
    ({"B": 2}, {}, {"AB": 4}),
    ({"C": 2}, {}, {}),
    ({"A": 7, "B": 1}, {}, {"AB": 10}),
    ({"B": 3, "C": 2}, {"B": -1}, {"BC": 20}),
]
LENINGRAD = [
    ({"A": 2}, {}, {"BA": 8, "CA": 8}),
    ({"B": 4}, {"C": 4}, {"CB": 8}),
    ({"C": 6}, {"B": 6}, {}),
    ({"A": 1}, {"B": 4, "C": 6}, {}),
    ({}, {"A": 6, "B": 10, "C": 4}, {}),
    ({}, {"C": 20}, {}),
    ({}, {"A": 16}, {"BA": 36, "CA": 36}),
    ({"B": 2}, {}, {"AB": 8}),
    ({"C": 2}, {}, {}),
    ({"A": 7, "B": 1}, {}, {"AB": 20}),
    ({"B": 3, "C": 2}, {"B": -2}, {"BC": 40}),
]
ROSTOV = [
    ({"A": 2}, {}, {"BA": 4, "CA": 4}),
    ({"B": 4}, {"C": 2}, {"CB": 4}),
    ({"C": 6}, {"B": 3}, {}),
    ({"A": 1}, {}, {"AB": 20, "AC": 30}),
    ({}, {}, {"CA": 15, "CB": 25}),
    ({}, {"C": 10}, {}),
    ({}, {"A": 8}, {"BA": 18, "CA": 18}),
    ({"B": 2}, {}, {"AB": 4}),
    ({"C": 2}, {}, {}),
    ({"A": 7, "B": 1}, {}, {"AB": 10}),
    ({"B": 3, "C": 2}, {"B": -1}, {"BC": 20}),
]
TOTALS = {
    "sochi": (
        {"A": 14, "B": 19, "C": 24},
        {"A": {"B": 14, "C": 0}, "B": {"A": 32, "C": 20}, "C": {"A": 12, "B": 4}},
        {"A": 20, "B": 34, "C": -54},
    ),
    "leningrad": (
        {"A": 22, "B": 18, "C": 34},
        {"A": {"B": 28, "C": 0}, "B": {"A": 44, "C": 40}, "C": {"A": 44, "B": 8}},
        {"A": "-100/3", "B": "344/3", "C": "-244/3"},
    ),
    "rostov": (
        {"A": 8, "B": 2, "C": 12},
        {"A": {"B": 34, "C": 30}, "B": {"A": 22, "C": 20}, "C": {"A": 37, "B": 29}},
        {"A": "-5/3", "B": "97/3", "C": "-92/3"},
    ),
}


def example_record(system: str) -> dict:
    return {
        "game": "preferans_ru",
        "options": {"system": system, "pool": 10},
        "players": ["A", "B", "C"],
        "hands": EXAMPLE,
    }


def nonzero(gain: dict) -> tuple[dict, dict, dict]:
    pool = {p: x for p, x in gain["pool"].items() if x}
    mountain = {p: x for p, x in gain["mountain"].items() if x}
    whists = {p + q: x for p, row in gain["whists"].items() for q, x in row.items() if x}
    return pool, mountain, whists


@pytest.mark.parametrize("system, table", [("sochi", SOCHI), ("leningrad", LENINGRAD), ("rostov", ROSTOV)])
def test_worked_example_hand_by_hand(system, table):
    out = score(example_record(system))
    assert [nonzero(h) for h in out["hands"]] == table
    mountains, whists, result = TOTALS[system]
    assert {p: v["pool"] for p, v in out["players"].items()} == {"A": 10, "B": 10, "C": 10}
    assert {p: v["mountain"] for p, v in out["players"].items()} == mountains
    assert {p: v["whists"] for p, v in out["players"].items()} == whists
    assert out["settlement"] == result
    assert out["finished"] is True
    assert sum(F(x) for x in out["settlement"].values()) == 0


def test_worked_example_raspasy_series_and_paper_method():
    """After hands 4-5 the series is 2 (§5.5); the paper method (amnesty, ×10/3) agrees (§6.5)."""
    record = example_record("sochi")
    record["hands"] = EXAMPLE[:5]
    assert score(record)["raspasy_series"] == 2
    out = score(example_record("sochi"))
    mountains = {p: v["mountain"] for p, v in out["players"].items()}
    low = min(mountains.values())
    paper = {}
    for p in "ABC":
        net = sum(out["players"][p]["whists"][q] - out["players"][q]["whists"][p] for q in "ABC" if q != p)
        written_by_me = sum(F(10 * (mountains[q] - low), 3) for q in "ABC" if q != p)
        written_on_me = 2 * F(10 * (mountains[p] - low), 3)
        paper[p] = net + written_by_me - written_on_me
    assert paper == {"A": 20, "B": 34, "C": -54}


# ------------------------------------------------------------------------------ §9
SPEC_RECORD = {
    "game": "preferans_ru",
    "options": {"system": "sochi", "pool": 20},
    "players": ["A", "B", "C"],
    "hands": [
        {"declarer": "A", "contract": "7H", "whist": {"B": "whist", "C": "pass"}, "tricks": {"A": 6, "B": 3, "C": 1}},
        {"all_pass": True, "tricks": {"A": 0, "B": 4, "C": 6}},
        {"declarer": "C", "contract": "MISERE", "tricks": {"A": 5, "B": 4, "C": 1}},
        {"declarer": "B", "contract": "6S", "whist": {"C": "pass", "A": "half"}},
    ],
}


def test_spec_record_output_exactly():
    out = score_any(json.loads(json.dumps(SPEC_RECORD)))
    assert out["hands"][0] == {
        "n": 1,
        "pool": {"A": 0, "B": 0, "C": 0},
        "mountain": {"A": 4, "B": 0, "C": 0},
        "whists": {"A": {"B": 0, "C": 0}, "B": {"A": 20, "C": 0}, "C": {"A": 4, "B": 0}},
    }
    assert [h["n"] for h in out["hands"]] == [1, 2, 3, 4]
    del out["hands"]
    assert out == {
        "game": "preferans_ru",
        "system": "sochi",
        "pool_target": 20,
        "players": {
            "A": {"pool": 1, "mountain": 4, "whists": {"B": 4, "C": 0}},
            "B": {"pool": 2, "mountain": 4, "whists": {"A": 20, "C": 0}},
            "C": {"pool": 0, "mountain": 16, "whists": {"A": 4, "B": 0}},
        },
        "raspasy_series": 0,
        "finished": False,
        "settlement": {"A": 20, "B": 66, "C": -86},
    }


def with_hand(hand: dict, **record) -> dict:
    r = copy.deepcopy(SPEC_RECORD)
    r["hands"] = r["hands"][:1] + [hand]
    r.update(record)
    return r


FOUR = {"players": ["A", "B", "C", "D"]}
GOOD_GAME = {
    "declarer": "A",
    "contract": "6S",
    "whist": {"B": "whist", "C": "whist"},
    "tricks": {"A": 6, "B": 2, "C": 2},
}

INVALID = [
    ("unknown contract", with_hand({**GOOD_GAME, "contract": "11S"}), 2, "unknown contract"),
    ("unknown strain", with_hand({**GOOD_GAME, "contract": "6X"}), 2, "unknown contract"),
    ("unknown option", {**SPEC_RECORD, "options": {"system": "sochi", "bula": 3}}, 0, "unknown option 'bula'"),
    ("unknown system", {**SPEC_RECORD, "options": {"system": "kazan"}}, 0, "system"),
    (
        "dealer as declarer",
        with_hand({**GOOD_GAME, "dealer": "A", "whist": {"B": "whist", "C": "whist"}}, **FOUR),
        2,
        "sits out as the dealer",
    ),
    (
        "dealer as defender",
        with_hand({**GOOD_GAME, "dealer": "C", "whist": {"B": "whist", "C": "whist"}}, **FOUR),
        2,
        "exactly the defenders B and D",
    ),
    (
        "dealer as trick taker",
        with_hand({"all_pass": True, "dealer": "D", "tricks": {"A": 2, "B": 2, "C": 3, "D": 3}}, **FOUR),
        2,
        "exactly the active players A, B, C",
    ),
    ("whist keys not the defenders", with_hand({**GOOD_GAME, "whist": {"B": "whist"}}), 2, "exactly the defenders"),
    ("declarer in whist", with_hand({**GOOD_GAME, "whist": {"A": "pass", "B": "whist", "C": "whist"}}), 2, "exactly"),
    (
        "half by the first",
        with_hand({**GOOD_GAME, "whist": {"B": "half", "C": "pass"}, "tricks": None}),
        2,
        "first defender",
    ),
    ("half after a whist", with_hand({**GOOD_GAME, "whist": {"B": "whist", "C": "half"}}), 2, "after B whisted"),
    (
        "half on an 8",
        with_hand({"declarer": "A", "contract": "8S", "whist": {"B": "pass", "C": "half"}}),
        2,
        "not allowed on a 8",
    ),
    (
        "half on a 7 with half_whist [6]",
        with_hand(
            {"declarer": "A", "contract": "7S", "whist": {"B": "pass", "C": "half"}},
            options={"system": "sochi", "half_whist": [6]},
        ),
        2,
        "not allowed on a 7",
    ),
    ("bad decision", with_hand({**GOOD_GAME, "whist": {"B": "vist", "C": "pass"}}), 2, "whist, pass or half"),
    ("tricks missing for a played game", with_hand({**GOOD_GAME, "tricks": None}), 2, "tricks are missing"),
    (
        "tricks missing for a мизер",
        with_hand({"declarer": "C", "contract": "MISERE"}),
        2,
        "tricks are missing",
    ),
    ("tricks missing for распасы", with_hand({"all_pass": True}), 2, "tricks are missing"),
    (
        "tricks for an unplayed game",
        with_hand(
            {"declarer": "A", "contract": "6S", "whist": {"B": "pass", "C": "pass"}, "tricks": GOOD_GAME["tricks"]}
        ),
        2,
        "not played",
    ),
    (
        "tricks for a half-whist",
        with_hand(
            {"declarer": "A", "contract": "6S", "whist": {"B": "pass", "C": "half"}, "tricks": GOOD_GAME["tricks"]}
        ),
        2,
        "not played",
    ),
    ("trick keys missing a player", with_hand({**GOOD_GAME, "tricks": {"A": 6, "B": 4}}), 2, "exactly the active"),
    ("trick key unknown", with_hand({**GOOD_GAME, "tricks": {"A": 6, "B": 2, "Z": 2}}), 2, "'Z'"),
    ("tricks not 10", with_hand({**GOOD_GAME, "tricks": {"A": 6, "B": 2, "C": 3}}), 2, "add up to 11"),
    ("tricks negative", with_hand({**GOOD_GAME, "tricks": {"A": 12, "B": -2, "C": 0}}), 2, "0-10"),
    (
        "a hand after the game finished",
        {**example_record("sochi"), "hands": EXAMPLE + [{"all_pass": True, "tricks": {"A": 3, "B": 3, "C": 4}}]},
        12,
        "already finished",
    ),
    (
        "a start pool above the target",
        {**SPEC_RECORD, "start": {"pool": {"A": 21}}},
        0,
        "start pool of A is 21",
    ),
    (
        "мизер whisted",
        with_hand({"declarer": "C", "contract": "MISERE", "whist": {}, "tricks": {"A": 5, "B": 4, "C": 1}}),
        2,
        "not whisted",
    ),
    ("players", {**SPEC_RECORD, "players": ["A", "B"]}, 0, "3 or 4 different names"),
    ("first_dealer", {**SPEC_RECORD, "options": {"first_dealer": "Z"}}, 0, "first_dealer 'Z'"),
    ("unknown hand key", with_hand({**GOOD_GAME, "kontra": 1}), 2, "unknown key(s) kontra"),
]


@pytest.mark.parametrize("record, entry, words", [c[1:] for c in INVALID], ids=[c[0] for c in INVALID])
def test_invalid_records(record, entry, words):
    with pytest.raises(ScoreError) as caught:
        score(record)
    assert caught.value.entry == entry
    assert words in caught.value.message
    assert "\n" not in str(caught.value)


def test_ten_checked_needs_no_whist():
    """§4/§9: with ten_checked a 10 has no quota: both defenders write their tricks, nobody is short."""
    hand = {"declarer": "A", "contract": "10NT", "tricks": {"A": 10, "B": 0, "C": 0}}
    out = score(with_hand(hand, options={"ten_checked": True}))
    assert nonzero(out["hands"][1]) == ({"A": 10}, {}, {})
    with pytest.raises(ScoreError, match="whist is missing"):
        score(with_hand(hand))


def test_start_sheet_continues_a_paper_pulka():
    record = {
        **SPEC_RECORD,
        "start": {"pool": {"A": 18}, "mountain": {"C": 5}, "whists": {"B": {"A": 7}}, "raspasy_series": 2},
        "hands": [{"all_pass": True, "tricks": {"A": 0, "B": 4, "C": 6}}],
    }
    out = score(record)
    # series 3 -> price 3: A pool +3 -> 20 with 1 overflow helping B (A writes 10 on B)
    assert out["raspasy_series"] == 3
    assert nonzero(out["hands"][0]) == ({"A": 2, "B": 1}, {"B": 12, "C": 18}, {"AB": 10})
    assert out["players"]["C"]["mountain"] == 23
    assert out["players"]["B"]["whists"]["A"] == 7


def test_four_players_dealer_sits_out_and_consoles():
    """§3.1, §6.2: with 4 players the dealer (rotation from the last listed) does not play,
    and writes consolation on a failed declarer with consolation_dealer."""
    record = {
        "game": "preferans_ru",
        "options": {"system": "sochi"},
        "players": ["A", "B", "C", "D"],
        "hands": [
            # dealer D: A, B, C play; A 6S down 1 with B whisting alone
            {
                "declarer": "A",
                "contract": "6S",
                "whist": {"B": "whist", "C": "pass"},
                "tricks": {"A": 5, "B": 3, "C": 2},
            },
            # dealer A: B, C, D play
            {"all_pass": True, "tricks": {"B": 0, "C": 4, "D": 6}},
        ],
    }
    out = score(record)
    assert nonzero(out["hands"][0]) == ({}, {"A": 2}, {"BA": 12, "CA": 2, "DA": 2})
    assert nonzero(out["hands"][1]) == ({"B": 1}, {"C": 4, "D": 6}, {})
    record["options"]["consolation_dealer"] = False
    assert nonzero(score(record)["hands"][0])[2] == {"BA": 12, "CA": 2}
    assert sum(F(x) for x in score(record)["settlement"].values()) == 0


def test_two_whisters_shortfall_partner_covers():
    """§6.2: on a six with 3 defender tricks the whister with fewer pays one trick; a partner's
    extra tricks cover the other."""
    hand = {
        "declarer": "A",
        "contract": "6S",
        "whist": {"B": "whist", "C": "whist"},
        "tricks": {"A": 7, "B": 2, "C": 1},
    }
    assert nonzero(score(with_hand(hand))["hands"][1]) == ({"A": 2}, {"C": 2}, {"BA": 4, "CA": 2})
    hand["tricks"] = {"A": 7, "B": 3, "C": 0}
    assert nonzero(score(with_hand(hand))["hands"][1]) == ({"A": 2}, {"C": 2}, {"BA": 6})


def test_geometric_and_capped_progression():
    hands = [{"all_pass": True, "tricks": {"A": 1, "B": 4, "C": 5}}] * 5
    record = {**SPEC_RECORD, "options": {"raspasy_progression": "geometric"}, "hands": hands}
    assert [h["mountain"]["A"] for h in score(record)["hands"]] == [1, 2, 4, 4, 4]
    record["options"] = {"raspasy_cap": 4}
    assert [h["mountain"]["A"] for h in score(record)["hands"]] == [1, 2, 3, 4, 4]


def test_overflow_to_mountain_without_help():
    record = {
        **SPEC_RECORD,
        "options": {"pool": 10, "pool_overflow": "mountain"},
        "hands": [{"declarer": "A", "contract": "MISERE", "tricks": {"A": 0, "B": 5, "C": 5}}] * 2,
    }
    out = score(record)
    assert nonzero(out["hands"][1]) == ({}, {"A": -10}, {})


# ------------------------------------------------------------------------------ the text sheet
def test_text_sheet_lines_fit_a_phone():
    for system in ("sochi", "leningrad", "rostov"):
        for lang in ("ru", "en"):
            sheet = text(example_record(system), lang)
            assert all(len(line) <= WIDTH for line in sheet.split("\n")), sheet
    sheet = text(example_record("leningrad"), "ru")
    assert "Пулька · Ленинград · до 10 · раздача 11" in sheet
    assert "Пулька закрыта. Итог:" in sheet
    assert "A −100/3" in sheet and "B +344/3" in sheet
    rows = text(example_record("sochi"), "en").split("\n")
    assert rows[1].split() == ["pool", "mount", "→A", "→B", "→C"]
    assert rows[2].split() == ["A", "10", "14", "·", "14", "0"]


def test_text_sheet_legend_and_rounding_mid_game():
    names = {"A": "Анастасия", "B": "Анна", "C": "Вера"}
    record = json.loads(json.dumps(SPEC_RECORD))
    record["options"] = {"system": "leningrad"}
    raw = json.dumps(record)
    for short, name in names.items():
        raw = raw.replace(f'"{short}"', f'"{name}"')
    record = json.loads(raw)
    sheet = text(record, "ru")
    assert "A — Анастасия" in sheet and "B — Анна" in sheet  # clashing initials: letters + legend
    assert "Расчёт сейчас (≈):" in sheet
    exact = score(record)["settlement"]
    assert any("/" in str(x) for x in exact.values())
    assert "/" not in sheet.split("Расчёт")[1]
    assert all(len(line) <= WIDTH for line in sheet.split("\n"))


# ------------------------------------------------------------------------------ §11 invariants
PLAYERS3 = ("A", "B", "C")
PLAYERS4 = ("A", "B", "C", "D")


@st.composite
def hands(draw, active):
    kind = draw(st.sampled_from(["game", "game", "game", "misere", "all_pass"]))
    cut = sorted(draw(st.lists(st.integers(0, 10), min_size=2, max_size=2)))
    split = [cut[0], cut[1] - cut[0], 10 - cut[1]]
    tricks = dict(zip(active, draw(st.permutations(split))))
    if kind == "all_pass":
        return AllPassHand(tricks)
    declarer = draw(st.sampled_from(active))
    if kind == "misere":
        return MisereHand(declarer, tricks)
    i = active.index(declarer)
    first, second = active[(i + 1) % 3], active[(i + 2) % 3]
    level = draw(st.integers(6, 10))
    contract = parse_contract(f"{level}{draw(st.sampled_from(['S', 'C', 'D', 'H', 'NT']))}")
    d1 = draw(st.sampled_from(["whist", "pass"]))
    d2 = draw(st.sampled_from(["whist", "pass"] + (["half"] if d1 == "pass" and level in (6, 7) else [])))
    played = "whist" in (d1, d2)
    return GameHand(declarer, contract, {first: d1, second: d2}, tricks if played else None)


@st.composite
def pulkas(draw):
    players = draw(st.sampled_from([PLAYERS3, PLAYERS4]))
    system = draw(st.sampled_from(["sochi", "leningrad", "rostov"]))
    rostov = system == "rostov"
    options = parse_options(
        {
            "system": system,
            "pool": draw(st.sampled_from([4, 10, 20])),
            "pool_overflow": draw(st.sampled_from(["help", "mountain"])),
            "raspasy_progression": draw(st.sampled_from(["none", "arithmetic", "geometric"])),
            "pool_point": draw(st.sampled_from([10, 15, 20])),
            # the §7.1 table conventions (the Ростов ones only where they apply)
            "whist_quota": draw(st.sampled_from(["shared", "personal", "personal_if_short"])),
            "raspasy_reset": draw(st.sampled_from(["any_deal", "made_game", "made_8_or_misere"])),
            "consolation_rate": draw(st.sampled_from(["price", "ten"] if rostov else ["price"])),
            "raspasy_tie": draw(st.sampled_from(["full", "split"] if rostov else ["full"])),
        }
    )
    seq = []
    for k in range(draw(st.integers(1, 25))):
        dealer = players[k % len(players)]
        active = tuple(p for p in players if len(players) == 3 or p != dealer)
        seq.append((draw(hands(active)), dealer))
    return players, options, seq


def amnesty(sheet: Sheet, shift: Fraction) -> Sheet:
    return Sheet(sheet.players, sheet.pool, {p: x - shift for p, x in sheet.mountain.items()}, sheet.whists)


@settings(max_examples=150, deadline=None)
@given(pulkas())
def test_scoring_invariants(pulka):
    """§11.3-6: pools within 0..target; whists never decrease; a mountain goes down only by an
    overflow write-off; finished ⇔ every pool full, no hand after it; Σ settlement = 0;
    amnesty and symmetric whists change nothing; help is value-neutral."""
    players, options, seq = pulka
    sheet = Sheet.new(players)
    for hand, dealer in seq:
        if finished(sheet, options):
            with pytest.raises(ScoringError):
                apply_hand(sheet, hand, options, dealer)
            break
        new, gain = apply_hand(sheet, hand, options, dealer)
        assert all(0 <= new.pool[p] <= options.pool for p in players)
        assert all(x >= 0 for row in gain.whists.values() for x in row.values())
        for p in players:
            if gain.mountain[p] < 0:
                assert new.pool[p] == options.pool  # only a full pool writes off its mountain
        result = settlement(new, options)
        assert sum(result.values()) == 0
        assert settlement(amnesty(new, min(new.mountain.values())), options) == result
        both = {p: {q: x + 7 for q, x in row.items()} for p, row in new.whists.items()}
        assert settlement(Sheet(players, new.pool, new.mountain, both), options) == result
        # help and the plain write-off settle the same (both value-neutral, §6.4)
        other = options.model_copy(update={"pool_overflow": "mountain" if options.pool_overflow == "help" else "help"})
        assert settlement(apply_hand(sheet, hand, other, dealer)[0], options) == result
        # settling as if the pool had no cap at all gives the same result too
        uncapped = options.model_copy(update={"pool": 10**6})
        raw = apply_hand(sheet, hand, uncapped, dealer)[0]
        assert settlement(raw, options) == result
        assert finished(new, options) == all(new.pool[p] == options.pool for p in players)
        # §5.5: распасы add one to the run; another deal ends it or (raspasy_reset) leaves it
        if isinstance(hand, AllPassHand):
            assert new.raspasy_series == sheet.raspasy_series + 1
        else:
            kept = () if options.raspasy_reset == "any_deal" else (sheet.raspasy_series,)
            assert new.raspasy_series in (0, *kept)
        # the text sheet fits a phone whatever was written
        line = HandLine(1, hand, dealer if len(players) == 4 else None, gain, new.raspasy_series)
        names = {p: f"Игрок {p} Длинноимённый" for p in players}
        for lang in ("ru", "en"):
            shown = sheet_text(new, options, lang, line, 123, names=names)
            assert all(len(x) <= WIDTH for x in shown.split("\n")), shown
        sheet = new
