"""Telegram unreachable when the bot starts: ``cardbot run`` and ``cardbot webhook`` (their
own processes) print one warning line a try and retry with the back-off until Telegram
answers (bot/polling.py ``connect``), a stop meanwhile is clean (exit 0, no traceback),
and a token Telegram refuses is one line and exit status 2. Before, the first failed
getMe ended the process with 112 lines of chained tracebacks."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

from tests.fakebot import FakeTelegram
from tests.http_fake import HttpBotApi

ROOT = Path(__file__).resolve().parent.parent
RETRY = re.compile(r"WARNING bot\.polling: connecting to Telegram \(getMe\) failed \((.+)\); retrying in (\S+) s$")
SETWEBHOOK_RETRY = re.compile(
    r"WARNING bot\.polling: setting the webhook \(setWebhook\) failed \((.+)\); retrying in (\S+) s$"
)
# a log line: the redacting formatter's "date time LEVEL logger: message"
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [A-Z]+ \S+: ")
WAIT_S = 120.0  # a bounded wait for what the process does, not a timing goal


class Bot:
    """``python -m bot.cli <command>`` in ``workdir`` (no developer's .env), its output in a file."""

    def __init__(self, command: str, workdir: Path, base_url: str, token: str, **env: str) -> None:
        self.out = workdir / f"{command}.log"
        full = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "CARDBOT_"))}
        full["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), full.get("PYTHONPATH")]))
        full.update(
            TELEGRAM_BOT_TOKEN=token,
            TELEGRAM_API_BASE_URL=base_url,
            CARDBOT_DATABASE_URL=str(workdir / "bot.sqlite3"),
            CARDBOT_LOG_LEVEL="WARNING",
            CARDBOT_COMPUTER_WORKERS="0",
            **env,
        )
        with open(self.out, "w") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "bot.cli", command], env=full, cwd=workdir, stdout=log, stderr=subprocess.STDOUT
            )

    def output(self) -> str:
        return self.out.read_text(errors="replace")

    def retries(self) -> list[tuple[str, str]]:
        return [m.groups() for line in self.output().splitlines() if (m := RETRY.search(line))]

    async def until(self, predicate, what: str) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT_S
        while not predicate():
            assert self.process.poll() is None, (
                f"exited with {self.process.returncode} waiting for {what}:\n{self.output()}"
            )
            assert loop.time() < deadline, f"no {what} after {WAIT_S:g} s:\n{self.output()}"
            await asyncio.sleep(0.05)

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=WAIT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode

    def exited(self) -> int:
        try:
            return self.process.wait(timeout=WAIT_S)
        finally:
            self.stop()


def refusing_port() -> socket.socket:
    """A port on 127.0.0.1 nothing listens on (bound, so nothing else takes it meanwhile):
    a connection to it is refused at once, as to a host where Telegram is unreachable."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    return sock


def webhook_env() -> dict[str, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return {
        "CARDBOT_WEBHOOK_URL": "https://cards.example.test/telegram",
        "CARDBOT_WEBHOOK_SECRET": "test-secret_42",
        "CARDBOT_LISTEN": f"127.0.0.1:{port}",
    }


def listening(address: str) -> bool:
    host, port = address.rsplit(":", 1)
    try:
        socket.create_connection((host, int(port)), timeout=1).close()
        return True
    except OSError:
        return False


def assert_only_log_lines(output: str) -> None:
    """Every line a log line of its own: no traceback, no continuation lines."""
    assert "Traceback" not in output, output
    assert all(LOG_LINE.match(line) for line in output.splitlines() if line.strip()), output


async def test_run_retries_getme_one_line_a_try_until_telegram_answers(tmp_path):
    fake = FakeTelegram()
    api = HttpBotApi(fake).start()
    fake.fail_next("getMe", error_code=502, times=2)  # a proxy's "Bad Gateway" twice
    bot = Bot("run", tmp_path, api.base_url, f"{fake.bot_id}:TEST")
    try:
        await bot.until(lambda: api.polls > 0, "polling")
        assert bot.stop() == 0, bot.output()
    finally:
        bot.stop()
        api.stop()
        fake.close()
    assert [delay for _, delay in bot.retries()] == ["1", "2"], bot.output()  # the back-off, one line each
    assert all("Bad Gateway" in why for why, _ in bot.retries()), bot.output()
    assert_only_log_lines(bot.output())


async def test_run_stops_cleanly_while_telegram_is_unreachable(tmp_path):
    with refusing_port() as port:
        url = f"http://127.0.0.1:{port.getsockname()[1]}"
        bot = Bot("run", tmp_path, url, "123:TEST")
        try:
            await bot.until(lambda: len(bot.retries()) >= 2, "two tries")
            assert bot.stop() == 0, bot.output()
        finally:
            bot.stop()
    assert all("ConnectError" in why for why, _ in bot.retries()), bot.output()
    assert_only_log_lines(bot.output())


async def test_webhook_retries_and_stops_cleanly_while_telegram_is_unreachable(tmp_path):
    with refusing_port() as port:
        url = f"http://127.0.0.1:{port.getsockname()[1]}"
        bot = Bot("webhook", tmp_path, url, "123:TEST", **webhook_env())
        try:
            await bot.until(lambda: len(bot.retries()) >= 2, "two tries")
            assert bot.stop() == 0, bot.output()
        finally:
            bot.stop()
    assert [delay for _, delay in bot.retries()][:2] == ["1", "2"], bot.output()
    assert_only_log_lines(bot.output())


async def test_webhook_retries_setwebhook_one_line_a_try_until_telegram_answers(tmp_path):
    """getMe answered, then setWebhook failed: the worker used to end at the first failure."""
    fake = FakeTelegram()
    api = HttpBotApi(fake).start()
    fake.fail_next("setWebhook", error_code=502, times=2)
    env = webhook_env()
    bot = Bot("webhook", tmp_path, api.base_url, f"{fake.bot_id}:TEST", **env)
    try:
        await bot.until(lambda: fake.webhook.get("url") == env["CARDBOT_WEBHOOK_URL"], "the webhook set")
        assert fake.webhook.get("secret_token") == env["CARDBOT_WEBHOOK_SECRET"]
        await bot.until(lambda: listening(env["CARDBOT_LISTEN"]), "the worker serving")  # started, then stopped
        assert bot.stop() == 0, bot.output()
    finally:
        bot.stop()
        api.stop()
        fake.close()
    lines = [m.groups() for line in bot.output().splitlines() if (m := SETWEBHOOK_RETRY.search(line))]
    assert [delay for _, delay in lines] == ["1", "2"], bot.output()  # the back-off, one line each
    assert all("Bad Gateway" in why for why, _ in lines), bot.output()
    assert_only_log_lines(bot.output())


async def test_a_refused_token_is_one_line_and_exit_status_2(tmp_path):
    fake = FakeTelegram()
    api = HttpBotApi(fake).start()
    fake.fail_next("getMe", "Unauthorized", error_code=401, times=100)
    try:
        for command, env in (("run", {}), ("webhook", webhook_env())):
            bot = Bot(command, tmp_path, api.base_url, f"{fake.bot_id}:SECRETTOKEN", **env)
            assert bot.exited() == 2, bot.output()
            lines = bot.output().strip().splitlines()
            assert len(lines) == 1 and "Telegram refused the bot token (TELEGRAM_BOT_TOKEN)" in lines[0], lines
            assert "SECRETTOKEN" not in bot.output()
            assert not bot.retries()
    finally:
        api.stop()
        fake.close()
