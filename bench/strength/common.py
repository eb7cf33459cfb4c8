"""What a strength module reports, and the statistics every module shares."""

from __future__ import annotations

import math
import random
import statistics
import time
from dataclasses import dataclass
from typing import Callable, Iterable

from bench.common import percentile
from bot.thinking import ANSWER_WITHIN, SEARCH_WITHIN, MonotonicDeadline
from engine.deadline import NEVER, Deadline


@dataclass
class Figure:
    game: str
    measure: str  # what was measured, e.g. "win rate vs cheapest-card player"
    value: float
    half_width: float  # of the 95 % interval; 0 when not a sampled figure
    goal: str  # e.g. ">= 0.60"
    met: bool
    unit: str = ""
    n: int = 0  # games / deals / decisions behind the figure

    def line(self) -> str:
        interval = f" ± {self.half_width:.3g}" if self.half_width else ""
        verdict = "met" if self.met else "MISSED"
        return (
            f"{self.game:<10} {self.measure:<58} {self.value:.3g}{interval}{self.unit}"
            f"  (n={self.n})  goal {self.goal}: {verdict}"
        )


def mean_ci(values: Iterable[float]) -> tuple[float, float, int]:
    """Mean and the half-width of its 95 % normal interval."""
    data = list(values)
    n = len(data)
    if n == 0:
        return 0.0, 0.0, 0
    mean = statistics.fmean(data)
    if n == 1:
        return mean, 0.0, 1
    return mean, 1.96 * statistics.stdev(data) / math.sqrt(n), n


def rate_ci(successes: float, n: int) -> tuple[float, float]:
    """A proportion and the half-width of its 95 % Wilson interval (centre kept simple)."""
    if n == 0:
        return 0.0, 0.0
    p = successes / n
    z = 1.96
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, half


def at_least(game: str, measure: str, values: list[float], goal: float, unit: str = "") -> Figure:
    mean, half, n = mean_ci(values)
    return Figure(game, measure, mean, half, f">= {goal:g}", mean >= goal, unit, n)


def at_most(game: str, measure: str, values: list[float], goal: float, unit: str = "") -> Figure:
    mean, half, n = mean_ci(values)
    return Figure(game, measure, mean, half, f"<= {goal:g}", mean <= goal, unit, n)


Chooser = Callable[[dict, list, random.Random], str]

# The strength figures are measured as the bot plays: every decision of a computer under
# the bot's deadline (bot/thinking.py: the search stops SEARCH_WITHIN seconds after the
# question). ``ai_strength --no-deadline`` turns it off (node budgets only: reproducible
# by the seed whatever the machine's load, the way the figures were measured before).
UNDER_DEADLINE = True


def bot_deadline() -> Deadline:
    """A fresh deadline for one decision, started now (``NEVER`` with the deadline off)."""
    return MonotonicDeadline.within(SEARCH_WITHIN) if UNDER_DEADLINE else NEVER


def as_bot(computer_action: Callable[..., str], level: str) -> Chooser:
    """The game's computer at ``level`` as the bot asks it: each decision under its own
    ``bot_deadline()``, which starts when the decision is asked for."""

    def choose(view: dict, legal: list, rng: random.Random) -> str:
        return computer_action(view, legal, rng, level=level, deadline=bot_deadline())

    return choose


class DecisionTimer:
    """Wraps a chooser and records each decision's wall-clock and CPU seconds. On a
    shared machine the wall clock measures the other jobs as much as the player; the CPU
    time is what the decision costs on a free core."""

    def __init__(self, choose: Callable[..., str]) -> None:
        self.choose = choose
        self.seconds: list[float] = []  # wall clock
        self.cpu: list[float] = []

    def __call__(self, *args, **kwargs) -> str:
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            return self.choose(*args, **kwargs)
        finally:
            self.seconds.append(time.perf_counter() - wall)
            self.cpu.append(time.process_time() - cpu)

    def add(self, seconds: list[float], cpu: list[float]) -> None:
        """Times recorded by a copy of this timer in a worker process."""
        self.seconds += seconds
        self.cpu += cpu

    def figures(self, game: str) -> list[Figure]:
        """Wall p99 within the bot's answer time (ANSWER_WITHIN), the share of decisions
        that ran to the search deadline (reported), CPU p99 <= 1 s and mean <= 0.3 s."""
        if not self.seconds:
            return []
        n = len(self.seconds)
        wall_p99 = percentile(self.seconds, 99)
        at_deadline, half = rate_ci(sum(s >= SEARCH_WITHIN for s in self.seconds), n)
        cpu_p99, cpu_mean = percentile(self.cpu, 99), statistics.fmean(self.cpu)
        mode = "under the deadline" if UNDER_DEADLINE else "no deadline"
        slow = (
            f"decisions that ran to the {SEARCH_WITHIN:g} s deadline"
            if UNDER_DEADLINE
            else f"decisions over {SEARCH_WITHIN:g} s"
        )
        return [
            Figure(
                game,
                f"wall time per decision, p99 ({mode})",
                wall_p99,
                0,
                f"<= {ANSWER_WITHIN:g}",
                wall_p99 <= ANSWER_WITHIN,
                " s",
                n,
            ),
            Figure(
                game,
                slow,
                at_deadline,
                half,
                "report",
                True,
                "",
                n,
            ),
            Figure(game, "CPU time per decision, p99", cpu_p99, 0, "<= 1", cpu_p99 <= 1.0, " s", n),
            Figure(game, "CPU time per decision, mean", cpu_mean, 0, "<= 0.3", cpu_mean <= 0.3, " s", n),
        ]
