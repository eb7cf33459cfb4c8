"""Tests of the storage protocol, run against every backend (SQLite file, SQLite
in memory, PostgreSQL), plus the SQLite-specific ones (pragmas, WAL, migrations).
PostgreSQL-specific tests are in test_storage_pg.py; the PostgreSQL cases need
``CARDBOT_TEST_PG`` (see tests/pg.py) and are skipped without it unless
``CARDBOT_REQUIRE_PG=1``."""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from storage import migrations
from storage.factory import repository_for
from storage.models import ActionRow, OutboxItem, SeatRow, TimerRow
from storage.postgres import PostgresRepository
from storage.repository import Repository, StorageError, TableExists, VersionConflict
from storage.sqlite import SqliteRepository
from tests.pg import drop_schema, fresh_schema_url


@pytest.fixture(params=["sqlite-file", "sqlite-memory", "postgres"])
async def repo(request, tmp_path):
    url = None
    if request.param == "postgres":
        url = await fresh_schema_url()
        r = PostgresRepository(url)
    else:
        r = SqliteRepository(str(tmp_path / "bot.db") if request.param == "sqlite-file" else ":memory:")
    try:
        await r.open()
        yield r
    finally:
        await r.close()
        if url:
            await drop_schema(url)


@pytest.fixture(params=["sqlite-file", "postgres"])
async def store(request, tmp_path):
    """One shared store (a SQLite file / a PostgreSQL schema); calling the fixture
    value opens one more repository on it -- as another bot process would."""
    url = await fresh_schema_url() if request.param == "postgres" else None
    path = str(tmp_path / "bot.db")
    opened = []

    async def open_repo():
        r = PostgresRepository(url) if url else SqliteRepository(path)
        await r.open()
        opened.append(r)
        return r

    try:
        yield open_repo
    finally:
        for r in opened:
            await r.close()
        if url:
            await drop_schema(url)


@pytest.fixture
async def file_path(tmp_path):
    return str(tmp_path / "bot.db")


def is_pg(repo) -> bool:
    return isinstance(repo, PostgresRepository)


async def raw(repo, sql: str, *args) -> list[tuple]:
    """Run SQL behind the repository's back (``?`` placeholders on both backends)."""
    if not is_pg(repo):
        return [tuple(r) for r in await repo.db.execute_fetchall(sql, args)]
    numbers = iter(range(1, len(args) + 1))
    sql = re.sub(r"\?", lambda _: f"${next(numbers)}", sql)
    return [tuple(r) for r in await repo.pool.fetch(sql, *args)]


async def arm_outbox_failure(repo) -> None:
    """Make every outbox insert fail with 'boom' (until disarm_outbox_failure)."""
    if is_pg(repo):
        await repo.pool.execute(
            "CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql"
            " AS $$ BEGIN RAISE EXCEPTION 'boom'; END $$;"
            " CREATE TRIGGER boom BEFORE INSERT ON outbox"
            " FOR EACH ROW EXECUTE FUNCTION boom();"
        )
    else:
        await repo.db.execute("CREATE TEMP TRIGGER boom BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'boom'); END")


async def disarm_outbox_failure(repo) -> None:
    if is_pg(repo):
        await repo.pool.execute("DROP TRIGGER boom ON outbox; DROP FUNCTION boom();")
    else:
        await repo.db.execute("DROP TRIGGER boom")


async def new_table(repo, chat_id=-100, thread_id=0, **kw):
    args = dict(
        game="durak", options={"variant": "podkidnoy", "deck": 36}, opener_id=1, lang="ru", settings={"timer": 60}
    )
    args.update(kw)
    return await repo.create_table(chat_id, thread_id, **args)


def acts(table_id, start, n, game_no=1):
    return [
        ActionRow(
            table_id=table_id, seq=start + i, game_no=game_no, seat=None if i == 0 else i % 2, action=f"a{start + i}"
        )
        for i in range(n)
    ]


async def snapshot_of_everything(repo, table_id):
    """Everything commit_actions could have touched, to compare before/after."""
    return (
        await repo.get_table(table_id),
        await repo.load_actions(table_id),
        await repo.latest_snapshot(table_id),
        await repo.game_results(table_id),
        await repo.pending_outbox(1000),
        await repo.all_timers(),
    )


# --- lifecycle and migrations -------------------------------------------------------

PROTOCOL_METHODS = (
    "open",
    "close",
    "upsert_user",
    "get_user",
    "set_dm_open",
    "get_chat_lang",
    "set_chat_lang",
    "get_chat_sheets",
    "set_chat_sheets",
    "migrate_chat",
    "create_table",
    "get_table",
    "find_open_table",
    "last_table_of",
    "tables_with_status",
    "update_table",
    "get_seats",
    "replace_seats",
    "set_seat_messages",
    "set_seat_keyboard",
    "tables_of_user",
    "add_spectator",
    "remove_spectator",
    "get_spectators",
    "get_deal_analysis",
    "put_deal_analysis",
    "set_spectator_message",
    "commit_actions",
    "load_actions",
    "latest_snapshot",
    "game_results",
    "finished_games",
    "finished_game",
    "top_ratings",
    "rated_games",
    "ratings_of_user",
    "set_rating_opt_out",
    "rating_opted_out",
    "forget_chat",
    "enqueue",
    "pending_outbox",
    "mark_done",
    "outbox_refused",
    "try_lead_sender",
    "listen_outbox",
    "due_timers",
    "mark_reminded",
    "clear_timer",
    "all_timers",
    "store_updates",
    "mark_updates_handled",
    "take_unhandled_updates",
    "purge_outbox",
    "purge_inbox",
    "purge_deal_analyses",
    "purge_old_snapshots",
    "finish_update",
    "renew_updates",
)
EXTRAS = ("set_timer", "schema_version")


@pytest.mark.parametrize("cls", [SqliteRepository, PostgresRepository])
def test_is_a_repository(cls):
    def takes(r: Repository) -> Repository:
        return r

    assert takes(cls(":memory:" if cls is SqliteRepository else "postgresql://x/y"))
    for name in PROTOCOL_METHODS + EXTRAS:
        assert name in EXTRAS or hasattr(Repository, name), name
        assert asyncio.iscoroutinefunction(getattr(cls, name)), name
    protocol = {n for n in dir(Repository) if not n.startswith("_")}
    assert protocol == set(PROTOCOL_METHODS)


def test_factory():
    assert isinstance(repository_for("postgresql://u@h:5432/db"), PostgresRepository)
    pg = repository_for("postgres://u@h/db?search_path=s1")
    assert isinstance(pg, PostgresRepository) and pg.url == "postgres://u@h/db?search_path=s1"
    for spec, path in [
        ("sqlite:///data/bot.db", "data/bot.db"),
        ("sqlite:////var/lib/bot.db", "/var/lib/bot.db"),
        ("sqlite://:memory:", ":memory:"),
        ("sqlite://", ":memory:"),
        ("bot.db", "bot.db"),
        ("/tmp/x/bot.db", "/tmp/x/bot.db"),
        (":memory:", ":memory:"),
    ]:
        r = repository_for(spec)
        assert isinstance(r, SqliteRepository) and r.path == path, spec
        assert r._db is None  # not opened
    for bad in ("mysql://u@h/db", "sqlite://host/db", "", "http://x"):
        with pytest.raises(ValueError):
            repository_for(bad)


async def test_migrations_idempotent_and_data_survives_reopen(file_path):
    r = SqliteRepository(file_path)
    await r.open()
    assert await r.schema_version() == migrations.latest_version()
    t = await new_table(r)
    await r.set_chat_lang(-100, "en")
    await r.close()

    r2 = SqliteRepository(file_path)
    await r2.open()  # migrations already applied: nothing to do, nothing lost
    try:
        assert await r2.schema_version() == migrations.latest_version()
        rows = await r2.db.execute_fetchall("SELECT version FROM schema_version")
        assert [row[0] for row in rows] == [v for v, _ in migrations.MIGRATIONS]
        assert (await r2.get_table(t.id)).options == t.options
        assert await r2.get_chat_lang(-100) == "en"
        # Running the migrator again by hand applies nothing.
        assert await migrations.migrate(r2.db) == []
    finally:
        await r2.close()


async def test_migration_failure_rolls_back_and_later_ones_apply(file_path):
    r = SqliteRepository(file_path)
    await r.open()
    try:
        extra = migrations.MIGRATIONS + [
            (100, "CREATE TABLE t100 (x INTEGER); CREATE TABLE t100 (y INTEGER);"),
        ]
        with pytest.raises(Exception):
            await migrations.migrate(r.db, extra)
        assert await r.schema_version() == migrations.latest_version()
        rows = await r.db.execute_fetchall("SELECT name FROM sqlite_master WHERE name = 't100'")
        assert rows == []  # first statement rolled back with the failing one
        ok = migrations.MIGRATIONS + [(100, "CREATE TABLE t100 (x INTEGER);")]
        assert await migrations.migrate(r.db, ok) == [100]
        assert await migrations.migrate(r.db, ok) == []
    finally:
        await r.close()


async def test_newer_schema_is_refused(file_path):
    r = SqliteRepository(file_path)
    await r.open()
    await r.db.execute("INSERT INTO schema_version VALUES (9999, 0)")
    await r.close()
    with pytest.raises(StorageError):
        await SqliteRepository(file_path).open()


async def test_upgrade_from_v1_keeps_seats_and_adds_keyboard(file_path):
    """A database created by the shipped V1 migrates to the current version on open."""
    import aiosqlite

    async with aiosqlite.connect(file_path, isolation_level=None) as db:
        assert await migrations.migrate(db, migrations.MIGRATIONS[:1]) == [1]
        await db.execute(
            "INSERT INTO tables (chat_id, game, status, opener_id, lang,"
            " created_at, updated_at) VALUES (-1, 'durak', 'lobby', 1, 'ru', 0, 0)"
        )
        await db.execute("INSERT INTO seats (table_id, seat, user_id, name) VALUES (1, 0, 11, 'Ann')")
    async with SqliteRepository(file_path) as r:
        assert await r.schema_version() == migrations.latest_version() >= 2
        assert await r.get_seats(1) == [SeatRow(1, 0, 11, "Ann")]
        await r.set_seat_keyboard(1, 0, "compact", 3)
        assert (await r.get_seats(1))[0].keyboard_version == 3
        assert await r.store_updates([(5, "{}")]) == [5]


def test_split_statements_keeps_trigger_bodies():
    stmts = migrations.split_statements(migrations.V1)
    triggers = [s for s in stmts if s.startswith("CREATE TRIGGER")]
    assert len(triggers) == 1 and triggers[0].rstrip().endswith("END;")
    assert all(s.endswith(";") for s in stmts)


async def test_pragmas_file_db_uses_wal(file_path):
    r = SqliteRepository(file_path)
    await r.open()
    try:
        assert await r.journal_mode() == "wal"
        fk = await r.db.execute_fetchall("PRAGMA foreign_keys")
        assert fk[0][0] == 1
        sync = await r.db.execute_fetchall("PRAGMA synchronous")
        assert sync[0][0] == 1  # NORMAL
        busy = await r.db.execute_fetchall("PRAGMA busy_timeout")
        assert busy[0][0] == 5000
    finally:
        await r.close()


async def test_memory_db_works():
    async with SqliteRepository(":memory:") as r:
        assert await r.journal_mode() == "memory"
        t = await new_table(r)
        assert (await r.get_table(t.id)).id == t.id


async def test_not_open_raises():
    r = SqliteRepository(":memory:")
    with pytest.raises(StorageError):
        await r.get_table(1)


# --- users and chats --------------------------------------------------------------


async def test_users(repo):
    assert await repo.get_user(5) is None
    u = await repo.upsert_user(5, "Ann", "ann", "ru")
    assert (u.user_id, u.name, u.username, u.lang, u.dm_open) == (5, "Ann", "ann", "ru", False)
    await repo.set_dm_open(5, True)
    u = await repo.upsert_user(5, "Anna", None, None)  # lang None keeps the stored one
    assert (u.name, u.username, u.lang, u.dm_open) == ("Anna", None, "ru", True)
    u = await repo.upsert_user(5, "Anna", None, "en")
    assert u.lang == "en"
    await repo.set_dm_open(5, False)
    assert (await repo.get_user(5)).dm_open is False
    await repo.set_dm_open(6, True)  # unknown user: a bare row keeps the flag
    assert (await repo.get_user(6)).dm_open is True


async def test_chat_lang(repo):
    assert await repo.get_chat_lang(-1) is None
    await repo.set_chat_lang(-1, "ru")
    await repo.set_chat_lang(-1, "en")
    assert await repo.get_chat_lang(-1) == "en"


async def test_migrate_chat(repo):
    old, new = -100, -1001234
    t = await new_table(repo, chat_id=old)
    closed = await new_table(repo, chat_id=old, thread_id=7)
    await repo.update_table(closed.id, status="closed")
    other = await new_table(repo, chat_id=-5)
    await repo.set_chat_lang(old, "en")
    await repo.enqueue(
        [
            OutboxItem(kind="post", chat_id=old, payload={"text": "1"}),
            OutboxItem(kind="post", chat_id=old, payload={"text": "2"}),
            OutboxItem(kind="hand", chat_id=42, table_id=t.id, target=0),
        ]
    )
    first = (await repo.pending_outbox())[0]
    await repo.mark_done([first.id])

    await repo.migrate_chat(old, new)

    assert (await repo.get_table(t.id)).chat_id == new
    assert (await repo.get_table(closed.id)).chat_id == new
    assert (await repo.get_table(other.id)).chat_id == -5
    assert (await repo.find_open_table(new, 0)).id == t.id
    assert await repo.find_open_table(old, 0) is None
    assert await repo.get_chat_lang(new) == "en"
    assert await repo.get_chat_lang(old) is None
    pending = await repo.pending_outbox()
    assert [(p.chat_id, p.payload) for p in pending] == [(new, {"text": "2"}), (42, {})]
    done = await raw(repo, "SELECT chat_id FROM outbox WHERE id = ?", first.id)
    assert done[0][0] == old  # already sent: history untouched


async def test_migrate_chat_conflict_moves_nothing(repo):
    t_old = await new_table(repo, chat_id=-1)
    t_new = await new_table(repo, chat_id=-2)
    await repo.set_chat_lang(-1, "en")
    with pytest.raises(TableExists):
        await repo.migrate_chat(-1, -2)
    assert (await repo.get_table(t_old.id)).chat_id == -1
    assert (await repo.get_table(t_new.id)).chat_id == -2
    assert await repo.get_chat_lang(-1) == "en"


# --- tables and seats -------------------------------------------------------------


async def test_create_and_find_table(repo):
    before = time.time()
    t = await new_table(repo, chat_id=-100, thread_id=0)
    assert t.id > 0 and t.status == "lobby" and t.version == 0 and t.game_no == 0
    assert t.options == {"variant": "podkidnoy", "deck": 36}
    assert t.settings == {"timer": 60}
    assert t.group_message_id is None and t.lang == "ru" and t.opener_id == 1
    assert before <= t.created_at <= time.time()
    assert await repo.get_table(t.id) == t
    assert await repo.find_open_table(-100, 0) == t
    assert await repo.find_open_table(-100, 5) is None
    assert await repo.get_table(t.id + 1000) is None


async def test_table_exists_per_chat_and_thread(repo):
    t = await new_table(repo, chat_id=-100, thread_id=0)
    with pytest.raises(TableExists):
        await new_table(repo, chat_id=-100, thread_id=0)
    in_topic = await new_table(repo, chat_id=-100, thread_id=3)  # another topic: fine
    in_other_chat = await new_table(repo, chat_id=-200, thread_id=0)
    assert len({t.id, in_topic.id, in_other_chat.id}) == 3
    # playing and between also block
    await repo.update_table(t.id, status="playing")
    with pytest.raises(TableExists):
        await new_table(repo, chat_id=-100, thread_id=0)
    await repo.update_table(t.id, status="between")
    with pytest.raises(TableExists):
        await new_table(repo, chat_id=-100, thread_id=0)
    await repo.update_table(t.id, status="closed")
    again = await new_table(repo, chat_id=-100, thread_id=0)  # closed frees the slot
    assert (await repo.find_open_table(-100, 0)).id == again.id
    # re-opening the closed table now collides
    with pytest.raises(TableExists):
        await repo.update_table(t.id, status="lobby")
    assert (await repo.get_table(t.id)).status == "closed"


async def test_tables_with_status(repo):
    a = await new_table(repo, chat_id=-1)
    b = await new_table(repo, chat_id=-2)
    c = await new_table(repo, chat_id=-3)
    await repo.update_table(b.id, status="playing")
    await repo.update_table(c.id, status="closed")
    assert [t.id for t in await repo.tables_with_status("lobby")] == [a.id]
    assert [t.id for t in await repo.tables_with_status("lobby", "playing")] == [a.id, b.id]
    assert [t.id for t in await repo.tables_with_status("between")] == []
    assert [t.id for t in await repo.tables_with_status()] == [a.id, b.id, c.id]


async def test_last_table_of_a_chat(repo):
    """/preferans remembers a group's choice: its newest table of the preferans games."""
    assert await repo.last_table_of(-1, ["preferans", "preferans_ru"]) is None
    a = await new_table(repo, chat_id=-1, game="preferans")
    await repo.update_table(a.id, status="closed")
    b = await new_table(repo, chat_id=-1, game="preferans_ru", options={"system": "rostov"})
    await repo.update_table(b.id, status="closed")
    await new_table(repo, chat_id=-1, game="durak")
    await new_table(repo, chat_id=-2, game="preferans")
    last = await repo.last_table_of(-1, ["preferans", "preferans_ru"])
    assert last.id == b.id and last.options == {"system": "rostov"}
    assert (await repo.last_table_of(-1, ["preferans"])).id == a.id
    assert (await repo.last_table_of(-2, ["preferans", "preferans_ru"])).game == "preferans"


async def test_update_table_fields(repo):
    t = await new_table(repo)
    u = await repo.update_table(
        t.id, options={"deck": 52}, settings={"timer": 0}, group_message_id=77, lang="en", game_no=1
    )
    assert (u.options, u.settings, u.group_message_id, u.lang, u.game_no) == ({"deck": 52}, {"timer": 0}, 77, "en", 1)
    assert u.version == t.version  # unversioned edit: no bump
    assert await repo.get_table(t.id) == u
    assert await repo.update_table(t.id) == u
    with pytest.raises(ValueError):
        await repo.update_table(t.id, version=5)
    with pytest.raises(ValueError):
        await repo.update_table(t.id, chat_id=1)
    with pytest.raises(ValueError):
        await repo.update_table(t.id, status="bogus")
    with pytest.raises(StorageError):
        await repo.update_table(t.id + 999, lang="en")


async def test_settings_changes_set_and_remove_keys_of_the_stored_settings(repo):
    t = await new_table(repo, settings={"timer": 60, "title": "x"})
    u = await repo.update_table(t.id, settings_changes={"rematch_post": [1, 5, None], "title": None})
    assert u.settings == {"timer": 60, "rematch_post": [1, 5, None]} and u.version == t.version
    await repo.commit_actions(t.id, 0, acts(t.id, 1, 1), table_fields={"settings_changes": {"last_deal": [1, 1]}})
    assert (await repo.get_table(t.id)).settings == {"timer": 60, "rematch_post": [1, 5, None], "last_deal": [1, 1]}
    u = await repo.update_table(t.id, expected_version=1, settings_changes={"timer": 120})
    assert u.version == 2 and u.settings["timer"] == 120 and u.settings["last_deal"] == [1, 1]
    with pytest.raises(ValueError):
        await repo.update_table(t.id, settings={}, settings_changes={"a": 1})
    with pytest.raises(ValueError):
        await repo.update_table(t.id, settings_changes=[("a", 1)])
    with pytest.raises(ValueError):
        await repo.update_table(t.id, settings_changes={"a": float("nan")})
    assert (await repo.get_table(t.id)).settings == u.settings


async def test_settings_changes_of_two_repositories_at_once_lose_nothing(store):
    """Two processes change different keys of one table's settings at once, one of them
    in a versioned commit: each round both writes are kept (none read a stale copy)."""
    a, b = await store(), await store()
    t = await new_table(a, settings={"timer": 60})
    version = 0
    for i in range(40):
        await asyncio.gather(
            a.update_table(t.id, settings_changes={"rematch_post": [1, i, None] if i % 3 else None}),
            b.commit_actions(
                t.id, version, acts(t.id, version + 1, 1), table_fields={"settings_changes": {"last_deal": [1, i]}}
            ),
        )
        version += 1
        settings = (await a.get_table(t.id)).settings
        assert settings.get("rematch_post") == ([1, i, None] if i % 3 else None), (i, settings)
        assert settings["last_deal"] == [1, i] and settings["timer"] == 60, (i, settings)


async def test_update_table_version_bump_and_conflict(repo):
    t = await new_table(repo)
    u = await repo.update_table(t.id, expected_version=0, options={"deck": 24})
    assert u.version == 1 and u.options == {"deck": 24}
    with pytest.raises(VersionConflict):
        await repo.update_table(t.id, expected_version=0, options={"deck": 52})
    cur = await repo.get_table(t.id)
    assert cur.version == 1 and cur.options == {"deck": 24}
    u = await repo.update_table(t.id, expected_version=1)  # bump alone
    assert u.version == 2
    assert await repo.load_actions(t.id) == []  # no action rows for lobby edits
    # the next action continues from the version: seq 3, leaving a gap
    with pytest.raises(ValueError):
        await repo.commit_actions(t.id, 2, acts(t.id, 1, 1))
    assert await repo.commit_actions(t.id, 2, acts(t.id, 3, 2)) == 4
    assert [a.seq for a in await repo.load_actions(t.id)] == [3, 4]
    assert (await repo.update_table(t.id, expected_version=4)).version == 5
    assert await repo.commit_actions(t.id, 5, acts(t.id, 6, 1)) == 6
    assert [a.seq for a in await repo.load_actions(t.id)] == [3, 4, 6]


async def test_seats_round_trip(repo):
    t = await new_table(repo)
    seats = [
        SeatRow(t.id, 0, 11, "Ann"),
        SeatRow(t.id, 1, -1, "Bot", is_computer=True),
        SeatRow(t.id, 2, 12, "Bob", dm_message_id=5, ping_message_id=6),
    ]
    await repo.replace_seats(t.id, list(reversed(seats)))
    assert await repo.get_seats(t.id) == seats
    await repo.replace_seats(t.id, seats[:2])
    assert await repo.get_seats(t.id) == seats[:2]
    await repo.replace_seats(t.id, [])
    assert await repo.get_seats(t.id) == []
    with pytest.raises(ValueError):
        await repo.replace_seats(t.id, [SeatRow(t.id + 1, 0, 1, "x")])
    # duplicate seat numbers fail as a whole
    await repo.replace_seats(t.id, seats)
    with pytest.raises(Exception):
        await repo.replace_seats(t.id, [SeatRow(t.id, 0, 1, "a"), SeatRow(t.id, 0, 2, "b")])
    assert await repo.get_seats(t.id) == seats


async def test_set_seat_messages(repo):
    t = await new_table(repo)
    await repo.replace_seats(t.id, [SeatRow(t.id, 0, 11, "Ann"), SeatRow(t.id, 1, 12, "Bob")])
    await repo.set_seat_messages(t.id, 0, dm_message_id=100)
    s = (await repo.get_seats(t.id))[0]
    assert (s.dm_message_id, s.ping_message_id) == (100, None)
    await repo.set_seat_messages(t.id, 0, ping_message_id=200)
    s = (await repo.get_seats(t.id))[0]
    assert (s.dm_message_id, s.ping_message_id) == (100, 200)
    await repo.set_seat_messages(t.id, 0, dm_message_id=None)
    s = (await repo.get_seats(t.id))[0]
    assert (s.dm_message_id, s.ping_message_id) == (None, 200)
    await repo.set_seat_messages(t.id, 0)  # nothing passed: nothing changes
    await repo.set_seat_messages(t.id, 0, dm_message_id=1, ping_message_id=None)
    s0, s1 = await repo.get_seats(t.id)
    assert (s0.dm_message_id, s0.ping_message_id) == (1, None)
    assert (s1.dm_message_id, s1.ping_message_id) == (None, None)


async def test_tables_of_user(repo):
    a = await new_table(repo, chat_id=-1)
    b = await new_table(repo, chat_id=-2)
    c = await new_table(repo, chat_id=-3)
    await repo.replace_seats(a.id, [SeatRow(a.id, 0, 11, "Ann"), SeatRow(a.id, 1, 12, "B")])
    await repo.replace_seats(b.id, [SeatRow(b.id, 0, 12, "B")])
    await repo.replace_seats(c.id, [SeatRow(c.id, 0, 11, "Ann")])
    await repo.update_table(c.id, status="closed")
    assert [t.id for t in await repo.tables_of_user(11)] == [a.id]
    assert [t.id for t in await repo.tables_of_user(12)] == [a.id, b.id]
    assert await repo.tables_of_user(99) == []


# --- the action log ---------------------------------------------------------------


async def test_commit_actions_happy_path(repo):
    t = await new_table(repo)
    await repo.update_table(t.id, game_no=1, status="playing")
    timer = TimerRow(t.id, version=3, remind_at=100.0, expire_at=200.0)
    v = await repo.commit_actions(
        t.id,
        0,
        acts(t.id, 1, 3),
        outbox=[
            OutboxItem(kind="group", chat_id=-100, table_id=t.id),
            OutboxItem(kind="hand", chat_id=11, table_id=t.id, target=0, payload={"x": "ü"}),
        ],
        table_fields={"settings": {"timer": 30}},
        snapshot={"state": 3},
        timer=timer,
    )
    assert v == 3
    row = await repo.get_table(t.id)
    assert row.version == 3 and row.settings == {"timer": 30} and row.status == "playing"
    loaded = await repo.load_actions(t.id)
    assert [(a.seq, a.seat, a.action, a.game_no) for a in loaded] == [
        (1, None, "a1", 1),
        (2, 1, "a2", 1),
        (3, 0, "a3", 1),
    ]
    assert all(a.created_at > 0 for a in loaded)
    assert await repo.latest_snapshot(t.id) == (3, {"state": 3})
    out = await repo.pending_outbox()
    assert [(o.kind, o.target, o.payload) for o in out] == [("group", None, {}), ("hand", 0, {"x": "ü"})]
    assert await repo.all_timers() == [timer]

    # The game ends: status and game_no change and the result is filed under the
    # game_no *after* table_fields (here the service leaves game_no at 1).
    v = await repo.commit_actions(
        t.id, 3, acts(t.id, 4, 1), table_fields={"status": "between"}, result={"winner": 0}, timer=None
    )
    assert v == 4
    assert await repo.game_results(t.id) == [{"winner": 0}]
    assert await repo.all_timers() == []
    assert (await repo.get_table(t.id)).status == "between"
    # Next game: the deal happens with game_no bumped in the same commit.
    await repo.commit_actions(t.id, 4, acts(t.id, 5, 1, game_no=2), table_fields={"game_no": 2, "status": "playing"})
    await repo.commit_actions(t.id, 5, acts(t.id, 6, 1, game_no=2), result={"winner": 1})
    assert await repo.game_results(t.id) == [{"winner": 0}, {"winner": 1}]


async def test_commit_actions_timer_keep_replace(repo):
    t = await new_table(repo)
    t1 = TimerRow(t.id, 1, None, 50.0)
    await repo.commit_actions(t.id, 0, acts(t.id, 1, 1), timer=t1)
    await repo.commit_actions(t.id, 1, acts(t.id, 2, 1))  # ... keeps it
    assert await repo.all_timers() == [t1]
    t2 = TimerRow(t.id, 3, 60.0, 70.0)
    await repo.commit_actions(t.id, 2, acts(t.id, 3, 1), timer=t2)
    assert await repo.all_timers() == [t2]


async def test_commit_without_actions(repo):
    t = await new_table(repo)
    await repo.commit_actions(t.id, 0, acts(t.id, 1, 2))
    v = await repo.commit_actions(t.id, 2, [], outbox=[OutboxItem("post", -100)], table_fields={"group_message_id": 9})
    assert v == 2
    row = await repo.get_table(t.id)
    assert row.version == 2 and row.group_message_id == 9
    assert len(await repo.pending_outbox()) == 1
    with pytest.raises(VersionConflict):  # still under the version check
        await repo.commit_actions(t.id, 1, [], table_fields={"group_message_id": 10})
    assert (await repo.get_table(t.id)).group_message_id == 9


async def test_version_conflict_leaves_everything_unchanged(repo):
    t = await new_table(repo)
    timer = TimerRow(t.id, 2, 10.0, 20.0)
    await repo.commit_actions(
        t.id, 0, acts(t.id, 1, 2), snapshot={"s": 2}, outbox=[OutboxItem("group", -100, t.id)], timer=timer
    )
    before = await snapshot_of_everything(repo, t.id)
    # A stale writer that loaded version 1 (seq 2 is taken now).
    with pytest.raises(VersionConflict):
        await repo.commit_actions(
            t.id,
            1,
            acts(t.id, 2, 2),
            outbox=[OutboxItem("post", -100, t.id, payload={"text": "x"})],
            table_fields={"status": "closed", "options": {"z": 1}},
            snapshot={"s": 3},
            result={"r": 1},
            timer=None,
        )
    with pytest.raises(VersionConflict):
        await repo.commit_actions(t.id, 5, acts(t.id, 6, 1), timer=None)
    assert await snapshot_of_everything(repo, t.id) == before


async def test_bad_seq_writes_nothing(repo):
    t = await new_table(repo)
    await repo.commit_actions(t.id, 0, acts(t.id, 1, 1))
    before = await snapshot_of_everything(repo, t.id)
    bad = [ActionRow(t.id, 2, 1, 0, "x"), ActionRow(t.id, 4, 1, 0, "y")]  # gap
    with pytest.raises(ValueError):
        await repo.commit_actions(t.id, 1, bad, outbox=[OutboxItem("post", 1)], snapshot={"a": 1}, timer=None)
    with pytest.raises(ValueError):  # does not start right after expected_version
        await repo.commit_actions(t.id, 1, [ActionRow(t.id, 3, 1, 0, "x")])
    with pytest.raises(ValueError):  # wrong table in the rows
        await repo.commit_actions(t.id, 1, [ActionRow(t.id + 1, 2, 1, 0, "x")])
    with pytest.raises(ValueError):  # field outside the whitelist
        await repo.commit_actions(t.id, 1, acts(t.id, 2, 1), table_fields={"version": 9})
    with pytest.raises(ValueError):  # timer of another table
        await repo.commit_actions(t.id, 1, acts(t.id, 2, 1), timer=TimerRow(t.id + 1, 2, None, 1.0))
    assert await snapshot_of_everything(repo, t.id) == before
    assert await repo.commit_actions(t.id, 1, acts(t.id, 2, 1)) == 2  # still usable


async def test_failure_mid_transaction_rolls_back_everything(repo):
    t = await new_table(repo)
    timer = TimerRow(t.id, 1, 10.0, 20.0)
    await repo.commit_actions(t.id, 0, acts(t.id, 1, 1), snapshot={"s": 1}, timer=timer)
    before = await snapshot_of_everything(repo, t.id)
    # Make the outbox insert -- which runs after the actions, the table update and
    # the snapshot -- fail inside the transaction.
    await arm_outbox_failure(repo)
    with pytest.raises(Exception, match="boom"):
        await repo.commit_actions(
            t.id,
            1,
            acts(t.id, 2, 3),
            outbox=[OutboxItem("post", -100, t.id)],
            table_fields={"status": "between", "game_no": 1},
            snapshot={"s": 4},
            result={"r": 1},
            timer=None,
        )
    await disarm_outbox_failure(repo)
    assert await snapshot_of_everything(repo, t.id) == before
    if not is_pg(repo):
        assert not repo.db.in_transaction
    # The connection is healthy and the same commit now succeeds.
    assert await repo.commit_actions(t.id, 1, acts(t.id, 2, 3), outbox=[OutboxItem("post", -100, t.id)]) == 4


async def test_unique_violation_maps_to_version_conflict(repo):
    t = await new_table(repo)
    await repo.commit_actions(t.id, 0, acts(t.id, 1, 2))
    # Corrupt the version behind the repository's back so the version check passes
    # but seq 2 is already taken.
    await raw(repo, "UPDATE tables SET version = 1 WHERE id = ?", t.id)
    with pytest.raises(VersionConflict):
        await repo.commit_actions(t.id, 1, acts(t.id, 2, 1), outbox=[OutboxItem("post", -100, t.id)])
    assert len(await repo.load_actions(t.id)) == 2
    assert await repo.pending_outbox() == []
    assert (await repo.get_table(t.id)).version == 1


async def test_actions_are_append_only(repo):
    t = await new_table(repo)
    await repo.commit_actions(t.id, 0, acts(t.id, 1, 1))
    with pytest.raises(Exception, match="append-only"):
        await raw(repo, "UPDATE actions SET action = 'x'")


async def test_commit_on_unknown_table(repo):
    with pytest.raises(StorageError):
        await repo.commit_actions(12345, 0, acts(12345, 1, 1))


async def test_concurrent_commits_exactly_one_wins(repo):
    t = await new_table(repo)
    await repo.commit_actions(t.id, 0, acts(t.id, 1, 1))

    async def attempt(tag):
        return await repo.commit_actions(
            t.id,
            1,
            [ActionRow(t.id, 2, 1, 0, tag)],
            outbox=[OutboxItem("post", -100, t.id, payload={"by": tag})],
            timer=TimerRow(t.id, 2, None, 99.0),
        )

    results = await asyncio.gather(*(attempt(f"w{i}") for i in range(5)), return_exceptions=True)
    wins = [r for r in results if r == 2]
    conflicts = [r for r in results if isinstance(r, VersionConflict)]
    assert len(wins) == 1 and len(conflicts) == 4, results
    winner = f"w{results.index(2)}"
    assert [a.action for a in await repo.load_actions(t.id)] == ["a1", winner]
    assert [o.payload["by"] for o in await repo.pending_outbox()] == [winner]
    assert (await repo.get_table(t.id)).version == 2


# (cross-process tests with two repositories on one store: see the end of the file)


async def test_snapshot_and_replay_from_it(repo):
    t = await new_table(repo)
    assert await repo.latest_snapshot(t.id) is None
    await repo.commit_actions(t.id, 0, acts(t.id, 1, 2), snapshot={"after": 2})
    await repo.commit_actions(t.id, 2, acts(t.id, 3, 2))
    await repo.commit_actions(t.id, 4, acts(t.id, 5, 1), snapshot={"after": 5})
    await repo.commit_actions(t.id, 5, acts(t.id, 6, 3))
    seq, state = await repo.latest_snapshot(t.id)
    assert (seq, state) == (5, {"after": 5})
    assert [a.seq for a in await repo.load_actions(t.id, after_seq=seq)] == [6, 7, 8]
    assert [a.seq for a in await repo.load_actions(t.id, 2)] == [3, 4, 5, 6, 7, 8]
    assert await repo.load_actions(t.id, 8) == []
    # a snapshot with no new actions is stored at the current version
    await repo.commit_actions(t.id, 8, [], snapshot={"after": 8})
    assert await repo.latest_snapshot(t.id) == (8, {"after": 8})
    # snapshots are per table
    other = await new_table(repo, chat_id=-7)
    assert await repo.latest_snapshot(other.id) is None
    assert await repo.load_actions(other.id) == []


# --- outbox -----------------------------------------------------------------------


async def test_outbox(repo):
    assert await repo.pending_outbox() == []
    await repo.enqueue([])
    items = [OutboxItem("post", -100, None, None, {"text": f"<b>{i}</b>"}) for i in range(5)]
    await repo.enqueue(items)
    pending = await repo.pending_outbox()
    assert [p.payload["text"] for p in pending] == [f"<b>{i}</b>" for i in range(5)]
    ids = [p.id for p in pending]
    assert ids == sorted(ids) and all(p.created_at > 0 for p in pending)
    assert [p.id for p in await repo.pending_outbox(limit=2)] == ids[:2]
    await repo.mark_done(ids[:2])
    await repo.mark_done([])
    assert [p.id for p in await repo.pending_outbox()] == ids[2:]
    rows = await raw(repo, "SELECT done_at FROM outbox WHERE id IN (?, ?)", *ids[:2])
    assert all(r[0] is not None and r[0] > 0 for r in rows)
    # marking again does not move done_at; the sequence keeps growing
    await repo.mark_done(ids)
    assert await repo.pending_outbox() == []
    await repo.enqueue([OutboxItem("ping", 11, 1, 0)])
    (late,) = await repo.pending_outbox()
    assert late.id > ids[-1] and late.kind == "ping" and late.target == 0
    assert await repo.purge_outbox(time.time() + 1) == 5
    assert [p.id for p in await repo.pending_outbox()] == [late.id]


async def test_housekeeping_deletes_what_its_retention_lets_go_and_nothing_else(repo):
    """Delivered outbox rows, handled inbox ids and deal analyses older than their cutoff,
    and every snapshot but a table's newest, go in batches; pending rows, unhandled
    updates, newer rows, the action log and the finished games stay."""
    t, u = await new_table(repo), await new_table(repo, chat_id=-200)
    await repo.commit_actions(t.id, 0, acts(t.id, 1, 3), snapshot={"at": 3})
    await repo.commit_actions(t.id, 3, acts(t.id, 4, 2), snapshot={"at": 5})
    await repo.commit_actions(t.id, 5, acts(t.id, 6, 1), snapshot={"at": 6})
    await repo.commit_actions(u.id, 0, acts(u.id, 1, 1), snapshot={"at": 1})
    await repo.enqueue([OutboxItem("post", -100, t.id, None, {"text": str(i)}) for i in range(12)])
    rows = await repo.pending_outbox()
    await repo.mark_done([r.id for r in rows[:10]])
    await repo.store_updates([(7000 + i, "{}") for i in range(9)])
    await repo.mark_updates_handled([7000 + i for i in range(7)])
    for seq in (3, 5):
        await repo.put_deal_analysis(t.id, seq, {"seq": seq})

    cutoff = time.time() - 3600  # everything above is newer: nothing goes
    assert await repo.purge_outbox(cutoff) == 0
    assert await repo.purge_inbox(cutoff) == 0
    assert await repo.purge_deal_analyses(cutoff) == 0

    later = time.time() + 1
    assert await repo.purge_outbox(later, batch=3) == 10  # four batches
    assert [r.id for r in await repo.pending_outbox()] == [r.id for r in rows[10:]]
    assert await repo.purge_inbox(later, batch=3) == 7
    assert await raw(repo, "SELECT update_id FROM inbox ORDER BY update_id") == [(7007,), (7008,)]
    assert await repo.store_updates([(7000, "{}")]) == [7000]  # forgotten: stored anew
    assert await repo.purge_deal_analyses(later, batch=1) == 2
    assert await repo.get_deal_analysis(t.id, 3) is None
    assert await repo.purge_old_snapshots(batch=1) == 2
    assert await raw(repo, "SELECT table_id, seq FROM snapshots ORDER BY table_id, seq") == [(t.id, 6), (u.id, 1)]
    assert await repo.latest_snapshot(t.id) == (6, {"at": 6})
    assert [a.seq for a in await repo.load_actions(t.id)] == [1, 2, 3, 4, 5, 6]  # the log stays
    for purge in (repo.purge_old_snapshots(), repo.purge_outbox(later), repo.purge_inbox(later)):
        assert await purge == 0  # a second run finds nothing: idempotent


async def test_outbox_refusals_are_counted_on_the_rows(repo):
    await repo.enqueue([OutboxItem("post", -100, None, None, {"text": str(i)}) for i in range(3)])
    first, second, third = await repo.pending_outbox()
    assert (first.attempts, second.attempts, third.attempts) == (0, 0, 0)
    await repo.outbox_refused([first.id, second.id])
    await repo.outbox_refused([first.id])
    await repo.outbox_refused([])
    assert [p.attempts for p in await repo.pending_outbox()] == [2, 1, 0]


async def test_mark_done_many_ids(repo):
    await repo.enqueue([OutboxItem("post", 1) for _ in range(1200)])
    ids = [p.id for p in await repo.pending_outbox(limit=5000)]
    assert len(ids) == 1200
    await repo.mark_done(ids)
    assert await repo.pending_outbox() == []


# --- timers -----------------------------------------------------------------------


async def test_timers(repo):
    a = await new_table(repo, chat_id=-1)
    b = await new_table(repo, chat_id=-2)
    c = await new_table(repo, chat_id=-3)
    await repo.commit_actions(a.id, 0, [], timer=TimerRow(a.id, 0, 100.0, 200.0))
    await repo.commit_actions(b.id, 0, [], timer=TimerRow(b.id, 0, None, 150.0))
    await repo.set_timer(TimerRow(c.id, 0, 300.0, 400.0))
    assert len(await repo.all_timers()) == 3

    assert await repo.due_timers(99.0) == []
    assert [x.table_id for x in await repo.due_timers(100.0)] == [a.id]
    await repo.mark_reminded(a.id, version=7)  # stale version: no effect
    assert [x.table_id for x in await repo.due_timers(100.0)] == [a.id]
    await repo.mark_reminded(a.id, version=0)
    assert await repo.due_timers(100.0) == []
    assert [(x.table_id, x.reminded) for x in await repo.all_timers() if x.table_id == a.id] == [(a.id, True)]
    assert [x.table_id for x in await repo.due_timers(150.0)] == [b.id]
    assert {x.table_id for x in await repo.due_timers(200.0)} == {a.id, b.id}
    assert {x.table_id for x in await repo.due_timers(1000.0)} == {a.id, b.id, c.id}

    # replace: a new deadline for a new version resets reminded
    await repo.commit_actions(a.id, 0, acts(a.id, 1, 1), timer=TimerRow(a.id, 1, 500.0, 600.0))
    (ta,) = [x for x in await repo.all_timers() if x.table_id == a.id]
    assert ta == TimerRow(a.id, 1, 500.0, 600.0, reminded=False)
    assert a.id not in {x.table_id for x in await repo.due_timers(450.0)}

    # clear with a stale version does nothing; with the right one (or none) it clears
    await repo.clear_timer(a.id, version=0)
    assert a.id in {x.table_id for x in await repo.all_timers()}
    await repo.clear_timer(a.id, version=1)
    await repo.clear_timer(b.id)
    assert [x.table_id for x in await repo.all_timers()] == [c.id]


async def test_reopen_sees_committed_data_and_timers(store):
    """Simulated restart: a second repository on the store sees everything committed,
    including while the first is still open (WAL readers / another PG session)."""
    r1 = await store()
    t = await new_table(r1)
    await r1.replace_seats(t.id, [SeatRow(t.id, 0, 11, "Ann")])
    await r1.commit_actions(
        t.id,
        0,
        acts(t.id, 1, 2),
        snapshot={"s": 2},
        outbox=[OutboxItem("group", -100, t.id)],
        timer=TimerRow(t.id, 2, 10.0, 20.0),
        table_fields={"status": "playing"},
    )
    r2 = await store()
    try:
        assert await r2.get_table(t.id) == await r1.get_table(t.id)
        await r1.close()
        assert (await r2.get_table(t.id)).version == 2
        assert [x.id for x in await r2.tables_with_status("playing")] == [t.id]
        assert await r2.get_seats(t.id) == [SeatRow(t.id, 0, 11, "Ann")]
        assert [a.seq for a in await r2.load_actions(t.id)] == [1, 2]
        assert await r2.latest_snapshot(t.id) == (2, {"s": 2})
        assert [o.kind for o in await r2.pending_outbox()] == ["group"]
        assert await r2.all_timers() == [TimerRow(t.id, 2, 10.0, 20.0)]
        # and it can carry on where r1 left off
        assert await r2.commit_actions(t.id, 2, acts(t.id, 3, 1)) == 3
    finally:
        await r1.close()
        await r2.close()


async def test_cancelled_commit_is_all_or_nothing(repo):
    """Cancel commit_actions at many points: the table either has the whole commit or
    none of it, and the connection is never left inside a transaction. (A cancel that
    lands while COMMIT runs may still commit -- the caller must reload after it.)"""
    points = [(spins, 0.0) for spins in range(0, 60, 3)]
    points += [(0, ms / 1000) for ms in (0.5, 1, 2, 3, 5, 8, 13, 30, 300)]
    outcomes = set()
    for i, (spins, pause) in enumerate(points):
        t = await new_table(repo, chat_id=-1000 - i)
        task = asyncio.create_task(
            repo.commit_actions(t.id, 0, acts(t.id, 1, 1), outbox=[OutboxItem("post", t.id)] * 50, snapshot={"s": 1})
        )
        for _ in range(spins):
            await asyncio.sleep(0)
        await asyncio.sleep(pause)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        if not is_pg(repo):
            assert not repo.db.in_transaction
        v = (await repo.get_table(t.id)).version
        pending = [o for o in await repo.pending_outbox(10_000) if o.chat_id == t.id]
        state = (len(await repo.load_actions(t.id)), len(pending), await repo.latest_snapshot(t.id))
        assert (v, state) in ((0, (0, 0, None)), (1, (1, 50, (1, {"s": 1})))), (i, v)
        outcomes.add(v)
        # the connection (pool) is usable
        assert await repo.commit_actions(t.id, v, acts(t.id, v + 1, 1)) == v + 1
    assert outcomes == {0, 1}  # both ends were reached


# --- protocol additions: seats with update_table, keyboard, claims ---------------------


async def test_update_table_with_seats_is_atomic_with_the_version(repo):
    t = await new_table(repo)
    ann = SeatRow(t.id, 0, 11, "Ann")
    await repo.replace_seats(t.id, [ann])
    bob = SeatRow(t.id, 1, 12, "Bob", keyboard="compact", keyboard_version=1)
    u = await repo.update_table(t.id, expected_version=0, seats=[ann, bob], options={"deck": 52})
    assert (u.version, u.options) == (1, {"deck": 52})
    assert await repo.get_seats(t.id) == [ann, bob]
    # a stale join changes nothing: neither the seats nor the fields
    with pytest.raises(VersionConflict):
        await repo.update_table(t.id, expected_version=0, seats=[ann], options={"deck": 24})
    assert await repo.get_seats(t.id) == [ann, bob]
    assert (await repo.get_table(t.id)).options == {"deck": 52}
    # bad seats fail before anything is written
    with pytest.raises(ValueError):
        await repo.update_table(t.id, expected_version=1, seats=[SeatRow(t.id + 1, 0, 1, "x")])
    with pytest.raises(ValueError):
        await repo.update_table(t.id, expected_version=1, seats=[SeatRow(t.id, 0, 1, "a"), SeatRow(t.id, 0, 2, "b")])
    assert (await repo.get_table(t.id)).version == 1
    assert await repo.get_seats(t.id) == [ann, bob]
    # seats=None leaves them, [] empties them; unversioned seat updates do not bump
    assert (await repo.update_table(t.id, expected_version=1, lang="en")).version == 2
    assert await repo.get_seats(t.id) == [ann, bob]
    assert (await repo.update_table(t.id, seats=[])).version == 2
    assert await repo.get_seats(t.id) == []
    with pytest.raises(StorageError):
        await repo.update_table(t.id + 999, seats=[])


async def test_seat_keyboard(repo):
    t = await new_table(repo)
    await repo.replace_seats(t.id, [SeatRow(t.id, 0, 11, "Ann"), SeatRow(t.id, 1, 12, "Bob")])
    s0, s1 = await repo.get_seats(t.id)
    assert (s0.keyboard, s0.keyboard_version) == ("normal", 0)
    await repo.set_seat_keyboard(t.id, 1, "compact", 7)
    s0, s1 = await repo.get_seats(t.id)
    assert (s0.keyboard, s0.keyboard_version) == ("normal", 0)
    assert (s1.keyboard, s1.keyboard_version) == ("compact", 7)
    await repo.set_seat_keyboard(t.id, 5, "compact", 7)  # no such seat: nothing happens
    # the keyboard survives replace_seats when the rows carry it
    await repo.replace_seats(t.id, [s0, s1])
    assert (await repo.get_seats(t.id))[1] == s1
    await repo.set_seat_messages(t.id, 1, dm_message_id=3)
    assert (await repo.get_seats(t.id))[1].keyboard == "compact"


async def test_mark_reminded_is_a_claim(repo):
    t = await new_table(repo)
    assert await repo.mark_reminded(t.id, 0) is False  # no timer
    await repo.set_timer(TimerRow(t.id, 3, 10.0, 20.0))
    assert await repo.mark_reminded(t.id, 2) is False  # another version
    assert await repo.mark_reminded(t.id, 3) is True
    assert await repo.mark_reminded(t.id, 3) is False  # already reminded
    await repo.set_timer(TimerRow(t.id, 4, 30.0, 40.0))  # a new deadline: claimable again
    results = await asyncio.gather(*(repo.mark_reminded(t.id, 4) for _ in range(6)))
    assert sorted(results) == [False] * 5 + [True]
    await repo.clear_timer(t.id)
    assert await repo.mark_reminded(t.id, 4) is False


async def test_inbox_stores_each_update_id_once(repo):
    assert await repo.store_updates([(1000001, '{"a":1}'), (1000002, '{"b":2}')]) == [1000001, 1000002]
    assert await repo.store_updates([(1000001, "{}"), (1000003, "{}")]) == [1000003]  # a re-sent id: left out
    results = await asyncio.gather(*(repo.store_updates([(1000004, "{}")]) for _ in range(5)))
    assert sorted(results) == [[]] * 4 + [[1000004]]
    await repo.mark_updates_handled([1000001])
    assert await repo.store_updates([(1000001, "{}")]) == []  # handled: still not stored again
    assert await raw(repo, "SELECT payload FROM inbox WHERE update_id = ?", 1000001) == [(None,)]
    # handled rows older than a day are purged by the housekeeping, not while storing
    await raw(repo, "UPDATE inbox SET handled_at = ? WHERE update_id = ?", time.time() - 2 * 86400, 1000001)
    assert await repo.store_updates([(1000100, "{}")]) == [1000100]
    assert await repo.store_updates([(1000001, "{}")]) == []  # still remembered
    assert await repo.purge_inbox(time.time() - 86400) == 1
    assert await repo.store_updates([(1000001, "{}")]) == [1000001]  # forgotten, so stored again
    assert await repo.store_updates([(1000002, "{}")]) == []  # unhandled: kept whatever its age


async def test_inbox_hands_unhandled_updates_over_once(repo):
    await repo.store_updates([(7, '{"n":7}'), (5, '{"n":5}'), (6, '{"n":6}')])
    await repo.mark_updates_handled([6])
    now = time.time()
    assert await repo.take_unhandled_updates(now - 60, max_attempts=3) == []  # just taken: in flight
    assert await repo.take_unhandled_updates(now + 1, max_attempts=3) == [(5, '{"n":5}'), (7, '{"n":7}')]
    assert await repo.take_unhandled_updates(now - 1, max_attempts=3) == []  # taken again just now
    await raw(repo, "UPDATE inbox SET taken_at = ?", time.time() - 100)  # their process died
    results = await asyncio.gather(*(repo.take_unhandled_updates(time.time() - 10, 5) for _ in range(4)))
    assert sorted(results) == [[]] * 3 + [[(5, '{"n":5}'), (7, '{"n":7}')]]
    # taken three times (stored, then twice more) and still not handled: given up
    assert await repo.take_unhandled_updates(time.time() + 1, max_attempts=3) == []
    assert await repo.store_updates([(5, "{}"), (7, "{}")]) == []
    assert await raw(repo, "SELECT COUNT(*) FROM inbox WHERE handled_at IS NULL") == [(0,)]


async def test_single_process_sender_and_listener(repo):
    assert await repo.try_lead_sender() is True
    assert await repo.try_lead_sender() is True  # idempotent
    assert await repo.listen_outbox(lambda: None) is None


async def test_big_ids_and_json_round_trip(repo):
    chat, user, msg = -1001234567890123, 7_000_000_000_123, 2**40 + 1
    t = await repo.create_table(
        chat, 2**33, "bridge", {"z": 1, "a": [1, 2.5, None]}, user, "ru", {"ключ": "значение", "b": True}
    )
    assert list(t.options) == ["z", "a"]  # key order kept, like SQLite
    assert t.settings == {"ключ": "значение", "b": True}
    await repo.replace_seats(t.id, [SeatRow(t.id, 0, user, "Ann", dm_message_id=msg)])
    await repo.update_table(t.id, group_message_id=msg)
    assert (await repo.find_open_table(chat, 2**33)).group_message_id == msg
    assert [x.id for x in await repo.tables_of_user(user)] == [t.id]
    await repo.upsert_user(user, "Ann", None, None)
    assert (await repo.get_user(user)).user_id == user
    await repo.enqueue([OutboxItem("hand", user, t.id, 0, {"n": 10**15})])
    (item,) = await repo.pending_outbox()
    assert (item.chat_id, item.payload) == (user, {"n": 10**15})
    await repo.migrate_chat(chat, chat - 1)
    assert (await repo.get_table(t.id)).chat_id == chat - 1
    # control characters and NUL survive; NaN is refused before anything is written
    odd = {"s": "a\x00b\n\t\u2028\"'\\", "e": "", "l": [[], {}]}
    await repo.commit_actions(t.id, 0, [], snapshot=odd)
    assert await repo.latest_snapshot(t.id) == (0, odd)
    with pytest.raises(ValueError):
        await repo.commit_actions(t.id, 0, acts(t.id, 1, 1), snapshot={"x": float("nan")})
    assert (await repo.get_table(t.id)).version == 0


# --- two repositories on one store: the guarantees hold across processes ---------------


async def test_concurrent_commits_two_repositories(store):
    a, b = await store(), await store()
    t = await new_table(a)
    await a.commit_actions(t.id, 0, acts(t.id, 1, 1), snapshot={"s": 1})

    def attempt(r, tag):
        return r.commit_actions(
            t.id,
            1,
            [ActionRow(t.id, 2, 1, 0, tag), ActionRow(t.id, 3, 1, 1, tag)],
            outbox=[OutboxItem("post", -100, t.id, payload={"by": tag})] * 3,
            snapshot={"by": tag},
            table_fields={"settings": {"by": tag}},
            timer=TimerRow(t.id, 3, None, 99.0),
        )

    for _ in range(3):
        res = await asyncio.gather(attempt(a, "A"), attempt(b, "B"), return_exceptions=True)
        assert res.count(3) == 1, res
        assert sum(isinstance(r, VersionConflict) for r in res) == 1, res
        winner = "A" if res[0] == 3 else "B"
        for r in (a, b):  # exactly the winner's writes, seen by both
            assert [x.action for x in await r.load_actions(t.id)] == ["a1", winner, winner]
            assert [o.payload for o in await r.pending_outbox()] == [{"by": winner}] * 3
            assert await r.latest_snapshot(t.id) == (3, {"by": winner})
            row = await r.get_table(t.id)
            assert (row.version, row.settings) == (3, {"by": winner})
            assert [x for x in await r.all_timers() if x.table_id == t.id] == [TimerRow(t.id, 3, None, 99.0)]
        # reset for the next round: a new table
        t = await new_table(a, chat_id=t.chat_id - 1)
        await a.commit_actions(t.id, 0, acts(t.id, 1, 1), snapshot={"s": 1})
        await a.mark_done([o.id for o in await a.pending_outbox()])


async def test_concurrent_lobby_joins_two_repositories(store):
    a, b = await store(), await store()
    t = await new_table(a)
    host = SeatRow(t.id, 0, 1, "Host")
    await a.replace_seats(t.id, [host])
    for version in range(3):
        joins = [host, SeatRow(t.id, 1, 100 + version, f"A{version}")]
        other = [host, SeatRow(t.id, 1, 200 + version, f"B{version}"), SeatRow(t.id, 2, 300 + version, "B2")]
        res = await asyncio.gather(
            a.update_table(t.id, expected_version=version, seats=joins),
            b.update_table(t.id, expected_version=version, seats=other),
            return_exceptions=True,
        )
        assert sum(isinstance(r, VersionConflict) for r in res) == 1, res
        won = joins if not isinstance(res[0], Exception) else other
        assert (await b.get_table(t.id)).version == version + 1
        assert await b.get_seats(t.id) == won
        assert await a.get_seats(t.id) == won


async def test_claims_across_repositories(store):
    a, b = await store(), await store()
    t = await new_table(a)
    await a.set_timer(TimerRow(t.id, 0, 10.0, 20.0))
    res = await asyncio.gather(*(r.mark_reminded(t.id, 0) for r in (a, b) * 4))
    assert sorted(res) == [False] * 7 + [True]
    res = await asyncio.gather(*(r.store_updates([(77, "{}")]) for r in (a, b) * 4))
    assert sorted(res) == [[]] * 7 + [[77]]
    before = time.time() + 0.001  # after the store above, before the takes below
    await asyncio.sleep(0.01)
    res = await asyncio.gather(*(r.take_unhandled_updates(before, 9) for r in (a, b) * 4))
    assert sorted(res) == [[]] * 7 + [[(77, "{}")]]


async def test_create_table_race_across_repositories(store):
    a, b = await store(), await store()
    res = await asyncio.gather(new_table(a, chat_id=-9), new_table(b, chat_id=-9), return_exceptions=True)
    assert sum(isinstance(r, TableExists) for r in res) == 1, res
    assert len(await a.tables_with_status()) == 1


async def test_finishing_an_update_writes_its_rows_with_the_mark_once(repo):
    """finish_update: the "handled" mark and the update's own rows in one transaction, a
    claim: of several finishes of one update (two workers) exactly one writes."""
    await repo.store_updates([(41, '{"n":41}')])
    reply = OutboxItem("reply", 5, None, payload={"text": "hi"})
    results = await asyncio.gather(*(repo.finish_update(41, [reply]) for _ in range(4)))
    assert sorted(results) == [False] * 3 + [True]
    assert [item.payload for item in await repo.pending_outbox()] == [{"text": "hi"}]
    assert await repo.take_unhandled_updates(time.time() + 1, max_attempts=3) == []  # handled
    assert await repo.finish_update(999, [reply]) is False  # never stored: nothing written
    assert len(await repo.pending_outbox()) == 1


async def test_renewing_updates_keeps_them_from_being_taken_over(repo):
    await repo.store_updates([(51, "{}"), (52, "{}")])
    await raw(repo, "UPDATE inbox SET taken_at = ?", time.time() - 100)  # both look abandoned
    await repo.renew_updates([51])  # ...but this worker is still on 51
    assert await repo.take_unhandled_updates(time.time() - 10, max_attempts=3) == [(52, "{}")]
