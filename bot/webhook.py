"""Hardening of PTB's webhook endpoint (python-telegram-bot 22; the route's handler class
is looked up by name when ``run_webhook`` builds its tornado application):

* a body over ``BODY_LIMIT`` is refused with 413 before it is read (Telegram's updates
  are a few kilobytes; without a cap tornado reads up to 100 MB);
* a body that is not a JSON object gets 400 (PTB answered malformed JSON with 500);
* an update is stored in the inbox (bot/inbox.py) before it is answered with 200, so a
  crash after the answer cannot lose it; one stored before (Telegram re-sending it, maybe
  to another worker) is answered and dropped; one that cannot be stored gets 500, and
  Telegram sends it again later.

The secret token is still checked by PTB first, for every request that is read.
"""

from __future__ import annotations

import asyncio
import json
import logging
from http import HTTPStatus
from typing import Any, cast

import tornado.web
from tornado.http1connection import HTTP1Connection
from telegram import Update
from telegram.error import TelegramError
from telegram.ext import ExtBot
from telegram.ext._utils import webhookhandler

from bot.i18n import pick_lang, t
from storage.repository import StorageError

log = logging.getLogger(__name__)

BODY_LIMIT = 256 * 1024
STORE_RETRY_S = 1.0  # the database lost: an update's store is tried again this often...
STORE_PATIENCE_S = 20.0  # ...this long, then Telegram gets a 500 and sends it again later


@tornado.web.stream_request_body
class LimitedTelegramHandler(webhookhandler.TelegramHandler):
    inbox: Any = None  # set by harden()

    def prepare(self) -> None:
        self._chunks: list[bytes] = []
        length = self.request.headers.get("Content-Length", "")
        if length and (not (length.isascii() and length.isdigit()) or int(length) > BODY_LIMIT):
            raise tornado.web.HTTPError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
        # a chunked body has no length to check up front: tornado drops it past the limit
        # tornado's HTTP/1 server hands every request an HTTP1Connection, which has the limit
        connection = cast(HTTP1Connection, self.request.connection)
        connection.set_max_body_size(BODY_LIMIT)

    def data_received(self, chunk: bytes) -> None:
        self._chunks.append(chunk)

    async def post(self) -> None:
        self.request.body = b"".join(self._chunks)
        self._validate_post()  # content type and secret token first
        try:
            data = json.loads(self.request.body.decode("utf-8"))
        except (UnicodeError, ValueError, RecursionError):
            data = None
        if not isinstance(data, dict) or type(data.get("update_id")) is not int:
            raise tornado.web.HTTPError(HTTPStatus.BAD_REQUEST, reason="Malformed update")
        try:
            update = Update.de_json(data, self.bot)
        except Exception:
            raise tornado.web.HTTPError(HTTPStatus.BAD_REQUEST, reason="Malformed update") from None
        try:
            fresh = await self._store(data, update)
        except StorageError:  # the outage is logged once (storage.health)
            raise tornado.web.HTTPError(HTTPStatus.INTERNAL_SERVER_ERROR) from None
        except Exception as error:
            log.warning("could not store update %s (Telegram sends it again): %s", data["update_id"], error)
            raise tornado.web.HTTPError(HTTPStatus.INTERNAL_SERVER_ERROR) from None
        if fresh is None:  # a press during an outage, told so: not for later
            self.set_status(HTTPStatus.OK)
            return
        self.set_status(HTTPStatus.OK)
        if fresh:
            if isinstance(self.bot, ExtBot):  # as PTB's handler does (arbitrary callback data)
                self.bot.insert_callback_data(update)
            await self.update_queue.put(update)

    async def _store(self, data: dict, update: Update) -> list[dict] | None:
        """Store the update; with the database lost, a press hears "not saved" at once
        (None: nothing stored, nothing to do) and anything else is held here, tried again
        every second, for ``STORE_PATIENCE_S`` (answered within a second of the database's
        return) before Telegram is left to send it again."""
        waited = 0.0
        while True:
            try:
                return await self.inbox.store([data])
            except StorageError:
                if update.callback_query is not None:
                    query = update.callback_query
                    try:
                        await query.answer(
                            t(pick_lang(query.from_user.language_code), "err.not_saved"), show_alert=True
                        )
                    except TelegramError as error:
                        log.warning("could not answer a press of user %s: %s", query.from_user.id, error)
                    return None
                if waited >= STORE_PATIENCE_S:
                    raise
            await asyncio.sleep(STORE_RETRY_S)
            waited += STORE_RETRY_S


def harden(inbox: Any) -> None:
    """Make ``Application.run_webhook`` serve through ``LimitedTelegramHandler``, storing
    each update in ``inbox`` before it answers."""
    LimitedTelegramHandler.inbox = inbox
    # replacing the class by name is the point: run_webhook looks it up when it starts
    webhookhandler.TelegramHandler = LimitedTelegramHandler  # type: ignore[misc]
