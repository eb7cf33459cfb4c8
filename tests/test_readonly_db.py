"""A SQLite database the bot cannot write is refused at start, in one clear line and a
non-zero exit (issue 43, item 6): before, the bot started, read its tables and lost
every move after it. Read-only is made two ways: SQLite's own read-only mode (a
``file:...?mode=ro`` URI, which holds for root too) and the permission bits (not
for root, who writes any file)."""

from __future__ import annotations

import asyncio
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from storage.repository import StorageError
from storage.sqlite import SqliteRepository
from tests.fakebot import FakeTelegram
from tests.http_fake import HttpBotApi

ROOT = Path(__file__).resolve().parent.parent
AS_ROOT = os.geteuid() == 0


async def make_database(path: Path) -> None:
    repo = SqliteRepository(str(path))
    await repo.open()
    await repo.close()


async def test_a_read_only_database_is_refused_when_opened(tmp_path):
    db = tmp_path / "bot.db"
    await make_database(db)
    repo = SqliteRepository(f"file:{db}?mode=ro")
    with pytest.raises(StorageError, match="cannot be written.*readonly"):
        await repo.open()
    await make_database(db)  # the file itself is fine: writable again, it opens


@pytest.mark.skipif(AS_ROOT, reason="root writes a read-only file anyway")
async def test_read_only_permissions_of_the_file_or_its_folder_are_named(tmp_path):
    db = tmp_path / "bot.db"
    await make_database(db)
    db.chmod(stat.S_IRUSR)
    with pytest.raises(StorageError, match="is read-only"):
        await SqliteRepository(str(db)).open()
    db.chmod(stat.S_IRUSR | stat.S_IWUSR)
    tmp_path.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        with pytest.raises(StorageError, match="folder .* is read-only"):
            await SqliteRepository(str(db)).open()
    finally:
        tmp_path.chmod(stat.S_IRWXU)


def test_cardbot_run_stops_at_once_on_a_read_only_database(tmp_path):
    """The real ``cardbot run`` (as tests/test_polling_smoke.py starts it): one CRITICAL
    line that says what to fix, no traceback, exit status 1, within its timeout."""
    db = tmp_path / "bot.db"
    asyncio.run(make_database(db))
    fake = FakeTelegram()
    server = HttpBotApi(fake).start()
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "CARDBOT_"))}
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        env.update(
            TELEGRAM_BOT_TOKEN=f"{fake.bot_id}:TEST",
            CARDBOT_DB=f"file:{db}?mode=ro",
            TELEGRAM_API_BASE_URL=server.base_url,
            CARDBOT_LOG_LEVEL="WARNING",
        )
        done = subprocess.run(
            [sys.executable, "-m", "bot.cli", "run"],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,  # generous: it stops at once, but the machine may be busy
        )
    finally:
        server.stop()
        fake.close()
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "Traceback" not in output, output
    lines = [line for line in output.splitlines() if "cardbot run stopped" in line]
    assert len(lines) == 1 and "cannot be written" in lines[0], output
