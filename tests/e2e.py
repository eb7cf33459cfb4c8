"""End-to-end harness: the real bot Application over a real database (a SQLite file or a
fresh PostgreSQL schema, see the ``database`` fixture in conftest.py), talking to the
in-process fake Bot API (tests/fakebot.py), with one fake clock for timers and the
group message budget. Tests press buttons as users do and look at what each chat shows.
``transport="http"`` sends the bot's calls over real HTTP instead (PTB's own HTTPX
request, multipart uploads included) to the same emulator served by ``HttpBotApi``.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from collections.abc import Callable, Iterator

from bot.app import build_application
from bot.config import Settings
from engine.base import get_game
from engine.cards import is_card, label
from bot.emulator.http_api import HttpBotApi
from tests.fakebot import FakeMessage, FakeRequest, FakeTelegram, FakeUser

CARD_LABEL = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]")
HUMAN_PACE = 3.0  # seconds between two player actions in the tests' simulated time


class FakeClock:
    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += max(seconds, 0.0) + 1e-6


class BotUnderTest:
    """One running bot process. ``restart()`` replaces it with a new one on the same DB."""

    def __init__(
        self,
        fake: FakeTelegram,
        database: str | Path,
        clock: FakeClock,
        seed: int = 7,
        computer_level: str = "easy",
        computer_workers: int = 0,
        transport: str = "inprocess",
        rate_limiter: bool = False,
    ) -> None:
        assert transport in ("inprocess", "http"), transport
        self.fake, self.database, self.clock, self.seed = fake, str(database), clock, seed
        self.http = HttpBotApi(fake).start() if transport == "http" else None
        # the tests' computers play the quick easy player in a thread unless a test asks
        self.computer_level, self.computer_workers = computer_level, computer_workers
        self.rate_limiter = rate_limiter  # PTB's AIORateLimiter, as in production (it really sleeps)
        self.app = None
        self._leak_seen: dict[tuple[int, int], int] = {}  # (chat, message) -> versions checked
        # (spectator, DM message) -> the table watched there: judged by its public view
        # also after the person stopped watching (the last versions come after that)
        self._spectator_messages: dict[tuple[int, int], int] = {}

    async def start(self) -> "BotUnderTest":
        settings = Settings(
            token=f"{self.fake.bot_id}:TEST",
            db_path=self.database,
            computer_level=self.computer_level,
            computer_workers=self.computer_workers,
            api_base_url=self.http.base_url if self.http else None,
        )
        self.app = build_application(
            settings,
            request=None if self.http else FakeRequest(self.fake),
            rate_limiter=self.rate_limiter,
            rng=random.Random(self.seed),
            clock=self.clock,
            sender_clock=self.clock,
            background=False,
        )
        await self.app.initialize()
        await self.runtime.startup(background=False)
        await self.settle()
        return self

    async def stop(self) -> None:
        await self.runtime.shutdown()
        await self.app.shutdown()
        if self.http is not None:
            self.http.stop()

    async def restart(self) -> None:
        await self.runtime.shutdown()
        await self.app.shutdown()
        self.seed += 1
        await self.start()

    @property
    def runtime(self):
        return self.app.bot_data["runtime"]

    @property
    def service(self):
        return self.app.bot_data["service"]

    @property
    def repo(self):
        return self.app.bot_data["storage"]

    async def settle(self) -> None:
        await self.runtime.settle(advance=self.clock.advance)
        await self.check_leaks()

    # ------------------------------------------------------------ acting as users
    async def send(self, user: FakeUser, chat, text: str, thread_id: int | None = None) -> None:
        await self.fake.send(self.app, user, chat, text, thread_id=thread_id)
        await self.settle()

    async def press(self, user: FakeUser, message: FakeMessage, button=None, data: str | None = None):
        answer = await self.fake.press(self.app, user, message, button, callback_data=data)
        await self.settle()
        return answer

    async def press_raw(self, user: FakeUser, chat_id: int, message_id: int, data: str):
        answer = await self.fake.press_raw(self.app, user, chat_id, message_id, data)
        await self.settle()
        return answer

    async def tick(self, seconds: float) -> None:
        """Let simulated time pass and run what is due (timers, throttled messages)."""
        self.clock.advance(seconds)
        await self.service.timers.fire()
        await self.settle()

    # ------------------------------------------------------------ looking
    async def table(self, chat_id: int, thread_id: int = 0):
        table = await self.repo.find_open_table(chat_id, thread_id)
        assert table is not None, f"no open table in {chat_id}:\n{self.fake.dump(chat_id)}"
        return table

    async def table_message(self, chat_id: int, thread_id: int = 0) -> FakeMessage:
        table = await self.table(chat_id, thread_id)
        return self.fake.msgs[table.chat_id][table.group_message_id]

    async def last_post(self, chat_id: int, thread_id: int = 0) -> FakeMessage:
        """The newest bot message in the chat other than its open table's own message: a
        score-only table sends its keyboard anew below each sheet, so the sheet is one up."""
        table = await self.repo.find_open_table(chat_id, thread_id)
        skip = table.group_message_id if table else None
        found = [m for m in self.fake.messages(chat_id) if m.message_id != skip]
        assert found, f"the bot has no post in chat {chat_id}"
        return found[-1]

    async def hand_message(self, table_id: int, user: FakeUser) -> FakeMessage:
        seat = next(s for s in await self.repo.get_seats(table_id) if s.user_id == user.id)
        assert seat.dm_message_id, f"{user.first_name} has no hand message"
        return self.fake.msgs[user.id][seat.dm_message_id]

    async def state(self, table_id: int):
        table = await self.repo.get_table(table_id)
        return table, await self.service.core.state_of(table)

    async def actions(self, table_id: int) -> list[str]:
        return [row.action for row in await self.repo.load_actions(table_id)]

    # ------------------------------------------------------------ playing
    async def play(
        self,
        table_id: int,
        users: list[FakeUser],
        choose: Callable[[FakeUser, list[tuple[str, str]], random.Random], str] | None = None,
        max_moves: int = 3000,
        pace: float = HUMAN_PACE,
        until: Callable | None = None,
        seed: int = 1,
    ) -> int:
        """Humans press buttons in their DMs until the game is over (or ``until()`` holds).
        Returns the number of presses."""
        rng = random.Random(seed)
        choose = choose or any_move
        by_id = {u.id: u for u in users}
        for moves in range(max_moves):
            table, state = await self.state(table_id)
            if table.status != "playing" or (until and await until()):
                return moves
            game = get_game(table.game)
            seats = sorted(await self.repo.get_seats(table_id), key=lambda s: s.seat)
            actors = [seats[s] for s in game.to_act(state)]
            assert actors and not actors[0].is_computer, "computers should have moved already"
            user = by_id[actors[0].user_id]
            message = await self.hand_message(table_id, user)
            buttons = [(text, data) for text, data in self.fake.buttons(message) if data]
            assert buttons, f"{user.first_name} must act but has no buttons: {message.text}"
            data = choose(user, buttons, rng)
            answer = await self.fake.press(self.app, user, message, callback_data=data)
            assert answer is None or not answer.show_alert, answer
            self.clock.advance(pace)
            await self.service.timers.fire()
            await self.settle()
        raise AssertionError("the game did not end")

    # ------------------------------------------------------------ hidden information
    async def check_leaks(self) -> None:
        """Hidden information never reaches a chat. For every message version the bot
        showed since the last check, judged against the table it belongs to (the group
        table message, a seat's hand message, a spectator's DM message against the public
        view; other messages such as pings and sheets against every table of that chat):
        1. every card it names (text or button) is in the reader's own view — renderers
           show views only, so a talon, a stock card or a face-down cover cannot appear;
        2. the reader's view holds no card of another player's hand that the public view
           does not show (dummy in bridge is public; two-deck twins share a label)."""
        allowed: dict[tuple[int, int | None], set[str]] = {}  # (table, seat) -> labels it may see
        owners: dict[tuple[int, int], list[tuple[int, int | None]]] = {}  # (chat, msg) -> readers
        per_chat: dict[int, list[tuple[int, int | None]]] = {}
        for table in await self.repo.tables_with_status("playing", "between"):
            state = await self.service.core.state_of(table)
            if state is None:
                continue
            game = get_game(table.game)
            seats = sorted(await self.repo.get_seats(table.id), key=lambda s: s.seat)
            views = {seat: game.view(state, seat) for seat in [None, *range(len(seats))]}
            leaked = hidden_cards_in_views(views)
            assert not leaked, f"views at table {table.id} hold hidden cards {leaked}"
            readers = [(table.chat_id, None, table.group_message_id)]
            readers += [(s.user_id, s.seat, s.dm_message_id) for s in seats if not s.is_computer]
            for spectator in await self.repo.get_spectators(table.id):
                if spectator.dm_message_id:
                    self._spectator_messages[(spectator.user_id, spectator.dm_message_id)] = table.id
            readers += [
                (chat, None, message) for (chat, message), at in self._spectator_messages.items() if at == table.id
            ]
            for chat, seat, message_id in readers:
                allowed[(table.id, seat)] = card_labels_in(views[seat])
                owners[(chat, message_id)] = [(table.id, seat)]
                per_chat.setdefault(chat, []).append((table.id, seat))
        for chat_id, messages in self.fake.msgs.items():
            for message in messages.values():
                key = (chat_id, message.message_id)
                checked = self._leak_seen.get(key, 0)
                if not message.from_bot or checked == len(message.history):
                    continue
                self._leak_seen[key] = len(message.history)
                readers = owners.get(key) or per_chat.get(chat_id, [])
                if not readers:
                    continue
                may_see = set().union(*(allowed[r] for r in readers))
                if chat_id > 0 and message.history[0].text.startswith(DEAL_VIEW_MARK):
                    # "🔍 The deal" shows a finished deal's every hand: tests/test_e2e_deal_view.py
                    # checks that deal was over, against the log, for every game
                    continue
                for version in message.history[checked:]:
                    shown = set(CARD_LABEL.findall(version.text))
                    for row in (version.reply_markup or {}).get("inline_keyboard", []):
                        for button in row:
                            shown |= set(CARD_LABEL.findall(button["text"]))
                    leaked = shown - may_see
                    assert not leaked, f"cards {leaked} leaked to chat {chat_id}: {version.text}"


def hidden_cards_in_views(views: dict[int | None, dict]) -> dict[int, set[str]]:
    """The cards each seat's view holds that it may not see: a card of another seat's hand
    (``view["hand"]``) that the public view (``views[None]``) does not show; the seat's own
    hand is its own (two-deck twins share a label). {} when no view leaks."""
    public = card_labels_in(views[None])
    seats = [seat for seat in views if seat is not None]
    hands = {seat: {label(c) for c in views[seat].get("hand", [])} for seat in seats}
    leaked = {}
    for seat in seats:
        others = set().union(*(h for s, h in hands.items() if s != seat))
        secret = others - hands[seat] - public
        # cards the rules let this seat know in another hand (Тысяча: the gifts it gave)
        secret -= card_labels_in(views[seat].get("known_held", []))
        if card_labels_in(views[seat]) & secret:
            leaked[seat] = card_labels_in(views[seat]) & secret
    return leaked


DEAL_VIEW_MARK = "🔍 "  # how every deal record (bot/games/*/deal_record.py) starts


def strings_in(value) -> Iterator[str]:
    """Every string anywhere in a view (nested dicts, lists and tuples)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, str):
            yield item


def card_labels_in(value) -> set[str]:
    """Labels of every card string anywhere in a view."""
    return {label(word) for text in strings_in(value) for word in text.split() if is_card(word)}


def any_move(user: FakeUser | None, buttons: list[tuple[str, str]], rng: random.Random) -> str:
    """A player who knows no game's words: one of the move buttons (callback data "a:…",
    exactly the legal actions; the others, 📜 Tricks or a keyboard switch, only show
    something). Often the first (the lowest card, the first bid) or the last (a keyboard
    ends with its way out: pass, take, done), else any. A keyboard with no move offers its
    first button."""
    moves = [data for _, data in buttons if data.startswith("a:")] or [data for _, data in buttons]
    roll = rng.random()
    return moves[0] if roll < 0.4 else moves[-1] if roll < 0.7 else rng.choice(moves)


async def open_table(
    bot: BotUnderTest,
    chat_id: int,
    host: FakeUser,
    others: list[FakeUser],
    computers: int = 0,
    command: str = "/durak",
    thread_id: int | None = None,
):
    """/durak in the group, everyone opens the DM and joins. Returns the table row."""
    for user in [host, *others]:
        await bot.send(user, user, "/start")
    await bot.send(host, chat_id, command, thread_id=thread_id)
    for user in others:
        await bot.press(
            user, await bot.table_message(chat_id, thread_id or 0), lambda text: text in ("Сесть за стол", "Join")
        )
    for _ in range(computers):
        await bot.press(
            host, await bot.table_message(chat_id, thread_id or 0), lambda text: text in ("+ Компьютер", "+ Computer")
        )
    return await bot.table(chat_id, thread_id or 0)
