"""Long polling that stores before it acknowledges (``cardbot run``, ``cardbot demo``).

PTB's ``run_polling`` tells Telegram it has a batch (the next getUpdates offset) before
the batch is handled, so a crash in between swallowed it. Here each batch goes into the
inbox (bot/inbox.py) first, then to the application's queue, and only the next
getUpdates acknowledges it. Otherwise ``run`` does what ``run_polling`` did: post_init
and post_shutdown (bot/app.py Runtime), stop signals, deleting a webhook at start, and
one warning line, with no traceback, for each failure of Telegram it waits out.

Telegram unreachable at start (``connect``, also for ``cardbot webhook``): the first call,
getMe, is retried with the same back-off and one warning line a try, until Telegram
answers or the bot is stopped; a token Telegram refuses raises ``InvalidToken`` at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time

from telegram import Update
from telegram.error import Conflict, InvalidToken, NetworkError, RetryAfter, TelegramError
from telegram.ext import Application

from bot.i18n import pick_lang, t
from bot.inbox import Effects, Inbox
from storage.repository import StorageError

log = logging.getLogger(__name__)

LONG_POLL_S = 10  # getUpdates waits this long for an update
BACKOFF_S = (1.0, 2.0, 5.0, 10.0, 30.0)  # after each failure of Telegram in a row
# the database lost: storing is tried again this often, so what waits for it is answered
# within a second or two of its return
STORAGE_RETRY_S = 1.0
REFUSED_MEMORY = 10_000


def run(app: Application) -> None:
    """Run the application until SIGINT/SIGTERM (or ``app.stop_running()``)."""
    loop = stoppable_loop()

    def stop_loop(_: asyncio.Task) -> None:
        loop.stop()

    poller: asyncio.Task | None = None
    try:
        loop.run_until_complete(connect(app))
        if app.post_init:
            loop.run_until_complete(app.post_init(app))
        loop.run_until_complete(app.start())
        poller = loop.create_task(poll(app, app.bot_data["inbox"]), name="polling")
        poller.add_done_callback(stop_loop)
        loop.run_forever()  # until app.stop_running() stops the loop, or the poller ends
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        try:
            if poller is not None:
                poller.remove_done_callback(stop_loop)
                poller.cancel()
                loop.run_until_complete(asyncio.gather(poller, return_exceptions=True))
                if not poller.cancelled() and poller.exception() is not None:
                    raise poller.exception()  # type: ignore[misc]
        finally:
            try:
                if app.running:
                    loop.run_until_complete(app.stop())
                    if app.post_stop:
                        loop.run_until_complete(app.post_stop(app))
                loop.run_until_complete(app.shutdown())
                if app.post_shutdown:
                    loop.run_until_complete(app.post_shutdown(app))
            finally:
                loop.close()


def stoppable_loop() -> asyncio.AbstractEventLoop:
    """A new event loop, current in this thread, that SIGINT, SIGTERM and SIGABRT stop by
    raising SystemExit in it (the Runtime's post_init binds SIGINT and SIGTERM anew)."""
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)

    def exit_now() -> None:
        raise SystemExit

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGABRT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, exit_now)
    return loop


async def connect(app: Application) -> None:
    """``app.initialize()``, which asks Telegram who the bot is (getMe), retried while
    Telegram cannot be reached or fails (one warning line a try, then the back-off), until
    it answers. ``InvalidToken``, Telegram's refusal of the token, is raised at once."""
    failures = Failures()
    while True:
        try:
            await app.initialize()
            return
        except InvalidToken:
            raise
        except (TelegramError, ValueError) as error:  # no connection, a timeout, a 5xx page
            await failures.wait(error, "connecting to Telegram (getMe)")


async def set_webhook(app: Application, url: str, secret: str | None) -> None:
    """Tell Telegram where to send the updates (setWebhook), retried like ``connect``: one
    warning line a try, then the back-off, until it answers. Without it a Telegram that
    answered getMe and then failed once ended the worker (PTB's own retries log nothing)."""
    failures = Failures()
    while True:
        try:
            await app.bot.set_webhook(url=url, secret_token=secret, allowed_updates=Update.ALL_TYPES)
            return
        except InvalidToken:
            raise
        except (TelegramError, ValueError) as error:
            await failures.wait(error, "setting the webhook (setWebhook)")


async def poll(app: Application, inbox: Inbox) -> None:
    """Delete a webhook, hand over what an earlier process stored and did not handle, then
    poll: each batch is stored, then queued; the next call's offset acknowledges it."""
    failures = Failures()
    started = time.time()  # updates stored from now on are this process's own
    while True:
        try:
            await app.bot.delete_webhook(drop_pending_updates=False)
            break
        except InvalidToken:
            raise
        except (NetworkError, RetryAfter) as error:
            await failures.wait(error, "starting to poll")
    taken_over = False  # what an earlier process stored and did not handle: handed over once
    offset: int | None = None
    refused: set[int] = set()  # presses told "not saved" while the database was lost
    while True:
        if not taken_over:
            taken_over = await take_over(inbox, started)
        try:
            updates = await app.bot.get_updates(offset=offset, timeout=LONG_POLL_S, allowed_updates=Update.ALL_TYPES)
        except InvalidToken:
            raise
        except (TelegramError, ValueError) as error:  # a 502 page is a TelegramError too
            await failures.wait(error, "getUpdates")
            continue
        if not updates:
            failures.reset()
            continue
        try:
            fresh = await inbox.store([u.to_dict() for u in updates])
        except StorageError:  # the database is lost (logged once): not acknowledged, read again
            await refuse_presses(app, updates, refused)
            await asyncio.sleep(STORAGE_RETRY_S)
            continue
        except Exception as error:  # not stored: not acknowledged either, so read again
            await failures.wait(error, "storing updates")
            continue
        failures.reset()
        told = [u for u in fresh if u["update_id"] in refused]
        await inbox.hand_over([u for u in fresh if u["update_id"] not in refused])
        for data in told:  # answered "not saved": the person presses again, this one is done
            await inbox.finish(Update.de_json(data, app.bot), Effects())
            refused.discard(data["update_id"])
        offset = max(u.update_id for u in updates) + 1
        if len(refused) > REFUSED_MEMORY:
            refused.clear()


async def take_over(inbox: Inbox, started: float) -> bool:
    """One poller per bot: whatever was stored before it started and is unhandled was an
    earlier process's. False while the database is lost (tried again after the next poll)."""
    try:
        await inbox.take_over(started)
        return True
    except StorageError:  # logged once an outage (storage.health)
        return False
    except Exception as error:
        log.warning("taking over stored updates failed (%s); trying again", error)
        return False


async def refuse_presses(app: Application, updates: list[Update], refused: set[int]) -> None:
    """The database is lost: each button press in the batch hears so at once, as a toast
    (a press waits for no outage: Telegram drops its answer after 15 s). Commands wait,
    unacknowledged, and are answered when the database is back."""
    for update in updates:
        query = update.callback_query
        if query is None or update.update_id in refused:
            continue
        refused.add(update.update_id)
        try:
            await query.answer(t(pick_lang(query.from_user.language_code), "err.not_saved"), show_alert=True)
        except TelegramError as error:
            log.warning("could not answer a press of user %s: %s", query.from_user.id, error)


class Failures:
    """Backoff after failures in a row, with one warning line for each."""

    def __init__(self) -> None:
        self.count = 0

    def reset(self) -> None:
        self.count = 0

    async def wait(self, error: BaseException, doing: str) -> None:
        if isinstance(error, RetryAfter):
            after = error.retry_after
            delay = float(after.total_seconds() if hasattr(after, "total_seconds") else after)
        else:
            delay = BACKOFF_S[min(self.count, len(BACKOFF_S) - 1)]
        self.count += 1
        if isinstance(error, Conflict):
            what = "another process is polling for this bot (or a webhook is set)"
        else:
            what = f"{type(error).__name__}: {error}"
        log.warning("%s failed (%s); retrying in %g s", doing, " ".join(what.split())[:300], delay)
        await asyncio.sleep(delay)
