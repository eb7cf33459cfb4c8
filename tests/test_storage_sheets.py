"""The group's /sheets mode in chat_settings (SQLite migration 4, PostgreSQL migration
3): stored beside the language without touching it, moved with a migrated chat, and
added to a database created before it (both backends)."""

from __future__ import annotations

import aiosqlite
import asyncpg

from storage import migrations, pg_migrations
from storage.postgres import PostgresRepository
from storage.sqlite import SqliteRepository
from tests.pg import drop_schema, fresh_schema_url
from tests.test_storage import repo  # noqa: F401  (the fixture: SQLite file, memory, PostgreSQL)


async def test_sheet_mode_beside_the_language(repo):  # noqa: F811
    assert await repo.get_chat_sheets(-1) is None
    await repo.set_chat_lang(-1, "ru")
    await repo.set_chat_sheets(-1, "picture")
    await repo.set_chat_sheets(-1, "both")
    await repo.set_chat_lang(-1, "en")
    assert await repo.get_chat_sheets(-1) == "both" and await repo.get_chat_lang(-1) == "en"
    await repo.set_chat_sheets(-2, "text")  # a group without a language yet
    assert await repo.get_chat_lang(-2) is None and await repo.get_chat_sheets(-2) == "text"
    await repo.migrate_chat(-1, -1001)  # a group upgraded to a supergroup keeps its choice
    assert await repo.get_chat_sheets(-1001) == "both" and await repo.get_chat_sheets(-1) is None


async def test_sqlite_database_from_before_gets_the_column(tmp_path):
    path = str(tmp_path / "old.db")
    before = [m for m in migrations.MIGRATIONS if m[0] < 4]
    async with aiosqlite.connect(path, isolation_level=None) as db:
        await migrations.migrate(db, before)
        await db.execute("INSERT INTO chat_settings (chat_id, lang, updated_at) VALUES (-5, 'ru', 0)")
    async with SqliteRepository(path) as r:
        assert await r.get_chat_lang(-5) == "ru" and await r.get_chat_sheets(-5) is None
        await r.set_chat_sheets(-5, "picture")
        assert await r.get_chat_sheets(-5) == "picture" and await r.get_chat_lang(-5) == "ru"


async def test_postgres_database_from_before_gets_the_column():
    url = await fresh_schema_url()
    try:
        conn = await asyncpg.connect(url)
        try:
            await pg_migrations.migrate(conn, migrations=[m for m in pg_migrations.MIGRATIONS if m[0] < 3])
            await conn.execute("INSERT INTO chat_settings (chat_id, lang, updated_at) VALUES (-5, 'ru', 0)")
        finally:
            await conn.close()
        r = PostgresRepository(url)
        await r.open()
        try:
            assert await r.get_chat_lang(-5) == "ru" and await r.get_chat_sheets(-5) is None
            await r.set_chat_sheets(-5, "both")
            assert await r.get_chat_sheets(-5) == "both"
        finally:
            await r.close()
    finally:
        await drop_schema(url)
