"""Small helpers shared by the benchmark scripts."""

from __future__ import annotations

import math
import os
import platform
import resource
import sys


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of ``values``; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    # the smallest value with at least q % of the values at or below it (p99 of 100: the
    # 99th, not the maximum)
    k = max(0, min(len(ordered) - 1, math.ceil(q / 100 * len(ordered) - 1e-9) - 1))
    return ordered[k]


def peak_rss_mb() -> float:
    """Peak resident set size of this process (Linux reports KiB)."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / 1024 if sys.platform != "darwin" else rss / 1024 / 1024


def machine() -> str:
    return (
        f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} CPUs, {platform.machine()}"
    )


def header(title: str) -> None:
    print(f"== {title}")
    print(f"   machine: {machine()}")
