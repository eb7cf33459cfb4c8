"""Tests for storage.sqlite.SqliteRepository and storage.migrations."""
from __future__ import annotations

import asyncio
import time

import pytest

from storage import migrations
from storage.models import ActionRow, OutboxItem, SeatRow, TimerRow
from storage.repository import Repository, StorageError, TableExists, VersionConflict
from storage.sqlite import SqliteRepository


@pytest.fixture(params=["file", "memory"])
async def repo(request, tmp_path):
    path = str(tmp_path / "bot.db") if request.param == "file" else ":memory:"
    r = SqliteRepository(path)
    await r.open()
    try:
        yield r
    finally:
        await r.close()


@pytest.fixture
async def file_path(tmp_path):
    return str(tmp_path / "bot.db")


async def new_table(repo, chat_id=-100, thread_id=0, **kw):
    args = dict(game="durak", options={"variant": "podkidnoy", "deck": 36},
                opener_id=1, lang="ru", settings={"timer": 60})
    args.update(kw)
    return await repo.create_table(chat_id, thread_id, **args)


def acts(table_id, start, n, game_no=1):
    return [ActionRow(table_id=table_id, seq=start + i, game_no=game_no,
                      seat=None if i == 0 else i % 2, action=f"a{start + i}")
            for i in range(n)]


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

def test_is_a_repository():
    def takes(r: Repository) -> Repository:
        return r
    assert takes(SqliteRepository(":memory:"))
    for name in ("open", "close", "upsert_user", "get_user", "set_dm_open",
                 "get_chat_lang", "set_chat_lang", "migrate_chat", "create_table",
                 "get_table", "find_open_table", "tables_with_status", "update_table",
                 "get_seats", "replace_seats", "set_seat_messages", "tables_of_user",
                 "commit_actions", "load_actions", "latest_snapshot", "game_results",
                 "enqueue", "pending_outbox", "mark_done", "due_timers", "mark_reminded",
                 "clear_timer", "all_timers"):
        assert hasattr(Repository, name), name
        assert asyncio.iscoroutinefunction(getattr(SqliteRepository, name)), name


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
        rows = await r.db.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE name = 't100'")
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
    await repo.enqueue([OutboxItem(kind="post", chat_id=old, payload={"text": "1"}),
                        OutboxItem(kind="post", chat_id=old, payload={"text": "2"}),
                        OutboxItem(kind="hand", chat_id=42, table_id=t.id, target=0)])
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
    done = await repo.db.execute_fetchall("SELECT chat_id FROM outbox WHERE id = ?",
                                          (first.id,))
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


async def test_update_table_fields(repo):
    t = await new_table(repo)
    u = await repo.update_table(t.id, options={"deck": 52}, settings={"timer": 0},
                                group_message_id=77, lang="en", game_no=1)
    assert (u.options, u.settings, u.group_message_id, u.lang, u.game_no) == (
        {"deck": 52}, {"timer": 0}, 77, "en", 1)
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
    seats = [SeatRow(t.id, 0, 11, "Ann"),
             SeatRow(t.id, 1, -1, "Bot", is_computer=True),
             SeatRow(t.id, 2, 12, "Bob", dm_message_id=5, ping_message_id=6)]
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
        t.id, 0, acts(t.id, 1, 3),
        outbox=[OutboxItem(kind="group", chat_id=-100, table_id=t.id),
                OutboxItem(kind="hand", chat_id=11, table_id=t.id, target=0,
                           payload={"x": "ü"})],
        table_fields={"settings": {"timer": 30}},
        snapshot={"state": 3}, timer=timer)
    assert v == 3
    row = await repo.get_table(t.id)
    assert row.version == 3 and row.settings == {"timer": 30} and row.status == "playing"
    loaded = await repo.load_actions(t.id)
    assert [(a.seq, a.seat, a.action, a.game_no) for a in loaded] == [
        (1, None, "a1", 1), (2, 1, "a2", 1), (3, 0, "a3", 1)]
    assert all(a.created_at > 0 for a in loaded)
    assert await repo.latest_snapshot(t.id) == (3, {"state": 3})
    out = await repo.pending_outbox()
    assert [(o.kind, o.target, o.payload) for o in out] == [
        ("group", None, {}), ("hand", 0, {"x": "ü"})]
    assert await repo.all_timers() == [timer]

    # The game ends: status and game_no change and the result is filed under the
    # game_no *after* table_fields (here the service leaves game_no at 1).
    v = await repo.commit_actions(t.id, 3, acts(t.id, 4, 1),
                                  table_fields={"status": "between"},
                                  result={"winner": 0}, timer=None)
    assert v == 4
    assert await repo.game_results(t.id) == [{"winner": 0}]
    assert await repo.all_timers() == []
    assert (await repo.get_table(t.id)).status == "between"
    # Next game: the deal happens with game_no bumped in the same commit.
    await repo.commit_actions(t.id, 4, acts(t.id, 5, 1, game_no=2),
                              table_fields={"game_no": 2, "status": "playing"})
    await repo.commit_actions(t.id, 5, acts(t.id, 6, 1, game_no=2),
                              result={"winner": 1})
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
    v = await repo.commit_actions(t.id, 2, [], outbox=[OutboxItem("post", -100)],
                                  table_fields={"group_message_id": 9})
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
    await repo.commit_actions(t.id, 0, acts(t.id, 1, 2), snapshot={"s": 2},
                              outbox=[OutboxItem("group", -100, t.id)], timer=timer)
    before = await snapshot_of_everything(repo, t.id)
    # A stale writer that loaded version 1 (seq 2 is taken now).
    with pytest.raises(VersionConflict):
        await repo.commit_actions(
            t.id, 1, acts(t.id, 2, 2),
            outbox=[OutboxItem("post", -100, t.id, payload={"text": "x"})],
            table_fields={"status": "closed", "options": {"z": 1}},
            snapshot={"s": 3}, result={"r": 1}, timer=None)
    with pytest.raises(VersionConflict):
        await repo.commit_actions(t.id, 5, acts(t.id, 6, 1), timer=None)
    assert await snapshot_of_everything(repo, t.id) == before


async def test_bad_seq_writes_nothing(repo):
    t = await new_table(repo)
    await repo.commit_actions(t.id, 0, acts(t.id, 1, 1))
    before = await snapshot_of_everything(repo, t.id)
    bad = [ActionRow(t.id, 2, 1, 0, "x"), ActionRow(t.id, 4, 1, 0, "y")]  # gap
    with pytest.raises(ValueError):
        await repo.commit_actions(t.id, 1, bad, outbox=[OutboxItem("post", 1)],
                                  snapshot={"a": 1}, timer=None)
    with pytest.raises(ValueError):  # does not start right after expected_version
        await repo.commit_actions(t.id, 1, [ActionRow(t.id, 3, 1, 0, "x")])
    with pytest.raises(ValueError):  # wrong table in the rows
        await repo.commit_actions(t.id, 1, [ActionRow(t.id + 1, 2, 1, 0, "x")])
    with pytest.raises(ValueError):  # field outside the whitelist
        await repo.commit_actions(t.id, 1, acts(t.id, 2, 1), table_fields={"version": 9})
    with pytest.raises(ValueError):  # timer of another table
        await repo.commit_actions(t.id, 1, acts(t.id, 2, 1),
                                  timer=TimerRow(t.id + 1, 2, None, 1.0))
    assert await snapshot_of_everything(repo, t.id) == before
    assert await repo.commit_actions(t.id, 1, acts(t.id, 2, 1)) == 2  # still usable


async def test_failure_mid_transaction_rolls_back_everything(repo):
    t = await new_table(repo)
    timer = TimerRow(t.id, 1, 10.0, 20.0)
    await repo.commit_actions(t.id, 0, acts(t.id, 1, 1), snapshot={"s": 1}, timer=timer)
    before = await snapshot_of_everything(repo, t.id)
    # Make the outbox insert -- which runs after the actions, the table update and
    # the snapshot -- fail inside the transaction.
    await repo.db.execute(
        "CREATE TEMP TRIGGER boom BEFORE INSERT ON outbox"
        " BEGIN SELECT RAISE(ABORT, 'boom'); END")
    with pytest.raises(Exception, match="boom"):
        await repo.commit_actions(
            t.id, 1, acts(t.id, 2, 3), outbox=[OutboxItem("post", -100, t.id)],
            table_fields={"status": "between", "game_no": 1}, snapshot={"s": 4},
            result={"r": 1}, timer=None)
    await repo.db.execute("DROP TRIGGER boom")
    assert await snapshot_of_everything(repo, t.id) == before
    assert not repo.db.in_transaction
    # The connection is healthy and the same commit now succeeds.
    assert await repo.commit_actions(t.id, 1, acts(t.id, 2, 3),
                                     outbox=[OutboxItem("post", -100, t.id)]) == 4


async def test_unique_violation_maps_to_version_conflict(repo):
    t = await new_table(repo)
    await repo.commit_actions(t.id, 0, acts(t.id, 1, 2))
    # Corrupt the version behind the repository's back so the version check passes
    # but seq 2 is already taken.
    await repo.db.execute("UPDATE tables SET version = 1 WHERE id = ?", (t.id,))
    with pytest.raises(VersionConflict):
        await repo.commit_actions(t.id, 1, acts(t.id, 2, 1),
                                  outbox=[OutboxItem("post", -100, t.id)])
    assert len(await repo.load_actions(t.id)) == 2
    assert await repo.pending_outbox() == []
    assert (await repo.get_table(t.id)).version == 1


async def test_actions_are_append_only(repo):
    t = await new_table(repo)
    await repo.commit_actions(t.id, 0, acts(t.id, 1, 1))
    with pytest.raises(Exception, match="append-only"):
        await repo.db.execute("UPDATE actions SET action = 'x'")


async def test_commit_on_unknown_table(repo):
    with pytest.raises(StorageError):
        await repo.commit_actions(12345, 0, acts(12345, 1, 1))


async def test_concurrent_commits_exactly_one_wins(repo):
    t = await new_table(repo)
    await repo.commit_actions(t.id, 0, acts(t.id, 1, 1))

    async def attempt(tag):
        return await repo.commit_actions(
            t.id, 1, [ActionRow(t.id, 2, 1, 0, tag)],
            outbox=[OutboxItem("post", -100, t.id, payload={"by": tag})],
            timer=TimerRow(t.id, 2, None, 99.0))

    results = await asyncio.gather(*(attempt(f"w{i}") for i in range(5)),
                                   return_exceptions=True)
    wins = [r for r in results if r == 2]
    conflicts = [r for r in results if isinstance(r, VersionConflict)]
    assert len(wins) == 1 and len(conflicts) == 4, results
    winner = f"w{results.index(2)}"
    assert [a.action for a in await repo.load_actions(t.id)] == ["a1", winner]
    assert [o.payload["by"] for o in await repo.pending_outbox()] == [winner]
    assert (await repo.get_table(t.id)).version == 2


async def test_concurrent_commits_two_connections(file_path):
    """Two repositories on one file (two processes) racing: one wins."""
    a, b = SqliteRepository(file_path), SqliteRepository(file_path)
    await a.open()
    await b.open()
    try:
        t = await new_table(a)
        res = await asyncio.gather(
            a.commit_actions(t.id, 0, [ActionRow(t.id, 1, 1, 0, "A")]),
            b.commit_actions(t.id, 0, [ActionRow(t.id, 1, 1, 0, "B")]),
            return_exceptions=True)
        assert sum(r == 1 for r in res) == 1, res
        assert sum(isinstance(r, VersionConflict) for r in res) == 1, res
        assert len(await a.load_actions(t.id)) == 1
        assert await a.load_actions(t.id) == await b.load_actions(t.id)
    finally:
        await a.close()
        await b.close()


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
    rows = await repo.db.execute_fetchall(
        "SELECT done_at FROM outbox WHERE id IN (?, ?)", ids[:2])
    assert all(r[0] is not None and r[0] > 0 for r in rows)
    # marking again does not move done_at; the sequence keeps growing
    await repo.mark_done(ids)
    assert await repo.pending_outbox() == []
    await repo.enqueue([OutboxItem("ping", 11, 1, 0)])
    (late,) = await repo.pending_outbox()
    assert late.id > ids[-1] and late.kind == "ping" and late.target == 0
    assert await repo.purge_outbox(time.time() + 1) == 5
    assert [p.id for p in await repo.pending_outbox()] == [late.id]


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
    assert [(x.table_id, x.reminded) for x in await repo.all_timers()
            if x.table_id == a.id] == [(a.id, True)]
    assert [x.table_id for x in await repo.due_timers(150.0)] == [b.id]
    assert {x.table_id for x in await repo.due_timers(200.0)} == {a.id, b.id}
    assert {x.table_id for x in await repo.due_timers(1000.0)} == {a.id, b.id, c.id}

    # replace: a new deadline for a new version resets reminded
    await repo.commit_actions(a.id, 0, acts(a.id, 1, 1),
                              timer=TimerRow(a.id, 1, 500.0, 600.0))
    (ta,) = [x for x in await repo.all_timers() if x.table_id == a.id]
    assert ta == TimerRow(a.id, 1, 500.0, 600.0, reminded=False)
    assert a.id not in {x.table_id for x in await repo.due_timers(450.0)}

    # clear with a stale version does nothing; with the right one (or none) it clears
    await repo.clear_timer(a.id, version=0)
    assert a.id in {x.table_id for x in await repo.all_timers()}
    await repo.clear_timer(a.id, version=1)
    await repo.clear_timer(b.id)
    assert [x.table_id for x in await repo.all_timers()] == [c.id]


async def test_reopen_sees_committed_data_and_timers(file_path):
    """Simulated restart: a second repository on the file sees everything committed,
    including while the first is still open (WAL readers)."""
    r1 = SqliteRepository(file_path)
    await r1.open()
    t = await new_table(r1)
    await r1.replace_seats(t.id, [SeatRow(t.id, 0, 11, "Ann")])
    await r1.commit_actions(t.id, 0, acts(t.id, 1, 2), snapshot={"s": 2},
                            outbox=[OutboxItem("group", -100, t.id)],
                            timer=TimerRow(t.id, 2, 10.0, 20.0),
                            table_fields={"status": "playing"})
    r2 = SqliteRepository(file_path)
    await r2.open()
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


async def test_cancelled_commit_is_all_or_nothing():
    """Cancel commit_actions at many points: the table either has the whole commit or
    none of it, and the connection is never left inside a transaction. (A cancel that
    lands while COMMIT runs may still commit -- the caller must reload after it.)"""
    for delay in range(0, 60, 3):
        async with SqliteRepository(":memory:") as repo:
            t = await new_table(repo)
            task = asyncio.create_task(repo.commit_actions(
                t.id, 0, acts(t.id, 1, 1), outbox=[OutboxItem("post", 1)] * 50,
                snapshot={"s": 1}))
            for _ in range(delay):
                await asyncio.sleep(0)
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass
            assert not repo.db.in_transaction
            v = (await repo.get_table(t.id)).version
            state = (len(await repo.load_actions(t.id)), len(await repo.pending_outbox()),
                     await repo.latest_snapshot(t.id))
            assert (v, state) in ((0, (0, 0, None)), (1, (1, 50, (1, {"s": 1})))), (delay, v)
            # the connection is usable
            assert await repo.commit_actions(t.id, v, acts(t.id, v + 1, 1)) == v + 1
