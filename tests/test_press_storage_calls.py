"""How many storage calls one press costs: the table and its seats are read once per
press, not once per check, and the computers' check after a move reads them not at all
(it is given the table as the move wrote it), whether or not a computer sits there and
answers. Counted with a wrapper around the repository: of the service alone, and of the
whole bot (the handler's task and the computers' background task told apart)."""

from __future__ import annotations

import asyncio
import collections
import inspect
import random

from bot.service import Person, PressPlace, TableService
from bot.screens import lobby_stamp, move_key
from engine.base import get_game
from storage.factory import repository_for
from tests.e2e import open_table

GROUP = -1001
ALICE = Person(11, "Alice")
BOB = Person(12, "Bob")
READS = ("get_table", "get_seats")


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


async def _durak_table(tmp_path, second: str = "cpu+"):
    """Alice's durak lobby with a computer ("cpu+") or Bob ("join") at the second seat."""
    repo = repository_for(str(tmp_path / "bot.sqlite3"))
    await repo.open()
    counting = Counting(repo)
    service = TableService(counting, rng=random.Random(5), clock=lambda: 1000.0)  # type: ignore[arg-type]
    for person in (ALICE, BOB):
        await service.chat_admin.dm_opened(person)
    table = await service.lobby.open_table(GROUP, 0, "durak", ALICE, "en", "t")
    place = PressPlace(GROUP)
    await service.lobby.press(table.id, lobby_stamp(table), BOB if second == "join" else ALICE, second, no_admin, place)
    return repo, counting, service, table, place


async def _started(tmp_path, second: str):
    repo, counting, service, table, place = await _durak_table(tmp_path, second)
    await service.lobby.press(table.id, lobby_stamp(table), ALICE, "start", no_admin, place)
    await service.computers.idle()
    return repo, counting, service, table


async def _to_act(repo, service, table_id: int, people: list[Person]):
    """The table, the person whose turn it is and their legal actions."""
    game = get_game("durak")
    table = await repo.get_table(table_id)
    state = await service.core.state_of(table)
    for seat, person in enumerate(people):
        if legal := game.legal_actions(state, seat):
            return table, person, legal
    raise AssertionError("nobody may act")


async def test_one_lobby_press_reads_the_table_and_its_seats_once(tmp_path):
    repo, counting, service, table, place = await _durak_table(tmp_path)
    counting.calls.clear()
    await service.lobby.press(table.id, lobby_stamp(table), ALICE, "cpu+", no_admin, place)
    assert counting.calls["get_table"] == 1
    assert counting.calls["get_seats"] == 1
    assert sum(counting.calls.values()) == 4, counting.calls  # + the write and the outbox row
    await repo.close()


async def test_start_and_the_computers_first_moves_read_the_table_once(tmp_path):
    """Start: the computers' first moves are made on the table as the deal wrote it."""
    for seed in range(10):  # a deal where the computer has the first move
        (tmp_path / str(seed)).mkdir()
        repo, counting, service, table, place = await _durak_table(tmp_path / str(seed))
        service.core.rng = random.Random(seed)
        counting.calls.clear()
        await service.lobby.press(table.id, lobby_stamp(table), ALICE, "start", no_admin, place)
        await service.computers.idle()
        calls = dict(counting.calls)
        await repo.close()
        if calls.get("commit_actions", 0) > 1:  # the deal, and the computer's moves
            break
    else:
        raise AssertionError("the computer never had the first move")
    assert calls.get("get_table") == 1 and calls.get("get_seats") == 1, calls
    # the series' earlier results: read to deal, and handed to the deal's posts, not read again
    assert calls.get("game_results") == 1, calls


async def test_one_durak_move_reads_the_table_and_its_seats_once(tmp_path):
    """``act``: the move and the computers' answers it waits for."""
    repo, counting, service, table = await _started(tmp_path, "cpu+")
    for _ in range(20):  # a move of Alice's (the computer may have the first move)
        table = await repo.get_table(table.id)
        legal = get_game("durak").legal_actions(await service.core.state_of(table), 0)
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


async def test_a_press_and_the_computers_check_after_it_read_the_table_once(tmp_path):
    """The handler's path: ``move``, then the computers in the background, given the table
    as the move wrote it. No computer at the table: the check reads nothing."""
    repo, counting, service, table = await _started(tmp_path, "join")
    table, person, legal = await _to_act(repo, service, table.id, [ALICE, BOB])
    counting.calls.clear()
    toast, written = await service.play.move(table.id, table.version, person.id, move_key(legal[0]), None)
    service.computers.start(table.id, written)
    await service.computers.idle()
    calls = dict(counting.calls)
    assert toast == "ok.move"
    assert calls == {"get_table": 1, "get_seats": 1, "commit_actions": 1}, calls
    await repo.close()


async def test_the_computers_answer_a_press_without_reading_the_table_again(tmp_path):
    repo, counting, service, table = await _started(tmp_path, "cpu+")
    for _ in range(40):  # a move of Alice's that the computer answers
        table, person, legal = await _to_act(repo, service, table.id, [ALICE])
        counting.calls.clear()
        _, written = await service.play.move(table.id, table.version, ALICE.id, move_key(legal[0]), None)
        service.computers.start(table.id, written)
        await service.computers.idle()
        if counting.calls["commit_actions"] > 1:  # the computer answered
            break
    else:
        raise AssertionError("the computer never answered")
    calls = dict(counting.calls)
    assert calls.get("get_table") == 1 and calls.get("get_seats") == 1, calls
    assert set(calls) == {"get_table", "get_seats", "commit_actions"}, calls
    await repo.close()


# ---------------------------------------------------------------------- the whole bot
def _count_by_task(repo) -> list[tuple[str, str]]:
    """(task name, method) of every call of the repository's coroutine methods."""
    calls: list[tuple[str, str]] = []
    for name, method in inspect.getmembers(type(repo), inspect.iscoroutinefunction):
        if name.startswith("_"):
            continue

        def wrap(method=method, name=name):
            async def counted(*args, **kwargs):
                task = asyncio.current_task()
                calls.append((task.get_name() if task else "", name))
                return await method(repo, *args, **kwargs)

            return counted

        setattr(repo, name, wrap())
    return calls


async def _press_moves(bot, fake, users, table, presses: int) -> list[tuple[collections.Counter, collections.Counter]]:
    """Press ``presses`` move buttons in the DMs: for each, the reads of the press's own
    handler, and the calls of the computers' background task that follows it."""
    game = get_game(table.game)
    calls = _count_by_task(bot.repo)
    by_id = {u.id: u for u in users}
    counted = []
    for _ in range(presses):
        table, state = await bot.state(table.id)
        seats = sorted(await bot.repo.get_seats(table.id), key=lambda s: s.seat)
        user = by_id[seats[game.to_act(state)[0]].user_id]
        message = await bot.hand_message(table.id, user)
        data = next(d for _, d in fake.buttons(message) if d and d.startswith("a:"))
        calls.clear()
        here = asyncio.current_task().get_name()
        await fake.press(bot.app, user, message, callback_data=data)
        handler = collections.Counter(m for task, m in calls if task == here and m in READS)
        await bot.settle()
        computers = collections.Counter(m for task, m in calls if task.startswith("computers:"))
        counted.append((handler, computers))
    return counted


async def test_a_dm_press_reads_the_table_once_in_the_whole_bot(bot, fake_telegram):
    anya, boris = fake_telegram.user(1, "Аня"), fake_telegram.user(2, "Борис")
    table = await open_table(bot, GROUP, anya, [boris])
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    for handler, computers in await _press_moves(bot, fake_telegram, [anya, boris], table, 3):
        assert handler == {"get_table": 1, "get_seats": 1}, handler
        assert not computers, computers  # no computer sits here: nothing read to find that out


async def test_the_computers_answer_a_dm_press_without_reading_the_table(bot, fake_telegram):
    (anya,) = [fake_telegram.user(1, "Аня")]
    table = await open_table(bot, GROUP, anya, [], computers=1)
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    answered = 0
    for handler, computers in await _press_moves(bot, fake_telegram, [anya], table, 6):
        assert handler == {"get_table": 1, "get_seats": 1}, handler
        assert not {m: n for m, n in computers.items() if m in READS}, computers
        answered += computers["commit_actions"]
    assert answered, "the computer answered none of the presses"
