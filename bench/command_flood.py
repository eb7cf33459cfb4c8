"""One group's command flood stalls nobody else, measured as the bot
runs in production: ``build_application`` as ``cardbot run`` builds it (PTB's
``AIORateLimiter`` on, 16 concurrent updates, the command gate, the background sender and
timer loops), updates handed over through ``app.update_queue`` and PTB's own update
fetcher (``app.start()``), as polling feeds them; the fake Bot API of tests/fakebot.py.

    python -m bench.command_flood                   # ~45 s
    python -m bench.command_flood --seconds 90 --probe-every 0.25
    python -m bench.command_flood --without-gate    # the experiment: no repeat gate

Two floods in one group at once:
* 60 ``/rules king`` from 30 people, all in the same instant;
* 60 different commands (``/rules <game> <n>``, ``/help <n>``), two a second, which the
  repeat gate cannot fold: the group gets a reply for each one it admits, more than its
  20 a minute, so the later replies wait in the outbox for the group's budget (the
  sender sends them as the budget allows), holding no handler slot meanwhile.
Meanwhile, every ``--probe-every`` seconds, someone else writes ``/start`` in their DM and
someone ``/help`` in another group. Goal: each of those replies within 1 s (from
``update_queue.put`` to the ``sendMessage`` call). Wall-clock figures: on a loaded machine
they are an upper bound.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # `python bench/command_flood.py`
    sys.path.insert(0, str(Path(__file__).absolute().parent.parent))

from bot.game_registry import playable

GOAL_S = 1.0
FLOODED = -1001
GAMES = tuple(ui.name for ui in playable())


async def reply_time(fake, chat_id: int, since: float, timeout: float = 30.0) -> float | None:
    """Seconds from ``since`` to the bot's first sendMessage to ``chat_id`` after it."""
    start = len(fake.log)
    deadline = since + timeout
    while time.monotonic() < deadline:
        for call in fake.log[start:]:
            if call.method == "sendMessage" and call.chat_id == chat_id and call.t >= since:
                return call.t - since
        await asyncio.sleep(0.002)
    return None


async def run(a: argparse.Namespace) -> int:
    from telegram import Update

    from bench.common import header
    from bot.app import build_application
    from bot.config import Settings
    from bot.emulator.telegram_fake import FakeRequest, FakeTelegram

    logging.basicConfig(level=logging.ERROR)
    header(
        f"command flood: 60 same + 60 different commands in one group, other chats probed "
        f"every {a.probe_every:g} s for {a.seconds:g} s; AIORateLimiter ON (as cardbot run)"
    )
    if a.without_gate:  # what the gate is for: every command answered, each holding a slot
        from bot.command_gate import CommandGate

        CommandGate.admit = lambda self, *command: True
        print("   EXPERIMENT (not the production set-up): the command gate admits everything")
    fake = FakeTelegram(raise_handler_errors=False)  # Call.t is time.monotonic()
    fake.group(FLOODED, "Flood", admins=[1], supergroup=True)
    flooders = [fake.user(100 + i, f"F{i}", language_code="en") for i in range(30)]
    visitors = [fake.user(1000 + i, f"V{i}", language_code="en") for i in range(40)]
    others = [fake.group(-2000 - i, f"Other {i}", supergroup=True).id for i in range(40)]
    with tempfile.TemporaryDirectory(prefix="cardbot-flood-") as tmp:
        settings = Settings(token=f"{fake.bot_id}:TEST", db_path=str(Path(tmp) / "bot.sqlite3"))
        app = build_application(settings, request=FakeRequest(fake))  # the production set-up
        await app.initialize()
        await app.post_init(app)
        await app.start()
        cpu0, t0 = time.process_time(), time.monotonic()

        async def put(user, chat, text: str) -> float:
            _, update = fake.message_update(user, chat, text)
            at = time.monotonic()
            await app.update_queue.put(Update.de_json(update, app.bot))
            return at

        for i in range(60):  # the first flood: one instant
            await put(flooders[i % 30], FLOODED, "/rules king")

        async def different_commands() -> None:
            for i in range(60):
                text = f"/rules {GAMES[i % len(GAMES)]} {i}" if i % 3 else f"/help {i}"
                await put(flooders[i % 30], FLOODED, text)
                await asyncio.sleep(0.5)

        flood = asyncio.create_task(different_commands())
        probes: list[asyncio.Task] = []
        n = 0
        while time.monotonic() - t0 < a.seconds:
            visitor, other = visitors[n % len(visitors)], others[n % len(others)]
            for chat, text, user in ((visitor.id, "/start", visitor), (other, "/help", visitor)):
                at = await put(user, chat, text)
                probes.append(asyncio.create_task(reply_time(fake, chat, at)))
            n += 1
            await asyncio.sleep(a.probe_every)
        waits = await asyncio.gather(*probes)
        cpu = time.process_time() - cpu0
        flood.cancel()
        group_replies = [c for c in fake.log if c.chat_id == FLOODED and c.method == "sendMessage"]
        report(waits, group_replies)
        print(f"   CPU: {cpu:.1f} s for {time.monotonic() - t0:.0f} s of run")
        try:  # replies still held back by the limiter are not waited for
            await asyncio.wait_for(app.stop(), timeout=5)
        except TimeoutError:
            pass
        await app.post_shutdown(app)
        await app.shutdown()
    return 0


def report(waits: list[float | None], group_replies: list) -> None:
    from bench.common import percentile, verdict

    answered = [w for w in waits if w is not None]
    missing = len(waits) - len(answered)
    spread = group_replies[-1].t - group_replies[0].t if group_replies else 0.0
    print(f"   flooded group: 120 commands, {len(group_replies)} replies over {spread:.0f} s")
    print(f"   other chats: {len(waits)} commands (DM /start, /help in other groups), {missing} unanswered within 30 s")
    figures = (
        (
            f"p50 {percentile(answered, 50) * 1000:.0f} ms, p99 {percentile(answered, 99) * 1000:.0f} ms, "
            f"max {max(answered) * 1000:.0f} ms"
        )
        if answered
        else "none answered"
    )
    print(
        f"   their reply time: {figures}   goal <= {GOAL_S:g} s: "
        f"{verdict(not missing and max(answered, default=0) <= GOAL_S)}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--probe-every", type=float, default=0.5)
    parser.add_argument(
        "--without-gate", action="store_true", help="experiment: turn the command gate off, to see what it prevents"
    )
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
