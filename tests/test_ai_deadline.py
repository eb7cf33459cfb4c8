"""The computers answer by a deadline (engine/deadline.py): at once when it has passed,
with the best choice found so far when it passes during the search, and exactly as before
when there is none (``NEVER``: the node budgets alone, reproducible by the seed)."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path

import pytest

from bot import thinking
from bot.thinking import MonotonicDeadline, Thinker
from engine.base import get_game
from engine.deadline import EXPIRED, NEVER, AfterChecks, Pace, complete_cache
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
        # this thread's CPU time: neither the host's load nor another thread of the test
        # process (a computer still thinking for an earlier test) counts
        start = time.thread_time()
        action = game.computer_action(pos["view"], pos["legal"], random.Random(1), level=level, deadline=EXPIRED)
        assert action in pos["legal"]
        assert time.thread_time() - start < 0.1  # no search: the quick player's choice


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


@pytest.mark.parametrize("name", GAMES)
def test_a_deadline_without_a_clock_does_cut_the_search(name):
    """``AfterChecks`` has no clock: the searches that pace their steps (bridge, whist)
    must still stop at it, or the test above would never cut them."""
    game = get_game(name)
    cut_somewhere = False
    for pos in (p for p in POSITIONS if p["game"] == name and p["level"] == "strong"):
        cut = AfterChecks(1)
        game.computer_action(pos["view"], pos["legal"], random.Random(1), level="strong", deadline=cut)
        cut_somewhere |= cut.left <= 0
    assert cut_somewhere


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


def test_pace_starts_no_step_that_would_overrun():
    class Clock:
        left = 1.0

        def expired(self) -> bool:
            return self.left <= 0

        def remaining(self) -> float:
            return self.left

    clock = Clock()
    pace = Pace(clock)
    assert pace.room_for_another()
    clock.left = 0.6  # a step of 0.4 s: another fits
    assert pace.room_for_another()
    clock.left = 0.35  # one of 0.25 s; the slowest (0.4 s) would not fit
    assert not pace.room_for_another()
    assert Pace(NEVER).room_for_another()


async def test_a_search_that_overruns_is_not_waited_for(monkeypatch, caplog):
    """A worker still searching just before the answer is due: the easy player answers.
    The search here never ends until the test lets it, so an answer at all shows it was
    not waited for (no stopwatch: on a loaded machine the event loop itself runs late)."""
    import asyncio
    import logging
    import threading

    real = thinking.decide
    searching, release = threading.Event(), threading.Event()

    def stuck(game_name, view, legal, seed, level, search_until=None):
        if level != "easy":
            searching.set()
            release.wait(120)
        return real(game_name, view, legal, seed, level, search_until)

    monkeypatch.setattr(thinking, "decide", stuck)
    caplog.set_level(logging.INFO, logger="bot.thinking")
    pos = next(p for p in POSITIONS if p["game"] == "durak")
    thinker = Thinker(workers=0)
    try:
        action = await asyncio.wait_for(thinker.decide("durak", pos["view"], pos["legal"], 1, "strong"), 60)
        assert searching.is_set() and not release.is_set()  # answered while the search still ran
    finally:
        release.set()
        thinker.close()
    assert action == real("durak", pos["view"], pos["legal"], 1, "easy")
    assert thinker.decisions == 1 and thinker.fallbacks == {"late": 1}


def hold_the_lane(folder: str) -> None:
    """A stand-in for a deal analysis (run in the analysis lane's process): says it has
    started, then holds its lane until the test releases it (at most two minutes)."""
    Path(folder, "started").touch()
    for _ in range(12_000):
        if Path(folder, "released").exists():
            return
        time.sleep(0.01)


async def test_a_running_analysis_does_not_make_a_decision_fall_back(tmp_path, monkeypatch):
    """The deal analysis has its own lane: while one runs, a computer's decision still gets
    a worker and its search, and is not answered by the quick player. The deadline is made
    generous (no wall clock here: a busy host only makes the decision slower); sharing the
    computers' one worker, the decision would wait for the analysis past it."""
    monkeypatch.setattr(thinking, "ANSWER_WITHIN", 20.0)
    monkeypatch.setattr(thinking, "SEARCH_WITHIN", 19.0)
    pos = next(p for p in POSITIONS if p["game"] == "durak" and p["level"] == "strong")
    thinker = Thinker(workers=1)
    analysis = asyncio.ensure_future(thinker.analyse(hold_the_lane, str(tmp_path)))
    try:
        for _ in range(12_000):  # until the analysis runs (its process started)
            if (tmp_path / "started").exists() or analysis.done():
                break
            await asyncio.sleep(0.01)
        assert (tmp_path / "started").exists()
        action = await thinker.decide("durak", pos["view"], pos["legal"], 1, "strong")
        assert action in pos["legal"]
        assert thinker.decisions == 1 and not thinker.fallbacks
        assert not analysis.done()  # it was running all along
    finally:
        (tmp_path / "released").touch()
        await asyncio.wait_for(analysis, 120)
        thinker.close()


def test_a_busy_pool_shares_its_time_rather_than_queue_past_the_deadline():
    """With no more decisions in the pool than workers a search runs to its deadline; when
    a queue forms, every search (running ones too, read at each check) stops at its share
    of the workers' time from its start to its deadline, at least MIN_SEARCH, never past
    the deadline."""
    pool = thinking.InFlight()
    now = time.monotonic()
    running = thinking.ShareDeadline(started=now, search_until=now + 1.2, workers=2, in_flight=pool)
    pool.value = 2
    assert running.at() == pytest.approx(now + 1.2)
    pool.value = 4  # two more arrive behind it: it is cut to half its time
    assert running.at() == pytest.approx(now + 0.6)
    pool.value = 100  # a crowd: still a search of its own
    assert running.at() == pytest.approx(now + thinking.MIN_SEARCH)
    late = thinking.ShareDeadline(started=now, search_until=now + 0.05, workers=2, in_flight=pool)
    assert late.at() == pytest.approx(now + 0.05)  # never past the deadline
    pool.value = 1
    assert running.at() == pytest.approx(now + 1.2)
    gone = thinking.ShareDeadline(started=now - 2, search_until=now - 0.8, workers=1, in_flight=pool)
    assert gone.expired() and gone.remaining() == 0.0


def test_a_search_reads_the_pools_count_as_it_goes(monkeypatch):
    """The worker's search sees the count the bot writes while it runs (the shared value,
    here the thread's): a queue forming behind a running search cuts it short."""
    seen = []
    count = thinking.InFlight()
    monkeypatch.setattr(thinking, "_in_flight", count)

    def record(game_name, view, legal, seed, level, deadline=None):
        whole = deadline.search_until - deadline.started
        seen.append((deadline.at() - deadline.started) / whole)
        count.value = 6
        seen.append((deadline.at() - deadline.started) / whole)
        return legal[0]

    monkeypatch.setattr(thinking, "decide", record)
    count.value = 2
    action, started, no_time = thinking.decide_shared("durak", {}, ["a", "b"], 1, "strong", time.monotonic() + 1.0, 2)
    assert action == "a" and not no_time
    assert seen == [pytest.approx(1.0), pytest.approx(1 / 3)]  # all its time, then a third
    _, _, no_time = thinking.decide_shared("durak", {}, ["a", "b"], 1, "strong", time.monotonic() - 1, 2)
    assert no_time
