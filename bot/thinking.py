"""Where computer players think: off the event loop, so a strong player's search at one
table never delays a person's press at another.

A process pool sized to the machine (a worker per core) does the work (the search is CPU-bound, and threads
would share one core through the GIL); ``workers=0`` thinks in one thread instead (one:
the double-dummy solver is not re-entrant; the deal analyses share that thread), which the
tests use (no processes to start) and which is enough for a very small bot. A
decision carries its own seed, drawn by the caller, so a table's play stays
reproducible from the caller's random source.

Deadline: a person at the table sees the wall clock, so every decision is answered within
``ANSWER_WITHIN`` of being asked for, whatever the host's load. The searches stop at
``SEARCH_WITHIN`` (engine/deadline.py: the best choice so far, or the easy player's), a
margin left for the answer's way back. The clock starts when the decision is asked for,
not when a worker takes it up: time queued in the pool counts (``time.monotonic`` is one
clock for every process of the machine on Linux). A search still running just before
``ANSWER_WITHIN`` (one uninterruptible step of it slower than the margin on a starved
core) is not waited for: the easy player answers then. Every worker starts with the pool
(a cold one's imports take seconds on a busy host). The pool's time is shared
(``ShareDeadline``): every search, running or still queued, reads how many decisions are
in the pool now, and with more than there are workers it stops at its share of the time
to its deadline. A search already running is cut when a queue forms behind it, so the
pool drains by the deadline with shallower searches (the best move found so far) instead
of answering the last decisions in it with the quick player.

Fallbacks: a decision answered without its search (no answer by the deadline, the worker
took it up only after the search's deadline, a worker died, a player failed) is logged
with its reason and counted in ``Thinker.fallbacks`` beside ``Thinker.decisions`` (the
bench reads them: bench/capacity.py).

Lanes: the computers' decisions have the pool; other CPU-bound work (the deal analysis,
bot/deal_view.py) runs in ``Thinker.analyse``, a lane of its own: one process at the
lowest CPU priority, one task at a time, so it never holds a computer's worker or its CPU.

Stopping: a Ctrl-C in a terminal (or systemd's stop) signals the workers too, so their
decisions in flight fail with ``BrokenProcessPool`` as the bot stops. Once ``stop()`` was
called such a decision is cancelled quietly: the computer's move stays due and is made at
the next start (``service.timers.resume``).
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import functools
import logging
import multiprocessing
import os
import random
import time
from dataclasses import dataclass
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Awaitable, Callable, TypeVar

from bot.game_registry import playable
from bot.lifeline import end_with_parent
from engine.ai_levels import DEFAULT_LEVEL, LEVELS
from engine.base import get_game
from engine.deadline import Deadline

log = logging.getLogger(__name__)
T = TypeVar("T")

SLOW_DECISION = 1.0  # seconds: past this the table shows "🤖 thinking…"
ANSWER_WITHIN = 1.5  # seconds from the question to the computer's answer
# seconds from the question to the end of the search, 0.2 s before the answer is no longer
# waited for: at 1.3 s (0.05 s of margin) the searches cut at their deadline on a host at
# load 15 on 2 cores came back at 1.40-1.66 s, too late by the worker -> pipe -> event
# loop way back (bench/capacity.py), and the quick player answered instead
SEARCH_WITHIN = 1.15
NET_MARGIN = 0.15  # seconds before ANSWER_WITHIN: a search still running then is not waited for
STOP_GRACE = 0.5  # seconds a dead worker waits for the stop that may have killed it
# the log's words for a decision answered without its search (bench/soak.py counts them)
NO_SEARCH = "no search, the quick player moves"
PLAYER_FAILED = "failed; the easy player moves instead"


@dataclass(frozen=True)
class MonotonicDeadline:
    """Expired once ``time.monotonic()`` reaches ``at`` (engine.deadline.Deadline)."""

    at: float

    @classmethod
    def within(cls, seconds: float) -> MonotonicDeadline:
        return cls(time.monotonic() + seconds)

    def expired(self) -> bool:
        return time.monotonic() >= self.at

    def remaining(self) -> float:
        return max(0.0, self.at - time.monotonic())


class InFlight:
    """How many decisions are in the pool now (running or queued): the bot writes it, every
    search reads it. With worker processes it lives in shared memory (``RawValue``, one
    aligned int: a write is atomic, no lock needed); with one thread, in this process."""

    def __init__(self) -> None:
        self.value = 0


_in_flight: Any = InFlight()  # in a worker: the bot's shared count (_warm_up)
MIN_SEARCH = 0.1  # seconds: however full the pool, a search that starts in time gets this


@dataclass(frozen=True)
class ShareDeadline:
    """A search's deadline on a shared pool (engine.deadline.Deadline): ``search_until``,
    or sooner when more decisions are in the pool than it has workers. Then the workers'
    time from the search's start to its deadline is shared among all of them, read afresh
    at every check: a search already running is cut short when a queue forms behind it, and
    one that starts behind a queue gets its share of what is left (at least ``MIN_SEARCH``,
    never past ``search_until``)."""

    started: float
    search_until: float
    workers: int
    in_flight: Any  # .value: the decisions in the pool now

    def at(self) -> float:
        crowd = max(self.workers, self.in_flight.value)
        share = (self.search_until - self.started) * self.workers / crowd
        return min(self.search_until, self.started + max(MIN_SEARCH, share))

    def expired(self) -> bool:
        return time.monotonic() >= self.at()

    def remaining(self) -> float:
        return max(0.0, self.at() - time.monotonic())


def decide(
    game_name: str, view: dict, legal: list[str], seed: int, level: str, deadline: Deadline | None = None
) -> str:
    """One computer decision (runs in a worker): the seat's view and legal actions only;
    the search stops at ``deadline`` (None: the node budgets only)."""
    game = get_game(game_name)
    if deadline is None:
        return game.computer_action(view, legal, random.Random(seed), level=level)
    return game.computer_action(view, legal, random.Random(seed), level=level, deadline=deadline)


def decide_shared(
    game_name: str, view: dict, legal: list[str], seed: int, level: str, search_until: float, workers: int
) -> tuple[str, float, bool]:
    """``decide`` in a worker with the pool's time shared (``ShareDeadline``). Returns the
    action, the monotonic time it started (the caller sees how long the decision waited in
    the queue) and whether it started too late for a search (less than ``MIN_SEARCH`` left
    to its deadline: the engine's quick player answered, or a search too short to count)."""
    started = time.monotonic()
    deadline = ShareDeadline(started, search_until, workers, _in_flight)
    return decide(game_name, view, legal, seed, level, deadline), started, search_until - started < MIN_SEARCH


def _warm_up(games: list[str], in_flight: Any = None) -> None:
    """Each worker ends with the bot, however the bot dies (bot/lifeline.py), imports the
    games' engines (their computer players) as it starts and reads the bot's count of the
    decisions in the pool."""
    global _in_flight
    end_with_parent()
    if in_flight is not None:
        _in_flight = in_flight
    for name in games:
        get_game(name)


def _ready() -> None:
    """A task that only makes the pool start a worker (Thinker._executor)."""


def _analysis_worker(games: list[str]) -> None:
    """The analysis lane's worker: the lowest CPU priority, so the deal analysis uses only
    what the computers' workers and the event loop leave (on Linux a nice-19 process gets
    about 1.5 % of a core against a busy nice-0 one)."""
    _warm_up(games)
    os.nice(19)


def default_workers() -> int:
    """One worker per CPU, measured (bench/capacity.py, README "Computer players"): on 2
    cores 2 workers held 50 busy tables without a fallback where 1 worker queued (its
    decisions waited past their deadline) and 3 only time-sliced the same CPU; the event
    loop's lag at a press stayed under 10 ms with every worker busy (the searches stop at
    their deadline, so a worker never holds a core for long)."""
    return max(1, os.cpu_count() or 1)


class Thinker:
    def __init__(self, workers: int | None = None) -> None:
        self.workers = default_workers() if workers is None else workers
        self._pool: concurrent.futures.Executor | None = None
        self._lane: concurrent.futures.Executor | None = None  # the deal analyses'
        self.stopping = False
        self.decisions = 0  # asked with a choice to make
        self.fallbacks: collections.Counter[str] = collections.Counter()  # answered without search, by reason
        self._in_flight: Any = InFlight()  # decisions in the pool now (shared with the workers)
        self._started: list[concurrent.futures.Future[None]] = []  # the workers' start (_ready)
        self.dropped_after: collections.deque[float] = collections.deque(maxlen=1000)

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None and self.workers <= 0:
            # One thread, not the event loop's pool of several: DDS (endplay, called with
            # thread index 0) is not re-entrant, and two searches in it at once (a decision
            # past its deadline still running when the next one starts) crash the process
            self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="computers")
        if self._pool is None:
            # forkserver: workers start from a clean process, not a copy of this one
            # with its event loop, database threads and sockets
            context = multiprocessing.get_context("forkserver")
            games = [ui.name for ui in playable()]  # the worker need not import the bot's games
            self._in_flight = context.RawValue("i", self._in_flight.value)
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_warm_up, initargs=(games, self._in_flight)
            )
            # start every worker now: the pool starts one only when a task finds none
            # idle, and a decision that waited for a cold worker (its imports take
            # seconds on a busy host) missed its deadline (bench/capacity.py)
            self._started = [self._pool.submit(_ready) for _ in range(self.workers)]
        return self._pool

    async def ready(self) -> None:
        """Wait until every worker has started (a bench times warm workers only)."""
        self._executor()
        await asyncio.gather(*(asyncio.wrap_future(f) for f in self._started))

    async def decide(
        self,
        game_name: str,
        view: dict,
        legal: list[str],
        seed: int,
        level: str = DEFAULT_LEVEL,
        on_slow: Callable[[], Awaitable[None]] | None = None,
    ) -> str:
        """The computer's action, within ``ANSWER_WITHIN`` seconds; ``on_slow`` is awaited
        once if it takes over a second."""
        asked = time.monotonic()  # the clock starts at the question
        search_until = asked + SEARCH_WITHIN
        if level not in LEVELS:
            level = DEFAULT_LEVEL
        if len(legal) == 1:
            return legal[0]  # nothing to think about: spare the round trip
        self.decisions += 1
        loop = asyncio.get_running_loop()
        pool = self._executor()
        ahead = self._in_flight.value  # decisions already in the pool
        workers = max(1, self.workers)  # one thread: one at a time, like one worker
        try:  # a pool whose worker died while idle refuses the call at once
            future = loop.run_in_executor(
                pool, decide_shared, game_name, view, legal, seed, level, search_until, workers
            )
            self._in_flight.value += 1
            future.add_done_callback(self._one_less)
            try:
                if on_slow is not None:
                    try:
                        decided, started, no_time = await asyncio.wait_for(asyncio.shield(future), SLOW_DECISION)
                    except asyncio.TimeoutError:
                        await on_slow()
                    else:
                        return self._searched(game_name, level, decided, started - asked, ahead, no_time)
                left = asked + ANSWER_WITHIN - NET_MARGIN - time.monotonic()
                decided, started, no_time = await asyncio.wait_for(asyncio.shield(future), max(0.0, left))
            except asyncio.TimeoutError:
                # no answer in time: queued behind other decisions, or one step of the
                # search longer than the margin on a starved core. The easy player
                # answers now; the search's answer is dropped when it comes
                self._fell_back(game_name, level, "late", f"{ahead} decision(s) ahead of it, {self.workers} worker(s)")
                future.add_done_callback(functools.partial(self._dropped, asked))
                return decide(game_name, view, legal, seed, "easy")
        except BrokenProcessPool as error:
            # a worker died: killed by the signal that stops the bot (whose handler may
            # run a moment later), or by the system (out of memory)
            if not self.stopping:
                await asyncio.sleep(STOP_GRACE)
            if self._pool is pool:  # not a new one started meanwhile
                self._drop_pool()
            if self.stopping:
                log.info("stopping: the %s computer's move is made at the next start", game_name)
                raise asyncio.CancelledError from error
            self._fell_back(game_name, level, "worker_died", f"its worker died ({error})", logging.WARNING)
        except Exception:
            # A bug in a player: the table must not stall on it. The easy player is quick
            # and simple; it moves this time.
            log.exception("%s computer (%s) %s", game_name, level, PLAYER_FAILED)
            self.fallbacks["failed"] += 1
        else:
            return self._searched(game_name, level, decided, started - asked, ahead, no_time)
        try:
            return decide(game_name, view, legal, seed, "easy")
        except Exception:
            return legal[0]

    def _dropped(self, asked: float, future: asyncio.Future) -> None:
        """A late search's answer, unused: when it came (``dropped_after``, seconds after
        the question: a step overrun or a queue); its failure (a worker killed meanwhile)
        is no news."""
        if not future.cancelled() and future.exception() is None:
            self.dropped_after.append(time.monotonic() - asked)

    def _one_less(self, _: object) -> None:
        self._in_flight.value -= 1

    def _searched(self, game_name: str, level: str, decided: str, queued: float, ahead: int, no_time: bool) -> str:
        """The worker's answer; counted as a fallback when it took the decision up only
        after the search's deadline (the engine then answers with its quick player)."""
        if no_time and level != "easy":
            self._fell_back(game_name, level, "queued", f"{queued:.2f} s in the queue, {ahead} decision(s) ahead")
        return decided

    def _fell_back(self, game_name: str, level: str, reason: str, detail: str, level_: int = logging.INFO) -> None:
        """A decision answered without its search: logged with why, and counted
        (``fallbacks``, by reason, beside ``decisions``: a bench reads both)."""
        self.fallbacks[reason] += 1
        log.log(level_, "%s computer (%s): %s (%s: %s)", game_name, level, NO_SEARCH, reason, detail)

    async def analyse(self, function: Callable[..., T], *args: object) -> T:
        """Other CPU-bound work of the bot (a deal's double-dummy analysis) in its own
        lane: one process at the lowest priority (a thread with ``workers=0``), one task
        at a time, so it never takes a computer's worker or its CPU; ``function`` must be
        importable by name (pickled)."""
        if self._lane is None:
            if self.workers <= 0:  # the computers' one thread: DDS is not re-entrant
                self._lane = self._executor()
            else:
                context = multiprocessing.get_context("forkserver")
                games = [ui.name for ui in playable()]
                self._lane = concurrent.futures.ProcessPoolExecutor(
                    1, mp_context=context, initializer=_analysis_worker, initargs=(games,)
                )
        lane = self._lane
        try:
            return await asyncio.get_running_loop().run_in_executor(lane, function, *args)
        except BrokenProcessPool:
            if self._lane is lane:  # a new one for the next analysis
                self._lane = None
                lane.shutdown(wait=False, cancel_futures=True)
            raise

    def stop(self) -> None:
        """The bot is stopping: a decision its workers fail from now on is cancelled."""
        self.stopping = True

    def _drop_pool(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def close(self) -> None:
        self.stop()
        self._drop_pool()
        if self._lane is not None:
            self._lane.shutdown(wait=False, cancel_futures=True)
            self._lane = None
        self._drop_pool()  # (with workers=0 the lane was the pool: it starts anew if asked)
