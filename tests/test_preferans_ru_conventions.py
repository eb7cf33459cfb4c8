"""The table conventions of Russian preferans (docs/rules/preferans_ru.md §7.1), each with a
worked example whose numbers are written out by hand: ``whist_quota``, ``raspasy_reset``,
``consolation_rate`` and ``raspasy_tie``. The scoring invariants run with them on in
tests/test_preferans_ru_scoring.py and tests/test_preferans_ru_random.py."""

from __future__ import annotations

import pytest

from engine.errors import EngineError
from engine.games.preferans_ru.options import parse_options
from engine.games.preferans_ru.record import score


def record(options: dict, hands: list[dict], players: str = "ABC") -> dict:
    return {"game": "preferans_ru", "options": {"pool": 20, **options}, "players": list(players), "hands": hands}


def written(gain: dict) -> tuple[dict, dict, dict]:
    """What one hand wrote, zeros left out: pool, mountain, whists as {"BA": n} (B writes on A)."""
    pool = {p: x for p, x in gain["pool"].items() if x}
    mountain = {p: x for p, x in gain["mountain"].items() if x}
    whists = {p + q: x for p, row in gain["whists"].items() for q, x in row.items() if x}
    return pool, mountain, whists


def hands_written(options: dict, hands: list[dict], players: str = "ABC") -> list[tuple[dict, dict, dict]]:
    return [written(h) for h in score(record(options, hands, players))["hands"]]


def both_whist(level_strain: str, a: int, b: int, c: int) -> dict:
    """A declares; B (first defender) and C (second) both whist."""
    return {
        "declarer": "A",
        "contract": level_strain,
        "whist": {"B": "whist", "C": "whist"},
        "tricks": {"A": a, "B": b, "C": c},
    }


# ------------------------------------------------------------------------------ whist_quota
def test_whist_quota_personal_on_a_six():
    """Сочи 6♠ (v = wv = pen = 2), tricks A 6, B 3, C 1; quotas 2 and 2.
    Shared: C lacks 1, B's one extra trick covers it, nobody pays.
    Personal: C lacks 1 and pays 1 · 2 = 2 in his mountain. The whists are the same:
    B→A 3 · 2 = 6, C→A 1 · 2 = 2; A pool +2."""
    hand = [both_whist("6S", 6, 3, 1)]
    assert hands_written({"whist_quota": "shared"}, hand) == [({"A": 2}, {}, {"BA": 6, "CA": 2})]
    assert hands_written({"whist_quota": "personal"}, hand) == [({"A": 2}, {"C": 2}, {"BA": 6, "CA": 2})]


def test_whist_quota_personal_on_a_seven_half_responsibility():
    """Ростов 7♥ (v = wv = 4, pen = v/2 = 2), tricks A 7, B 0, C 3; quotas 1 and 1.
    Shared: B lacks 1, C's 2 extra tricks cover it. Personal: B pays 1 · 2 = 2.
    C→A 3 · 4 = 12; A pool +4."""
    hand = [both_whist("7H", 7, 0, 3)]
    rostov = {"system": "rostov"}
    assert hands_written(rostov, hand) == [({"A": 4}, {}, {"CA": 12})]
    assert hands_written({**rostov, "whist_quota": "personal"}, hand) == [({"A": 4}, {"B": 2}, {"CA": 12})]


def test_whist_quota_personal_changes_nothing_from_eight_up():
    """Сочи 8♠ (v = 6), tricks A 8, B 2, C 0: the quota is the second whister's (0/1); C lacks 1,
    B's 2 tricks cover it in both conventions. B→A 2 · 6 = 12; A pool +6."""
    hand = [both_whist("8S", 8, 2, 0)]
    expected = [({"A": 6}, {}, {"BA": 12})]
    assert hands_written({"whist_quota": "shared"}, hand) == expected
    assert hands_written({"whist_quota": "personal"}, hand) == expected


def test_whist_quota_personal_if_short_nobody_pays_when_the_two_made_the_quota():
    """PyPref / kpref (issue 45): Сочи 6♠, tricks A 6, B 3, C 1: the two took 4, the quota,
    so nobody pays (``personal`` charges C 2 here)."""
    hand = [both_whist("6S", 6, 3, 1)]
    assert hands_written({"whist_quota": "personal_if_short"}, hand) == [({"A": 2}, {}, {"BA": 6, "CA": 2})]


def test_whist_quota_personal_if_short_each_pays_his_own_half_uncovered():
    """Сочи 6♠ (v = pen = 2), tricks A 7, B 3, C 0: the two took 3 of 4. Each answers for his
    own two: B none, C 2 tricks, 2 · 2 = 4 in his mountain, B's extra trick no cover (shared:
    C lacks 2 − 1 = 1, 2). Сочи 7♥ (v = 4), tricks A 9, B 0, C 1: the two took 1 of 2; B
    lacks his one, 4; C has his. A pool +2 and +4."""
    six = [both_whist("6S", 7, 3, 0)]
    assert hands_written({"whist_quota": "personal_if_short"}, six) == [({"A": 2}, {"C": 4}, {"BA": 6})]
    assert hands_written({"whist_quota": "shared"}, six) == [({"A": 2}, {"C": 2}, {"BA": 6})]
    seven = [both_whist("7H", 9, 0, 1)]
    assert hands_written({"whist_quota": "personal_if_short"}, seven) == [({"A": 4}, {"B": 4}, {"CA": 4})]
    assert hands_written({"whist_quota": "shared"}, seven) == [({"A": 4}, {"B": 4}, {"CA": 4})]


def test_whist_quota_personal_if_short_from_eight_up_is_the_second_whisters_trick():
    """Сочи 8♠ (v = 6), tricks A 10, B 0, C 0: the second whister (C) answers for the one
    quota trick, 6, in every convention."""
    hand = [both_whist("8S", 10, 0, 0)]
    for quota in ("shared", "personal", "personal_if_short"):
        assert hands_written({"whist_quota": quota}, hand) == [({"A": 6}, {"C": 6}, {})]


# ------------------------------------------------------------------------------ raspasy_reset
ALL_PASS = {"all_pass": True, "tricks": {"A": 1, "B": 4, "C": 5}}
RESET_HANDS = [
    ALL_PASS,  # series 1
    both_whist("6S", 5, 3, 2),  # A 6♠ one down: a failed game
    ALL_PASS,
    {"declarer": "B", "contract": "7H", "whist": {"C": "pass", "A": "pass"}, "tricks": None},  # a made 7
    ALL_PASS,
    {"declarer": "C", "contract": "MISERE", "tricks": {"C": 0, "A": 5, "B": 5}},  # a clean мизер
    ALL_PASS,
]


@pytest.mark.parametrize(
    "reset, prices",
    [
        # the price of a trick on the распасы of hands 1, 3, 5, 7 (Сочи 1-2-3, cap 3)
        ("any_deal", [1, 1, 1, 1]),  # every game ends the run
        ("made_game", [1, 2, 1, 1]),  # the failed 6 continues it (2), the made 7 ends it
        ("made_8_or_misere", [1, 2, 3, 1]),  # the made 7 continues it too (3); the мизер ends it
    ],
)
def test_raspasy_reset(reset, prices):
    """Распасы A 1, B 4, C 5 into the mountain at price p: A +p, B +4p, C +5p. Between them a
    failed 6 (A one down: A mountain +2, consolation 2 each, B→A 3 · 2 + 2 = 8, C→A 2 · 2 + 2 = 6),
    a made 7 nobody whisted (B pool +4) and a clean мизер (C pool +10)."""
    out = hands_written({"raspasy_reset": reset}, RESET_HANDS)
    assert [out[i][1] for i in (0, 2, 4, 6)] == [{"A": p, "B": 4 * p, "C": 5 * p} for p in prices]
    assert out[1] == ({}, {"A": 2}, {"BA": 8, "CA": 6})
    assert out[3] == ({"B": 4}, {}, {})
    assert out[5] == ({"C": 10}, {}, {})
    series = [score(record({"raspasy_reset": reset}, RESET_HANDS[:n]))["raspasy_series"] for n in (2, 4, 6)]
    assert series == {"any_deal": [0, 0, 0], "made_game": [1, 0, 0], "made_8_or_misere": [1, 2, 0]}[reset]


def test_raspasy_reset_keeps_the_hard_exit_after_a_failed_game():
    """Ленинград's exit [6, 7, 8]: after two распасы and a failed game the run is still 2 with
    made_game, so the next auction still needs a 7 (with any_deal a 6 would do)."""
    options = parse_options({"system": "leningrad", "raspasy_reset": "made_game"})
    out = score(record(options.model_dump(mode="json"), [ALL_PASS, ALL_PASS, both_whist("6S", 5, 3, 2)]))
    assert out["raspasy_series"] == 2
    assert options.exit_level(out["raspasy_series"]) == 7


# ------------------------------------------------------------------------------ consolation_rate
FAILED_EIGHT = {
    "declarer": "A",
    "contract": "8S",
    "whist": {"B": "whist", "C": "pass"},
    "tricks": {"A": 6, "B": 3, "C": 1},
}


def test_consolation_rate_ten():
    """Ростов 8♠ (v = wv = 6) two down, B whists alone, C passes; tricks A 6, B 3, C 1.
    A mountain +6 · 2 = 12. Gentleman: the defence's 4 tricks · 6 = 24, split 12/12.
    Consolation price: 6 · 2 = 12 from each → B→A 24, C→A 24.
    Consolation ten: 10 · 2 = 20 from each → B→A 32, C→A 32."""
    rostov = {"system": "rostov"}
    assert hands_written(rostov, [FAILED_EIGHT]) == [({}, {"A": 12}, {"BA": 24, "CA": 24})]
    ten = {**rostov, "consolation_rate": "ten"}
    assert hands_written(ten, [FAILED_EIGHT]) == [({}, {"A": 12}, {"BA": 32, "CA": 32})]
    # with four the dealer D consoles at the same rate (consolation_dealer): D→A 20
    four = [{**FAILED_EIGHT, "dealer": "D"}]
    assert hands_written(ten, four, "ABCD") == [({}, {"A": 12}, {"BA": 32, "CA": 32, "DA": 20})]


# ------------------------------------------------------------------------------ raspasy_tie
@pytest.mark.parametrize(
    "tricks, full, split",
    [
        # A and B tied at 2: the third (C, 6 tricks) is worth 5 · 6 = 30
        ({"A": 2, "B": 2, "C": 6}, ({}, {}, {"AC": 30, "BC": 30}), ({}, {}, {"AC": 15, "BC": 15})),
        # A and B without a trick: 5 · 10 = 50, halves 25; each also puts 1 into his pool
        (
            {"A": 0, "B": 0, "C": 10},
            ({"A": 1, "B": 1}, {}, {"AC": 50, "BC": 50}),
            ({"A": 1, "B": 1}, {}, {"AC": 25, "BC": 25}),
        ),
        # no tie: the one with the fewest writes on both others, split or not
        ({"A": 1, "B": 3, "C": 6}, ({}, {}, {"AB": 15, "AC": 30}), ({}, {}, {"AB": 15, "AC": 30})),
    ],
)
def test_raspasy_tie(tricks, full, split):
    """Ростов распасы at 5 whists a trick, no progression."""
    hand = [{"all_pass": True, "tricks": tricks}]
    assert hands_written({"system": "rostov"}, hand) == [full]
    assert hands_written({"system": "rostov", "raspasy_tie": "split"}, hand) == [split]


# ------------------------------------------------------------------------------ where they apply
@pytest.mark.parametrize(
    "options, words",
    [
        ({"system": "sochi", "consolation_rate": "ten"}, "consolation_rate"),
        ({"system": "leningrad", "consolation_rate": "ten"}, "consolation_rate"),
        ({"system": "sochi", "raspasy_tie": "split"}, "raspasy_tie"),
        ({"system": "rostov", "raspasy": "mountain", "raspasy_tie": "split"}, "raspasy_tie"),
        ({"whist_quota": "own"}, "whist_quota"),
        ({"raspasy_reset": "never"}, "raspasy_reset"),
    ],
)
def test_a_convention_where_it_does_not_apply_is_refused(options, words):
    with pytest.raises(EngineError, match=words):
        parse_options(options)


def test_defaults_and_reload():
    """The defaults are §6's; a dumped model with the conventions reloads unchanged."""
    plain = parse_options(None)
    assert (plain.whist_quota, plain.raspasy_reset, plain.consolation_rate, plain.raspasy_tie) == (
        "shared",
        "any_deal",
        "price",
        "full",
    )
    custom = parse_options({"system": "rostov", "consolation_rate": "ten", "raspasy_tie": "split"})
    assert parse_options(custom.model_dump(mode="json")) == custom


# a pulka worked by hand with whist_quota personal_if_short (Сочи, pool 10)
PULKA = [
    both_whist("6S", 7, 3, 0),  # A +2 pool; B→A 6; the two took 3 of 4: C pays his own 2, 4
    {  # B 7♥, C and A whist, 1 + 2 = 3 ≥ 2: nobody pays; B +4; C→B 4, A→B 8
        "declarer": "B",
        "contract": "7H",
        "whist": {"C": "whist", "A": "whist"},
        "tricks": {"B": 7, "C": 1, "A": 2},
    },
    {"all_pass": True, "tricks": {"A": 2, "B": 3, "C": 5}},  # mountains A 2, B 3, C 5
    {  # C 6♣ one down: C mountain 2; A→C 2 + B→C 2 consolation; greedy A→C 5 · 2 = 10
        "declarer": "C",
        "contract": "6C",
        "whist": {"A": "whist", "B": "pass"},
        "tricks": {"C": 5, "A": 3, "B": 2},
    },
]


def test_a_pulka_worked_by_hand_with_personal_if_short():
    """Pools A 2, B 4, C 0 (P 6); mountains A 2, B 3, C 4 + 5 + 2 = 11 (M 16). Each player's
    result is his whists written less those written on him, + 10 · (pool − mountain),
    − 10/3 · (P − M): A 20 − 6 + 0 + 100/3 = 142/3; B 8 − 12 + 10 + 100/3 = 118/3;
    C 4 − 14 − 110 + 100/3 = −260/3. With the shared quota C pays 2 on the first hand, not 4:
    M 14, A 122/3, B 98/3, C −220/3. (PyPref's plscore.py, replayed on this pulka, gives the
    personal_if_short figures.)"""
    out = score(record({"pool": 10, "whist_quota": "personal_if_short"}, PULKA))
    assert out["settlement"] == {"A": "142/3", "B": "118/3", "C": "-260/3"}
    assert {p: v["mountain"] for p, v in out["players"].items()} == {"A": 2, "B": 3, "C": 11}
    shared = score(record({"pool": 10, "whist_quota": "shared"}, PULKA))
    assert shared["settlement"] == {"A": "122/3", "B": "98/3", "C": "-220/3"}
