"""Secrets stay out of logs at every level, and the SQLite file is private."""

from __future__ import annotations

import asyncio
import logging
import os
import stat
import subprocess
import sys
from pathlib import Path

from bot.redact import RedactingFormatter, redact, url_secrets
from storage.sqlite import SqliteRepository
from tests.fakebot import FakeTelegram
from tests.http_fake import HttpBotApi

TOKEN = "123456789:AAHfiqksKZ8WmR2zSjiQ7_v4TMAKdiHm9T0"
URL = "postgresql://cardbot:s3cret-pw@db.example:5432/cardbot"
ROOT = Path(__file__).resolve().parent.parent


def test_token_and_url_passwords_are_redacted_in_every_line():
    formatter = RedactingFormatter("%(levelname)s %(message)s", (TOKEN, *url_secrets(URL)))
    record = logging.LogRecord(
        "httpx",
        logging.DEBUG,
        __file__,
        1,
        "HTTP Request: POST %s %s",
        (f"https://api.telegram.org/bot{TOKEN}/getUpdates", URL),
        None,
    )
    try:
        raise ValueError(f"invalid DSN {URL}")
    except ValueError:
        record.exc_info = sys.exc_info()
    line = formatter.format(record)
    assert TOKEN not in line and "s3cret-pw" not in line and "Traceback" in line
    assert "postgresql://cardbot:<redacted>@db.example" in line
    # without being told: anything shaped like a token or a URL password
    assert redact(f"x {TOKEN} mysql://a:b@c") == "x <token> mysql://a:<redacted>@c"


def test_a_bad_database_url_never_shows_its_password(tmp_path):
    """The bot gets as far as opening the database (Telegram, the emulator, answers: an
    unreachable one is waited for, bot/polling.py), which fails, logged at DEBUG."""
    fake = FakeTelegram()
    api = HttpBotApi(fake).start()
    try:
        for url in ("postgresql://u:s3cret-pw@127.0.0.1:notaport/db", "mysql://u:s3cret-pw@h/db"):
            env = {
                **os.environ,
                "PYTHONPATH": str(ROOT),
                "TELEGRAM_BOT_TOKEN": TOKEN,
                "TELEGRAM_API_BASE_URL": api.base_url,
                "CARDBOT_DATABASE_URL": url,
                "CARDBOT_LOG_LEVEL": "DEBUG",
            }
            done = subprocess.run(
                [sys.executable, "-m", "bot.cli", "run"],
                env=env,
                cwd=tmp_path,
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert done.returncode != 0
            output = done.stdout + done.stderr
            assert "s3cret-pw" not in output and TOKEN not in output, output[-2000:]
    finally:
        api.stop()
        fake.close()


def test_a_new_sqlite_database_is_readable_by_its_owner_only(tmp_path):
    path = tmp_path / "bot.sqlite3"

    async def open_close():
        repo = SqliteRepository(str(path))
        await repo.open()
        await repo.close()

    asyncio.run(open_close())
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
