"""Kill-and-restart chaos for the real bot process, shared by tests/test_chaos.py (short)
and bench/chaos.py (long).

``cardbot run`` long-polls the fake Bot API over HTTP (tests/http_fake.py). Two scripted
people play durak in their DMs; at seeded random moments -- right after a press was
queued, or a little later, while the bot is committing, answering or drawing -- the
process gets SIGKILL and a new one starts on the same database. Afterwards the table's
action log is compared with the presses:

* accepted press: the bot answered its callback query with no text (a move is answered
  silently; every refusal has a text). Each must be in the log exactly once (else *lost*);
* every person's action in the log must come from one press of that person with that
  move key, drawn before it (else *doubled* when that press was already used, or
  *unpressed*); system actions (the deal) have no seat and are not matched;
* replaying the log through the engine must give a consistent game, over when the table
  says it is between games;
* vanished press: one the process was killed with, never answered after the restarts
  (the inbox stores each update before Telegram is told we have it: goal 0);
* duplicate posts: two visible bot messages of one kind (same first line) in one chat.
  The bot edits or deletes every message it knows it sent, so a twin can only come from
  a kill between Telegram's answer to a post and the outbox write: at most one per kill.

The fake keeps an update until a later getUpdates acknowledges it (like Telegram), so a
press the killed process took but did not finish is delivered again to the next one.

Every wait follows the bot's progress (``Chaos.watch``), not the clock, so a loaded machine
that starts the process slowly only makes the run slower.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from random import Random

from bot.screens import move_key
from engine.base import get_game
from storage.factory import repository_for
from tests.fakebot import FakeTelegram
from tests.http_fake import HttpBotApi

ROOT = Path(__file__).resolve().parent.parent
# Waits follow the bot's own progress, not the clock: a process that is starting (alive,
# not polling yet) or keeps calling the Bot API is waited for however slow the machine is.
STALL_S = 60.0  # a polling bot that makes no Bot API call for this long is stuck
SAFETY_S = 600.0  # the last resort: no single wait lasts longer


@dataclass
class Press:
    qid: str
    user_id: int
    version: int
    key: str
    killed_after: bool = False  # the process was killed while this press was in flight


@dataclass
class ChaosReport:
    games: int = 0
    finished: int = 0
    presses: int = 0
    accepted: int = 0
    kills: int = 0
    lost: int = 0
    doubled: int = 0
    unpressed: int = 0
    duplicate_posts: int = 0
    vanished: int = 0
    recoveries: list[float] = field(default_factory=list)  # restart -> first answered press
    problems: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)

    @property
    def worst_recovery(self) -> float:
        return max(self.recoveries, default=0.0)

    def summary(self) -> str:
        return (
            f"games={self.games} finished={self.finished} presses={self.presses} "
            f"accepted={self.accepted} kills={self.kills} lost={self.lost} "
            f"doubled={self.doubled} unpressed={self.unpressed} "
            f"duplicate_posts={self.duplicate_posts} vanished={self.vanished} worst_recovery={self.worst_recovery:.2f}s"
            + "".join(f"\n  problem: {p}" for p in self.problems[:20])
            + "".join(f"\n  duplicate: {d}" for d in self.duplicates[:20])
        )


class BotProcess:
    """``python -m bot.cli run`` on ``database``; its output goes to a file per start.
    ``env``: more environment for the process (it wins over the defaults below)."""

    def __init__(
        self,
        api: HttpBotApi,
        database: str,
        workdir: Path,
        env: dict[str, str] | None = None,
        own_session: bool = False,
    ) -> None:
        self.api, self.database, self.workdir = api, database, workdir
        # more of the bot's settings (bench/soak.py: strong computers, INFO logs)
        self.env_overrides = dict(env or {})
        # a process group of its own, so a bench can end whatever the bot leaves behind
        self.own_session = own_session
        self.process: subprocess.Popen | None = None
        self.starts = 0
        self.started_at = 0.0
        self._polls_before = 0

    def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "CARDBOT_"))}
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        env.update(
            TELEGRAM_BOT_TOKEN=f"{self.api.fake.bot_id}:TEST",
            TELEGRAM_API_BASE_URL=self.api.base_url,
            CARDBOT_DATABASE_URL=self.database,
            CARDBOT_LOG_LEVEL="WARNING",
            CARDBOT_COMPUTER_LEVEL="easy",
        )
        env.update(self.env_overrides)
        self.starts += 1
        self._polls_before = self.api.polls
        log = open(self.workdir / f"bot-{self.starts}.log", "w")
        self.started_at = time.monotonic()
        # cwd is a scratch folder, so no developer's .env is read
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "run"],
            env=env,
            cwd=self.workdir,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=self.own_session,
        )
        log.close()

    @property
    def ready(self) -> bool:
        """This process has asked for updates: started up, the bot is polling."""
        return self.api.polls > self._polls_before

    def exited(self) -> str | None:
        """Why the process is gone (its exit code and the end of its output), if it is."""
        if self.process is None or self.process.poll() is None:
            return None
        tail = self.outputs()[-1][-2000:]
        return f"the bot process exited with {self.process.returncode}:\n{tail}"

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=120)  # generous: a loaded machine exits slowly
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def outputs(self) -> list[str]:
        return [(self.workdir / f"bot-{n}.log").read_text(errors="replace") for n in range(1, self.starts + 1)]


class Chaos:
    """One bot process (restarted at will) on one database, one fake Telegram."""

    def __init__(
        self,
        database: str,
        workdir: Path,
        seed: int,
        fake: FakeTelegram | None = None,
        env: dict[str, str] | None = None,
        own_session: bool = False,
    ) -> None:
        self.fake = fake if fake is not None else FakeTelegram()
        self.api = HttpBotApi(self.fake).start()
        self.bot = BotProcess(self.api, database, workdir, env, own_session)
        self.database = database
        self.rng = Random(seed)
        self.report = ChaosReport()
        self.repo = None
        self._recovering_since: float | None = None

    async def __aenter__(self) -> "Chaos":
        self.bot.start()
        await self.until(lambda: self.bot.ready, "the bot to poll")
        # opened after the bot created/migrated the schema
        self.repo = repository_for(self.database)
        await self.repo.open()
        return self

    async def __aexit__(self, *exc) -> None:
        self.bot.stop()
        if self.repo is not None:
            await self.repo.close()
        self.api.stop()
        self.fake.close()

    # ------------------------------------------------------------------ plumbing
    def restart(self) -> None:
        """SIGKILL now, start a new process on the same database."""
        self.bot.kill()
        self.report.kills += 1
        self.bot.start()
        self._recovering_since = self.bot.started_at

    def press(self, user, message, data: str) -> str:
        """Queue a callback query for the bot's next getUpdates; returns its query id."""
        with self.api._lock:  # the fake is shared with the HTTP thread
            qid = str(next(self.fake._ids) * 1000 + user.id % 1000)
            self.fake.queries[qid] = user.id
            update = self.fake._next_update(
                callback_query={
                    "id": qid,
                    "from": user.to_api(),
                    "chat_instance": f"ci{message.chat_id}",
                    "message": message.to_api(),
                    "data": data,
                }
            )
        self.api.put(update)
        return qid

    def _calls(self) -> int:
        """Bot API calls other than getUpdates so far: what a working bot does."""
        return sum(self.api.served.values()) - self.api.served["getUpdates"]

    def watch(self, what: str):
        """A check to call while waiting for ``what``: raises once the bot process died,
        or made no Bot API call for STALL_S while polling, or after SAFETY_S in all.
        Starting up (alive, not polling yet) is progress, however long it takes."""
        begun = last = time.monotonic()
        seen = (self.bot.starts, self._calls())

        def check() -> None:
            nonlocal last, seen
            now = time.monotonic()
            if gone := self.bot.exited():
                raise AssertionError(f"waiting for {what}: {gone}")
            mark = (self.bot.starts, self._calls())
            if mark != seen or not self.bot.ready:
                seen, last = mark, now
            if now - last > STALL_S:
                raise AssertionError(f"waiting for {what}: the bot made no Bot API call for {STALL_S:g} s")
            if now - begun > SAFETY_S:
                raise AssertionError(f"waiting for {what}: still not there after {SAFETY_S:g} s")

        return check

    async def until(self, predicate, what: str):
        """``predicate()`` (under the fake's lock) once it is truthy; see ``watch``."""
        check = self.watch(what)
        while True:
            with self.api._lock:
                value = predicate()
            if value:
                return value
            check()
            await asyncio.sleep(0.03)

    def answered(self, qid: str):
        return self.fake.answers.get(qid)

    # ------------------------------------------------------------------ one game
    async def open_table(self, game_no: int):
        fake, app = self.fake, self.api.bot_stub
        group = -1001 - game_no
        fake.group(group, f"Кухня {game_no}", admins=[10 * game_no + 1], supergroup=True)
        people = [fake.user(10 * game_no + 1, "Аня"), fake.user(10 * game_no + 2, "Борис")]
        for user in people:
            await fake.send(app, user, user, "/start")
        await fake.send(app, people[0], group, "/durak")
        lobby = await self.until(lambda: next((m for m in fake.messages(group) if m.keyboard), None), "the lobby")
        await fake.press(app, people[1], lobby, "Сесть за стол")
        await self.until(lambda: "Борис" in lobby.text, "Борис in the lobby")
        await fake.press(app, people[0], lobby, "Начать")
        table, check = None, self.watch("the game to start")
        while table is None or table.status != "playing":
            check()
            await asyncio.sleep(0.05)
            table = await self.repo.find_open_table(group, 0)
        return group, people, table.id

    def _move_buttons(self, people, table_id: int, version: int):
        """(user, message, data) of every move button drawn at ``version`` in the DMs."""
        prefix = f"a:{table_id}:{version}:"
        return [
            (user, m, data)
            for user in people
            for m in self.fake.messages(user.id)
            if m.keyboard
            for _, data in self.fake.buttons(m)
            if data and data.startswith(prefix)
        ]

    async def play_game(self, game_no: int, kills: int, max_presses: int, kill_span: int | None = None) -> None:
        """Play one table until it ends (or ``max_presses``), killing the bot
        ``kills`` times at presses picked at random among the first ``kill_span`` (default
        ``max_presses``; a two-person durak game takes about 90 presses)."""
        group, people, table_id = await self.open_table(game_no)
        self.report.games += 1
        span = min(kill_span or max_presses, max_presses)
        kill_at = set(self.rng.sample(range(span), min(kills, span)))
        presses: list[Press] = []
        row = None
        for n in range(max_presses):
            # the current version and a button drawn for it (the DB is the truth; a
            # redelivered press may move the table on while we look)
            found, check = None, self.watch(f"move buttons of table {table_id}")
            while True:
                row = await self.repo.get_table(table_id)
                if row.status != "playing":
                    break
                with self.api._lock:
                    found = self._move_buttons(people, table_id, row.version)
                if found:
                    break
                check()
                await asyncio.sleep(0.03)
            if row.status != "playing":
                break
            user, message, data = self.rng.choice(found)
            qid = self.press(user, message, data)
            press = Press(qid, user.id, row.version, data.rsplit(":", 1)[1])
            presses.append(press)
            if n in kill_at:
                # right away (the update may not even be read), or while the bot commits,
                # answers or draws the next hands
                await asyncio.sleep(self.rng.choice([0.0, self.rng.uniform(0, 0.15), self.rng.uniform(0.15, 0.6)]))
                press.killed_after = self.answered(qid) is None
                self.restart()
                continue
            await self.until(lambda: self.answered(qid), f"an answer to press {n}")
            if self._recovering_since is not None:
                self.report.recoveries.append(time.monotonic() - self._recovering_since)
                self._recovering_since = None
        await self.check(table_id, people, presses, [group] + [u.id for u in people])

    # ------------------------------------------------------------------ the verdict
    async def check(self, table_id: int, people, presses: list[Press], chats: list[int]) -> None:
        rep = self.report
        rep.presses += len(presses)
        killed = [p for p in presses if p.killed_after]
        try:  # the last kill's press may still be on its way through the new process
            await self.until(lambda: all(self.answered(p.qid) for p in killed), "killed presses")
        except AssertionError:
            pass  # counted as vanished below
        vanished = [p for p in killed if self.answered(p.qid) is None]
        rep.vanished += len(vanished)
        rep.problems += [f"table {table_id}: press {p} was never answered" for p in vanished]
        accepted = {
            p.qid for p in presses if (a := self.answered(p.qid)) is not None and not a.text and not a.show_alert
        }
        rep.accepted += len(accepted)
        row = await self.repo.get_table(table_id)
        seats = {s.seat: s for s in await self.repo.get_seats(table_id)}
        log = await self.repo.load_actions(table_id)

        # each person's action in the log <- one press of theirs with that key
        used: set[str] = set()
        by_key: dict[tuple[int, str], list[Press]] = {}  # a long game has thousands of both
        for p in presses:
            by_key.setdefault((p.user_id, p.key), []).append(p)
        for entry in log:
            if entry.seat is None or seats[entry.seat].is_computer:
                continue  # the deal, timeouts, computers: nobody pressed them
            user_id, key = seats[entry.seat].user_id, move_key(entry.action)
            fits = [p for p in by_key.get((user_id, key), ()) if p.version < entry.seq]
            free = [p for p in fits if p.qid not in used]
            if free:
                # a press the bot answered as a move first, then the one drawn nearest
                # before the move: of two presses of one button (the first killed
                # unanswered and pressed again after the restart, or a second press on a
                # newer drawing refused as outdated) only one move was applied, and it is
                # the one the bot answered as a move
                used.add(max(free, key=lambda p: (p.qid in accepted, p.version)).qid)
            elif fits:
                rep.doubled += 1
                rep.problems.append(f"table {table_id}: {entry} applied twice")
            else:
                rep.unpressed += 1
                rep.problems.append(f"table {table_id}: {entry} was never pressed")
        for p in presses:
            if p.qid in accepted and p.qid not in used:
                rep.lost += 1
                # what the verdict weighed, so a failure can be told from a mismatch
                same = [
                    (q.qid, q.version, q.killed_after, getattr(self.answered(q.qid), "text", "-"))
                    for q in presses
                    if q.user_id == p.user_id and q.key == p.key
                ]
                entries = [(e.seq, e.seat, e.action) for e in log if e.seat is not None and move_key(e.action) == p.key]
                rep.problems.append(
                    f"table {table_id}: accepted press {p} is not in the log; presses of that key "
                    f"(qid, version, killed after, answer): {same}; log entries of that key: {entries}"
                )

        # the log replays into the game the table says it has: each game of the series
        # (a rematch deals game_no + 1 on the same table) from its own start
        game = get_game(row.game)
        seqs = [e.seq for e in log]
        if seqs != sorted(set(seqs)):
            rep.problems.append(f"table {table_id}: sequence numbers out of order: {seqs}")
        numbers = sorted({e.game_no for e in log})
        for game_no in numbers:
            state = game.initial_state(game.Options(**row.options), len(seats))
            try:
                for entry in (e for e in log if e.game_no == game_no):
                    state, _ = game.apply(state, entry.seat, entry.action)
            except Exception as error:  # noqa: BLE001 -- reported, not raised
                rep.problems.append(f"table {table_id}: game {game_no} of the log does not replay: {error!r}")
                continue
            last = game_no == numbers[-1]
            if last and game.is_over(state) != (row.status != "playing"):
                rep.problems.append(f"table {table_id}: status {row.status} but over={game.is_over(state)}")
            elif not last and not game.is_over(state):
                rep.problems.append(f"table {table_id}: game {game_no} was followed by another before its end")
            rep.finished += game.is_over(state)

        # A post twice in one chat (FakeTelegram.twins): at most one per kill
        with self.api._lock:
            for chat in chats:
                for text, extra in self.fake.twins(chat).items():
                    rep.duplicate_posts += extra
                    rep.duplicates.append(f"chat {chat} x{extra + 1}: {text[:80]!r}")

    def tracebacks(self) -> list[str]:
        return [out for out in self.bot.outputs() if "Traceback" in out]
