"""Crowd harness: many people in one group at once, through the fake Bot API.

- ``together(bot, presses)``: presses (and commands) made in the same 100 ms, handed to
  the real Application concurrently (``asyncio.gather`` of ``process_update``), then settled.
- ``visible_buttons``: the buttons a person can see now: their DM messages' and the
  group's bot messages' (old ones too, as a person scrolling up sees them).
- ``command_answers``: which commands typed in a chat got a bot reply (by reply_to_message
  when the reply quotes the command, else by order).
- ``ErrorLog``: records whatever the bot, PTB or the storage logs at ERROR or above.
- ``crowd_problems``: what a crowd test asserts empty: presses not answered exactly once,
  calls to a chat before the retry_after it was given, ERROR lines.
- ``CrowdGame`` / ``crowd_plays``: a crowd opening a table from /newgame and playing it,
  pressing random buttons at human pace, to the game's final result.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.screens import move_key
from engine.base import get_game
import pytest

from tests.e2e import BotUnderTest, any_move
from tests.fakebot import FakeMessage, FakeTelegram, FakeUser

WATCHED_LOGGERS = ("bot", "telegram", "storage")
# a command whose answer is the same for anyone: a burst of them by several people gets one
SHARED_COMMANDS = ("/help", "/rules", "/start")


class ErrorLog(logging.Handler):
    """Collects records at ERROR and above from the bot's, PTB's and the storage's loggers."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.split(".")[0] in WATCHED_LOGGERS:
            self.records.append(record)

    def lines(self) -> list[str]:
        out = []
        for record in self.records:
            error = record.exc_info[1] if record.exc_info else None
            cause = f" ({type(error).__name__}: {error})" if error is not None else ""
            out.append(f"{record.name}: {record.getMessage()}{cause}")
        return out

    def __enter__(self) -> "ErrorLog":
        logging.getLogger().addHandler(self)
        return self

    def __exit__(self, *exc) -> None:
        logging.getLogger().removeHandler(self)


# ---------------------------------------------------------------------- acting together
@dataclass
class Press:
    user: FakeUser
    message: FakeMessage
    data: str


@dataclass
class Say:
    user: FakeUser
    chat_id: int
    text: str


async def together(bot: BotUnderTest, acts: list[Press | Say], settle: bool = True) -> list[str]:
    """Everything in ``acts`` arrives in the same 100 ms: the updates are processed
    concurrently, then the bot settles (its outbox drained, the fake clock moved past the
    waits) unless ``settle=False``. Returns the callback query ids of the presses, in order."""
    fake = bot.fake
    updates, queries = [], []
    for act in acts:
        if isinstance(act, Press):
            update = fake.callback_update(act.user, act.message.chat_id, act.message.message_id, act.data)
            queries.append(update["callback_query"]["id"])
        else:
            _, update = fake.message_update(act.user, act.chat_id, act.text)
            if update is None:  # privacy mode: the bot does not get it
                continue
        updates.append(update)
    bot.clock.advance(0.1)
    await asyncio.gather(*(fake.feed(bot.app, update) for update in updates))
    if settle:
        await bot.settle()
    return queries


def answer_text(fake: FakeTelegram, query_id: str) -> str | None:
    answer = fake.answers.get(query_id)
    return answer.text if answer else None


def visible_buttons(fake: FakeTelegram, user: FakeUser, group_id: int) -> list[tuple[FakeMessage, str, str]]:
    """(message, text, callback data) of every button ``user`` can see: in their DM with
    the bot and under the bot's messages in the group."""
    messages = fake.messages(group_id) + fake.messages(user.id)
    return [(m, text, data) for m in messages for text, data in fake.buttons(m) if data]


# ---------------------------------------------------------------------- answers
@dataclass
class Asked:
    """Commands that one answer serves (one command, or a burst of one shared command)."""

    commands: list[FakeMessage]
    answers: list[FakeMessage] = field(default_factory=list)

    @property
    def text(self) -> str:
        return self.commands[0].text


def command_answers(fake: FakeTelegram, chat_id: int, since: int = 0) -> list[Asked]:
    """The commands people typed in the chat after message ``since``, each with the bot's
    replies to it: a bot message quoting the command (reply_to_message) answers it; one
    quoting nothing answers the oldest command before it that has no answer yet. The same
    /help, /rules or /start by several people is one question (``SHARED_COMMANDS``)."""
    box = fake.msgs.get(chat_id, {})
    asked: list[Asked] = []
    by_message: dict[int, Asked] = {}
    shared: dict[str, Asked] = {}
    for message in sorted(box.values(), key=lambda m: m.message_id):
        if message.message_id <= since or message.from_bot or not message.text.startswith("/"):
            continue
        text = " ".join(message.text.lower().split())
        command = text.split()[0].split("@")[0]
        if command in SHARED_COMMANDS and text in shared:
            group = shared[text]
            group.commands.append(message)
        else:
            group = Asked([message])
            asked.append(group)
            if command in SHARED_COMMANDS:
                shared[text] = group
        by_message[message.message_id] = group
    for message in sorted(box.values(), key=lambda m: m.message_id):
        if message.message_id <= since or not message.from_bot:
            continue
        quoted = (message.extra.get("reply_to_message") or {}).get("message_id")
        if quoted is not None:
            if quoted in by_message:
                by_message[quoted].answers.append(message)
            continue
        waiting = [a for a in asked if not a.answers and a.commands[0].message_id < message.message_id]
        if waiting:
            waiting[0].answers.append(message)
    return asked


def crowd_problems(fake: FakeTelegram, errors: ErrorLog) -> list[str]:
    """Presses not answered exactly once, calls made to a chat before the retry_after it
    was given, and ERROR lines: what every crowd test asserts empty."""
    problems = []
    unanswered = fake.unanswered_queries()
    if unanswered:
        kinds = sorted({_kind(fake.query_ids[q]) for q in unanswered})
        problems.append(f"{len(unanswered)} of {len(fake.query_ids)} presses never answered ({', '.join(kinds)})")
    twice = fake.queries_answered_twice()
    if twice:
        kinds = sorted({_kind(fake.query_ids[q]) for q in twice})
        problems.append(f"{len(twice)} presses answered more than once ({', '.join(kinds)})")
    early: dict[int, list[tuple[str, float]]] = {}
    for call, until in fake.flood_violations:
        early.setdefault(call.chat_id, []).append((call.method, until - call.t))  # type: ignore[arg-type]
    for chat, calls in early.items():
        methods = ", ".join(sorted({method for method, _ in calls}))
        worst = max(seconds for _, seconds in calls)
        problems.append(
            f"{len(calls)} calls to chat {chat} before its retry_after ran out ({methods}; up to {worst:.1f} s early)"
        )
    problems += [f"logged as ERROR: {line}" for line in errors.lines()]
    return problems


def _kind(data: str) -> str:
    """A button's kind for a report: "l:…:join", "a:…:<move>", "g:durak"."""
    kind, _, rest = data.partition(":")
    return data if kind in ("g", "pf", "lang", "sh") else f"{kind}:…:{rest.rsplit(':', 1)[-1]}"


# ---------------------------------------------------------------------- a crowd plays
# Buttons a crowd member presses only on purpose: they end or undo the table, or change
# what the test chose (the computers' level, the turn timer)
DISRUPTIVE = (":cancel", ":leave", ":cpu-", ":computers", ":timer", ":on_timeout", ":close", ":rematch")


@dataclass
class CrowdGame:
    game: str  # the chooser button's game ("g:<game>")
    humans: int  # people seated, the host among them
    computers: int = 0
    options: dict[str, Callable[[dict], bool]] = field(default_factory=dict)  # lobby key -> wanted
    # options below what the lobby offers, written to the table before Start (a short pulka)
    stored_options: dict = field(default_factory=dict)
    max_steps: int = 3000


@dataclass
class CrowdRun:
    table_id: int | None = None
    started: bool = False
    finished: bool = False
    steps: int = 0
    problems: list[str] = field(default_factory=list)


def _harmless(data: str) -> bool:
    return not data.endswith(DISRUPTIVE) and ":o:" not in data


async def _lobby_button(bot: BotUnderTest, group: int, suffix: str) -> tuple[FakeMessage, str]:
    lobby = await bot.table_message(group)
    found = [d for _, d in bot.fake.buttons(lobby) if d and d.endswith(suffix)]
    assert found, f"no lobby button {suffix!r}:\n{bot.fake.dump(group)}"
    return lobby, found[0]


async def crowd_plays(
    bot: BotUnderTest, group: int, people: list[FakeUser], spec: CrowdGame, seed: int = 1
) -> CrowdRun:
    """``people[0]`` opens the table with /newgame and the chooser (someone else presses
    the same chooser button at the same moment); the other players press Join (or each a
    free Sit) together, one of them twice, an onlooker the host's seat; the host adds
    computers, sets the options and starts; then at human pace whoever must act presses
    a sensible move in their DM while others press what they see (Watch, their hand out
    of turn, the old chooser, a button pressed before), until the final result."""
    crowd = _Crowd(bot, group, people, spec, random.Random(seed))
    for person in people:
        await bot.send(person, person, "/start")
    await crowd.open_by_chooser()
    await crowd.gather()
    if await crowd.start():
        await crowd.play()
    return crowd.run


class _Crowd:
    def __init__(
        self, bot: BotUnderTest, group: int, people: list[FakeUser], spec: CrowdGame, rng: random.Random
    ) -> None:
        self.bot, self.fake, self.group, self.people, self.spec, self.rng = bot, bot.fake, group, people, spec, rng
        self.host, self.players, self.onlookers = people[0], people[1 : spec.humans], people[spec.humans :]
        self.pressed: dict[int, list[Press]] = {u.id: [] for u in people}  # for pressing again
        self.run = CrowdRun()
        self.table_id = 0

    async def pace(self) -> None:
        await self.bot.tick(self.rng.uniform(1.0, 4.0))

    async def act(self, acts: list[Press | Say]) -> None:
        for act in acts:
            if isinstance(act, Press):
                self.pressed[act.user.id].append(act)
        await together(self.bot, acts)

    async def seated(self) -> list[int]:
        return [s.user_id for s in await self.bot.repo.get_seats(self.table_id)]

    async def host_presses(self, suffix: str) -> None:
        lobby, data = await _lobby_button(self.bot, self.group, suffix)
        await self.act([Press(self.host, lobby, data)])

    async def open_by_chooser(self) -> None:
        await self.bot.send(self.host, self.group, "/newgame")
        self.chooser = self.fake.last_message(self.group)
        self.choice = f"g:{self.spec.game}"
        assert self.choice in [d for _, d in self.fake.buttons(self.chooser)], self.fake.dump(self.group)
        second = self.onlookers[0] if self.onlookers else self.players[0]
        await self.act([Press(self.host, self.chooser, self.choice), Press(second, self.chooser, self.choice)])
        self.table_id = self.run.table_id = (await self.bot.table(self.group)).id

    async def gather(self) -> None:
        """Join / Sit pressed in the same 100 ms from the lobby all see; the host's
        computers and options after."""
        fake, players, onlookers = self.fake, self.players, self.onlookers
        lobby = await self.bot.table_message(self.group)
        sits = [d for _, d in fake.buttons(lobby) if d and ":join:" in d]
        joins = [d for _, d in fake.buttons(lobby) if d and d.endswith(":join")]
        wanted = sits[1 : 1 + len(players)] if sits else joins * len(players)
        acts: list[Press | Say] = [Press(p, lobby, d) for p, d in zip(players, wanted)]
        acts += acts[:1]  # a double click: the second press changes nothing
        acts += [Press(o, self.chooser, self.choice) for o in onlookers[:1]]  # the chooser again
        acts += [Press(o, lobby, sits[0]) for o in onlookers[1:2] if sits]  # the host's seat: taken
        await self.act(acts)
        seated = await self.seated()
        if players and seated.count(players[0].id) != 1:
            self.run.problems.append(f"a double-clicked Join gave {players[0].first_name} not exactly one seat")
        missing = [p for p in players if p.id not in seated]
        if missing:
            names = ", ".join(p.first_name for p in missing)
            self.run.problems.append(f"{len(missing)} of {len(players)} pressing Join together not seated: {names}")
        for _ in range(5):  # a refused person presses again, as people would
            missing = [p for p in players if p.id not in await self.seated()]
            if not missing:
                break
            await self.pace()
            lobby = await self.bot.table_message(self.group)
            taken = {s.seat for s in await self.bot.repo.get_seats(self.table_id)}
            now = [d for _, d in fake.buttons(lobby) if d and (d.endswith(":join") or ":join:" in d)]
            free = [d for d in now if int(d.rsplit(":", 1)[1]) not in taken] if sits else now * len(missing)
            await self.act([Press(p, lobby, d) for p, d in zip(missing, free)])
        for _ in range(self.spec.computers):
            await self.pace()
            await self.host_presses(":cpu+")
        for key, good in self.spec.options.items():
            for _ in range(12):
                if good((await self.bot.table(self.group)).options):
                    break
                await self.pace()
                await self.host_presses(f":o:{key}")
            if not good((await self.bot.table(self.group)).options):
                self.run.problems.append(f"option {key} not set: {(await self.bot.table(self.group)).options}")
        if self.spec.stored_options:
            options = (await self.bot.repo.get_table(self.table_id)).options
            await self.bot.repo.update_table(self.table_id, options={**options, **self.spec.stored_options})

    async def start(self) -> bool:
        for attempt in range(4):
            await self.pace()
            await self.host_presses(":start")
            if (await self.bot.repo.get_table(self.table_id)).status != "lobby":
                self.run.started = True
                return True
            self.run.problems.append(f"Start press {attempt + 1} did not start the game")
        self.run.problems.append(f"the game never started:\n{self.fake.dump(self.group)}")
        return False

    async def play(self) -> None:
        bot, fake, rng, run = self.bot, self.fake, self.rng, self.run
        by_id = {u.id: u for u in self.people}
        table = await bot.repo.get_table(self.table_id)
        game = get_game(table.game)
        for step in range(self.spec.max_steps):
            row, state = await bot.state(self.table_id)
            if row.status != "playing":
                break
            run.steps = step + 1
            seats = sorted(await bot.repo.get_seats(self.table_id), key=lambda s: s.seat)
            acts: list[Press | Say] = []
            for seat in [seats[s] for s in game.to_act(state) if not seats[s].is_computer]:
                user = by_id[seat.user_id]
                hand = await bot.hand_message(self.table_id, user)
                buttons = [(t, d) for t, d in fake.buttons(hand) if d]
                if not buttons or rng.random() < 0.1:  # a moment's hesitation
                    continue
                action = game.computer_action(
                    game.view(state, seat.seat), game.legal_actions(state, seat.seat), rng, level="easy"
                )
                chosen = [d for _, d in buttons if d.endswith(":" + move_key(action))]
                # mostly the easy player's move, so a pulka ends; now and then any button
                data = chosen[0] if chosen and rng.random() < 0.95 else any_move(user, buttons, rng)
                acts.append(Press(user, hand, data))
            busy = {a.user.id for a in acts}
            for person in rng.sample(self.people, k=rng.randint(0, 2)):
                idle = (
                    None if person.id in busy else _idle_press(fake, person, self.group, self.pressed[person.id], rng)
                )
                if idle is not None:
                    acts.append(idle)
            await self.act(acts)
            await self.pace()
        row = await bot.repo.get_table(self.table_id)
        run.finished = row.status == "between"
        buttons = [d for m in fake.messages(self.group) for _, d in fake.buttons(m) if d]
        if not run.finished:
            run.problems.append(f"the game did not reach its result in {run.steps} steps (status {row.status})")
        elif not any(d.startswith("r:") and d.endswith(":rematch") for d in buttons):
            run.problems.append(f"no final result with Rematch in the group:\n{fake.dump(self.group)}")


def _idle_press(
    fake: FakeTelegram, person: FakeUser, group: int, before: list[Press], rng: random.Random
) -> Press | None:
    """Someone who need not act presses something anyway: a button they see (Watch, their
    hand out of turn, the old chooser), or one they pressed before, again."""
    again = [p for p in before if not p.message.deleted]
    if again and rng.random() < 0.25:
        return rng.choice(again)
    seen = [(m, d) for m, _, d in visible_buttons(fake, person, group) if _harmless(d)]
    if not seen:
        return None
    message, data = rng.choice(seen)
    return Press(person, message, data)


@pytest.fixture
def crowd_fake_telegram():
    """Telegram's flood limit on; handler errors are collected, not raised, so that a run
    shows all that went wrong (the ERROR log check reports them)."""
    fake = FakeTelegram(group_flood_limit=20, raise_handler_errors=False)
    yield fake
    fake.close()
