"""The strength benchmark's pure helpers (bench/strength/): IMPs, the duplicate matches'
fairness, the constructive / competitive split of the auction boards, the deadline the
figures are measured under, and the frozen bidder's independence from the engine."""

from __future__ import annotations

import ast
import math
import random
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from bench.common import percentile
from bench.strength import common
from bench.strength.bridge_auction import (
    DENOMS,
    Board,
    boards,
    constructive,
    duplicate,
    frozen_bidder,
    imps,
    match_imps,
    own_best,
    stronger_side,
    table_score,
)
from engine.deadline import NEVER

ROOT = Path(__file__).resolve().parent.parent


def test_imps_follow_the_wbf_table_both_ways():
    assert [imps(d) for d in (0, 10, 19, 20, 49, 50, 370, 420, 430, 3990, 4000, 7600)] == [
        0,
        0,
        0,
        1,
        1,
        2,
        9,
        9,
        10,
        23,
        24,
        24,
    ]
    assert imps(-620) == -12
    # A N-S bid 4S making (620 vulnerable), B N-S stopped in 2S (170): A wins 450 = 10 IMPs
    assert match_imps(620, 170) == 10
    assert match_imps(170, 620) == -10
    assert match_imps(-100, -100) == 0


def _table(ns: dict[str, int]) -> list[list[int]]:
    """A DD table where N and S take ``ns[strain]`` tricks (default 6), E and W the rest."""
    rows = []
    for strain in DENOMS:
        t = ns.get(strain, 6)
        rows.append([t, 13 - t, t, 13 - t])
    return rows


def _hands(ns_hcp_cards: str) -> list[list[str]]:
    """Four hands: N gets the listed high cards and fills up with spots, the rest dealt in turn."""
    deck = [r + s for s in "SHDC" for r in "23456789TJQKA"]
    north = ns_hcp_cards.split()
    rest = [c for c in deck if c not in north]
    spots = [c for c in rest if c[0] in "23456789T"]
    north += spots[: 13 - len(north)]
    others = [c for c in rest if c not in north]
    return [north, others[0:13], others[13:26], others[26:39]]


def test_own_best_is_the_sides_best_undoubled_contract():
    table = _table({"S": 10, "NT": 9})  # 4S = 420, 3NT = 400 not vulnerable
    assert own_best(table, 0, False) == 420
    assert own_best(table, 0, True) == 620
    # E-W take 7 tricks in hearts, diamonds and clubs: 1H making is their best (80)
    assert own_best(table, 1, False) == 80
    assert own_best(_table({s: 3 for s in DENOMS}), 0, False) == 0  # nothing makes: pass it out


def test_constructive_when_par_is_the_stronger_sides_own_contract():
    hands = _hands("AS KS AH KH AD KD AC KC QS QH")  # N alone holds 34 HCP
    assert stronger_side(hands, 0) == 0
    table = _table({"S": 10, "NT": 9})
    assert constructive(hands, table, "-", 420)
    # par a sacrifice of E-W (4H doubled down two, 300) or N-S pushed to the five level: competitive
    assert not constructive(hands, table, "-", 300)
    assert not constructive(hands, table, "-", -100)
    # E-W the stronger side: par is their own best, with the sign of E-W
    flipped = [hands[1], hands[0], hands[3], hands[2]]
    ew_table = [[row[1], row[0], row[3], row[2]] for row in table]
    assert stronger_side(flipped, 0) == 1
    assert constructive(flipped, ew_table, "-", -420)


@pytest.fixture(scope="module")
def few_boards() -> list[Board]:
    return boards(1, 6)  # DDS: about two CPU-seconds


def test_a_duplicate_match_of_a_bidder_against_itself_is_zero(few_boards):
    from engine.games.bridge import ai

    easy = common.as_bot(ai.computer_action, "easy")
    assert duplicate(few_boards, easy, easy, 1) == [0] * len(few_boards)
    assert duplicate(few_boards, frozen_bidder, frozen_bidder, 1) == [0] * len(few_boards)
    # swapping the pairs turns every board's IMPs round (two bidders that never read the
    # clock: the strong one's simulation stops at the deadline, so under load it could
    # call differently at the two tables)
    there = duplicate(few_boards, frozen_bidder, easy, 1)
    back = duplicate(few_boards, easy, frozen_bidder, 1)
    assert there == [-x for x in back]
    for board in few_boards:
        score, calls = table_score(board, easy, frozen_bidder, 1)
        assert calls and isinstance(score, int)
        assert isinstance(board.constructive, bool)


def test_boards_are_fixed_by_the_seed_and_fresh(few_boards):
    again = boards(1, 2)
    assert [b.hands for b in again] == [b.hands for b in few_boards[:2]]
    assert [b.table for b in again] == [b.table for b in few_boards[:2]]
    assert [(b.dealer, b.vul) for b in few_boards[:4]] == [(0, "-"), (1, "NS"), (2, "EW"), (3, "All")]
    # not the boards of the old auction bench (its stream was seed * 7919 + 11, the tuning one)
    from bench.strength.bridge_auction import deal

    assert few_boards[0].hands != deal(random.Random(1 * 7919 + 11))


def test_a_whist_duplicate_match_of_a_pair_against_itself_is_zero():
    from bench.strength import whist

    assert whist.duplicate_margin(whist.FIRST_DEAL, 1, whist.easy, whist.easy) == 0
    tricks = whist.ns_tricks(whist.FIRST_DEAL, 1, [whist.easy] * 4)
    assert 0 <= tricks <= 13


def test_decisions_are_taken_under_the_bot_deadline(monkeypatch):
    from bot.thinking import SEARCH_WITHIN

    seen = []

    def computer_action(view, legal, rng, level, deadline):
        seen.append((level, deadline))
        return legal[0]

    class Clock:  # the timer's clocks: each reading 10 ms after the last (a busy host's own pace is not tested)
        now = 0.0

        def read(self) -> float:
            self.now += 0.01
            return self.now

    clock = Clock()
    monkeypatch.setattr(common, "time", SimpleNamespace(perf_counter=clock.read, process_time=clock.read))
    timer = common.DecisionTimer(common.as_bot(computer_action, "strong"))
    monkeypatch.setattr(common, "UNDER_DEADLINE", True)
    asked = time.monotonic()
    assert timer({}, ["a", "b"], random.Random(1)) == "a"
    answered = time.monotonic()
    level, deadline = seen[-1]
    # the deadline is SEARCH_WITHIN from the question (read around the call, not after it)
    assert level == "strong" and asked + SEARCH_WITHIN <= deadline.at <= answered + SEARCH_WITHIN
    monkeypatch.setattr(common, "UNDER_DEADLINE", False)
    timer({}, ["a", "b"], random.Random(1))
    assert seen[-1][1] is NEVER
    assert len(timer.seconds) == len(timer.cpu) == 2
    figures = {f.measure: f for f in timer.figures("test")}
    wall = next(f for m, f in figures.items() if m.startswith("wall time per decision, p99"))
    assert wall.goal == "<= 1.5" and wall.met


def test_p99_of_a_hundred_values_is_not_the_maximum():
    assert percentile(list(range(1, 101)), 99) == 99
    assert percentile(list(range(1, 21)), 99) == 20
    assert percentile(list(range(1, 201)), 99) == 198
    assert percentile([3.0], 50) == 3.0 and percentile([], 99) == 0.0
    assert math.isclose(percentile([0.1, 0.2, 0.3, 0.4], 50), 0.2)


def test_the_frozen_bidder_uses_nothing_of_todays_bidding_code():
    """Changes to engine/games/bridge/bidding/ or inference.py must not move the baseline."""
    folder = ROOT / "bench" / "baseline" / "bridge_bidding"
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                assert not node.module.startswith("engine.games.bridge"), (path.name, node.module)
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("engine.games.bridge") for a in node.names), path.name
    view = {
        "game": "bridge",
        "seat": 0,
        "phase": "auction",
        "dealer": 0,
        "vulnerable": {"NS": False, "EW": False},
        "auction": [],
        "hand": _hands("AS KS AH KH AD")[0],
    }
    legal = ["pass"] + [f"bid {lv}{s}" for lv in range(1, 8) for s in ("C", "D", "H", "S", "NT")]
    call = frozen_bidder(view, legal, random.Random(1))
    assert call in legal and call != "pass"  # 18 HCP open
