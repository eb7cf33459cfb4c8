"""Months on a small server, in half an hour: many groups playing every game through the
real ``cardbot run`` process, with SIGKILLs, a PostgreSQL restart and Telegram faults.

    python -m bench.soak                                  # 50 groups, 10 min, SQLite and PostgreSQL
    python -m bench.soak --minutes 30                     # the issue's run (issue 43)
    python -m bench.soak --groups 10 --minutes 6 --backend sqlite

The machinery is the chaos harness's (tests/chaos_harness.py): the Telegram emulator served
over HTTP, ``cardbot run`` long-polling it as a separate process, restarted at once after
each SIGKILL as a supervisor would, and its verdict on the action log. Per backend
(``--backend both`` runs the two side by side, each with its own bot process, emulator and
``--groups`` groups): every game of the registry in turn (durak, Balkan preferans, King,
Russian preferans (Сочи), bridge, whist), six groups with computers in the free seats (the
``strong`` level: the process pool thinks), then six groups of people only, and so on.
Scripted people think ``--pace`` seconds, press one of the move buttons their DM shows,
wait for the answer, and after a game the host presses Rematch.

Faults, on a schedule: ``--kills`` SIGKILLs of the bot process per backend (spread over
the run); one PostgreSQL restart (stop, ``--pg-outage`` seconds down, start) half-way, on
a throw-away cluster the bench starts and stops in its temporary folder (never the shared
server); every ``--telegram-faults-every`` seconds a 429 (retry after 2-5 s) or a 500/502
on a few sends and edits to a random group and a random DM.

Printed, each next to its goal (met / MISSED; the exit code is 0 either way):
* RSS of every process of the bot over time (the main process, its children, and any
  orphans), sampled every ``--sample-every`` s; the trend over the second half of the run;
* rows per storage table over time; which tables are bounded and which grow with play;
* orphans: processes of a killed bot still alive 10 s after the kill (count, RSS);
* moves lost or doubled (the chaos harness's verdict on every table's log), presses never
  answered, and posts sent twice (two visible bot messages in one chat, same text and
  buttons);
* press -> answer p99 per ``--window`` minutes of wall clock: its drift, and its value;
* the share of the computers' decisions that fell back to the easy player (the bot's log
  lines for a move without its search, bot/thinking.py's ``NO_SEARCH`` and
  ``PLAYER_FAILED``, by reason, against the computers' actions in the log).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import math
import os
import random
import re
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):  # `python bench/soak.py`
    sys.path.insert(0, str(Path(__file__).absolute().parent.parent))

from bench.common import header, percentile, verdict
from bench.fakeload import LoadTelegram
from bench.soakproc import PgCluster, Proc, alive, all_procs, kill, tree
from bot.emulator.telegram_fake import FakeUser
from bot.game_registry import playable
from bot.thinking import NO_SEARCH, PLAYER_FAILED

# How each game is opened in a group (a command naming its variant where /<command> asks).
OPEN_COMMANDS = {
    "durak": "/durak",
    "preferans": "/preferans balkan",
    "king": "/king",
    "preferans_ru": "/sochi",
    "bridge": "/bridge",
    "whist": "/whist",
}
SEATS = {ui.name: ui.bench_players for ui in playable()}
GAMES = [ui.name for ui in playable() if ui.name in OPEN_COMMANDS]
HUMANS_WITH_COMPUTERS = 2
ORPHAN_WAIT_S = 10.0  # "still alive 10 s after the kill"
ANSWER_WAIT_S = 120.0  # a person gives up waiting for an answer (the bot may be restarting)
SETUP_WAIT_S = 180.0  # one group's lobby: the machine is shared and may be slow
SETTLE_S = 90.0  # after the load: presses still on their way get this long to be answered
FAULT_GRACE_S = 5.0  # a press this close after a fault ended counts as disturbed by it
# Goals (see bench/README.md, "soak"): why each threshold is what it is.
RSS_SLOPE_GOAL = 10.0  # MB/hour: a 30-min run cannot tell less from noise; 10 MB/h is 7 GB a month
P99_GOAL_S = 1.0  # a press answered within a second feels answered
DRIFT_GOAL = 1.5  # the worst window's p99 within 1.5x the median window's (+0.1 s)
ORPHAN_CAP_MB = 3000.0  # orphans kept to show the memory they hold, up to this much (then ended)
# tables whose rows grow with play by design: the game record (moves, finished games,
# ratings, people, tables); everything else should stay bounded once retention runs
GROW_WITH_PLAY = {"actions", "game_results", "finished_games", "ratings", "users", "tables", "seats", "schema_version"}
DB_KB = "(database kB)"  # the database's size on disk, sampled with the rows
STALL_S = 120.0  # a group whose people had nothing to press for this long at the end is stuck
WARM_UP_S = 120.0  # a bot process's first minutes: its RSS rises as its workers meet every game
STALE_S = 20.0  # a person whose press changed nothing presses again after this long


# ----------------------------------------------------------------------------- the emulator
class SoakTelegram(LoadTelegram):
    """The load emulator (history and call log forgotten) that also stamps every press's
    first answer and counts answer calls per press (a second one: the press ran twice)."""

    def __init__(self) -> None:
        super().__init__()
        self.answer_at: dict[str, float] = {}
        self.answer_calls: collections.Counter[str] = collections.Counter()
        self.injected: collections.Counter[str] = collections.Counter()

    def handle(self, method: str, params: dict) -> tuple[int, dict]:
        status, body = super().handle(method, params)
        if method == "answerCallbackQuery":
            qid = str(params.get("callback_query_id"))
            self.answer_calls[qid] += 1
            if status == 200:
                self.answer_at.setdefault(qid, time.monotonic())
        if status == 429 or (status != 200 and "injected" in str(body.get("description", ""))):
            self.injected[f"{method} {status}"] += 1
        return status, body


# ----------------------------------------------------------------------------- bookkeeping
@dataclass
class Group:
    k: int
    chat: int
    game: str
    users: list[FakeUser]
    computers: int
    rng: random.Random
    table_id: int | None = None
    started: bool = False
    problem: str = ""
    last_press: float = 0.0  # monotonic time of its people's last press


@dataclass
class Sample:
    t: float
    main_mb: float
    children: int
    children_mb: float
    orphans: int
    orphans_mb: float
    rows: dict[str, int | None]

    @property
    def total_mb(self) -> float:
        return self.main_mb + self.children_mb + self.orphans_mb


@dataclass
class Backend:
    name: str
    database: str
    workdir: Path
    chaos: object = None  # tests.chaos_harness.Chaos
    groups: list[Group] = field(default_factory=list)
    presses: dict[int, list] = field(default_factory=lambda: collections.defaultdict(list))  # table -> Press
    sent_at: dict[str, float] = field(default_factory=dict)  # qid -> monotonic time of the press
    inflight: dict = field(default_factory=dict)  # qid -> Press not answered yet
    samples: list[Sample] = field(default_factory=list)
    kills: list[float] = field(default_factory=list)
    crashes: int = 0
    down: list[list[float]] = field(default_factory=list)  # [from, to] the bot could not answer
    pg_down: list[list[float]] = field(default_factory=list)  # [from, to] PostgreSQL was stopped
    restarts: list[float] = field(default_factory=list)  # when a new bot process started
    last_procs: list[tuple[str, Proc]] = field(default_factory=list)  # the last sample, process by process
    orphans: dict[tuple[int, int], Proc] = field(default_factory=dict)  # ever found after a kill
    orphan_events: list[tuple[int, float]] = field(default_factory=list)  # per kill: count, MB
    ever: set[tuple[int, int]] = field(default_factory=set)  # every process seen in the bot's trees
    pgids: set[int] = field(default_factory=set)
    presses_total: int = 0
    ended_orphans: int = 0

    @property
    def fake(self) -> SoakTelegram:
        return self.chaos.fake

    @property
    def api(self):
        return self.chaos.api

    @property
    def bot(self):
        return self.chaos.bot


def now_rel(t0: float) -> float:
    return time.monotonic() - t0


# ----------------------------------------------------------------------------- people
def say(b: Backend, user: FakeUser, chat: int, text: str) -> None:
    with b.api._lock:
        _, update = b.fake.message_update(user, chat, text)
    if update is not None:
        b.api.put(update)


def press(b: Backend, user: FakeUser, chat: int, message_id: int, data: str):
    """Queue ``user``'s press of ``data`` on a message; a move press is recorded for the
    verdict. Returns the harness's Press."""
    from tests.chaos_harness import Press

    with b.api._lock:
        update = b.fake.callback_update(user, chat, message_id, data)
    qid = update["callback_query"]["id"]
    parts = data.split(":")
    version = int(parts[2]) if len(parts) >= 4 and parts[2].isdigit() else 0
    p = Press(qid, user.id, version, data.rsplit(":", 1)[1])
    b.sent_at[qid] = time.monotonic()
    b.inflight[qid] = p
    if data.startswith("a:"):
        b.presses[int(parts[1])].append(p)
        b.presses_total += 1
    b.api.put(update)
    return p


async def answered(b: Backend, p, stop: asyncio.Event | None, wait: float = ANSWER_WAIT_S):
    deadline = time.monotonic() + wait
    while (answer := b.fake.answers.get(p.qid)) is None and time.monotonic() < deadline:
        if stop is not None and stop.is_set():
            break
        await asyncio.sleep(0.1)
    if answer is not None:
        b.inflight.pop(p.qid, None)
    return answer


def lobby_message(b: Backend, chat: int):
    with b.api._lock:
        for m in reversed(b.fake.messages(chat)):
            data = [d for _, d in b.fake.buttons(m) if d and d.startswith("l:")]
            if data:
                return m.message_id, data
    return None


async def lobby_press(b: Backend, g: Group, user: FakeUser, command: str) -> str | None:
    """Press the lobby button ending in ``command`` as the lobby now stands; the toast."""
    deadline = time.monotonic() + SETUP_WAIT_S
    while (found := lobby_message(b, g.chat)) is None or not any(d.endswith(":" + command) for d in found[1]):
        if time.monotonic() > deadline:
            raise TimeoutError(f"no lobby button {command!r} in group {g.k}")
        await asyncio.sleep(0.2)
    message_id, data = found
    wanted = next(d for d in data if d.endswith(":" + command))
    g.table_id = int(wanted.split(":")[1])
    answer = await answered(b, press(b, user, g.chat, message_id, wanted), None, SETUP_WAIT_S)
    if answer is None:
        raise TimeoutError(f"no answer to {command!r} in group {g.k}")
    return answer.text


async def open_group(b: Backend, g: Group) -> None:
    """Through Telegram, as people do: /start in the DMs, the game's command, joining (a
    seat each at bridge and whist), computers in the free seats, Start."""
    host = g.users[0]
    with b.api._lock:
        b.fake.group(g.chat, f"Soak {g.k}", admins=[host.id], supergroup=True)
    for u in g.users:
        say(b, u, u.id, "/start")
    say(b, host, g.chat, OPEN_COMMANDS[g.game])
    named = SEATS[g.game] == 4 and g.game in ("bridge", "whist")
    for i, u in enumerate(g.users[1:], start=1):
        await lobby_press(b, g, u, f"join:{i}" if named else "join")
    for _ in range(g.computers):
        await lobby_press(b, g, host, "cpu+")
    text = await lobby_press(b, g, host, "start")
    deadline = time.monotonic() + SETUP_WAIT_S
    while not any(u.id in b.fake.actionable for u in g.users):  # someone's hand has move buttons
        if time.monotonic() > deadline:
            raise TimeoutError(f"group {g.k} ({g.game}): no move buttons after Start ({text!r})")
        await asyncio.sleep(0.2)
    g.started = True


async def play(b: Backend, g: Group, pace: tuple[float, float], stop: asyncio.Event) -> None:
    """One group's people: whoever's DM shows move buttons presses one after thinking;
    after a game the host presses Rematch."""
    fake, rng = b.fake, g.rng
    seen: dict[int, tuple] = {}  # user -> (the buttons they last pressed one of, when)

    def fresh(u: FakeUser) -> bool:
        last = seen.get(u.id)
        return u.id in fake.actionable and (
            last is None or fake.actionable[u.id] != last[0] or time.monotonic() - last[1] > STALE_S
        )

    while not stop.is_set():
        ready = [u for u in g.users if fresh(u)]
        if not ready and g.chat not in fake.rematch:
            await asyncio.sleep(0.2)
            continue
        await asyncio.sleep(rng.uniform(*pace))
        if stop.is_set():
            return
        with b.api._lock:
            ready = [u for u in g.users if fresh(u)]
            if ready:
                user = rng.choice(ready)
                chat = user.id
                message_id, moves = fake.actionable[user.id]
                seen[user.id] = (fake.actionable[user.id], time.monotonic())
                data = rng.choice(moves)
            elif (rematch := fake.rematch.pop(g.chat, None)) is not None:
                user, chat, (message_id, data) = g.users[0], g.chat, rematch
            else:
                continue
        g.last_press = time.monotonic()
        await answered(b, press(b, user, chat, message_id, data), stop)


# ----------------------------------------------------------------------------- the bot's processes
def bot_tree(b: Backend) -> list[Proc]:
    procs = tree(b.bot.process.pid)
    b.ever.update(p.key for p in procs)
    return procs


def killed(b: Backend, before: list[Proc], t0: float) -> None:
    """After a SIGKILL (or a crash): the presses it cut short, and a look for orphans later."""
    for p in list(b.inflight.values()):
        if b.fake.answers.get(p.qid) is None:
            p.killed_after = True
    at = now_rel(t0)
    b.down.append([at, math.inf])
    b.restarts.append(at)

    async def look() -> None:
        await asyncio.sleep(ORPHAN_WAIT_S)
        left = [p for p in (alive(q.key) for q in before[1:]) if p is not None]
        b.orphans.update((p.key, p) for p in left)
        b.orphan_events.append((len(left), sum(p.rss_mb for p in left)))
        # kept running (they hold memory as they would on a server), up to a cap
        living = [p for p in b.orphans.values() if alive(p.key)]
        while living and sum(p.rss_mb for p in living) > ORPHAN_CAP_MB:
            kill(living.pop(0).key)
            b.ended_orphans += 1

    asyncio.get_running_loop().create_task(look())


def sigkill(b: Backend, t0: float) -> None:
    before = bot_tree(b)
    b.chaos.restart()  # SIGKILL, wait, start a new process on the same database
    b.pgids.add(b.bot.process.pid)
    b.kills.append(now_rel(t0))
    killed(b, before, t0)


async def supervise(b: Backend, stop: asyncio.Event, t0: float) -> None:
    """Restart a bot process that exited by itself; note when a restarted one polls again."""
    last = bot_tree(b)
    while not stop.is_set():
        if b.bot.process.poll() is not None and time.monotonic() - b.bot.started_at > 2:
            b.crashes += 1
            b.bot.start()
            b.pgids.add(b.bot.process.pid)
            killed(b, last, t0)
        elif b.down and b.down[-1][1] == math.inf and b.bot.ready:
            b.down[-1][1] = now_rel(t0)
        if b.bot.process.poll() is None:
            last = bot_tree(b)
        await asyncio.sleep(0.5)


# ----------------------------------------------------------------------------- sampling
def sqlite_rows(path: str) -> dict[str, int | None]:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    try:
        names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        rows = {n: con.execute(f'SELECT COUNT(*) FROM "{n}"').fetchone()[0] for n in names}
    finally:
        con.close()
    # the file and its write-ahead log, in kB
    rows[DB_KB] = sum(os.path.getsize(f) // 1024 for f in (path, path + "-wal") if os.path.exists(f))
    return rows


async def pg_rows(url: str) -> dict[str, int | None]:
    import asyncpg

    con = await asyncpg.connect(url, timeout=5)
    try:
        names = [
            r[0]
            for r in await con.fetch(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            )
        ]
        rows = {n: await con.fetchval(f'SELECT COUNT(*) FROM "{n}"') for n in names}
        rows[DB_KB] = await con.fetchval("SELECT pg_database_size(current_database())") // 1024
        return rows
    finally:
        await con.close()


async def sample(b: Backend, t0: float) -> None:
    procs = all_procs()
    mine = tree(b.bot.process.pid, procs) if b.bot.process.poll() is None else []
    b.ever.update(p.key for p in mine)
    orphans = [p for key, p in b.orphans.items() if (q := procs.get(key[0])) and q.start == key[1] and q.state != "Z"]
    orphans = [procs[p.pid] for p in orphans]
    b.last_procs = [("", p) for p in mine] + [("orphan ", p) for p in orphans]
    try:
        if b.name == "sqlite":
            rows = await asyncio.to_thread(sqlite_rows, b.database)
        else:
            rows = await asyncio.wait_for(pg_rows(b.database), 15)
    except Exception:  # noqa: BLE001 -- the database is restarting: a gap in the series
        rows = {}
    b.samples.append(
        Sample(
            now_rel(t0),
            mine[0].rss_mb if mine else 0.0,
            len(mine[1:]),
            sum(p.rss_mb for p in mine[1:]),
            len(orphans),
            sum(p.rss_mb for p in orphans),
            rows,
        )
    )


# ----------------------------------------------------------------------------- faults
def telegram_fault(b: Backend, rng: random.Random) -> None:
    """A 429 or a 5xx on a few sends and edits to one group and to one person's DM."""
    started = [g for g in b.groups if g.started]
    if not started:
        return
    g = rng.choice(started)
    dm = rng.choice(g.users).id
    with b.api._lock:
        if rng.random() < 0.5:
            after = rng.randint(2, 5)
            b.fake.fail_next("sendMessage", chat_id=g.chat, retry_after=after, times=2)
            b.fake.fail_next("editMessageText", chat_id=g.chat, retry_after=after, times=2)
            b.fake.fail_next("editMessageText", chat_id=dm, retry_after=after, times=2)
        else:
            code = rng.choice([500, 502])
            b.fake.fail_next("editMessageText", chat_id=dm, error_code=code, times=3)
            b.fake.fail_next("sendMessage", chat_id=g.chat, error_code=code, times=2)
            b.fake.fail_next("editMessageText", chat_id=g.chat, error_code=code, times=2)


async def faults(
    backends: list[Backend], pg: PgCluster | None, a: argparse.Namespace, stop: asyncio.Event, t0: float, log: list
) -> None:
    """The schedule: kills spread over 10-85 % of the run (the backends' half an interval
    apart), the PostgreSQL restart at 50 %, Telegram faults every few tens of seconds."""
    duration = a.minutes * 60
    rng = random.Random(a.seed)
    events: list[tuple[float, str, Backend | None]] = []
    for i, b in enumerate(backends):
        for n in range(a.kills):
            shift = (i / len(backends)) / max(a.kills, 1)
            events.append((duration * (0.1 + 0.75 * (n + 0.5 + shift) / max(a.kills, 1)), "kill", b))
    if pg is not None:
        events.append((duration * 0.5, "pg", None))
    t = a.telegram_faults_every
    while t < duration:
        events += [(t, "telegram", b) for b in backends]
        t += a.telegram_faults_every
    events.sort(key=lambda e: e[0])
    for at, kind, b in events:
        wait = at - now_rel(t0)
        if wait > 0:
            try:
                await asyncio.wait_for(stop.wait(), wait)
                return
            except TimeoutError:
                pass
        if stop.is_set():
            return
        if kind == "kill":
            sigkill(b, t0)
            log.append(f"{now_rel(t0):6.0f} s  {b.name}: SIGKILL, restarted")
        elif kind == "telegram":
            telegram_fault(b, rng)
        else:
            pg_backends = [x for x in backends if x.name == "postgres"]
            log.append(f"{now_rel(t0):6.0f} s  PostgreSQL stopped for {a.pg_outage:g} s")
            for x in pg_backends:
                x.down.append([now_rel(t0), math.inf])
            await asyncio.to_thread(pg.stop)
            try:
                await asyncio.wait_for(stop.wait(), a.pg_outage)
            except TimeoutError:
                pass
            await asyncio.to_thread(pg.start)  # started again even when the run is ending
            for x in pg_backends:
                x.down[-1][1] = now_rel(t0)
                x.pg_down.append(list(x.down[-1]))
            log.append(f"{now_rel(t0):6.0f} s  PostgreSQL back")


# ----------------------------------------------------------------------------- the figures
def slope_mb_per_hour(points: list[tuple[float, float]]) -> float:
    if len(points) < 3:
        return 0.0
    mt = sum(t for t, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    den = sum((t - mt) ** 2 for t, _ in points)
    return sum((t - mt) * (y - my) for t, y in points) / den * 3600 if den else 0.0


def within_life_slope(b: Backend, since: float) -> float:
    """The trend of the living bot's RSS with each process's life on its own: a restart
    starts small, so the series as a whole saws. Pooled least squares, one intercept per
    life, leaving out each life's first WARM_UP_S (its workers import and fill their caches
    as the games come to them)."""
    starts = [0.0, *sorted(b.restarts)]
    lives: dict[int, list[tuple[float, float]]] = collections.defaultdict(list)
    for s in b.samples:
        life = sum(1 for x in starts if x <= s.t)
        if s.t >= since and s.t - starts[life - 1] > WARM_UP_S:
            lives[life].append((s.t, s.main_mb + s.children_mb))
    num = den = 0.0
    for pts in lives.values():
        if len(pts) < 2:
            continue
        mt = sum(t for t, _ in pts) / len(pts)
        my = sum(y for _, y in pts) / len(pts)
        num += sum((t - mt) * (y - my) for t, y in pts)
        den += sum((t - mt) ** 2 for t, _ in pts)
    return num / den * 3600 if den else 0.0


def role(p: Proc, among: list[tuple[str, Proc]]) -> str:
    """A pool worker is forked from the forkserver and keeps its command line."""
    parent = next((q for _, q in among if q.pid == p.ppid), None)
    return "worker" if parent is not None and p.role == parent.role == "forkserver" else p.role


def disturbed(b: Backend, start: float, end: float) -> bool:
    return any(start <= to + FAULT_GRACE_S and end >= frm for frm, to in b.down)


def latency_windows(
    b: Backend, t0: float, window: float
) -> tuple[list[tuple[int, float, int]], list[float], list[float]]:
    """Per window (index, quiet p99, quiet presses); all latencies; quiet latencies."""
    every, quiet = [], []
    per: dict[int, list[float]] = collections.defaultdict(list)
    for qid, sent in b.sent_at.items():
        at = b.fake.answer_at.get(qid)
        if at is None:
            continue
        lat, start = at - sent, sent - t0
        if start < 0:
            continue  # the lobby, before the load
        every.append(lat)
        if not disturbed(b, start, at - t0):
            quiet.append(lat)
            per[int(start // window)].append(lat)
    return [(w, percentile(v, 99), len(v)) for w, v in sorted(per.items())], every, quiet


def duplicate_posts(b: Backend) -> list[str]:
    """Visible bot messages that are exact twins (text and buttons) in one chat."""
    out = []
    with b.api._lock:
        for chat in list(b.fake.msgs):
            seen = collections.Counter(
                (m.history[-1].text, repr(m.keyboard)) for m in b.fake.messages(chat) if m.history
            )
            out += [f"chat {chat} x{n}: {text.splitlines()[0][:70]!r}" for (text, _), n in seen.items() if n > 1]
    return out


def fallback_reason(line: str) -> str | None:
    """Why a log line says a computer moved without its search (bot/thinking.py's words):
    ``late``, ``queued`` or ``worker_died``, ``failed`` (its player raised), or None."""
    if PLAYER_FAILED in line:
        return "failed"
    found = re.search(re.escape(NO_SEARCH) + r" \((\w+):", line)
    return found.group(1) if found else None


def log_lines(b: Backend) -> tuple[collections.Counter, int, int]:
    fallbacks: collections.Counter[str] = collections.Counter()
    tracebacks = errors = 0
    for path in sorted(b.workdir.glob("bot-*.log")):
        with open(path, errors="replace") as f:
            for line in f:
                reason = fallback_reason(line)
                if reason:
                    fallbacks[reason] += 1
                tracebacks += line.startswith("Traceback")
                errors += " ERROR " in line or line.startswith("ERROR")
    return fallbacks, tracebacks, errors


async def verdict_of(b: Backend) -> dict:
    """The harness's check of every table's log against the presses; the computers' moves."""
    from storage.factory import repository_for

    chaos = b.chaos

    async def at_once(predicate, what: str):  # the settle after the load did the waiting
        with chaos.api._lock:
            if value := predicate():
                return value
        raise AssertionError(f"{what}: not there")

    chaos.until = at_once
    chaos.repo = repository_for(b.database)
    await chaos.repo.open()
    computer_moves = 0
    try:
        for g in b.groups:
            if g.table_id is None:
                continue
            await chaos.check(g.table_id, g.users, b.presses.get(g.table_id, []), [])
            seats = {s.seat: s for s in await chaos.repo.get_seats(g.table_id)}
            log = await chaos.repo.load_actions(g.table_id)
            computer_moves += sum(1 for e in log if e.seat is not None and seats[e.seat].is_computer)
    finally:
        await chaos.repo.close()
        chaos.repo = None
    return {"computer_moves": computer_moves}


# ----------------------------------------------------------------------------- the run
async def run(a: argparse.Namespace) -> int:
    from tests.chaos_harness import Chaos

    names = ["sqlite", "postgres"] if a.backend == "both" else [a.backend]
    pace = tuple(float(x) for x in a.pace.split(",")) if "," in a.pace else (float(a.pace),) * 2
    header(
        f"soak: {a.groups} groups per backend ({', '.join(names)}), every game, pace {pace[0]:g}-{pace[1]:g} s, "
        f"{a.minutes:g} min; {a.kills} SIGKILLs per backend, "
        + ("a PostgreSQL restart, " if "postgres" in names else "")
        + f"Telegram 429/5xx every {a.telegram_faults_every:g} s"
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    fault_log: list[str] = []
    backends: list[Backend] = []
    pg: PgCluster | None = None
    tmp = Path(tempfile.mkdtemp(prefix="soak-"))
    tasks: list[asyncio.Task[None]] = []
    try:
        if "postgres" in names:
            pg = PgCluster(tmp)
            await asyncio.to_thread(pg.init)
            await asyncio.to_thread(pg.start)
        env = {
            "CARDBOT_COMPUTER_LEVEL": "strong",
            "CARDBOT_LOG_LEVEL": "INFO",
            # accelerated play, accelerated retention: the rows the bot keeps a day level off
            "CARDBOT_HOUSEKEEPING_SPEEDUP": str(getattr(a, "housekeeping_speedup", 144.0)),
        }
        for name in names:
            workdir = tmp / name
            workdir.mkdir()
            database = str(workdir / "bot.sqlite3") if name == "sqlite" else pg.url  # type: ignore[union-attr]
            b = Backend(name, database, workdir)
            b.chaos = Chaos(database, workdir, a.seed, fake=SoakTelegram(), env=env, own_session=True)
            backends.append(b)
            b.chaos.bot.start()
            b.pgids.add(b.bot.process.pid)
        for b in backends:
            t = time.monotonic()
            while not b.bot.ready:
                if b.bot.exited() or time.monotonic() - t > SETUP_WAIT_S:
                    raise RuntimeError(f"{b.name}: the bot did not start: {b.bot.exited()}")
                await asyncio.sleep(0.1)

        # the groups, opened through Telegram (a few at a time: the machine is shared)
        t_setup = time.monotonic()
        for b in backends:
            base = 10_000 if b.name == "sqlite" else 20_000
            for k in range(a.groups):
                game = GAMES[k % len(GAMES)]
                with_computers = (k // len(GAMES)) % 2 == 0
                humans = HUMANS_WITH_COMPUTERS if with_computers else SEATS[game]
                users = []
                with b.api._lock:
                    for i in range(humans):
                        users.append(b.fake.user(base * 100 + k * 10 + i + 1, f"P{k}.{i}", language_code="en"))
                b.groups.append(
                    Group(
                        k,
                        -1_000_000_000 - base - k,
                        game,
                        users,
                        SEATS[game] - humans,
                        random.Random(a.seed * 7919 + k),
                    )
                )

        async def opened(b: Backend, g: Group) -> None:
            try:
                await open_group(b, g)
            except TimeoutError as error:
                g.problem = str(error)

        todo = [(b, b.groups[k]) for k in range(a.groups) for b in backends]  # the backends in step
        for i in range(0, len(todo), 8):
            if stop.is_set():
                break
            await asyncio.gather(*(opened(b, g) for b, g in todo[i : i + 8]))
        for b in backends:
            failed = [g for g in b.groups if not g.started]
            print(
                f"   {b.name}: {len(b.groups) - len(failed)} of {len(b.groups)} groups playing "
                f"({sum(1 for g in b.groups if g.computers)} with computers) after {time.monotonic() - t_setup:.0f} s"
                + "".join(f"\n     not started: {g.problem}" for g in failed[:5])
            )

        # the load, the faults, the samples
        t0 = time.monotonic()
        for b in backends:
            tasks += [asyncio.create_task(play(b, g, pace, stop)) for g in b.groups if g.started]
            tasks.append(asyncio.create_task(supervise(b, stop, t0)))
        fault_task = asyncio.create_task(faults(backends, pg, a, stop, t0, fault_log))

        async def sampler() -> None:
            while not stop.is_set():
                for b in backends:
                    await sample(b, t0)
                try:
                    await asyncio.wait_for(stop.wait(), a.sample_every)
                except TimeoutError:
                    pass

        sampler_task = asyncio.create_task(sampler())
        try:
            await asyncio.wait_for(stop.wait(), a.minutes * 60)
        except TimeoutError:
            pass
        interrupted = stop.is_set()
        stop.set()
        await fault_task  # a PostgreSQL restart under way finishes
        await asyncio.gather(*tasks, sampler_task)
        tasks = []
        run_s = now_rel(t0)
        for b in backends:
            await sample(b, t0)

        # the presses still on their way, then the bot's last writes
        deadline = time.monotonic() + SETTLE_S
        while any(b.fake.answers.get(p.qid) is None for b in backends for p in b.inflight.values()):
            if time.monotonic() > deadline:
                break
            await asyncio.sleep(0.2)
        await asyncio.sleep(3)

        # the verdict, then a clean stop (and what a clean stop leaves behind)
        results = {}
        for b in backends:
            results[b.name] = await verdict_of(b)
        clean_left = {}
        for b in backends:
            before = bot_tree(b)
            b.bot.stop()
            await asyncio.sleep(ORPHAN_WAIT_S)
            clean_left[b.name] = [p for p in (alive(q.key) for q in before) if p is not None]
        report(backends, results, clean_left, fault_log, a, run_s, t0, interrupted)
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        await cleanup(backends, pg, tmp)
    return 0


async def cleanup(backends: list[Backend], pg: PgCluster | None, tmp: Path) -> None:
    """Every process the bench made ends, and its folder goes."""
    import shutil

    for b in backends:
        if b.chaos is None:
            continue
        try:
            b.bot.stop()
        except Exception:  # noqa: BLE001 -- cleaning up whatever state it is in
            pass
        for key in b.ever | set(b.orphans):
            kill(key)
        for pgid in b.pgids:
            try:
                os.killpg(pgid, signal.SIGKILL)
            except OSError:
                pass
        try:
            b.api.stop()
            b.fake.close()
        except Exception:  # noqa: BLE001
            pass
    if pg is not None:
        await asyncio.to_thread(pg.stop)
        if (pid := pg.postmaster()) is not None:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
    shutil.rmtree(tmp, ignore_errors=True)


# ----------------------------------------------------------------------------- the table
def mb(x: float) -> str:
    return f"{x:.0f}"


def report(backends, results, clean_left, fault_log, a, run_s: float, t0: float, interrupted: bool) -> None:
    window = a.window * 60
    print(f"\n   load ran {run_s / 60:.1f} min" + (" (interrupted)" if interrupted else ""))
    print("   faults: " + ("; ".join(line.strip() for line in fault_log) or "none"))
    for b in backends:
        r = b.chaos.report
        f = b.fake
        print(f"\n== {b.name}")
        print(
            f"   groups: {sum(g.started for g in b.groups)}, games played to the end: {r.finished}, "
            f"presses: {b.presses_total} moves pressed, {r.accepted} accepted; "
            f"SIGKILLs {len(b.kills)}, bot exits by itself {b.crashes}; "
            f"Telegram faults injected: {sum(f.injected.values())} ({dict(f.injected.most_common(4))})"
        )

        # RSS over time
        print(f"   RSS of the bot's processes (MB) every {a.sample_every:g} s:")
        print("        t   main  children(n)  orphans(n)  total")
        step = max(1, len(b.samples) // 16)
        for s in b.samples[::step] + ([b.samples[-1]] if (len(b.samples) - 1) % step else []):
            print(
                f"   {s.t:6.0f}  {s.main_mb:5.0f}  {s.children_mb:6.0f} ({s.children})  "
                f"{s.orphans_mb:6.0f} ({s.orphans})  {s.total_mb:5.0f}"
            )
        print(
            "   at the end, process by process: "
            + ", ".join(f"{tag}{role(p, b.last_procs)} {p.rss_mb:.0f}" for tag, p in b.last_procs)
        )
        back = [to - frm for frm, to in b.down if frm in b.restarts and to != math.inf]
        if back:
            print(f"   after each SIGKILL the new process polled again in: {', '.join(f'{x:.1f}' for x in back)} s")
        half = run_s / 2
        total = slope_mb_per_hour([(s.t, s.total_mb) for s in b.samples if s.t >= half])
        life = within_life_slope(b, half)
        print(
            f"   RSS trend, second half, all processes (orphans included): {total:+.0f} MB/h   "
            f"goal < {RSS_SLOPE_GOAL:g} MB/h: {verdict(total < RSS_SLOPE_GOAL)}"
        )
        print(
            f"   RSS trend, second half, the living bot (each life apart, its first {WARM_UP_S / 60:g} min left out): "
            f"{life:+.0f} MB/h   goal < {RSS_SLOPE_GOAL:g} MB/h: {verdict(life < RSS_SLOPE_GOAL)}"
        )

        # rows per table
        tables = sorted({n for s in b.samples for n in s.rows})
        have = [s for s in b.samples if s.rows]
        if have:
            picks = have[:: max(1, len(have) // 6)]
            if picks[-1] is not have[-1]:
                picks.append(have[-1])
            print("   rows per table over time (s):  " + "".join(f"{s.t:>8.0f}" for s in picks))
            unbounded = []
            for n in tables:
                series = [s.rows.get(n) or 0 for s in picks]
                grows = n in GROW_WITH_PLAY or n == DB_KB
                # bounded: flat over the second half (what retention keeps) -- or nothing at all
                late = [(s.t, float(s.rows.get(n) or 0)) for s in have if s.t >= half]
                rising = slope_mb_per_hour(late) > 0 and late and late[-1][1] > late[0][1]
                mark = "grows with play" if grows else ("still growing" if rising else "flat")
                if not grows and rising:
                    unbounded.append(n)
                print(f"     {n:22s}" + "".join(f"{x:>8d}" for x in series) + f"   {mark}")
            print(
                f"   tables expected bounded that still grow in the second half: {', '.join(unbounded) or 'none'}   "
                f"goal none: {verdict(not unbounded)}"
            )

        # orphans
        count = sum(n for n, _ in b.orphan_events)
        orphan_mb = sum(m for _, m in b.orphan_events)
        print(
            f"   orphans {ORPHAN_WAIT_S:g} s after a kill: {count} processes, {orphan_mb:.0f} MB "
            f"(per kill: {', '.join(f'{n}/{m:.0f} MB' for n, m in b.orphan_events) or '-'})   goal 0: "
            f"{verdict(count == 0)}"
            + (f"; {b.ended_orphans} ended by the bench at {ORPHAN_CAP_MB:g} MB" if b.ended_orphans else "")
        )
        left = clean_left[b.name]
        print(
            f"   processes left {ORPHAN_WAIT_S:g} s after a clean stop (SIGINT): {len(left)}   goal 0: "
            f"{verdict(not left)}"
        )

        # lost and doubled
        dups = duplicate_posts(b)
        twice = sum(1 for n in f.answer_calls.values() if n > 1)
        unanswered = sum(1 for q in b.sent_at if q not in f.answer_at)
        print(f"   moves lost (accepted, not in the log):   {r.lost:4d}   goal 0: {verdict(r.lost == 0)}")
        print(
            f"   moves doubled or never pressed:         {r.doubled + r.unpressed:4d}   goal 0: "
            f"{verdict(r.doubled + r.unpressed == 0)}"
        )
        print(f"   presses never answered:                 {unanswered:4d}   goal 0: {verdict(unanswered == 0)}")
        print(
            f"   posts sent twice (twin visible messages): {len(dups):4d}   goal 0: {verdict(not dups)}"
            + "".join(f"\n     {d}" for d in dups[:6])
        )
        print(f"   presses answered twice (a second answerCallbackQuery): {twice}  (no goal: Telegram refuses it)")
        counted = ("twice", "never pressed", "not in the log", "never answered")
        other = [p for p in r.problems if not any(word in p for word in counted)]
        print(
            f"   every table's log replays into its game: {verdict(not other)}"
            + "".join(f"\n     {p}" for p in other[:6])
        )
        for p in [p for p in r.problems if p not in other][:4]:
            print(f"     {p[:300]}")

        # a table nobody could move at for minutes: a hand never drawn, a computer that never moved
        end = t0 + run_s
        stuck = [g for g in b.groups if g.started and end - g.last_press > STALL_S]
        print(
            f"   groups with nothing to press for the last {STALL_S:g} s: {len(stuck)}   goal 0: {verdict(not stuck)}"
            + "".join(f" [{g.k} {g.game}, {end - g.last_press:.0f} s]" for g in stuck[:8])
        )

        # latency
        windows, every, quiet = latency_windows(b, t0, window)
        p99s = [p for _, p, n in windows if n >= 20]
        worst = max(p99s, default=0.0)
        typical = statistics.median(p99s) if p99s else 0.0
        drift_ok = worst <= DRIFT_GOAL * typical + 0.1
        print(
            f"   press -> answer p99 per {a.window:g} min (presses clear of a fault; n): "
            + ", ".join(f"{w * a.window:g}': {p:.2f} s ({n})" for w, p, n in windows)
        )
        if p99s:
            print(
                f"   drift: worst window {worst:.2f} s vs median window {typical:.2f} s   goal <= "
                f"{DRIFT_GOAL:g}x + 0.1 s: {verdict(drift_ok)}"
            )
        else:
            print("   drift: no window with 20 presses clear of a fault (a longer run tells)")
        print(
            f"   press -> answer p99: {percentile(quiet, 99):.2f} s clear of faults (p50 {percentile(quiet, 50):.2f} s, "
            f"n {len(quiet)})   goal < {P99_GOAL_S:g} s: {verdict(percentile(quiet, 99) < P99_GOAL_S)}; "
            f"all presses {percentile(every, 99):.2f} s, max {max(every, default=0):.1f} s"
        )

        if b.pg_down:
            late = []
            for qid, sent in b.sent_at.items():
                start = sent - t0
                for frm, to in b.pg_down:
                    if frm <= start <= to:
                        at = f.answer_at.get(qid)
                        late.append(math.inf if at is None else max(0.0, at - t0 - to))
            worst_late = max(late, default=0.0)
            print(
                f"   presses made while PostgreSQL was down: {len(late)}, answered at most {worst_late:.1f} s after "
                f"it was back   goal <= 3 s: {verdict(worst_late <= 3)}"
            )

        # the computers
        fallbacks, tracebacks, errors = log_lines(b)
        decisions = results[b.name]["computer_moves"]
        share = sum(fallbacks.values()) / decisions if decisions else 0.0
        print(
            f"   computer decisions that fell back to the easy player: {sum(fallbacks.values())} of {decisions} "
            f"({share:.1%}; late {fallbacks['late']}, queued {fallbacks['queued']}, "
            f"worker died {fallbacks['worker_died']}, player failed {fallbacks['failed']}; "
            "against the computers' moves in the log, where a decision dropped because the table moved on "
            "meanwhile, or cut short by a kill, is not)"
        )
        print(f"   the bot's log: {tracebacks} tracebacks, {errors} ERROR lines")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.split("\n\n")[0])
    p.add_argument("--groups", type=int, default=50, help="groups per backend (the issue asks >= 50)")
    p.add_argument("--minutes", type=float, default=10.0, help="length of the load (the issue asks >= 30)")
    p.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    p.add_argument("--pace", default="0.3,1.5", help="a person's thinking time in seconds, e.g. 0.3,1.5")
    p.add_argument("--kills", type=int, default=None, help="SIGKILLs per backend (default: one per 5 min, >= 2)")
    p.add_argument("--pg-outage", type=float, default=20.0, help="seconds PostgreSQL stays down")
    p.add_argument("--telegram-faults-every", type=float, default=45.0, help="seconds between Telegram faults")
    p.add_argument("--sample-every", type=float, default=30.0, help="seconds between RSS and row samples")
    p.add_argument("--window", type=float, default=5.0, help="minutes per p99 window")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--housekeeping-speedup",
        type=float,
        default=144.0,
        help="the bot's retention periods divided by this (144: a day of rows kept is 10 minutes)",
    )
    a = p.parse_args(argv)
    if a.kills is None:
        a.kills = max(2, round(a.minutes / 5))
    return asyncio.run(run(a))


if __name__ == "__main__":
    raise SystemExit(main())
