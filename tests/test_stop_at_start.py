"""A stop signal while the bot opens its database at start-up (``cardbot run`` and
``cardbot webhook``, their own processes): one log line, exit status 0, no traceback,
nothing left open, running or half-written (bot/app.py ``Runtime.startup``).

Before, the signal raised SystemExit out of the event loop and left the opening abandoned
mid-await: with SQLite busy (another process holding its lock) the connection's thread
failed on the closed loop afterwards -- "Exception in thread ... RuntimeError: Event loop
is closed" and two "coroutine ignored GeneratorExit" tracebacks; with a PostgreSQL that
accepts and never answers the connection was left unclosed (a ResourceWarning) and
nothing said the stop was seen.

Each wait follows the process (a connection accepted, the database file opened, a log
line), not the clock: a loaded machine only makes the run slower."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

from tests.fakebot import FakeTelegram
from tests.http_fake import HttpBotApi
from tests.lifeline_harness import MARK_VAR, kill_marked, marked
from tests.test_telegram_at_start import webhook_env

ROOT = Path(__file__).resolve().parent.parent
WAIT_S = 120.0  # a bounded wait for what the process does, not a timing goal
STOPPING = re.compile(
    r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} INFO bot\.app: (SIGINT|SIGTERM) during start-up: stopping$"
)


class Bot:
    """``python -m bot.cli <command>`` in ``workdir`` (no developer's .env), its output in
    a file, unclosed sockets and files reported (``-W default::ResourceWarning``)."""

    def __init__(self, command: str, workdir: Path, api: HttpBotApi, database: str) -> None:
        self.out = workdir / f"{command}.log"
        self.mark = uuid.uuid4().hex
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "CARDBOT_"))}
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        env.update(
            TELEGRAM_BOT_TOKEN=f"{api.fake.bot_id}:TEST",
            TELEGRAM_API_BASE_URL=api.base_url,
            CARDBOT_DATABASE_URL=database,
            CARDBOT_LOG_LEVEL="INFO",
            CARDBOT_COMPUTER_WORKERS="1",  # a process pool, were it started: none may be left
            **{MARK_VAR: self.mark},
        )
        if command == "webhook":
            env.update(webhook_env())
        with open(self.out, "w") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-W", "default::ResourceWarning", "-m", "bot.cli", command],
                env=env,
                cwd=workdir,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def output(self) -> str:
        return self.out.read_text(errors="replace")

    async def until(self, predicate, what: str, *, or_exit: bool = False) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT_S
        while not predicate():
            if self.process.poll() is not None:
                assert or_exit, f"exited with {self.process.returncode} waiting for {what}:\n{self.output()}"
                return
            assert loop.time() < deadline, f"no {what} after {WAIT_S:g} s:\n{self.output()}"
            await asyncio.sleep(0.05)

    async def exited(self) -> int:
        await self.until(lambda: False, "the exit", or_exit=True)
        return self.process.returncode

    def has_open(self, path: Path) -> bool:
        fds = Path(f"/proc/{self.process.pid}/fd")
        try:
            return any(os.path.realpath(fd) == str(path.resolve()) for fd in fds.iterdir())
        except OSError:  # gone, or an fd closed meanwhile: looked at again
            return False

    def check_stopped_cleanly(self, signum: signal.Signals) -> None:
        """Status 0, one line naming the signal and nothing else; no process of it left."""
        output = self.output()
        assert self.process.returncode == 0, (self.process.returncode, output)
        lines = output.strip().splitlines()
        assert len(lines) == 1 and (m := STOPPING.match(lines[0])) and m.group(1) == signum.name, output
        left = marked(self.mark)
        assert not left, "still running after the bot stopped:\n" + "\n".join(f"  {p}" for p in left)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        kill_marked(self.mark)


class SilentServer:
    """A "PostgreSQL" that accepts the connection and never answers: the bot's database
    open waits in asyncpg's connect (its timeout is 60 s)."""

    def __init__(self) -> None:
        self.accepted = 0
        self._writers: list[asyncio.StreamWriter] = []

    async def start(self) -> str:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        return f"postgresql://cardbot@127.0.0.1:{port}/cardbot"

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        self._writers.append(writer)

    def close(self) -> None:
        for writer in self._writers:
            writer.transport.abort()
        self._server.close()


async def stop_while_postgres_is_silent(command: str, signum: signal.Signals, tmp_path: Path, api: HttpBotApi) -> None:
    server = SilentServer()
    bot = Bot(command, tmp_path, api, await server.start())
    try:
        await bot.until(lambda: server.accepted > 0, "the database connection")
        bot.process.send_signal(signum)
        await bot.exited()
    finally:
        bot.kill()
        server.close()
    bot.check_stopped_cleanly(signum)


async def stop_while_sqlite_is_locked(command: str, signum: signal.Signals, tmp_path: Path, api: HttpBotApi) -> None:
    """Another process holds the file's lock: the bot's open waits for it (busy_timeout);
    the lock is given up once the bot has said it stops (or has exited)."""
    path = tmp_path / "bot.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE other (x)")
    holder.execute("BEGIN EXCLUSIVE")
    bot = Bot(command, tmp_path, api, str(path))
    try:
        await bot.until(lambda: bot.has_open(path), "the database file opened")
        bot.process.send_signal(signum)
        await bot.until(lambda: "during start-up" in bot.output(), "the stop's line", or_exit=True)
        holder.execute("ROLLBACK")
        await bot.exited()
    finally:
        holder.close()
        bot.kill()
    bot.check_stopped_cleanly(signum)
    with sqlite3.connect(path) as db:  # no migration ran, none half-way
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"other"}, tables


async def test_a_stop_while_the_database_opens_is_one_line_and_exit_status_0(tmp_path):
    """Both signals, both commands, both backends, in two processes run at once (~6 s at
    load 7 on 2 cores; four took 17 s). The other pairings take the same way: one handler
    for both signals (bot/app.py ``Runtime._stop_requested``), one start-up for both
    commands (``Runtime.startup``, PTB's post_init)."""
    fake = FakeTelegram()
    api = HttpBotApi(fake).start()
    cases = [
        (stop_while_postgres_is_silent, "run", signal.SIGINT),
        (stop_while_sqlite_is_locked, "webhook", signal.SIGTERM),
    ]
    try:
        for n, _ in enumerate(cases):
            (tmp_path / str(n)).mkdir()
        # each to its end (a failure of one must not leave the other's process behind)
        results = await asyncio.gather(
            *(scenario(command, signum, tmp_path / str(n), api) for n, (scenario, command, signum) in enumerate(cases)),
            return_exceptions=True,
        )
    finally:
        api.stop()
        fake.close()
    failed = [
        f"{scenario.__name__} ({command}, {signum.name}): {result}"
        for (scenario, command, signum), result in zip(cases, results)
        if isinstance(result, BaseException)
    ]
    assert not failed, "\n\n".join(failed)
