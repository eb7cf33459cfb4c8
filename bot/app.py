"""Wiring: the PTB Application, the storage, the service, the sender and the timers.

``Runtime`` owns the background loops. ``cardbot run`` starts them from PTB's
``post_init``; tests call ``startup(background=False)`` and drive ``settle()`` instead,
so every message is sent before the test looks.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
import threading
import time
from typing import Any, Callable

from telegram import BotCommand
from telegram.ext import AIORateLimiter, Application, ApplicationBuilder
from telegram.request import BaseRequest

from bot import command_gate, handlers, ptb_logs
from bot.admins import AdminCache
from bot.command_gate import CommandGate
from bot.game_registry import all_uis
from bot.housekeeping import Housekeeper
from bot.config import Settings
from bot.i18n import LANGUAGES, t
from bot.inbox import Inbox, InboxProcessor
from bot.sender import Sender
from bot.service import TableService
from bot.thinking import Thinker
from storage.factory import repository_for
from storage.repository import StorageError

log = logging.getLogger(__name__)

BASE_COMMANDS = ("newgame", "language", "sheets", "help", "rules", "cancel", "top", "stats", "history", "forget")
TIMER_POLL_SECONDS = 1.0
CONCURRENT_UPDATES = 16
STOP_DEADLINE = 8.0  # seconds a stop may take (systemd and docker kill after 10)
STORAGE_RETRY_S = 1.0  # the database lost: what waits for it tries again this often


class Runtime:
    def __init__(self, app: Application, repo, service: TableService, sender: Sender) -> None:
        self.app, self.repo, self.service, self.sender = app, repo, service, sender
        self.housekeeper = Housekeeper(repo)
        self._tasks: list[asyncio.Task] = []
        self._starting: asyncio.Task | None = None  # startup() while it opens the database
        self._stopping = False

    async def startup(self, background: bool = True) -> None:
        if background:
            self._bound_the_stop()
            self._starting = asyncio.current_task()
        try:
            await self.repo.open()
            await self._set_commands()
        except asyncio.CancelledError:
            if not self._stopping:
                raise
        finally:
            self._starting = None
        if self._stopping:
            # What the caller (bot/polling.py run, PTB's run_webhook) takes for a stop: it
            # shuts the application down (post_shutdown closes the database if it opened)
            # and the command exits with status 0.
            raise SystemExit(0)
        if background:
            # Resuming runs behind the updates: a table is loaded when it is first touched,
            # so a restart with many stored tables answers at once.
            self._tasks = [
                asyncio.create_task(self._resume(), name="resume"),
                asyncio.create_task(self.sender.run_forever(), name="sender"),
                asyncio.create_task(self._timer_loop(), name="timers"),
                asyncio.create_task(self.housekeeper.run_forever(), name="housekeeping"),
            ]
            if self.app.bot_data["inbox"].sweeping:
                self._tasks.append(asyncio.create_task(self.app.bot_data["inbox"].sweep_forever(), name="inbox"))
        else:
            await self.service.timers.resume()

    def _bound_the_stop(self) -> None:
        """SIGTERM / SIGINT stop the bot as PTB would, but within STOP_DEADLINE: with
        Telegram unreachable, PTB's last getUpdates and in-flight requests wait for their
        network timeouts one after another. Exiting then loses nothing: every accepted
        move is committed, and unsent messages wait in the outbox for the next start.

        Bound before the database is opened: PTB's handler (and bot/polling.py's until
        then) raises SystemExit out of the event loop, which left the opening abandoned
        mid-await -- the SQLite thread then failed on the closed loop with a traceback, a
        PostgreSQL connection was left unclosed. A stop during start-up cancels it instead,
        so its own clean-up runs (a migration rolls back, the connection closes)."""
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(signum, self._stop_requested, signum)
            except (NotImplementedError, RuntimeError):  # not the main thread, or Windows
                return

    def _stop_requested(self, signum: int = signal.SIGTERM) -> None:
        def overdue() -> None:
            os.write(2, f"cardbot: not stopped after {STOP_DEADLINE:.0f} s; exiting\n".encode())
            os._exit(1)

        if self._stopping:  # a second signal: the first one's stop is under way, bounded
            return
        self._stopping = True
        self.service.core.thinker.stop()  # the same signal may have killed its workers
        timer = threading.Timer(STOP_DEADLINE, overdue)
        timer.daemon = True
        timer.start()
        if self._starting is not None and not self._starting.done():
            log.info("%s during start-up: stopping", signal.Signals(signum).name)
            self._starting.cancel()  # startup() turns it into SystemExit once cleaned up
        else:
            self.app.stop_running()

    async def _resume(self) -> None:
        while True:
            try:
                await self.service.timers.resume()
                return
            except StorageError:  # the database is lost (logged once): resumed when it is back
                await asyncio.sleep(STORAGE_RETRY_S)
            except Exception:
                log.exception("resuming interrupted tables failed")
                return

    async def shutdown(self) -> None:
        self.service.core.thinker.stop()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        await self.service.computers.stop()
        views = self.app.bot_data.get("deal_views")
        if views is not None:
            await views.close()
        self.service.core.thinker.close()
        await self.repo.close()

    async def _set_commands(self) -> None:
        try:
            for lang in LANGUAGES:
                names = [ui.command for ui in all_uis() if ui.command]
                names += [word for ui in all_uis() for word in ui.table_presets] + list(BASE_COMMANDS)
                if any(ui.score_for for ui in all_uis()):
                    names.append("score")
                names.append("export")
                names.append("mytables")
                commands = [BotCommand(c, t(lang, f"command.{c}")) for c in names]
                await self.app.bot.set_my_commands(commands, language_code=None if lang == "en" else lang)
        except Exception:  # cosmetic; never block start-up on it
            log.warning("could not set the command list", exc_info=True)

    async def _timer_loop(self) -> None:
        while True:
            try:
                await self.service.timers.fire()
            except asyncio.CancelledError:
                raise
            except StorageError:
                pass  # the database is lost (logged once, storage.health): the timers wait for it
            except Exception:
                log.exception("timer loop failed")
            await asyncio.sleep(TIMER_POLL_SECONDS)

    async def settle(self, advance: Callable[[float], None] | None = None, rounds: int = 1000) -> None:
        """Tests: send everything pending; ``advance(seconds)`` moves a fake clock past throttling.
        A worker that does not lead the sending (another one does) has nothing to send."""
        await self.service.computers.idle()  # the computers' answers first: they add outbox rows
        views = self.app.bot_data.get("deal_views")
        if views is not None:  # and the deal analyses asked for (bot.deal_view)
            await views.idle()
        if not await self.repo.try_lead_sender():
            return
        for _ in range(rounds):
            wait = await self.sender.drain()
            if wait is None:
                return
            if advance is None:
                await asyncio.sleep(wait)
            else:
                advance(wait)
        raise RuntimeError("outbox did not settle")


def build_application(
    settings: Settings,
    *,
    repo=None,
    request: BaseRequest | None = None,
    rate_limiter: bool = True,
    rng: random.Random | None = None,
    clock: Callable[[], float] = time.time,
    sender_clock: Callable[[], float] = time.monotonic,
    background: bool = True,
) -> Application:
    # (Any: the rate limiter below changes the builder's type parameters)
    builder: ApplicationBuilder[Any, Any, Any, Any, Any, Any] = ApplicationBuilder().token(settings.token)
    if settings.api_base_url:
        base = settings.api_base_url.rstrip("/")
        builder = builder.base_url(base if base.endswith("/bot") else base + "/bot")
        builder = builder.base_file_url((base[:-4] if base.endswith("/bot") else base) + "/file/bot")
    if request is not None:
        builder = builder.request(request).get_updates_request(request)
    if rate_limiter:
        builder = builder.rate_limiter(AIORateLimiter())
    # Updates of different tables need not wait for each other (a table's own moves are
    # serialised by the service and the database, not by PTB's update order).
    inbox = Inbox()
    builder = builder.concurrent_updates(InboxProcessor(CONCURRENT_UPDATES, inbox))

    async def post_init(app: Application) -> None:
        await app.bot_data["runtime"].startup(background=background)

    async def post_shutdown(app: Application) -> None:
        await app.bot_data["runtime"].shutdown()

    app = builder.post_init(post_init).post_shutdown(post_shutdown).build()
    ptb_logs.install()  # Telegram failures PTB logs as errors: one warning line each
    repo = repo or repository_for(settings.database)
    service = TableService(
        repo, rng=rng, clock=clock, thinker=Thinker(settings.computer_workers), computer_level=settings.computer_level
    )
    sender = Sender(
        app.bot,
        repo,
        states=service.core.states,
        thinking=service.core.thinking,
        chat_lost=service.chat_admin.chat_lost,
        clock=sender_clock,
    )
    service.core.listeners.append(sender.wakeup.set)  # rows this process writes wake its sender
    inbox.attach(app, repo)
    app.bot_data["inbox"] = inbox
    app.bot_data["service"] = service
    app.bot_data["storage"] = repo  # what handlers read that is no table's move (bot.chat_context)
    app.bot_data["admins"] = AdminCache(app.bot, clock=clock)
    app.bot_data["rules_url"] = settings.rules_url
    app.bot_data["runtime"] = Runtime(app, repo, service, sender)
    handlers.install(app)
    command_gate.install(app, CommandGate(clock))
    return app


def install_update_claim(app: Application) -> None:
    """Webhook mode: the handler stores each update in the inbox before answering
    (bot/webhook.py) and drops an update id stored before (Telegram re-sends what it
    thinks was lost, maybe to another worker). Workers share the inbox, so an update left
    unhandled by a worker that died is taken over by another one after a while."""
    from bot.webhook import harden

    harden(app.bot_data["inbox"])
    app.bot_data["inbox"].sweeping = True
