"""Kill and restart: ``cardbot run`` gets SIGKILL at seeded random moments of a durak game
between two people and a new process takes over the same database (SQLite, PostgreSQL).
No accepted move may be lost or applied twice, nothing may be applied that nobody
pressed, and the log must replay into the game the table shows. Duplicate posts (a kill
between Telegram's answer and the outbox write) are counted, at most one per kill.
The long version: ``python -m bench.chaos``; the machinery: tests/chaos_harness.py."""

from __future__ import annotations

from tests.chaos_harness import Chaos

PRESSES = 30  # about a third of a game: the DM hands are redrawn about once a second
KILLS = 5  # all among those presses: the test does the same work however busy the machine


async def test_sigkill_and_restart_lose_no_move(database, tmp_path):
    async with Chaos(database, tmp_path, seed=20261130) as chaos:
        await chaos.play_game(0, KILLS, PRESSES)
        report = chaos.report
        tracebacks = chaos.tracebacks()
    summary = report.summary()
    print(summary)  # shown with -s
    assert report.kills >= 1 and report.recoveries, summary  # it did restart and play on
    assert report.accepted >= report.kills, summary
    assert report.lost == 0 and report.doubled == 0 and report.unpressed == 0, summary
    assert report.vanished == 0, summary  # every press the kills cut short is answered
    assert not report.problems, summary
    assert report.duplicate_posts <= report.kills, summary
    assert not tracebacks, tracebacks[0]
