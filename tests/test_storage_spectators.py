"""Spectators in storage (the "👁 Watch" button): every case runs on SQLite (a file and
in memory) and on PostgreSQL, plus the upgrade of a database created before the
spectators table existed, on both backends."""

from __future__ import annotations

import asyncpg

from storage import migrations, pg_migrations
from storage.models import SpectatorRow
from storage.postgres import PostgresRepository, schema_from_url
from storage.sqlite import SqliteRepository
from tests import test_storage
from tests.pg import drop_schema, fresh_schema_url
from tests.test_storage import new_table


# the backends' fixture of tests/test_storage.py: every case runs on SQLite (a file and in
# memory) and on PostgreSQL
repo = test_storage.repo


async def test_watch_and_leave(repo):
    a, b = await new_table(repo, -1), await new_table(repo, -2)
    assert await repo.get_spectators(a.id) == []
    assert await repo.add_spectator(a.id, 7) is True
    assert await repo.add_spectator(a.id, 7) is False  # already watching: nothing changes
    assert await repo.add_spectator(a.id, 8) is True
    assert await repo.add_spectator(b.id, 7) is True  # one person may watch several tables
    assert await repo.get_spectators(a.id) == [SpectatorRow(a.id, 7, None), SpectatorRow(a.id, 8, None)]

    await repo.set_spectator_message(a.id, 7, 41)
    await repo.set_spectator_message(a.id, 99, 42)  # not watching: no row appears
    assert await repo.get_spectators(a.id) == [SpectatorRow(a.id, 7, 41), SpectatorRow(a.id, 8, None)]
    assert await repo.get_spectators(b.id) == [SpectatorRow(b.id, 7, None)]

    assert await repo.remove_spectator(a.id, 7) == SpectatorRow(a.id, 7, 41)
    assert await repo.remove_spectator(a.id, 7) is None
    assert await repo.get_spectators(a.id) == [SpectatorRow(a.id, 8, None)]
    assert await repo.get_spectators(b.id) == [SpectatorRow(b.id, 7, None)]


async def test_big_ids(repo):
    t = await new_table(repo, -1002345678901)
    user, message = 2**40 + 5, 2**33
    assert await repo.add_spectator(t.id, user)
    await repo.set_spectator_message(t.id, user, message)
    assert await repo.get_spectators(t.id) == [SpectatorRow(t.id, user, message)]


async def test_sqlite_upgrade_from_v2_adds_spectators(tmp_path):
    """A database of the previous release (schema 2) migrates on open; its tables stay."""
    import aiosqlite

    path = str(tmp_path / "old.db")
    async with aiosqlite.connect(path, isolation_level=None) as db:
        assert await migrations.migrate(db, migrations.MIGRATIONS[:2]) == [1, 2]
        await db.execute(
            "INSERT INTO tables (chat_id, game, status, opener_id, lang,"
            " created_at, updated_at) VALUES (-1, 'durak', 'playing', 1, 'ru', 0, 0)"
        )
    async with SqliteRepository(path) as r:
        assert await r.schema_version() == migrations.latest_version() >= 3
        assert (await r.get_table(1)).status == "playing"
        assert await r.add_spectator(1, 7)
        assert await r.get_spectators(1) == [SpectatorRow(1, 7, None)]


async def test_postgres_upgrade_from_v1_adds_spectators():
    url = await fresh_schema_url()
    try:
        conn = await asyncpg.connect(url)
        try:
            assert await pg_migrations.migrate(conn, schema_from_url(url), pg_migrations.MIGRATIONS[:1]) == [1]
            await conn.execute(
                "INSERT INTO tables (chat_id, game, status, opener_id, lang,"
                " created_at, updated_at) VALUES (-1, 'durak', 'playing', 1, 'ru', 0, 0)"
            )
        finally:
            await conn.close()
        async with PostgresRepository(url) as r:
            assert await r.schema_version() == pg_migrations.latest_version() >= 2
            table_id = (await r.tables_with_status("playing"))[0].id
            assert await r.add_spectator(table_id, 7)
            assert await r.get_spectators(table_id) == [SpectatorRow(table_id, 7, None)]
    finally:
        await drop_schema(url)
