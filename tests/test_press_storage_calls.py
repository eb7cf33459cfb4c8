"""How many storage calls one press costs: the table and its seats are read once per
press, not once per check (a counting wrapper around the repository)."""

from __future__ import annotations

import collections
import random

from bot.service import Person, PressPlace, TableService
from bot.screens import lobby_stamp, move_key
from engine.base import get_game
from storage.factory import repository_for

GROUP = -1001
ALICE = Person(11, "Alice")


class Counting:
    """The repository, counting each call by name."""

    def __init__(self, repo) -> None:
        self._repo = repo
        self.calls: collections.Counter[str] = collections.Counter()

    def __getattr__(self, name):
        attr = getattr(self._repo, name)
        if not callable(attr):
            return attr

        def counted(*args, **kwargs):
            self.calls[name] += 1
            return attr(*args, **kwargs)

        return counted


async def no_admin(chat_id: int) -> bool:
    return False


async def _durak_table(tmp_path):
    repo = repository_for(str(tmp_path / "bot.sqlite3"))
    await repo.open()
    counting = Counting(repo)
    service = TableService(counting, rng=random.Random(5), clock=lambda: 1000.0)  # type: ignore[arg-type]
    await service.chat_admin.dm_opened(ALICE)
    table = await service.lobby.open_table(GROUP, 0, "durak", ALICE, "en", "t")
    place = PressPlace(GROUP)
    await service.lobby.press(table.id, lobby_stamp(table), ALICE, "cpu+", no_admin, place)
    return repo, counting, service, table, place


async def test_one_lobby_press_reads_the_table_and_its_seats_once(tmp_path):
    repo, counting, service, table, place = await _durak_table(tmp_path)
    counting.calls.clear()
    await service.lobby.press(table.id, lobby_stamp(table), ALICE, "cpu+", no_admin, place)
    assert counting.calls["get_table"] == 1
    assert counting.calls["get_seats"] == 1
    assert sum(counting.calls.values()) == 4, counting.calls  # + the write and the outbox row
    await repo.close()


async def test_one_durak_move_reads_the_table_and_its_seats_once(tmp_path):
    repo, counting, service, table, place = await _durak_table(tmp_path)
    await service.lobby.press(table.id, lobby_stamp(table), ALICE, "start", no_admin, place)
    await service.computers.idle()
    game = get_game("durak")
    for _ in range(20):  # a move of Alice's whose answer is not a computer's move
        table = await repo.get_table(table.id)
        state = await service.core.state_of(table)
        legal = game.legal_actions(state, 0)
        if legal:
            break
        await service.computers.run(table.id)
    counting.calls.clear()
    await service.play.act(table.id, table.version, ALICE.id, move_key(legal[0]), None)
    calls = dict(counting.calls)
    assert calls.get("get_table") == 1, calls
    assert calls.get("get_seats") == 1, calls
    assert calls.get("commit_actions", 0) >= 1, calls  # the move, and the computer's answers
    assert set(calls) == {"get_table", "get_seats", "commit_actions"}, calls  # nothing else read
    await repo.close()
