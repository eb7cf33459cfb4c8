"""The computers answer by a deadline (engine/deadline.py): at once when it has passed,
with the best choice found so far when it passes during the search, and exactly as before
when there is none (``NEVER``: the node budgets alone, reproducible by the seed)."""

from __future__ import annotations

import json
import random
import time

import pytest

from bot.thinking import MonotonicDeadline
from engine.base import get_game
from engine.deadline import EXPIRED, NEVER, AfterChecks, complete_cache
from tests.ai_positions import BASELINE

POSITIONS = json.loads(BASELINE.read_text())
IDS = [f"{p['game']}-{p['level']}-{p['seed']}-{p['legal'][0]}" for p in POSITIONS]
GAMES = sorted({p["game"] for p in POSITIONS})


@pytest.mark.parametrize("pos", POSITIONS, ids=IDS)
def test_no_deadline_chooses_as_before(pos):
    """The choices recorded before the deadline existed (tests/ai_positions.py), same seed."""
    game = get_game(pos["game"])
    action = game.computer_action(pos["view"], pos["legal"], random.Random(pos["seed"]), level=pos["level"])
    assert action == pos["action"]


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
@pytest.mark.parametrize("name", GAMES)
def test_an_expired_deadline_answers_at_once_with_a_legal_action(name, level):
    game = get_game(name)
    for pos in (p for p in POSITIONS if p["game"] == name and p["level"] == "strong"):
        start = time.process_time()
        action = game.computer_action(pos["view"], pos["legal"], random.Random(1), level=level, deadline=EXPIRED)
        assert action in pos["legal"]
        assert time.process_time() - start < 0.1  # no search: the quick player's choice


@pytest.mark.parametrize("checks", [1, 3, 20])
@pytest.mark.parametrize("name", GAMES)
def test_a_deadline_passing_mid_search_still_answers_legally(name, checks):
    """Cut after a few looks at the deadline: the layouts (worlds, samples) so far decide."""
    game = get_game(name)
    for pos in (p for p in POSITIONS if p["game"] == name and p["level"] == "strong"):
        action = game.computer_action(
            pos["view"], pos["legal"], random.Random(1), level="strong", deadline=AfterChecks(checks)
        )
        assert action in pos["legal"]


def test_a_result_cut_by_the_deadline_is_not_cached():
    calls = []

    @complete_cache(maxsize=4)
    def search(x: int, *, deadline=NEVER) -> int:
        calls.append(x)
        return -1 if deadline.expired() else x * 2

    assert search(3, deadline=EXPIRED) == -1
    assert search(3) == 6  # computed again, in full
    assert search(3, deadline=EXPIRED) == 6  # the complete result is reused
    assert calls == [3, 3]


def test_the_bots_deadline_reads_the_monotonic_clock():
    assert MonotonicDeadline.within(0).expired()
    assert not MonotonicDeadline.within(60).expired()
