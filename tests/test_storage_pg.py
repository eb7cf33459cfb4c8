"""PostgreSQL-only tests: migrations, the search_path schema, the outbox sender lock,
LISTEN/NOTIFY wake-ups. The backend-independent tests (run on PostgreSQL too) are in
test_storage.py. Needs PostgreSQL, see tests/pg.py."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from storage import pg_migrations
from storage.models import OutboxItem
from storage.postgres import PostgresRepository, schema_from_url
from storage.repository import StorageError
from tests.pg import drop_schema, fresh_schema_url, new_schema_name, pg_dsn, with_search_path
from tests.test_storage import acts, new_table

WAIT_S = 60.0  # a bound for events that come at once on a quiet machine; generous for a loaded one


@pytest.fixture
async def url():
    url = await fresh_schema_url()
    try:
        yield url
    finally:
        await drop_schema(url)


@pytest.fixture
async def repos(url):
    """Open repositories on ``url`` (one per "process"); all closed at the end."""
    opened: list[PostgresRepository] = []

    async def open_repo() -> PostgresRepository:
        r = PostgresRepository(url)
        await r.open()
        opened.append(r)
        return r

    try:
        yield open_repo
    finally:
        for r in opened:
            await r.close()


async def admin(url: str, sql: str, *args):
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetch(sql, *args)
    finally:
        await conn.close()


async def terminate(conn: asyncpg.Connection, url: str) -> None:
    """Kill the server session behind ``conn`` (as a network drop or a DBA would)."""
    pid = conn.get_server_pid()
    await admin(url, "SELECT pg_terminate_backend($1)", pid)


async def eventually(check, timeout=WAIT_S):
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        result = await check()
        if result or asyncio.get_running_loop().time() > deadline:
            return result
        await asyncio.sleep(0.02)


# --- schema and migrations ------------------------------------------------------------


def test_schema_from_url():
    assert schema_from_url("postgresql://h/db?search_path=abc") == "abc"
    assert schema_from_url("postgresql://h/db?sslmode=disable&search_path=a,public") == "a"
    assert schema_from_url('postgresql://h/db?search_path="$user",public') is None
    assert schema_from_url("postgresql://h/db") is None
    assert schema_from_url("postgresql://h/db?search_path=Mixed") == "mixed"
    assert schema_from_url('postgresql://h/db?search_path="Mixed"') == "Mixed"


@pytest.mark.parametrize("quoted", [False, True])
async def test_mixed_case_schema_names(quoted):
    base = await fresh_schema_url()  # proves PG is reachable (else skip/fail)
    await drop_schema(base)
    name = "T_" + new_schema_name()[2:]
    url = with_search_path(pg_dsn(), f'"{name}"' if quoted else name)
    expected = name if quoted else name.lower()
    try:
        async with PostgresRepository(url) as r:
            assert r.schema == expected
            await new_table(r)
    finally:
        await admin(pg_dsn(), f'DROP SCHEMA IF EXISTS "{expected}" CASCADE')


async def test_search_path_schema_is_created_and_used():
    base = await fresh_schema_url()  # proves PG is reachable (else skip/fail)
    await drop_schema(base)
    url = with_search_path(pg_dsn(), new_schema_name())
    schema = schema_from_url(url)
    try:
        async with PostgresRepository(url) as r:
            assert r.schema == schema
            t = await new_table(r)
            rows = await admin(
                pg_dsn(),
                "SELECT table_schema FROM information_schema.tables WHERE table_name = 'tables' AND table_schema = $1",
                schema,
            )
            assert len(rows) == 1
            public = await admin(pg_dsn(), f'SELECT id FROM "{schema}".tables')
            assert [x["id"] for x in public] == [t.id]
    finally:
        await drop_schema(url)


async def test_migrations_idempotent_and_data_survives_reopen(url, repos):
    r = await repos()
    assert await r.schema_version() == pg_migrations.latest_version()
    t = await new_table(r)
    await r.set_chat_lang(-100, "en")
    await r.close()

    r2 = await repos()  # nothing to apply, nothing lost
    assert await r2.schema_version() == pg_migrations.latest_version()
    rows = await admin(url, "SELECT version FROM schema_version ORDER BY version")
    assert [x["version"] for x in rows] == [v for v, _ in pg_migrations.MIGRATIONS]
    assert (await r2.get_table(t.id)).options == t.options
    assert await r2.get_chat_lang(-100) == "en"
    conn = await asyncpg.connect(url)
    try:
        assert await pg_migrations.migrate(conn) == []
    finally:
        await conn.close()


async def test_concurrent_start_applies_each_migration_once():
    """Several workers open a brand-new schema at once: the advisory lock makes one
    of them create the schema and apply the migrations; the rest find them applied."""
    probe = await fresh_schema_url()
    await drop_schema(probe)
    url = with_search_path(pg_dsn(), new_schema_name())  # does not exist yet
    workers = [PostgresRepository(url, max_size=2) for _ in range(6)]
    try:
        await asyncio.gather(*(w.open() for w in workers))
        rows = await admin(url, "SELECT version FROM schema_version ORDER BY version")
        assert [x["version"] for x in rows] == [v for v, _ in pg_migrations.MIGRATIONS]
        t = await new_table(workers[0])
        assert (await workers[-1].get_table(t.id)).id == t.id
    finally:
        for w in workers:
            await w.close()
        await drop_schema(url)


async def test_migration_failure_rolls_back_and_later_ones_apply(url, repos):
    await repos()
    conn = await asyncpg.connect(url)
    try:
        bad = pg_migrations.MIGRATIONS + [(100, "CREATE TABLE t100 (x INTEGER); CREATE TABLE t100 (y INTEGER);")]
        with pytest.raises(asyncpg.DuplicateTableError):
            await pg_migrations.migrate(conn, migrations=bad)
        assert await pg_migrations.current_version(conn) == pg_migrations.latest_version()
        assert await conn.fetchval("SELECT to_regclass('t100')") is None
        ok = pg_migrations.MIGRATIONS + [(100, "CREATE TABLE t100 (x INTEGER);")]
        assert await pg_migrations.migrate(conn, migrations=ok) == [100]
        assert await pg_migrations.migrate(conn, migrations=ok) == []
        with pytest.raises(ValueError):
            await pg_migrations.migrate(conn, migrations=[(2, "x"), (1, "y")])
    finally:
        await conn.close()


async def test_newer_schema_is_refused(url, repos):
    await repos()
    await admin(url, "INSERT INTO schema_version VALUES (9999, 0)")
    r = PostgresRepository(url)
    with pytest.raises(StorageError, match="newer"):
        await r.open()
    with pytest.raises(StorageError):  # not open
        await r.get_table(1)


async def test_not_open_raises(url):
    r = PostgresRepository(url)
    with pytest.raises(StorageError):
        await r.get_table(1)
    with pytest.raises(StorageError):
        await r.try_lead_sender()
    with pytest.raises(StorageError):
        await r.listen_outbox(lambda: None)
    await r.close()  # closing a repository that never opened is fine


async def test_actions_append_only_trigger(url, repos):
    r = await repos()
    t = await new_table(r)
    await r.commit_actions(t.id, 0, acts(t.id, 1, 2))
    with pytest.raises(asyncpg.RaiseError, match="append-only"):
        await admin(url, "UPDATE actions SET action = 'x' WHERE table_id = $1", t.id)
    # deleting the table still cascades to its actions
    await admin(url, "DELETE FROM tables WHERE id = $1", t.id)
    assert await r.load_actions(t.id) == []


async def test_column_types(url, repos):
    await repos()
    rows = await admin(
        url,
        "SELECT table_name, column_name, data_type"
        " FROM information_schema.columns WHERE table_schema = current_schema()",
    )
    types = {(x["table_name"], x["column_name"]): x["data_type"] for x in rows}
    for col in [
        ("tables", "id"),
        ("tables", "chat_id"),
        ("tables", "opener_id"),
        ("seats", "user_id"),
        ("users", "user_id"),
        ("outbox", "chat_id"),
        ("chat_settings", "chat_id"),
        ("inbox", "update_id"),
        ("tables", "group_message_id"),
        ("seats", "dm_message_id"),
    ]:
        assert types[col] == "bigint", col
    assert types[("timers", "expire_at")] == "double precision"
    assert types[("users", "dm_open")] == "boolean"
    assert types[("tables", "options")] == "json"


# --- the outbox sender lock -----------------------------------------------------------


async def test_one_sender_until_it_closes(repos):
    a, b = await repos(), await repos()
    assert await a.try_lead_sender() is True
    assert await a.try_lead_sender() is True  # idempotent
    assert await b.try_lead_sender() is False
    assert await b.try_lead_sender() is False
    assert await a.try_lead_sender() is True
    await a.close()
    assert await eventually(b.try_lead_sender) is True
    c = await repos()
    assert await c.try_lead_sender() is False


async def test_sender_lock_is_per_schema(repos):
    a = await repos()
    other_url = await fresh_schema_url()
    try:
        async with PostgresRepository(other_url) as other:
            assert await a.try_lead_sender() is True
            assert await other.try_lead_sender() is True
    finally:
        await drop_schema(other_url)


async def test_sender_lock_reacquired_after_its_connection_died(url, repos):
    a, b = await repos(), await repos()
    assert await a.try_lead_sender() is True
    await terminate(a._lead_conn, url)
    # the lock died with the connection: whoever asks next may take it
    assert await eventually(b.try_lead_sender) is True
    assert await a.try_lead_sender() is False  # a noticed, reconnected, lost the race
    await b.close()
    assert await eventually(a.try_lead_sender) is True
    assert await a.try_lead_sender() is True


# --- LISTEN / NOTIFY ----------------------------------------------------------------


async def test_commit_in_one_process_wakes_another(url, repos):
    a, b = await repos(), await repos()
    woke = asyncio.Event()
    calls = []

    def callback():
        calls.append(1)
        woke.set()

    await b.listen_outbox(callback)
    t = await new_table(a)
    await a.commit_actions(t.id, 0, acts(t.id, 1, 1))  # no outbox rows: no wake-up
    await asyncio.sleep(0.2)
    assert calls == []
    await a.commit_actions(t.id, 1, acts(t.id, 2, 1), outbox=[OutboxItem("group", -100, t.id)] * 3)
    await asyncio.wait_for(woke.wait(), WAIT_S)
    await asyncio.sleep(0.1)
    assert len(calls) == 1  # one notification per transaction
    woke.clear()
    await a.enqueue([OutboxItem("post", -100, payload={"text": "hi"})])
    await asyncio.wait_for(woke.wait(), WAIT_S)


async def test_notify_only_after_commit_and_only_same_schema(url, repos):
    a, b = await repos(), await repos()
    woke = asyncio.Event()
    await b.listen_outbox(woke.set)
    # a rolled back write (version conflict) notifies nobody
    t = await new_table(a)
    await a.commit_actions(t.id, 0, acts(t.id, 1, 1))
    with pytest.raises(Exception):
        await a.commit_actions(t.id, 0, acts(t.id, 1, 1), outbox=[OutboxItem("post", 1)])
    # a write in another schema of the same database does not wake this one
    other_url = await fresh_schema_url()
    try:
        async with PostgresRepository(other_url) as other:
            await other.enqueue([OutboxItem("post", 1)])
            await asyncio.sleep(0.3)
            assert not woke.is_set()
    finally:
        await drop_schema(other_url)
    await a.enqueue([OutboxItem("post", 1)])
    await asyncio.wait_for(woke.wait(), WAIT_S)


async def test_listener_reconnects(url, repos):
    a, b = await repos(), await repos()
    woke = asyncio.Event()
    await b.listen_outbox(woke.set)
    await terminate(b._listen_conn, url)
    # after reconnecting the callbacks run once (wake-ups may have been missed) ...
    await asyncio.wait_for(woke.wait(), WAIT_S)
    woke.clear()
    # ... and commits wake it again
    await a.enqueue([OutboxItem("post", 1)])
    await asyncio.wait_for(woke.wait(), WAIT_S)


async def test_close_stops_listening(url, repos):
    a, b = await repos(), await repos()
    calls = []
    await b.listen_outbox(lambda: calls.append(1))
    await b.close()
    await a.enqueue([OutboxItem("post", 1)])
    await asyncio.sleep(0.2)
    assert calls == []


async def test_concurrent_listen_calls_share_one_connection(url, repos):
    a, b = await repos(), await repos()
    calls = []
    first, second = (lambda: calls.append("x")), (lambda: calls.append("y"))
    await asyncio.gather(b.listen_outbox(first), b.listen_outbox(second), b.listen_outbox(first))
    await a.enqueue([OutboxItem("post", 1)])
    assert await eventually(lambda: asyncio.sleep(0, len(calls) >= 2))
    await asyncio.sleep(0.2)
    assert sorted(calls) == ["x", "y"]  # each callback once: one connection, no duplicates
