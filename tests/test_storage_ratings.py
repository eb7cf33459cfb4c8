"""The group's history and ratings in the storage, on SQLite and PostgreSQL: a
finished game is stored with its ratings in the transaction that ends it, once only;
/stats off, /forget and a group's move to a supergroup."""

from __future__ import annotations

import asyncio

import pytest

from storage.models import FinishedGame, RatingRow
from tests import test_storage
from tests.test_storage import acts, new_table, raw

# the backends' fixtures of tests/test_storage.py: every case runs on SQLite and PostgreSQL
repo = test_storage.repo
store = test_storage.store

CHAT = -100


def finished(table_id: int, game_no: int = 1, players=None, chat_id: int = CHAT, rated: bool = True) -> FinishedGame:
    return FinishedGame(
        chat_id=chat_id,
        thread_id=0,
        table_id=table_id,
        game_no=game_no,
        game="durak",
        options={"deck": 36},
        players=players
        or [
            {"name": "Аня", "player": "u1", "user_id": 1},
            {"name": "easy", "player": "cpu:easy", "user_id": None},
        ],
        result={"durak": 1, "by_52": False},
        rated=rated,
    )


def plus_one(calls: list):
    """A rating function that counts games and wins and records what it was given."""

    def rate(current: dict[str, RatingRow], opted_out: set[int]) -> list[RatingRow]:
        calls.append((dict(current), set(opted_out)))
        out = []
        for player, user_id, win in (("u1", 1, 1), ("cpu:easy", None, 0)):
            if user_id in opted_out:
                continue
            old = current.get(player)
            out.append(
                RatingRow(
                    CHAT,
                    "durak",
                    player,
                    user_id,
                    player,
                    mu=(old.mu if old else 25.0) + (1 if win else -1),
                    sigma=(old.sigma if old else 8.0) - 0.5,
                    games=(old.games if old else 0) + 1,
                    wins=(old.wins if old else 0) + win,
                    last_played=1000.0,
                )
            )
        return out

    return rate


async def finish(repo, table, game_no=1, rate=None, **kw):
    """Commit one action that ends game ``game_no`` of ``table``, with its history row."""
    t = await repo.get_table(table.id)
    await repo.commit_actions(
        table.id,
        t.version,
        acts(table.id, t.version + 1, 1, game_no=game_no),
        table_fields={"game_no": game_no, "status": "between"},
        result={"durak": 1},
        finished=finished(table.id, game_no, **kw),
        rate=rate,
    )


async def test_a_finished_game_is_stored_and_rated_in_its_commit(repo):
    table = await new_table(repo)
    calls: list = []
    await finish(repo, table, rate=plus_one(calls))
    games = await repo.finished_games(CHAT)
    assert len(games) == 1 and games[0].table_id == table.id and games[0].game_no == 1
    assert games[0].players[0] == {"name": "Аня", "player": "u1", "user_id": 1}
    assert games[0].result == {"durak": 1, "by_52": False} and games[0].rated
    assert await repo.finished_game(games[0].id) == games[0]
    assert calls == [({}, set())]  # nobody was rated before
    top = await repo.top_ratings(CHAT, "durak")
    assert [(r.player, r.games, r.wins) for r in top] == [("u1", 1, 1), ("cpu:easy", 1, 0)]
    assert await repo.rated_games(CHAT) == ["durak"]

    # the next game reads what the first wrote
    await finish(repo, table, game_no=2, rate=plus_one(calls))
    current, _ = calls[-1]
    assert current["u1"].games == 1 and current["u1"].mu == 26.0
    assert [g.game_no for g in await repo.finished_games(CHAT)] == [2, 1]  # newest first
    u1 = await repo.ratings_of_user(1)
    assert [(r.chat_id, r.game, r.games, r.wins) for r in u1] == [(CHAT, "durak", 2, 2)]


async def test_the_same_game_is_never_rated_twice(repo):
    table = await new_table(repo)
    calls: list = []
    await finish(repo, table, rate=plus_one(calls))
    # a second commit claiming to end the same game (a retry after a crash) rates nothing
    await finish(repo, table, rate=plus_one(calls))
    assert len(calls) == 1
    assert [r.games for r in await repo.top_ratings(CHAT, "durak")] == [1, 1]
    assert len(await repo.finished_games(CHAT)) == 1


async def test_a_failed_commit_keeps_neither_the_game_nor_the_ratings(repo):
    table = await new_table(repo)

    def broken(current, opted_out):
        raise RuntimeError("rating failed")

    with pytest.raises(RuntimeError):
        await finish(repo, table, rate=broken)
    assert await repo.finished_games(CHAT) == []
    assert await repo.top_ratings(CHAT, "durak") == []
    assert (await repo.get_table(table.id)).version == 0  # the ending move is not stored either


async def test_unrated_games_are_history_only(repo):
    table = await new_table(repo)
    calls: list = []
    await finish(repo, table, rate=plus_one(calls), rated=False)
    assert calls == [] and await repo.top_ratings(CHAT, "durak") == []
    assert not (await repo.finished_games(CHAT))[0].rated


async def test_stats_off_deletes_and_skips_stats_on_resumes(repo):
    table = await new_table(repo)
    calls: list = []
    await finish(repo, table, rate=plus_one(calls))
    assert not await repo.rating_opted_out(1)
    await repo.set_rating_opt_out(1, True)
    await repo.set_rating_opt_out(1, True)  # twice is fine
    assert await repo.rating_opted_out(1)
    assert await repo.ratings_of_user(1) == []
    assert [r.player for r in await repo.top_ratings(CHAT, "durak")] == ["cpu:easy"]

    await finish(repo, table, game_no=2, rate=plus_one(calls))
    assert calls[-1][1] == {1}  # the rating function hears who opted out
    assert await repo.ratings_of_user(1) == []
    assert await raw(repo, "SELECT COUNT(*) FROM ratings WHERE user_id = ?", 1) == [(0,)]  # no placeholder either

    await repo.set_rating_opt_out(1, False)
    assert not await repo.rating_opted_out(1)
    await finish(repo, table, game_no=3, rate=plus_one(calls))
    assert [(r.games, r.wins) for r in await repo.ratings_of_user(1)] == [(1, 1)]


async def test_forget_chat_erases_history_ratings_and_closed_tables_only(repo):
    closed = await new_table(repo)
    await finish(repo, closed, rate=plus_one([]))
    await repo.update_table(closed.id, status="closed")
    open_table = await new_table(repo, thread_id=5)
    await finish(repo, open_table, rate=plus_one([]))
    other = await new_table(repo, chat_id=-7)
    await finish(repo, other, rate=plus_one([]), chat_id=-7)

    assert await repo.forget_chat(CHAT) == 2
    assert await repo.finished_games(CHAT) == [] and await repo.top_ratings(CHAT, "durak") == []
    assert await repo.get_table(closed.id) is None and await repo.load_actions(closed.id) == []
    assert (await repo.get_table(open_table.id)).status == "between"  # a table still open stays
    assert len(await repo.finished_games(-7)) == 1  # another group keeps everything
    assert await repo.forget_chat(CHAT) == 0


async def test_migrate_chat_moves_history_and_ratings(repo):
    table = await new_table(repo)
    await finish(repo, table, rate=plus_one([]))
    await repo.migrate_chat(CHAT, -1009)
    assert await repo.finished_games(CHAT) == [] and len(await repo.finished_games(-1009)) == 1
    assert len(await repo.top_ratings(-1009, "durak")) == 2


async def test_two_games_ending_at_once_both_count(store):
    """Two tables of one group (two topics) end at the same moment, from two processes:
    the player's rating counts both games, whichever commits first."""
    first, second = await store(), await store()
    t1 = await new_table(first, thread_id=1)
    t2 = await new_table(first, thread_id=2)
    await asyncio.gather(finish(first, t1, rate=plus_one([])), finish(second, t2, rate=plus_one([])))
    assert [(r.player, r.games) for r in await first.top_ratings(CHAT, "durak")] == [("u1", 2), ("cpu:easy", 2)]
