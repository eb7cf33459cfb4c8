"""Every process of one ``cardbot run``, and its computers made to think; shared by
tests/test_lifeline.py and bench/orphans.py.

A process is the bot's when its environment holds ``MARK_VAR`` with the run's mark: every
process the bot starts inherits its environment (the forkserver and the resource tracker
are started with it, the pool's workers are forked from the forkserver), and the mark
still finds them once the bot's death has made them orphans of another parent. A zombie
(dead, not yet reaped) holds no memory and no environment: it is not counted.
"""

from __future__ import annotations

import asyncio
import os
import signal
from dataclasses import dataclass

from tests.chaos_harness import Chaos

MARK_VAR = "CARDBOT_TEST_PROCESS_MARK"  # read by no code of the bot


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    rss_kb: int
    threads: int
    command: str

    def __str__(self) -> str:
        return f"{self.pid} (parent {self.ppid}, {self.rss_kb // 1024} MB, {self.threads} threads): {self.command[:90]}"


def _read(path: str) -> bytes:
    with open(path, "rb") as file:
        return file.read()


def _proc(pid: int) -> Proc | None:
    status: dict[str, str] = {}
    for line in _read(f"/proc/{pid}/status").decode(errors="replace").splitlines():
        key, _, value = line.partition(":")
        status[key] = value.strip()
    if status.get("State", "").startswith(("Z", "X")):
        return None
    command = _read(f"/proc/{pid}/cmdline").replace(b"\0", b" ").decode(errors="replace").strip()
    rss = int(status.get("VmRSS", "0 kB").split()[0])
    return Proc(pid, int(status["PPid"]), rss, int(status.get("Threads", "1")), command)


def marked(mark: str) -> list[Proc]:
    """The living processes whose environment carries ``mark``, by pid."""
    wanted = f"{MARK_VAR}={mark}".encode()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            if wanted not in _read(f"/proc/{name}/environ").split(b"\0"):
                continue
            proc = _proc(int(name))
        except (OSError, KeyError, ValueError):  # gone meanwhile, or not ours to read
            continue
        if proc is not None:
            found.append(proc)
    return sorted(found, key=lambda p: p.pid)


def pool_workers(procs: list[Proc], bot_pid: int) -> list[Proc]:
    """The pool's workers among the bot's processes: children of its children (the
    forkserver's), past their start-up -- a second thread, the worker's lifeline
    (bot/lifeline.py) or, without one, its result queue's feeder after its first answer."""
    children = {p.pid for p in procs if p.ppid == bot_pid}
    return [p for p in procs if p.ppid in children and p.threads >= 2]


async def computers_think(chaos: Chaos, mark: str, game_no: int = 0) -> list[Proc]:
    """A durak table of one person and three computers in a group, played (the person
    presses a move whenever it is theirs) until a pool worker of the bot has started;
    returns the bot's processes then."""
    fake, app = chaos.fake, chaos.api.bot_stub
    group = -1001 - game_no
    fake.group(group, f"Кухня {game_no}", admins=[10 * game_no + 1], supergroup=True)
    person = fake.user(10 * game_no + 1, "Аня")
    await fake.send(app, person, person, "/start")
    await fake.send(app, person, group, "/durak")
    lobby = await chaos.until(lambda: next((m for m in fake.messages(group) if m.keyboard), None), "the lobby")
    for seats in range(2, 5):
        await fake.press(app, person, lobby, "+ Компьютер")
        await chaos.until(lambda: lobby.text.count("🤖") >= seats - 1, f"{seats - 1} computers in the lobby")
    await fake.press(app, person, lobby, "Начать")
    check = chaos.watch("a pool worker of the bot")
    pending: str | None = None  # the person's press not answered yet
    while True:
        assert chaos.bot.process is not None
        procs = marked(mark)
        if pool_workers(procs, chaos.bot.process.pid):
            return procs
        check()
        if pending is None or chaos.answered(pending):
            with chaos.api._lock:
                moves = [
                    (m, data)
                    for m in fake.messages(person.id)
                    if m.keyboard
                    for _, data in fake.buttons(m)
                    if data and data.startswith("a:")
                ]
            pending = chaos.press(person, *moves[-1]) if moves else None
        await asyncio.sleep(0.1)


async def until_none_left(mark: str, within: float) -> list[Proc]:
    """Poll /proc until no process carries ``mark``, for ``within`` seconds at most;
    returns what is left then (nothing, normally)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while (left := marked(mark)) and loop.time() < deadline:
        await asyncio.sleep(0.1)
    return left


def kill_marked(mark: str) -> None:
    """SIGKILL what carries ``mark`` now (the orphans a run left behind), one pid at a time."""
    for proc in marked(mark):
        try:
            os.kill(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
