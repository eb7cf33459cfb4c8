"""Telegram calls per game: a durak game, a deal of every other game.

    python -m bench.message_economy                  # every game, ~15 s
    python -m bench.message_economy --games durak --runs 5 --seed 3
    python -m bench.message_economy --computers 1    # one seat of each table a computer

The real Application and sender against the fake Bot API on a simulated clock (the
end-to-end tests' style). Every seat is a scripted player (``--computers`` swaps some for
computer players) who presses a move button in their DM 2-5 s (simulated) after the
previous press: the button of the move the computer player would make from that seat's
view (``--players smart``, the default, so deals are played out as people play them),
or a random one (``--players random``). Between two presses the sender runs as its loop
does: it drains the outbox, and when the group budget (<= 19 group messages a minute,
>= 3 s apart) holds rows back, the clock moves on to when they may go, or to the next
press, whichever comes first. The games are the registry's (``bot.game_registry``), each
at its ``GameUI.bench_players`` seats. A deal of a trick game ends when the next deal is
dealt (a deal without play, e.g. passed out or a Тысяча contract conceded, is followed by
the next one: the run ends after the first deal with tricks); a game without tricks
(durak: no ``tricks_so_far``) is played to the game's end and counted in bouts; then the
outbox is flushed. The next deal's table is sent anew below the finished deal's sheet
(a sendMessage, and a deleteMessage of the old table message): both are counted.

Printed per game: the Bot API calls by method and by chat, group messages (sends + edits
in the group, score sheets included) per trick (per bout in durak), and the most group
messages in any 60 s window, and the Bot API calls per press (everything the bot calls:
the callback answer, DM edits, pings and their deletion, group messages). Goals: <= 1 group
message per trick/bout on average, never more than 20 in a minute, <= 4 calls per press.

"🔍 The deal" (bot/deal_view.py) adds nothing to these figures: its button rides on the
deal's sheet post (no call of its own), and only a press costs anything — the callback
answer and one sendMessage to the presser's private chat, never a group message. Its
double-dummy analysis runs once per deal, in the computers' workers, and is stored.
"📜 Tricks" in a hand message (bot/trick_view.py) adds nothing either: a press costs the
callback answer and one edit of the presser's own hand message ("↩ Back" the same),
never a group message; the scripted players here do not press it.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import logging
import random
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):  # `python bench/message_economy.py`
    sys.path.insert(0, str(Path(__file__).absolute().parent.parent))

from bench.common import header, verdict
from bench.fakeload import GROUP_METHODS, LoadTelegram
from bot.game_registry import playable, ui_for

GROUP = -1001


def seats(game: str) -> int:
    return ui_for(game).bench_players


def unit(game: str) -> str:
    """What the group messages are counted per: a game without tricks (durak) plays bouts."""
    return "trick" if ui_for(game).tricks_so_far is not None else "bout"


def what(game: str, options: dict) -> str:
    """The run in words, from the registry: "a Whist deal (Fikhman's rules, ...)"."""
    ui = ui_for(game)
    variant = ui.variant_text(options, "en")
    kind = "deal" if unit(game) == "trick" else "game"
    return f"a {ui.title(options, 'en')} {kind}" + (f" ({variant})" if variant else "")


GOAL_PER_UNIT = 1.0
GOAL_PER_MINUTE = 20
GOAL_CALLS_PER_PRESS = 4.0


class SimClock:
    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


async def play_one(
    game: str,
    seed: int,
    computers: int,
    pace: tuple[float, float],
    min_interval: float | None = None,
    smart: bool = True,
) -> dict:
    from bot.app import build_application
    from bot.config import Settings
    from bot.service import Person, PressPlace
    from bot.screens import move_key
    from engine.base import get_game
    from bot.emulator.telegram_fake import FakeRequest

    clock = SimClock()
    fake = LoadTelegram(clock=clock, keep_log=True)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="cardbot-econ-") as tmp:
        settings = Settings(token=f"{fake.bot_id}:TEST", db_path=str(Path(tmp) / "econ.sqlite3"))
        app = build_application(
            settings,
            request=FakeRequest(fake),
            rate_limiter=False,
            rng=random.Random(seed),
            clock=clock,
            sender_clock=clock,
            background=False,
        )
        await app.initialize()
        runtime, service = app.bot_data["runtime"], app.bot_data["service"]
        await runtime.startup(background=False)
        sender, repo = runtime.sender, service.core.repo
        if min_interval is not None:  # experiment: a longer gap between two group messages
            sender.budget.min_interval = min_interval

        async def flush(until: float | None) -> None:
            """Run the sender until ``until`` (None: until nothing is left)."""
            while True:
                wait = await sender.drain()
                if wait is None:
                    if until is not None:
                        clock.now = max(clock.now, until)
                    return
                if until is not None and clock.now + wait >= until:
                    clock.now = until
                    return
                clock.now += wait + 1e-6

        async def no_admin(chat_id: int) -> bool:
            return False

        humans = seats(game) - computers
        users = [fake.user(i + 1, f"P{i + 1}", language_code="en") for i in range(humans)]
        fake.group(GROUP, "Bench", admins=[1], supergroup=True)
        host = Person(1, "P1", None, "en")
        for u in users:
            fake.start_dm(u)
            await service.chat_admin.dm_opened(Person(u.id, u.first_name, None, "en"))
        table = await service.lobby.open_table(GROUP, 0, game, host, "en", "Bench")
        for u in users[1:]:
            table = await repo.get_table(table.id)
            await service.lobby.press(
                table.id, table.version, Person(u.id, u.first_name), "join", no_admin, PressPlace(table.chat_id)
            )
        for _ in range(computers):
            table = await repo.get_table(table.id)
            await service.lobby.press(table.id, table.version, host, "cpu+", no_admin, PressPlace(table.chat_id))
        await flush(None)
        clock.now += 60  # the lobby's messages are out of the window
        start_index, start_time = len(fake.log), clock.now
        table = await repo.get_table(table.id)
        await service.lobby.press(table.id, table.version, host, "start", no_admin, PressPlace(table.chat_id))
        await flush(clock.now + rng.uniform(*pace))

        engine = get_game(game)

        def progress(rows) -> tuple[int, int]:
            """(deals completed, tricks/bouts in them), replaying the log."""
            state = engine.initial_state(engine.Options(**table.options), seats(game))
            deals = units = pending = 0
            for r in rows:
                if r.seat is None and r.action.startswith("deal"):
                    deals += 1
                    if deals > 1:
                        units += pending
                        pending = 0
                state, events = engine.apply(state, r.seat, r.action)
                pending += sum(1 for e in events if e["type"] == unit(game))
            if engine.is_over(state):
                return deals, units + pending
            return deals - 1, units

        presses = 0
        for _ in range(5000):
            table = await repo.get_table(table.id)
            rows = await repo.load_actions(table.id)
            done, units = progress(rows)
            if table.status != "playing" or (done and units):  # a deal with play in it is over
                break
            ready = [u for u in users if u.id in fake.actionable]
            if not ready:  # nobody sees buttons yet: let the computers move, the sender catch up
                await service.computers.idle()  # a strong computer thinks in real time, off the simulated clock
                await flush(clock.now + 0.5)
                continue
            user = rng.choice(ready)
            message_id, moves = fake.actionable[user.id]
            data = rng.choice(moves)
            if smart:  # the button the computer player would choose, when the DM offers it
                state = await service.core.state_of(table)
                seat = next(s.seat for s in await repo.get_seats(table.id) if s.user_id == user.id)
                legal = engine.legal_actions(state, seat)
                if legal:
                    pick = engine.computer_action(engine.view(state, seat), legal, rng, level="easy")
                    wanted = f"a:{table.id}:{table.version}:{move_key(pick)}"
                    data = wanted if wanted in moves else data
            await fake.press_raw(app, user, user.id, message_id, data)
            presses += 1
            await flush(clock.now + rng.uniform(*pace))
        else:
            raise RuntimeError(f"{game}: the deal did not end")
        await flush(None)
        end_time = clock.now
        table = await repo.get_table(table.id)
        rows = await repo.load_actions(table.id)
        await runtime.shutdown()
        await app.shutdown()

    deals, units = progress(rows)
    calls = [c for c in fake.log[start_index:] if c.ok]
    group = [c for c in calls if c.chat_id == GROUP and c.method in GROUP_METHODS]
    stamps = sorted(c.t for c in group)
    window = max((sum(1 for s in stamps if t0 <= s < t0 + 60) for t0 in stamps), default=0)
    by_method = collections.Counter(c.method for c in calls)
    by_chat = collections.Counter(
        "group" if c.chat_id == GROUP else "DMs" if isinstance(c.chat_id, int) else "no chat" for c in calls
    )
    group_by_method = collections.Counter(c.method for c in group)
    return {
        "game": game,
        "what": what(game, table.options),
        "seed": seed,
        "presses": presses,
        "units": units,
        "deals": deals,
        "group": len(group),
        "group_by_method": group_by_method,
        "window": window,
        "by_method": by_method,
        "by_chat": by_chat,
        "minutes": (end_time - start_time) / 60,
        "calls": len(calls),
        "per_dm": {u.first_name: sum(1 for c in calls if c.chat_id == u.id) for u in users},
        "moved": sum(1 for c in calls if c.chat_id == GROUP and c.method == "deleteMessage"),
    }


def show(r: dict) -> None:
    per_unit = unit(r["game"])
    per = r["group"] / r["units"] if r["units"] else float("inf")
    extra = f" ({r['deals']} deals: the first had no play)" if r["deals"] > 1 else ""
    print(
        f"  {r['what']} (seed {r['seed']}){extra}: {r['presses']} presses, {r['units']} {per_unit}s, "
        f"{r['minutes']:.1f} simulated minutes, {r['calls']} Bot API calls"
    )
    print(f"    by method: {dict(r['by_method'].most_common())}")
    print(f"    by chat:   {dict(r['by_chat'].most_common())}; per player DM: {r['per_dm']}")
    print(f"    table sent anew below a sheet: {r['moved']} (a sendMessage and a deleteMessage each)")
    print(
        f"    group messages: {r['group']} {dict(r['group_by_method'])} = {per:.2f} per {per_unit}   "
        f"goal <= {GOAL_PER_UNIT:g}: {verdict(per <= GOAL_PER_UNIT)}"
    )
    print(
        f"    most group messages in any 60 s: {r['window']}   goal <= {GOAL_PER_MINUTE}: "
        f"{verdict(r['window'] <= GOAL_PER_MINUTE)}"
    )
    per_press = r["calls"] / max(r["presses"], 1)
    print(
        f"    Bot API calls per press: {per_press:.2f}   goal <= {GOAL_CALLS_PER_PRESS:g}: "
        f"{verdict(per_press <= GOAL_CALLS_PER_PRESS)}"
    )


async def run(a: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING)
    pace = tuple(float(x) for x in a.pace.split(","))
    if a.min_interval is not None:
        print(f"EXPERIMENT (not the production sender): group messages >= {a.min_interval:g} s apart")
    header(
        f"message economy: every seat a scripted ({a.players}) player pressing every {pace[0]:g}-{pace[1]:g} s "
        f"(simulated), {a.computers} computer seat(s)"
    )
    totals: dict[str, list[dict]] = collections.defaultdict(list)
    for game in a.games.split(","):
        benchable = [ui.name for ui in playable() if ui.bench_players]
        if game not in benchable:  # a score-only sheet (bench_players 0) has no deals to play
            raise SystemExit(f"{game}: not a game with bench_players; one of {','.join(benchable)}")
        for k in range(a.runs):
            r = await play_one(game, a.seed + k, a.computers, pace, a.min_interval, a.players == "smart")
            totals[game].append(r)
            show(r)
    if a.runs > 1:
        print()
        for game, rs in totals.items():
            units, group = sum(r["units"] for r in rs), sum(r["group"] for r in rs)
            calls, presses = sum(r["calls"] for r in rs), sum(r["presses"] for r in rs)
            print(
                f"  {game}: {len(rs)} runs, {group} group messages / {units} {unit(game)}s = "
                f"{group / max(units, 1):.2f}, worst minute {max(r['window'] for r in rs)}; "
                f"{calls / max(presses, 1):.2f} Bot API calls per press (goal <= {GOAL_CALLS_PER_PRESS:g}: "
                f"{verdict(calls / max(presses, 1) <= GOAL_CALLS_PER_PRESS)})"
            )
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.message_economy", description=__doc__.split("\n")[0])
    p.add_argument(
        "--games",
        default=",".join(ui.name for ui in playable() if ui.bench_players),
        help="comma-separated engine names (default: every game of the registry with bench_players)",
    )
    p.add_argument("--runs", type=int, default=3, help="runs per game (seeds seed, seed+1, ...)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--computers", type=int, default=0, help="computer seats per table")
    p.add_argument("--pace", default="2,5", help="seconds between presses (simulated), min,max")
    p.add_argument(
        "--players",
        choices=["smart", "random"],
        default="smart",
        help="smart: press the button the computer player would choose (random if the DM "
        "does not offer it); random: a random move button",
    )
    p.add_argument(
        "--min-interval",
        type=float,
        default=None,
        help="experiment: seconds between two group messages (production: 3)",
    )
    a = p.parse_args(argv)
    return asyncio.run(run(a))


if __name__ == "__main__":
    raise SystemExit(main())
