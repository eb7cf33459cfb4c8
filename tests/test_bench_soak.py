"""The soak bench (bench/soak.py) still runs end to end: two groups on SQLite for a few
seconds, one SIGKILL, Telegram faults, every figure printed, and nothing of it left
behind (no process, no temporary folder). No figure is asserted: the bench measures and
prints its own goals; this only catches a broken bench."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from bench.soakproc import all_procs

ROOT = Path(__file__).resolve().parent.parent
FIGURES = (
    "2 of 2 groups playing",
    "RSS of the bot's processes",
    "RSS trend, second half",
    "rows per table over time",
    "orphans 10 s after a kill",
    "processes left 10 s after a clean stop",
    "moves lost",
    "moves doubled",
    "presses never answered",
    "posts sent twice",
    "press -> answer p99",
    "fell back to the easy player",
)


def processes_under(folder: Path) -> list[str]:
    """Processes working in ``folder`` (the bot runs in the bench's temporary folder)."""
    found = []
    for p in all_procs().values():
        try:
            cwd = os.readlink(f"/proc/{p.pid}/cwd")
        except OSError:
            continue
        if cwd.startswith(str(folder)) and p.state != "Z":
            found.append(f"{p.pid} {p.cmd}")
    return found


def test_the_soak_bench_runs_and_cleans_up(tmp_path):
    env = {**os.environ, "TMPDIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    args = ["--groups", "2", "--minutes", "0.2", "--backend", "sqlite", "--kills", "1"]
    args += ["--sample-every", "4", "--telegram-faults-every", "4"]
    done = subprocess.run(
        [sys.executable, "-m", "bench.soak", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    missing = [figure for figure in FIGURES if figure not in out]
    assert not missing, f"not printed: {missing}\n{out}"
    assert "SIGKILLs 1" in out, out
    # whatever the bench started has ended (a killed bot's orphans included) ...
    left = processes_under(tmp_path)
    for _ in range(50):  # a process SIGKILLed at the very end may take a moment to go
        if not left:
            break
        time.sleep(0.1)
        left = processes_under(tmp_path)
    assert not left, left
    # ... and its temporary folder is gone
    assert not list(tmp_path.glob("soak-*")), list(tmp_path.iterdir())


async def test_the_soak_counts_the_fallbacks_the_bot_logs(caplog, monkeypatch):
    """bench.soak reads the fallbacks from the bot's log: its matcher must recognise the
    very lines bot/thinking.py writes (it once matched none of the deadline's)."""
    import asyncio
    import logging

    from bench.soak import fallback_reason
    from bot import thinking

    caplog.set_level(logging.INFO, logger="bot.thinking")
    thinker = thinking.Thinker(workers=0)
    try:
        thinker._fell_back("durak", "strong", "late", "2 decision(s) ahead of it")
        thinker._fell_back("bridge", "strong", "queued", "1.20 s in the queue")

        def broken(*args):
            raise RuntimeError("a bug in a player")

        monkeypatch.setattr(thinking, "decide", broken)
        await asyncio.wait_for(thinker.decide("durak", {}, ["a", "b"], 1, "strong"), 60)
    finally:
        thinker.close()
    reasons = [fallback_reason(f"2026-12-04 INFO bot.thinking: {r.getMessage()}") for r in caplog.records]
    assert reasons == ["late", "queued", "failed"]
    assert fallback_reason("a move: durak computer (strong) played 7♠") is None
