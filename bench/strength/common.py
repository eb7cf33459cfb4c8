"""What a strength module reports, and the statistics every module shares."""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass
from typing import Callable, Iterable


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


class DecisionTimer:
    """Wraps a chooser and records how long each decision took (seconds)."""

    def __init__(self, choose: Callable[..., str]) -> None:
        self.choose = choose
        self.seconds: list[float] = []

    def __call__(self, *args, **kwargs) -> str:
        start = time.perf_counter()
        try:
            return self.choose(*args, **kwargs)
        finally:
            self.seconds.append(time.perf_counter() - start)

    def figures(self, game: str) -> list[Figure]:
        """p99 ≤ 1 s and mean ≤ 0.3 s per decision."""
        data = sorted(self.seconds)
        if not data:
            return []
        p99 = data[min(len(data) - 1, int(0.99 * len(data)))]
        mean = statistics.fmean(data)
        return [
            Figure(game, "time per decision, p99", p99, 0, "<= 1", p99 <= 1.0, " s", len(data)),
            Figure(game, "time per decision, mean", mean, 0, "<= 0.3", mean <= 0.3, " s", len(data)),
        ]


class CpuDecisionTimer(DecisionTimer):
    """A DecisionTimer in CPU seconds (``time.process_time``): on a shared machine the
    wall clock measures the other jobs as much as the player."""

    def __call__(self, *args, **kwargs) -> str:
        start = time.process_time()
        try:
            return self.choose(*args, **kwargs)
        finally:
            self.seconds.append(time.process_time() - start)
