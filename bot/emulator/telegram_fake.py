"""In-process Telegram Bot API emulator (formerly tests/fakebot.py) for the *real* PTB ``Application``.

The bot talks to :class:`FakeTelegram` through :class:`FakeRequest` (a PTB ``BaseRequest``),
so every ``bot.send_message`` / ``query.answer`` / ``edit_message_text`` goes through PTB's real
serialisation and error mapping (400 -> ``BadRequest``, 403 -> ``Forbidden`` ...).
Tests inject updates as users would produce them and inspect what each user could see.

Recommended pattern::

    async def test_game(fake_telegram):
        fake = fake_telegram
        app = build_app(fake).build()          # or pass the builder to the bot's own factory
        register_handlers(app)
        alice, bob = fake.user(1, "Alice"), fake.user(2, "Bob", language_code="en")
        fake.group(-1001, "Table", admins=[1], supergroup=True)
        async with app:                         # initialize() (calls getMe) ... shutdown()
            await app.start()                   # needed for block=False handlers and job_queue
            await fake.send(app, alice, -1001, "/newgame")
            answer = await fake.press(app, bob, fake.last_message(-1001), "Join")
            assert fake.last_message(-1001).text.startswith("...")
            await app.stop()

``async with app`` does NOT run ``post_init``/``post_shutdown`` (only run_polling does): call
``await app.post_init(app)`` yourself if the bot relies on it. Prefer no AIORateLimiter in tests
(its 20 msg/min per-group limit really sleeps); assert rates with group_sends_and_edits().

Notes: texts stored/returned are what the user sees (HTML parsed away); ``raw_text`` keeps the
markup. Unhandled handler exceptions (PTB only logs them when no error handler is registered)
are re-raised from send()/press() unless ``FakeTelegram(raise_handler_errors=False)``.
"""

from __future__ import annotations

import asyncio
import collections
import io
import itertools
import json
import logging
import mimetypes
import re
import time
from http import HTTPStatus
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from telegram import Update
from telegram.error import TimedOut
from telegram.ext import ApplicationBuilder
from telegram.request import BaseRequest, RequestData

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply "
    "markup are exactly the same as a current content and reply markup of the message"
)
QUERY_INVALID = "Bad Request: query is too old and response timeout expired or query ID is invalid"
# Where an unhandled handler exception is logged with its traceback: PTB's own logger
# (no error handler) and the bot's error handler (bot.handlers.on_error)
CAPTURED_LOGGERS = ("telegram.ext.Application", "bot.handlers")
SEND_METHODS = {
    "sendMessage",
    "editMessageText",
    "editMessageReplyMarkup",
    "editMessageCaption",
    "editMessageMedia",
    "sendDocument",
    "sendPhoto",
    "sendMediaGroup",
}
# Calls that write to a chat, and so must wait out a retry_after Telegram gave that chat
# (reads such as getChatMember are not held to it)
PACED_METHODS = SEND_METHODS | {"deleteMessage", "deleteMessages", "pinChatMessage", "unpinChatMessage"}
PHOTO_LIMIT = 10 * 1024 * 1024  # Telegram takes photos up to 10 MB
PHOTO_THUMBS = (90, 320, 800)  # the smaller sizes Telegram makes of a photo (longest side)


class NetworkFault(Exception):
    """Raised inside FakeTelegram for an injected network failure: FakeRequest turns it
    into PTB's ``TimedOut``, as when Telegram does not answer in time."""

    def __init__(self, delivered: bool):
        super().__init__("timed out" + (" after the call was carried out" if delivered else ""))
        self.delivered = delivered


class RawAnswer(Exception):
    """Raised out of ``FakeTelegram.handle`` for an injected answer that is not the Bot
    API's JSON (a proxy's HTML error page): FakeRequest and HttpBotApi answer ``body``
    with ``status`` as they are."""

    def __init__(self, status: int, body: bytes):
        super().__init__(f"{status} {body[:60]!r}")
        self.status, self.body = status, body


class APIError(Exception):
    """Raised inside FakeTelegram; turned into a Bot API error response by FakeRequest."""

    def __init__(self, code: int, description: str, parameters: dict | None = None):
        super().__init__(description)
        self.code, self.description, self.parameters = code, description, parameters


def _bad(description: str) -> APIError:
    return APIError(400, f"Bad Request: {description}")


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


# ----------------------------------------------------------------------------- text rendering
_HTML_TAGS = {
    "b",
    "strong",
    "i",
    "em",
    "u",
    "ins",
    "s",
    "strike",
    "del",
    "span",
    "tg-spoiler",
    "a",
    "code",
    "pre",
    "blockquote",
    "tg-emoji",
}
_TAG_RE = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)(\s[^<>]*)?>")
_MDV2_LINK = re.compile(r"(?<!\\)\[((?:[^\]\\]|\\.)*)\]\((?:[^)\\]|\\.)*\)")


def render(text: str, parse_mode: str | None) -> str:
    """What the user sees for ``text`` under ``parse_mode``; raises 400 like Telegram on bad markup."""
    mode = (parse_mode or "").lower()
    if mode == "html":
        return _render_html(text)
    if mode == "markdownv2":
        return _render_mdv2(text)
    return text


def _render_html(text: str) -> str:
    def err(msg: str) -> APIError:
        return _bad(f"can't parse entities: {msg}")

    out: list[str] = []
    stack: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == ">":  # tolerated by Telegram
            out.append(">")
            i += 1
            continue
        if text[i] != "<":
            j = min([k for k in (text.find("<", i), text.find(">", i)) if k != -1] or [len(text)])
            out.append(text[i:j])
            i = j
            continue
        offset = len(text[:i].encode())
        m = _TAG_RE.match(text, i)
        if not m:
            raise err(f'Unsupported start tag "" at byte offset {offset}')
        closing, name = m.group(1) == "/", m.group(2).lower()
        if name not in _HTML_TAGS:
            raise err(f'Unsupported start tag "{name}" at byte offset {offset}')
        attrs = m.group(3) or ""
        if not closing and name == "a" and "href=" not in attrs:
            raise err(f'Tag "a" must have attribute "href" at byte offset {offset}')
        if not closing and name == "span" and "tg-spoiler" not in attrs:
            raise err(f'Tag "span" must have class "tg-spoiler" at byte offset {offset}')
        if closing and attrs.strip():
            raise err(f"Unmatched end tag at byte offset {offset}")
        if closing:
            if not stack or stack[-1] != name:
                expected = f'"</{stack[-1]}>"' if stack else "nothing"
                raise err(f'Unmatched end tag at byte offset {offset}, expected {expected}, found "</{name}>"')
            stack.pop()
        else:
            stack.append(name)
        i = m.end()
    if stack:
        raise err(f'Can\'t find end tag corresponding to start tag "{stack[-1]}"')
    return _decode_entities("".join(out), err)


_ENTITY = re.compile(r"&(#\d+|#x[0-9a-fA-F]+|[a-zA-Z0-9]+);")
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}


def _decode_entities(text: str, err) -> str:
    """Telegram knows four named entities and numeric ones. Stricter than Telegram, a
    bare "&" is refused too: it means a text from people went out unescaped."""

    def one(match: re.Match) -> str:
        name = match.group(1)
        if name.startswith("#"):
            number = int(name[2:], 16) if name[1] in "xX" else int(name[1:])
            if not 0 < number < 0x110000:
                raise err(f'Unsupported HTML entity "&{name};"')
            return chr(number)
        if name not in _NAMED:
            raise err(f'Unsupported HTML entity "&{name};"')
        return _NAMED[name]

    for bare in re.finditer("&", text):
        if not _ENTITY.match(text, bare.start()):
            raise err(f"Character '&' at byte offset {len(text[: bare.start()].encode())} must be escaped as &amp;")
    return _ENTITY.sub(one, text)


def _render_mdv2(text: str) -> str:
    text = _MDV2_LINK.sub(lambda m: m.group(1), text)
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
            continue
        if c in "#+-={}.!()[]" or (c == ">" and i and text[i - 1] != "\n"):
            raise _bad(f"can't parse entities: Character '{c}' is reserved and must be escaped with the preceding '\\'")
        if c not in "*_~|`>":
            out.append(c)
        i += 1
    return "".join(out)


def _normalize_markup(markup: dict | None) -> dict | None:
    """Validate an inline keyboard like Telegram does; an empty keyboard means no keyboard."""
    if not markup:
        return None
    if "inline_keyboard" not in markup:
        return markup  # reply keyboards / ReplyKeyboardRemove / ForceReply: stored as-is
    rows = markup["inline_keyboard"]
    if sum(len(r) for r in rows) > 100:
        raise _bad("reply markup is too long")
    for row in rows:
        for button in row:
            if not button.get("text"):
                raise _bad("BUTTON_TEXT_EMPTY")
            if len(button) < 2:
                raise _bad("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard")
            data = button.get("callback_data")
            if data is not None and not 1 <= len(data.encode()) <= 64:
                raise _bad("BUTTON_DATA_INVALID")
    return markup if any(rows) else None


# ----------------------------------------------------------------------------- model
@dataclass
class FakeUser:
    id: int
    first_name: str
    language_code: str | None = "ru"
    username: str | None = None
    last_name: str | None = None

    def to_api(self) -> dict:
        d = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        for key in ("last_name", "username", "language_code"):
            if getattr(self, key):
                d[key] = getattr(self, key)
        return d


@dataclass
class FakeChat:
    id: int
    type: str  # private | group | supergroup
    title: str | None = None
    user: FakeUser | None = None  # private chats only
    is_forum: bool = False
    admins: list[int] = field(default_factory=list)  # admins[0] is the creator
    members: set[int] = field(default_factory=set)
    left: set[int] = field(default_factory=set)
    topics: set[int] = field(default_factory=set)
    bot_admin: bool = False
    bot_kicked: bool = False
    migrated_to: int | None = None

    def to_api(self) -> dict:
        d: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.type == "private":
            assert self.user is not None, "a private chat has its user"
            d.update({k: v for k, v in self.user.to_api().items() if k in ("first_name", "last_name", "username")})
        else:
            d["title"] = self.title
            if self.is_forum:
                d["is_forum"] = True
        return d


@dataclass
class StoredFile:
    """A file the bot uploaded: kept by its file id, served by getFile and the file URL."""

    file_id: str
    unique_id: str
    content: bytes
    path: str  # getFile's file_path: the file URL is <base_file_url><token>/<path>
    mime_type: str
    file_name: str | None = None

    def api(self) -> dict:
        return {"file_id": self.file_id, "file_unique_id": self.unique_id, "file_size": len(self.content)}


@dataclass
class Media:
    """What a photo or document message shows besides its caption."""

    kind: str  # photo | document
    file: StoredFile  # the document, or the photo's largest size (as uploaded)
    sizes: list[dict] = field(default_factory=list)  # a photo's PhotoSize dicts, smallest first

    def api(self) -> dict:
        if self.kind == "photo":
            return {"photo": self.sizes}
        document = {**self.file.api(), "mime_type": self.file.mime_type}
        if self.file.file_name:
            document["file_name"] = self.file.file_name
        return {"document": document}


@dataclass
class MessageVersion:
    text: str  # rendered (what the user sees); a media message's caption
    raw_text: str
    parse_mode: str | None
    reply_markup: dict | None
    media: Media | None = None


@dataclass
class FakeMessage:
    chat: FakeChat
    message_id: int
    sender: dict  # API "from" dict
    history: list[MessageVersion]  # history[0] = as sent, history[-1] = current
    thread_id: int | None = None
    date: int = field(default_factory=lambda: int(time.time()))
    deleted: bool = False
    entities: list[dict] | None = None
    extra: dict = field(default_factory=dict)  # extra API fields (service messages, replies)

    chat_id = property(lambda self: self.chat.id)
    text = property(lambda self: self.history[-1].text)
    raw_text = property(lambda self: self.history[-1].raw_text)
    parse_mode = property(lambda self: self.history[-1].parse_mode)
    reply_markup = property(lambda self: self.history[-1].reply_markup)
    from_bot = property(lambda self: self.sender["is_bot"])
    edited = property(lambda self: len(self.history) > 1)
    media = property(lambda self: self.history[-1].media)

    @property
    def photo(self) -> bytes | None:
        """A photo message's image as uploaded (its largest size); None for other messages."""
        media = self.media
        return media.file.content if media and media.kind == "photo" else None

    @property
    def document(self) -> dict | None:
        """A document message's file: {file_name, content, file_id, mime_type}; else None."""
        media = self.media
        if media is None or media.kind != "document":
            return None
        file = media.file
        return {
            "file_name": file.file_name,
            "content": file.content,
            "file_id": file.file_id,
            "mime_type": file.mime_type,
        }

    @property
    def keyboard(self) -> list[list[dict]]:
        """Inline keyboard rows (list of rows of button dicts); [] when there is none."""
        return (self.reply_markup or {}).get("inline_keyboard", [])

    def to_api(self) -> dict:
        d = {
            "message_id": self.message_id,
            "date": self.date,
            "chat": self.chat.to_api(),
            "from": self.sender,
            **self.extra,
        }
        if self.media is not None:
            d.update(self.media.api())
            if self.text:
                d["caption"] = self.text
        elif self.history[-1].raw_text or not self.extra:
            d["text"] = self.text
        if self.entities:
            d["entities"] = self.entities
        if self.reply_markup:
            d["reply_markup"] = self.reply_markup
        if self.thread_id is not None:
            d["message_thread_id"] = self.thread_id
            if self.chat.is_forum:
                d["is_topic_message"] = True
        if self.edited:
            d["edit_date"] = int(time.time())
        return d

    def __repr__(self) -> str:
        return f"<FakeMessage {self.chat.id}/{self.message_id} {self.text[:60]!r}>"


@dataclass
class Call:
    t: float  # FakeTelegram.clock() when the API call arrived
    method: str
    params: dict
    chat_id: int | str | None
    ok: bool = True
    error: str | None = None

    @property
    def message_id(self) -> int | None:
        return self.params.get("message_id")


@dataclass
class CallbackAnswer:
    query_id: str
    user_id: int
    text: str | None
    show_alert: bool
    url: str | None = None


# ----------------------------------------------------------------------------- the fake server
class FakeTelegram:
    """State of a fake Telegram server plus helpers to inject updates and inspect results."""

    def __init__(
        self,
        bot_id: int = 123,
        bot_username: str = "CardTestBot",
        *,
        privacy_mode: bool = True,
        raise_handler_errors: bool = True,
        clock: Callable[[], float] = time.monotonic,
        group_flood_limit: int | None = None,
    ):
        self.bot_id, self.bot_username = bot_id, bot_username
        self.privacy_mode, self.raise_handler_errors, self.clock = (privacy_mode, raise_handler_errors, clock)
        self.bot_user = {"id": bot_id, "is_bot": True, "first_name": bot_username, "username": bot_username}
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.msgs: dict[int, dict[int, FakeMessage]] = {}
        self.started: set[int] = set()
        self.blocked: set[int] = set()
        self.log: list[Call] = []
        self.answers: dict[str, CallbackAnswer] = {}
        self.queries: dict[str, int] = {}  # open callback query id -> user id
        self.commands: dict[tuple[str, str], list] = {}
        self.menu_buttons: dict[int | None, dict] = {}
        self.webhook: dict = {}  # the last setWebhook parameters ({} = polling)
        self.undelivered: list[FakeMessage] = []  # group texts hidden by privacy mode
        self.files: dict[str, StoredFile] = {}  # what the bot uploaded, by file id
        self._photo_sizes: dict[str, list[dict]] = {}  # a photo's file id -> all its sizes
        self.handler_errors: list[BaseException] = []
        self._raised = 0
        self._failures: list[dict] = []
        self._ids = itertools.count(1)
        self._capture: logging.Handler | None = None
        # Telegram's flood limit in a group: about 20 sends and edits a minute, then 429 with
        # retry_after. None (the tests' default) leaves pacing to tests that assert it.
        self.group_flood_limit = group_flood_limit
        self._group_calls: dict[int, collections.deque[float]] = collections.defaultdict(collections.deque)
        # Tracking only (behaviour unchanged): when each chat may be written to again after
        # the retry_after it was last given, the writes that came sooner (each with the time
        # it should have waited for), and the id of every callback query made.
        self.rest_until: dict[int, float] = {}
        self.flood_violations: list[tuple[Call, float]] = []
        self.query_ids: dict[str, str] = {}  # callback query id -> the data pressed
        # Called with (event, message) on every "sent", "edited" and "deleted" message and
        # with ("answer", CallbackAnswer): the demo page's live feed listens here.
        self.listeners: list[Callable[[str, Any], None]] = []

    # ---------------------------------------------------------------- setup
    def user(
        self, user_id: int, first_name: str, language_code: str | None = "ru", username: str | None = None
    ) -> FakeUser:
        """Register a user (and their, not yet started, private chat with the bot)."""
        u = FakeUser(user_id, first_name, language_code, username)
        self.users[user_id] = u
        self.chats[user_id] = FakeChat(user_id, "private", user=u)
        return u

    def group(
        self,
        chat_id: int,
        title: str,
        admins: Sequence[int] = (),
        forum: bool = False,
        supergroup: bool = False,
        bot_admin: bool = False,
        members: Sequence[int] = (),
    ) -> FakeChat:
        """Register a group; ``forum=True`` implies a supergroup. admins[0] is the creator."""
        chat = FakeChat(
            chat_id,
            "supergroup" if (forum or supergroup) else "group",
            title,
            is_forum=forum,
            admins=list(admins),
            members=set(admins) | set(members),
            bot_admin=bot_admin,
        )
        self.chats[chat_id] = chat
        return chat

    def start_dm(self, user: FakeUser | int) -> None:
        """Mark the user's private chat as open (as if they pressed Start), without an update."""
        self.started.add(user.id if isinstance(user, FakeUser) else user)

    def block(self, user: FakeUser | int) -> None:
        """The user blocks the bot: further sends give 403 'bot was blocked by the user'."""
        self.blocked.add(user.id if isinstance(user, FakeUser) else user)

    def kick_bot(self, chat_id: int) -> None:
        self.chats[chat_id].bot_kicked = True

    async def remove_bot(self, app, chat_id: int, by: FakeUser) -> None:
        """``by`` removes the bot from the group: Telegram's my_chat_member update."""
        self.kick_bot(chat_id)
        change = {
            "chat": self.chats[chat_id].to_api(),
            "from": by.to_api(),
            "date": 0,
            "old_chat_member": {"status": "member", "user": self.bot_user},
            "new_chat_member": {"status": "kicked", "user": self.bot_user, "until_date": 0},
        }
        await self.feed(app, self._next_update(my_chat_member=change))

    def fail_next(
        self,
        method: str,
        description: str | None = None,
        error_code: int = 400,
        *,
        chat_id: int | None = None,
        retry_after: int | None = None,
        times: int = 1,
        timeout: bool = False,
        delivered: bool = False,
        body: bytes | None = None,
        matching: Callable[[dict], bool] | None = None,
    ) -> None:
        """Make the next ``times`` calls of ``method`` (optionally to ``chat_id``) fail.
        ``retry_after`` produces a 429 that PTB raises as ``RetryAfter``; ``error_code``
        500 or 502 a server error (PTB: ``NetworkError``), 413 or another 4xx but 400, 401,
        403, 404 and 409 a ``NetworkError`` too; ``timeout`` no answer at all (PTB:
        ``TimedOut``), after Telegram carried the call out when ``delivered``; ``body`` that
        raw answer with ``error_code`` instead of JSON, as a proxy's HTML 502 page. The
        description starts with the code's reason, as Telegram's do ("Bad Request: ...").
        ``matching(params)`` limits the failures to the calls it accepts (one post's text)."""
        params = None
        if description is None:
            description = f"{HTTPStatus(error_code).phrase}: injected failure"
        if retry_after is not None:
            error_code, params = 429, {"retry_after": retry_after}
            description = f"Too Many Requests: retry after {retry_after}"
        error: Exception = APIError(error_code, description, params)
        if timeout:
            error = NetworkFault(delivered)
        elif body is not None:
            error = RawAnswer(error_code, body)
        self._failures.append(
            {"method": method, "chat_id": chat_id, "times": times, "error": error, "matching": matching}
        )

    def delete_by_user(self, chat_id: int, message_id: int) -> None:
        """A person deletes a bot message (their hand in the DM, or an admin the group's
        table message). Telegram tells the bot nothing: its next edit finds no message."""
        self.msgs[chat_id][message_id].deleted = True
        self.notify("deleted", self.msgs[chat_id][message_id])

    # ---------------------------------------------------------------- API dispatch
    def handle(self, method: str, params: dict) -> tuple[int, dict]:
        """Serve one Bot API call; returns (http status, response JSON dict), or raises
        ``RawAnswer`` for an injected answer that is not JSON."""
        chat_id = params.get("chat_id")
        if isinstance(chat_id, str) and chat_id.lstrip("-").isdigit():
            chat_id = params["chat_id"] = int(chat_id)
        call = Call(self.clock(), method, params, chat_id)
        self.log.append(call)
        if method in PACED_METHODS and isinstance(chat_id, int) and call.t < self.rest_until.get(chat_id, call.t):
            self.flood_violations.append((call, self.rest_until[chat_id]))
        try:
            for failure in self._failures:
                if (
                    failure["method"] == method
                    and failure["chat_id"] in (None, chat_id)
                    and (failure["matching"] is None or failure["matching"](params))
                ):
                    failure["times"] -= 1
                    if failure["times"] <= 0:
                        self._failures.remove(failure)
                    error = failure["error"]
                    if isinstance(error, (NetworkFault, RawAnswer)):
                        call.ok, call.error = False, str(error)
                        if isinstance(error, NetworkFault) and error.delivered:
                            getattr(self, f"_api_{method}", lambda p: True)(params)
                    raise error
            self._check_flood(method, chat_id)
            handler = getattr(self, f"_api_{method}", None)
            result = handler(params) if handler else True
            return 200, {"ok": True, "result": result}
        except APIError as e:
            call.ok, call.error = False, e.description
            retry_after = (e.parameters or {}).get("retry_after")
            if retry_after is not None and isinstance(chat_id, int):
                self.rest_until[chat_id] = call.t + retry_after
            body = {"ok": False, "error_code": e.code, "description": e.description}
            if e.parameters:
                body["parameters"] = e.parameters
            return e.code, body

    def _check_flood(self, method: str, chat_id: Any) -> None:
        """429 once a group had ``group_flood_limit`` sends and edits in the last minute."""
        chat = self.chats.get(chat_id) if isinstance(chat_id, int) else None
        if self.group_flood_limit is None or method not in SEND_METHODS or chat is None or chat.type == "private":
            return
        now, window = self.clock(), self._group_calls[chat.id]
        while window and window[0] <= now - 60:
            window.popleft()
        if len(window) >= self.group_flood_limit:
            retry_after = max(1, int(window[0] + 60 - now) + 1)
            raise APIError(429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after})
        window.append(now)

    def notify(self, event: str, subject: Any) -> None:
        for listener in list(self.listeners):
            listener(event, subject)

    def _chat(self, chat_id: Any, write: bool = True) -> FakeChat:
        chat = self.chats.get(chat_id) if isinstance(chat_id, int) else None
        if chat is None:
            raise _bad("chat not found")
        if not write:
            return chat
        if chat.migrated_to is not None:
            raise APIError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": chat.migrated_to},
            )
        if chat.bot_kicked:
            raise APIError(403, f"Forbidden: bot was kicked from the {chat.type} chat")
        if chat.type == "private":
            if chat.id in self.blocked:
                raise APIError(403, "Forbidden: bot was blocked by the user")
            if chat.id not in self.started:
                raise APIError(403, "Forbidden: bot can't initiate conversation with a user")
        return chat

    def _msg(self, chat: FakeChat, message_id: Any, missing: str) -> FakeMessage:
        msg = self.msgs.get(chat.id, {}).get(message_id)
        if msg is None or msg.deleted:
            raise _bad(missing)
        return msg

    def _add_message(
        self, chat: FakeChat, sender: dict, version: MessageVersion, thread_id: int | None = None, **kw: Any
    ) -> FakeMessage:
        box = self.msgs.setdefault(chat.id, {})
        msg = FakeMessage(chat, len(box) + 1, sender, [version], thread_id, **kw)
        box[msg.message_id] = msg
        self.notify("sent", msg)
        return msg

    def _version(self, p: dict, markup: dict | None) -> MessageVersion:
        raw = p.get("text") or ""
        shown = render(raw, p.get("parse_mode"))
        if not shown.strip():
            raise _bad("message text is empty")
        if _utf16_len(shown) > 4096:
            raise _bad("message is too long")
        return MessageVersion(shown, raw, p.get("parse_mode"), _normalize_markup(markup))

    def _api_getMe(self, p: dict) -> dict:
        return {
            **self.bot_user,
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": False,
        }

    def _api_sendMessage(self, p: dict) -> dict:
        chat = self._chat(p.get("chat_id"))
        thread = p.get("message_thread_id")
        if thread is not None and not (chat.is_forum and thread in chat.topics):
            raise _bad("message thread not found")
        version = self._version(p, p.get("reply_markup"))
        extra = {}
        reply = p.get("reply_parameters")
        if reply:
            target = self.msgs.get(chat.id, {}).get(reply.get("message_id"))
            if target and not target.deleted:
                extra["reply_to_message"] = target.to_api()
            elif not reply.get("allow_sending_without_reply"):
                raise _bad("message to be replied not found")
        return self._add_message(chat, self.bot_user, version, thread, extra=extra).to_api()

    # ---------------------------------------------------------------- files and media
    def _store(self, content: bytes, kind: str, mime_type: str, file_name: str | None = None) -> StoredFile:
        n = next(self._ids)
        ext = mimetypes.guess_extension(mime_type) or ".bin"
        folder = {"photo": "photos", "thumb": "thumbnails"}.get(kind, "documents")
        file = StoredFile(f"{kind}-{n}", f"u{n}", content, f"{folder}/file_{n}{ext}", mime_type, file_name)
        self.files[file.file_id] = file
        return file

    def _input_file(self, p: dict, value: Any, field_name: str) -> tuple[str | None, bytes, str | None] | StoredFile:
        """What a request names as a file: an upload (the part named like the parameter, or
        an ``attach://<part>`` reference), or a file the bot sent before, by its file id."""
        files = p.get("_files") or {}
        if value is None:
            upload = files.get(field_name)
            if upload is None:
                raise _bad(f"there is no {field_name} in the request")
            return upload
        if not isinstance(value, str) or not value:
            raise _bad(f"wrong type of the {field_name}")
        if value.startswith("attach://"):
            upload = files.get(value.removeprefix("attach://"))
            if upload is None:
                raise _bad(f"can't find the attached file {value}")
            return upload
        if value.startswith(("http://", "https://")):
            raise _bad("failed to get HTTP URL content")  # the emulator reaches no web
        if value not in self.files:
            raise _bad("wrong file identifier/HTTP URL specified")
        return self.files[value]

    def _photo(self, p: dict, value: Any, field_name: str = "photo") -> Media:
        """A photo as Telegram keeps it: checked (an image it can open, of sane dimensions)
        and given its sizes, the thumbnails first and the image as uploaded last."""
        from PIL import Image

        found = self._input_file(p, value, field_name)
        if isinstance(found, StoredFile):
            sizes = self._photo_sizes.get(found.file_id)
            if sizes is None:
                raise _bad("wrong file identifier/HTTP URL specified")  # a document's id
            return Media("photo", found, sizes)
        _, content, _ = found
        if len(content) > PHOTO_LIMIT:
            raise _bad("PHOTO_SAVE_FILE_INVALID")
        try:
            image = Image.open(io.BytesIO(content))
            image.load()
        except Exception:
            raise _bad("IMAGE_PROCESS_FAILED") from None
        width, height = image.size
        if width + height > 10000 or max(width, height) > 20 * min(width, height):
            raise _bad("PHOTO_INVALID_DIMENSIONS")
        mime = Image.MIME.get(image.format or "", "image/jpeg")
        original = self._store(content, "photo", mime)
        sizes = []
        rgb = image.convert("RGB")  # once: JPEG has no alpha
        for limit in PHOTO_THUMBS:
            if max(width, height) <= limit:
                break
            thumb = rgb.copy()
            thumb.thumbnail((limit, limit))
            out = io.BytesIO()
            thumb.save(out, "JPEG", quality=80)
            stored = self._store(out.getvalue(), "thumb", "image/jpeg")
            sizes.append({**stored.api(), "width": thumb.width, "height": thumb.height})
        sizes.append({**original.api(), "width": width, "height": height})
        self._photo_sizes[original.file_id] = sizes
        return Media("photo", original, sizes)

    def _document(self, p: dict, value: Any, field_name: str = "document") -> Media:
        found = self._input_file(p, value, field_name)
        if isinstance(found, StoredFile):
            if found.file_id in self._photo_sizes:
                raise _bad("wrong file identifier/HTTP URL specified")  # a photo's id
            return Media("document", found)
        file_name, content, mime = found
        name = file_name or "document"
        mime = mime if mime and mime != "application/octet-stream" else None
        mime = mime or mimetypes.guess_type(name)[0] or "application/octet-stream"
        return Media("document", self._store(content, "document", mime, name))

    def _caption(self, p: dict, markup: dict | None, media: Media) -> MessageVersion:
        caption = p.get("caption") or ""
        shown = render(caption, p.get("parse_mode"))
        if _utf16_len(shown) > 1024:
            raise _bad("message caption is too long")
        return MessageVersion(shown, caption, p.get("parse_mode"), _normalize_markup(markup), media)

    def _send_media(self, p: dict, media: Media) -> dict:
        chat = self._chat(p.get("chat_id"))
        version = self._caption(p, p.get("reply_markup"), media)
        return self._add_message(chat, self.bot_user, version, p.get("message_thread_id")).to_api()

    def _api_sendDocument(self, p: dict) -> dict:
        """A file upload (or a file sent before, by its id), with its caption."""
        self._chat(p.get("chat_id"))
        return self._send_media(p, self._document(p, p.get("document")))

    def _api_sendPhoto(self, p: dict) -> dict:
        """A photo upload (PNG/JPEG bytes, checked as Telegram would), the caption (HTML,
        1024 units) as the message's text; the answer carries the photo's sizes."""
        self._chat(p.get("chat_id"))
        return self._send_media(p, self._photo(p, p.get("photo")))

    def _api_sendMediaGroup(self, p: dict) -> list:
        """An album: 2 to 10 photos, or 2 to 10 documents, each with its own caption."""
        chat = self._chat(p.get("chat_id"))
        items = p.get("media")
        if not isinstance(items, list) or not 2 <= len(items) <= 10:
            raise _bad("wrong number of media specified (2 to 10)")
        kinds = {item.get("type") if isinstance(item, dict) else None for item in items}
        if not kinds <= {"photo", "document"} or len(kinds) != 1:
            raise _bad("media of this type can't be grouped with the others")
        media = [
            (self._photo if item["type"] == "photo" else self._document)(p, item.get("media"), "media")
            for item in items
        ]
        versions = [self._caption(item, None, one) for item, one in zip(items, media)]
        group_id = str(next(self._ids))
        thread = p.get("message_thread_id")
        return [
            self._add_message(chat, self.bot_user, version, thread, extra={"media_group_id": group_id}).to_api()
            for version in versions
        ]

    def _api_editMessageMedia(self, p: dict) -> dict:
        """A photo or document message gets another file (and caption); a text message cannot."""
        chat = self._chat(p.get("chat_id"))
        msg = self._msg(chat, p.get("message_id"), "message to edit not found")
        if not msg.from_bot:
            raise _bad("message can't be edited")
        item = p.get("media")
        if not isinstance(item, dict) or item.get("type") not in ("photo", "document"):
            raise _bad("can't parse InputMedia")
        if msg.media is None:
            raise _bad("there is no media in the message to edit")
        media = (self._photo if item["type"] == "photo" else self._document)(p, item.get("media"), "media")
        return self._change(msg, self._caption(item, p.get("reply_markup"), media))

    def _api_editMessageCaption(self, p: dict) -> dict:
        chat = self._chat(p.get("chat_id"))
        msg = self._msg(chat, p.get("message_id"), "message to edit not found")
        if not msg.from_bot:
            raise _bad("message can't be edited")
        if msg.media is None:
            raise _bad("there is no caption in the message to edit")
        return self._change(msg, self._caption(p, p.get("reply_markup"), msg.media))

    def _api_getFile(self, p: dict) -> dict:
        file = self.files.get(p.get("file_id"))  # type: ignore[arg-type]
        if file is None:
            raise _bad("invalid file_id")
        return {**file.api(), "file_path": file.path}

    def file_content(self, path: str) -> StoredFile | None:
        """The file at getFile's ``file_path`` (what the file URL serves)."""
        return next((f for f in self.files.values() if f.path == path), None)

    def _edit(self, p: dict, new_text: bool) -> dict:
        if "inline_message_id" in p:
            raise _bad("inline messages are not supported by FakeTelegram")
        chat = self._chat(p.get("chat_id"))
        msg = self._msg(chat, p.get("message_id"), "message to edit not found")
        if not msg.from_bot:
            raise _bad("message can't be edited")
        current = msg.history[-1]
        if new_text:  # NB: like Telegram, omitting reply_markup REMOVES the inline keyboard
            if current.media is not None:
                raise _bad("there is no text in the message to edit")
            version = self._version(p, p.get("reply_markup"))
        else:
            version = MessageVersion(
                current.text,
                current.raw_text,
                current.parse_mode,
                _normalize_markup(p.get("reply_markup")),
                current.media,
            )
        return self._change(msg, version)

    def _change(self, msg: FakeMessage, version: MessageVersion) -> dict:
        def key(v: MessageVersion) -> tuple:
            styled = v.raw_text if v.parse_mode and v.raw_text != v.text else None
            return v.text, styled, v.reply_markup, v.media.file.file_id if v.media else None

        if key(version) == key(msg.history[-1]):
            raise _bad(NOT_MODIFIED.removeprefix("Bad Request: "))
        msg.history.append(version)
        self.notify("edited", msg)
        return msg.to_api()

    def _api_editMessageText(self, p: dict) -> dict:
        return self._edit(p, new_text=True)

    def _api_editMessageReplyMarkup(self, p: dict) -> dict:
        return self._edit(p, new_text=False)

    def _api_deleteMessage(self, p: dict) -> bool:
        chat = self._chat(p.get("chat_id"))
        msg = self._msg(chat, p.get("message_id"), "message to delete not found")
        if not msg.from_bot and chat.type != "private" and not chat.bot_admin:
            raise _bad("message can't be deleted")
        msg.deleted = True
        self.notify("deleted", msg)
        return True

    def _api_deleteMessages(self, p: dict) -> bool:
        for message_id in p.get("message_ids", []):
            msg = self.msgs.get(p.get("chat_id"), {}).get(message_id)  # type: ignore[arg-type]
            if msg:
                msg.deleted = True
                self.notify("deleted", msg)
        return True

    def _api_answerCallbackQuery(self, p: dict) -> bool:
        qid = p.get("callback_query_id")
        if qid not in self.queries:
            raise _bad(QUERY_INVALID.removeprefix("Bad Request: "))
        if len(p.get("text") or "") > 200:
            raise _bad("MESSAGE_TOO_LONG")
        self.answers[qid] = CallbackAnswer(
            qid, self.queries.pop(qid), p.get("text"), bool(p.get("show_alert")), p.get("url")
        )
        self.notify("answer", self.answers[qid])
        return True

    def _member(self, chat: FakeChat, user_id: int) -> dict:
        if user_id == self.bot_id:
            user, status = self.bot_user, "administrator" if chat.bot_admin else "member"
        elif user_id in self.users:
            user = self.users[user_id].to_api()
            status = (
                "left"
                if user_id in chat.left
                else "creator"
                if chat.admins[:1] == [user_id]
                else "administrator"
                if user_id in chat.admins
                else "member"
            )
        else:
            raise _bad("user not found")
        d: dict[str, Any] = {"status": status, "user": user}
        if status == "creator":
            d["is_anonymous"] = False
        elif status == "administrator":
            d.update(
                {
                    k: False
                    for k in (
                        "can_be_edited",
                        "is_anonymous",
                        "can_promote_members",
                        "can_post_stories",
                        "can_edit_stories",
                        "can_delete_stories",
                    )
                }
            )
            d.update(
                {
                    k: True
                    for k in (
                        "can_manage_chat",
                        "can_delete_messages",
                        "can_manage_video_chats",
                        "can_restrict_members",
                        "can_change_info",
                        "can_invite_users",
                        "can_pin_messages",
                        "can_manage_topics",
                    )
                }
            )
        return d

    def _api_getChatMember(self, p: dict) -> dict:
        return self._member(self._chat(p.get("chat_id"), write=False), p.get("user_id"))  # type: ignore[arg-type]

    def _api_getChatAdministrators(self, p: dict) -> list:
        chat = self._chat(p.get("chat_id"), write=False)
        if chat.type == "private":
            raise _bad("there are no administrators in the private chat")
        # as Telegram: the creator and the administrators still in the chat, this bot among
        # them when it is one (other bots are left out unless asked for)
        ids = [uid for uid in chat.admins if uid not in chat.left] + ([self.bot_id] if chat.bot_admin else [])
        return [self._member(chat, uid) for uid in ids]

    def _api_getChat(self, p: dict) -> dict:
        chat = self._chat(p.get("chat_id"), write=False)
        gifts = dict.fromkeys(
            ("unlimited_gifts", "limited_gifts", "unique_gifts", "premium_subscription", "gifts_from_channels"), False
        )
        return {**chat.to_api(), "accent_color_id": 0, "max_reaction_count": 11, "accepted_gift_types": gifts}

    @staticmethod
    def _cmd_key(p: dict) -> tuple[str, str]:
        scope = p.get("scope") or {"type": "default"}
        return json.dumps(scope, sort_keys=True), p.get("language_code") or ""

    def _api_setMyCommands(self, p: dict) -> bool:
        self.commands[self._cmd_key(p)] = p.get("commands", [])
        return True

    def _api_deleteMyCommands(self, p: dict) -> bool:
        self.commands.pop(self._cmd_key(p), None)
        return True

    def _api_getMyCommands(self, p: dict) -> list:
        return self.commands.get(self._cmd_key(p), [])

    def _api_setChatMenuButton(self, p: dict) -> bool:
        self.menu_buttons[p.get("chat_id")] = p.get("menu_button") or {"type": "default"}
        return True

    def _api_getChatMenuButton(self, p: dict) -> dict:
        return self.menu_buttons.get(p.get("chat_id"), {"type": "commands"})

    def _api_getUpdates(self, p: dict) -> list:
        return []  # tests feed updates directly with process_update

    def _api_getWebhookInfo(self, p: dict) -> dict:
        return {"url": self.webhook.get("url", ""), "has_custom_certificate": False, "pending_update_count": 0}

    def _api_setWebhook(self, p: dict) -> bool:
        if not str(p.get("url", "")).startswith("https://"):
            raise _bad("bad webhook: An HTTPS URL must be provided for webhook")
        self.webhook = dict(p)
        return True

    def _api_deleteWebhook(self, p: dict) -> bool:
        self.webhook = {}
        return True

    # ---------------------------------------------------------------- update injection
    def _next_update(self, **payload: Any) -> dict:
        return {"update_id": next(self._ids), **payload}

    async def send(
        self,
        app,
        user: FakeUser,
        chat: FakeUser | int,
        text: str,
        thread_id: int | None = None,
        reply_to: FakeMessage | None = None,
    ) -> FakeMessage:
        """``user`` types ``text`` in ``chat`` (a FakeUser = their DM with the bot, or a chat id).
        Commands get a bot_command entity. Any DM marks the bot as started (first DM is /start).
        In groups, with privacy mode, plain text that is not a reply to / mention of the bot is
        stored but not delivered (see ``self.undelivered``)."""
        msg, update = self.message_update(user, chat, text, thread_id, reply_to)
        if update is not None:
            await self.feed(app, update)
        return msg

    def message_update(
        self,
        user: FakeUser,
        chat: FakeUser | int,
        text: str,
        thread_id: int | None = None,
        reply_to: FakeMessage | None = None,
    ) -> tuple[FakeMessage, dict | None]:
        """The message ``send`` makes, and its update (None: privacy mode hides it), for a
        caller that hands updates to the bot itself (``app.update_queue``, as polling does)."""
        chat_obj = self.chats[chat.id if isinstance(chat, FakeUser) else chat]
        if chat_obj.type == "private":
            assert chat_obj.id == user.id, "a user can only write in their own DM with the bot"
            self.started.add(user.id)
            self.blocked.discard(user.id)
        else:
            assert chat_obj.migrated_to is None, f"chat {chat_obj.id} was migrated"
            chat_obj.members.add(user.id)
            chat_obj.left.discard(user.id)
            if thread_id is not None:
                assert chat_obj.is_forum, "thread_id given for a non-forum chat"
                chat_obj.topics.add(thread_id)
        entities = None
        if text.startswith("/"):
            entities = [{"type": "bot_command", "offset": 0, "length": _utf16_len(text.split()[0])}]
        extra = {"reply_to_message": reply_to.to_api()} if reply_to else {}
        msg = self._add_message(
            chat_obj, user.to_api(), MessageVersion(text, text, None, None), thread_id, entities=entities, extra=extra
        )
        addressed = (
            entities or f"@{self.bot_username}".lower() in text.lower() or (reply_to is not None and reply_to.from_bot)
        )
        if chat_obj.type != "private" and self.privacy_mode and not chat_obj.bot_admin and not addressed:
            self.undelivered.append(msg)
            return msg, None
        return msg, self._next_update(message=msg.to_api())

    def _find_message(self, message: FakeMessage | tuple[int, int]) -> FakeMessage:
        if isinstance(message, FakeMessage):
            return message
        chat_id, message_id = message
        msg = self.msgs.get(chat_id, {}).get(message_id)
        assert msg is not None, f"no message {message_id} in chat {chat_id}"
        return msg

    async def press(
        self,
        app,
        user: FakeUser,
        message: FakeMessage | tuple[int, int],
        button_text: str | Callable[[str], bool] | None = None,
        callback_data: str | None = None,
    ) -> CallbackAnswer | None:
        """``user`` presses an inline button of ``message``, chosen by exact text, else unique
        substring, else predicate(text), or by exact ``callback_data``. Returns the
        answerCallbackQuery made for this press (None if the bot did not answer)."""
        msg = self._find_message(message)
        assert not msg.deleted, f"{msg} was deleted; its buttons can't be pressed"
        buttons = [b for row in msg.keyboard for b in row]
        listing = "\n".join(f"  {b['text']!r} -> {b.get('callback_data')!r}" for b in buttons)
        if callback_data is not None:
            found = [b for b in buttons if b.get("callback_data") == callback_data]
        elif callable(button_text):
            found = [b for b in buttons if button_text(b["text"])]
        elif button_text is not None:
            found = [b for b in buttons if b["text"] == button_text] or [b for b in buttons if button_text in b["text"]]
        else:
            found = buttons
        wanted = callback_data if callback_data is not None else button_text
        assert found, f"no button {wanted!r} on {msg}; available:\n{listing or '  (none)'}"
        assert len(found) == 1, f"button {wanted!r} is ambiguous on {msg}; available:\n{listing}"
        data = found[0].get("callback_data")
        assert data is not None, f"button {found[0]['text']!r} has no callback_data: {found[0]}"
        return await self.press_raw(app, user, msg.chat_id, msg.message_id, data)

    async def press_raw(self, app, user: FakeUser, chat_id: int, message_id: int, data: str) -> CallbackAnswer | None:
        """Callback query with arbitrary (possibly forged) ``data`` on an existing message."""
        update = self.callback_update(user, chat_id, message_id, data)
        await self.feed(app, update)
        return self.answers.get(update["callback_query"]["id"])

    def callback_update(self, user: FakeUser, chat_id: int, message_id: int, data: str) -> dict:
        """The update of ``user`` pressing a button with ``data`` on a message, for a caller
        that hands updates to the bot itself (the HTTP API's getUpdates queue)."""
        msg = self._find_message((chat_id, message_id))
        assert not msg.deleted, f"{msg} was deleted"
        if msg.chat.type != "private":
            msg.chat.members.add(user.id)
        qid = str(next(self._ids) * 1000 + user.id % 1000)
        self.queries[qid] = user.id
        self.query_ids[qid] = data
        return self._next_update(
            callback_query={
                "id": qid,
                "from": user.to_api(),
                "chat_instance": f"ci{chat_id}",
                "message": msg.to_api(),
                "data": data,
            }
        )

    async def migrate_group(
        self, app, old_id: int, new_id: int, by: FakeUser | None = None, with_migrate_from: bool = True
    ) -> FakeChat:
        """Upgrade group ``old_id`` to supergroup ``new_id``. Like Telegram, delivers a
        ``migrate_to_chat_id`` message in the old chat and then (``with_migrate_from``) a
        ``migrate_from_chat_id`` message in the new one. Sends to the old id then fail with
        400 + migrate_to_chat_id (PTB raises ``ChatMigrated``)."""
        old = self.chats[old_id]
        new = FakeChat(
            new_id, "supergroup", old.title, admins=list(old.admins), members=set(old.members), bot_admin=old.bot_admin
        )
        self.chats[new_id], old.migrated_to = new, new_id
        sender = by.to_api() if by else (self.users[old.admins[0]].to_api() if old.admins else self.bot_user)
        empty = MessageVersion("", "", None, None)
        to_msg = self._add_message(old, sender, empty, extra={"migrate_to_chat_id": new_id})
        await self.feed(app, self._next_update(message=to_msg.to_api()))
        if with_migrate_from:
            from_msg = self._add_message(new, sender, empty, extra={"migrate_from_chat_id": old_id})
            await self.feed(app, self._next_update(message=from_msg.to_api()))
        return new

    async def add_bot(self, app, chat_id: int, by: FakeUser, admin: bool = False) -> None:
        """Deliver the my_chat_member update of the bot being added to ``chat_id`` by ``by``."""
        chat = self.chats[chat_id]
        chat.bot_kicked, chat.bot_admin = False, admin
        new = self._member(chat, self.bot_id)
        await self.feed(
            app,
            self._next_update(
                my_chat_member={
                    "chat": chat.to_api(),
                    "from": by.to_api(),
                    "date": int(time.time()),
                    "old_chat_member": {"status": "left", "user": self.bot_user},
                    "new_chat_member": new,
                }
            ),
        )

    async def feed(self, app, update: dict) -> None:
        """Process a raw update dict with the real Application, wait for non-blocking handler
        tasks it spawned, and re-raise handler exceptions PTB would only have logged."""
        self._install_capture()
        prefix = f"Application:{app.bot.id}:process_update_non_blocking"
        before = set(asyncio.all_tasks())
        await app.process_update(Update.de_json(update, app.bot))
        for _ in range(1000):
            spawned = [t for t in asyncio.all_tasks() - before if t.get_name().startswith(prefix) and not t.done()]
            if not spawned:
                break
            await asyncio.wait(spawned, timeout=10)
        await asyncio.sleep(0)
        self.raise_errors()

    def raise_errors(self) -> None:
        """Re-raise the first unhandled handler exception not yet raised (if enabled)."""
        if self.raise_handler_errors and self._raised < len(self.handler_errors):
            self._raised += 1
            raise self.handler_errors[self._raised - 1]

    def _install_capture(self) -> None:
        if self._capture is None:
            errors = self.handler_errors

            class _Capture(logging.Handler):
                def emit(self, record: logging.LogRecord) -> None:
                    if record.exc_info and record.exc_info[1] is not None:
                        errors.append(record.exc_info[1])

            self._capture = _Capture(logging.ERROR)
            for name in CAPTURED_LOGGERS:
                logging.getLogger(name).addHandler(self._capture)

    def close(self) -> None:
        """Detach the log capture (the conftest fixture calls this)."""
        if self._capture is not None:
            for name in CAPTURED_LOGGERS:
                logging.getLogger(name).removeHandler(self._capture)
            self._capture = None

    # ---------------------------------------------------------------- inspection
    def messages(self, chat_id: int, thread_id: int | None = None, *, include_users: bool = False) -> list[FakeMessage]:
        """Visible (not deleted) messages of the bot in a chat/topic, oldest first;
        ``include_users`` adds the users' own messages."""
        return [
            m
            for m in self.msgs.get(chat_id, {}).values()
            if not m.deleted and (include_users or m.from_bot) and (thread_id is None or m.thread_id == thread_id)
        ]

    def last_message(self, chat_id: int, thread_id: int | None = None) -> FakeMessage:
        """The newest visible bot message in the chat (AssertionError if none)."""
        found = self.messages(chat_id, thread_id)
        assert found, f"the bot has no visible message in chat {chat_id} (thread {thread_id})"
        return found[-1]

    @staticmethod
    def buttons(message: FakeMessage) -> list[tuple[str, str | None]]:
        """(text, callback_data) of every inline button, row by row."""
        return [(b["text"], b.get("callback_data")) for row in message.keyboard for b in row]

    def calls(self, method: str | None = None, chat_id: int | None = None) -> list[Call]:
        """Logged API calls (including failed ones: call.ok / call.error), chronological."""
        return [
            c for c in self.log if (method is None or c.method == method) and (chat_id is None or c.chat_id == chat_id)
        ]

    def sent_texts_to(self, chat_id: int) -> list[str]:
        """Every text the bot ever showed in the chat: all versions of all its messages,
        deleted ones included (for leak tests). For callback toasts see toasts_for()."""
        return [v.text for m in self.msgs.get(chat_id, {}).values() if m.from_bot for v in m.history]

    def twins(self, chat_id: int) -> dict[str, int]:
        """Messages the bot posted twice: visible bot messages of one kind in the chat,
        told apart by their first line as sent ("🔔 Your turn — <table>", a hand's title,
        the table's title, a score sheet's heading) -> how many extra copies. The bot edits
        or deletes every message it knows it sent, so a twin is a post it lost track of."""
        firsts = collections.Counter(m.history[0].text.split("\n", 1)[0] for m in self.messages(chat_id))
        return {text: count - 1 for text, count in firsts.items() if count > 1}

    def toasts_for(self, user_id: int) -> list[CallbackAnswer]:
        """answerCallbackQuery answers (toasts/alerts) shown to ``user_id``."""
        return [a for a in self.answers.values() if a.user_id == user_id]

    def answer_attempts(self) -> collections.Counter[str]:
        """How many answerCallbackQuery calls named each callback query (failed ones too:
        a second answer fails with "query is too old ... or query ID is invalid")."""
        return collections.Counter(str(c.params.get("callback_query_id")) for c in self.calls("answerCallbackQuery"))

    def unanswered_queries(self) -> list[str]:
        """Callback queries (of press/press_raw/callback_update) that no answer ever reached."""
        return [qid for qid in self.query_ids if qid not in self.answers]

    def queries_answered_twice(self) -> dict[str, int]:
        """Callback queries answered more than once -> how many answerCallbackQuery calls."""
        attempts = self.answer_attempts()
        return {qid: attempts[qid] for qid in self.query_ids if attempts[qid] > 1}

    def group_sends_and_edits(self, chat_id: int) -> list[Call]:
        """Successful sendMessage/editMessage* calls to the chat; ``call.t`` is the clock value."""
        return [c for c in self.calls(chat_id=chat_id) if c.ok and c.method in SEND_METHODS]

    def dump(self, chat_id: int) -> str:
        """Readable transcript of a chat (users' messages included) for failure messages."""
        lines = []
        for m in self.messages(chat_id, include_users=True):
            who = "BOT" if m.from_bot else m.sender["first_name"]
            lines.append(f"#{m.message_id} [{who}] {m.text}")
            lines += [f"    [{t}|{d}]" for t, d in self.buttons(m)]
        return "\n".join(lines)


# ----------------------------------------------------------------------------- PTB glue
FILE_URL = "/file/bot"  # downloads: <base_file_url><token>/<file_path>


def upload_tuple(value: tuple) -> tuple[str | None, bytes, str | None]:
    """PTB's (file name, content, MIME type) of an upload; content may be a file handle."""
    name, content = value[0], value[1]
    if hasattr(content, "read"):
        content = content.read()
    return name, bytes(content), value[2] if len(value) > 2 else None


class FakeRequest(BaseRequest):
    """PTB request backend that serves Bot API calls from a FakeTelegram, in-process."""

    def __init__(self, fake: FakeTelegram):
        self.fake = fake

    @property
    def read_timeout(self) -> float | None:
        return None

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = None,
        write_timeout: Any = None,
        connect_timeout: Any = None,
        pool_timeout: Any = None,
    ) -> tuple[int, bytes]:
        if FILE_URL in url:  # a download (File.download_to_memory): the file URL's bytes
            path = url.split(FILE_URL, 1)[1].split("/", 1)[-1]
            file = self.fake.file_content(path)
            return (200, file.content) if file else (404, b'{"ok":false,"error_code":404,"description":"Not Found"}')
        endpoint = url.rsplit("/", 1)[-1]
        # The JSON round trip proves the params are serialisable, as on the real wire.
        params = json.loads(json.dumps(request_data.parameters)) if request_data else {}
        if request_data is not None and request_data.contains_files:
            params["_files"] = {name: upload_tuple(value) for name, value in request_data.multipart_data.items()}
        if endpoint == "getUpdates":
            await asyncio.sleep(0.05)  # avoid a hot loop if someone starts polling
        try:
            status, body = self.fake.handle(endpoint, params)
        except NetworkFault as fault:
            raise TimedOut(str(fault)) from None
        except RawAnswer as raw:
            return raw.status, raw.body
        return status, json.dumps(body).encode()


def build_app(fake: FakeTelegram, **builder_options: Any) -> ApplicationBuilder:
    """ApplicationBuilder wired to ``fake``. Extra kwargs call builder methods, e.g.
    ``build_app(fake, concurrent_updates=True)``. Caller adds handlers, then ``async with app:``."""
    builder = (
        ApplicationBuilder()
        .token(f"{fake.bot_id}:TEST")
        .request(FakeRequest(fake))
        .get_updates_request(FakeRequest(fake))
    )
    for name, value in builder_options.items():
        builder = getattr(builder, name)(value)
    return builder
