"""``cardbot demo``: the bot without Telegram. One process runs

* the emulator's Bot API over HTTP on a free loopback port (``HttpBotApi``, the one the
  multi-process tests use), where the real bot long-polls exactly as ``cardbot run`` does
  against Telegram (only its ``base_url`` differs);
* a web page (``static/``) that plays the people: a group chat with the table and one
  private chat per person, live through server-sent events.

The page server is the standard library's threading HTTP server, like ``HttpBotApi``: no
new dependency, one thread per open page, plenty for a loopback demo. Every change to the
emulator's state happens under ``HttpBotApi``'s lock.
"""

from __future__ import annotations

import hmac
import html
import ipaddress
import json
import mimetypes
import queue
import re
import secrets
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from bot.emulator.http_api import HttpBotApi
from bot.emulator.telegram_fake import _TAG_RE, CallbackAnswer, FakeMessage, FakeTelegram, FakeUser
from bot.emulator.wire import BodyError, host_allowed, read_body

STATIC = Path(__file__).with_name("static")
DEMO_GROUP = -1001000000001
GROUP_FLOOD_LIMIT = 20  # sends and edits a minute in a group, as Telegram allows
MAX_TEXT = 4096
KEEPALIVE = 15.0  # seconds between comment lines on an idle event stream
BODY_LIMIT = 65536  # what the page's actions may send
TOKEN_MARK = "__DEMO_TOKEN__"  # where index.html gets the page's token
WORD_MARK = re.compile(r"\{\{(\{?)([\w.]+)\}?\}\}")  # {{key}}: a word of the page; {{{key}}}: its HTML
PEOPLE = {
    "en": (["Alice", "Bob", "Carol"], "Card table"),
    "ru": (["Аня", "Борис", "Вера"], "Кухня"),
}


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def demo_world(lang: str = "en") -> tuple[FakeTelegram, list[FakeUser]]:
    """The emulator with three people (the first is the group's admin) and one group; no
    private chat is open yet: each person presses Start in theirs, as in Telegram."""
    fake = FakeTelegram(bot_username="CardDemoBot", raise_handler_errors=False, group_flood_limit=GROUP_FLOOD_LIMIT)
    names, title = PEOPLE[lang]
    people = [fake.user(i + 1, name, language_code=lang) for i, name in enumerate(names)]
    fake.group(DEMO_GROUP, title, admins=[people[0].id], supergroup=True, members=[p.id for p in people])
    return fake, people


# ----------------------------------------------------------------------------- what the page shows
_PAGE_TAGS = {
    "b": "b",
    "strong": "b",
    "i": "i",
    "em": "i",
    "u": "u",
    "ins": "u",
    "s": "s",
    "strike": "s",
    "del": "s",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "a": "a",
    "tg-spoiler": "span",
    "span": "span",
    "tg-emoji": "span",
}
_HREF = re.compile(r"""href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")


def page_html(raw: str, parse_mode: str | None, shown: str) -> str:
    """Safe HTML for the page: Telegram's tags mapped to plain ones without attributes (a
    link keeps an http(s) href), text kept as escaped. The emulator refused bad markup when
    the bot sent it, so the tags here are Telegram's and balanced."""
    if (parse_mode or "").lower() != "html":
        return html.escape(shown, quote=False)
    out: list[str] = []
    stack: list[str] = []
    i = 0
    for match in _TAG_RE.finditer(raw):
        out.append(raw[i : match.start()])
        i = match.end()
        closing, name = match.group(1) == "/", match.group(2).lower()
        tag = _PAGE_TAGS.get(name)
        if tag is None:
            continue
        if closing:
            if stack:
                out.append(f"</{stack.pop()}>")
            continue
        stack.append(tag)
        if name in ("tg-spoiler", "span"):
            out.append('<span class="spoiler">')
        elif name == "a":
            found = _HREF.search(match.group(3) or "")
            href = html.unescape(next((g for g in found.groups() if g is not None), "")) if found else ""
            safe = href if href.startswith(("http://", "https://", "tg://")) else "#"
            out.append(f'<a href="{html.escape(safe)}" target="_blank" rel="noopener noreferrer">')
        else:
            out.append(f"<{tag}>")
    out.append(raw[i:])
    out.extend(f"</{tag}>" for tag in reversed(stack))
    return "".join(out)


def file_url(file_id: str) -> str:
    return f"/api/file/{urllib.parse.quote(file_id)}"


def media_json(msg: FakeMessage) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """(photo, document) of a message as the page shows them: the picture's link, a small
    size for the bubble and its dimensions; the file's name, size and link."""
    media = msg.media
    if media is None:
        return None, None
    if media.kind == "photo":
        biggest = media.sizes[-1]
        thumb = next((s for s in media.sizes if max(s["width"], s["height"]) >= 320), biggest)
        photo = {
            "url": file_url(biggest["file_id"]),
            "thumb": file_url(thumb["file_id"]),
            "width": biggest["width"],
            "height": biggest["height"],
        }
        return photo, None
    file = media.file
    document = {
        "file_name": file.file_name or "document",
        "size": len(file.content),
        "mime_type": file.mime_type,
        "url": file_url(file.file_id),
    }
    return None, document


def message_json(msg: FakeMessage, event: str = "sent") -> dict[str, Any]:
    keyboard = [
        [{"text": b["text"], "data": b.get("callback_data"), "url": b.get("url")} for b in row] for row in msg.keyboard
    ]
    photo, document = media_json(msg)
    return {
        "type": "message",
        "event": event,
        "chat": msg.chat_id,
        "id": msg.message_id,
        "from": {"id": msg.sender["id"], "name": msg.sender["first_name"], "bot": msg.from_bot},
        "html": page_html(msg.raw_text, msg.parse_mode, msg.text),
        "text": msg.text,
        "keyboard": keyboard,
        "edited": msg.edited,
        "deleted": msg.deleted,
        "photo": photo,
        "document": document,
        "date": msg.date,
    }


def answer_json(answer: CallbackAnswer) -> dict[str, Any]:
    return {"type": "answer", "user": answer.user_id, "text": answer.text or "", "alert": answer.show_alert}


class DemoError(Exception):
    """A request the page should not make: answered with 400 and the reason."""


class DemoPage:
    """The page's HTTP server: static files, the chats' state, the live feed, and the
    people's actions (typing a text, pressing a button), queued for the bot's getUpdates."""

    def __init__(
        self, api: HttpBotApi, people: list[FakeUser], host: str = "127.0.0.1", port: int = 8080, lang: str = "en"
    ) -> None:
        self.api, self.fake, self.people = api, api.fake, {p.id: p for p in people}
        self.lang = lang  # the page's own words (bot/locales/<lang>/demo.json), as the people's
        # Known only to the page this server hands out: another web site the person visits
        # can send requests here but cannot read the page, so it cannot act or look.
        self.token = secrets.token_urlsafe(24)
        self.group = next(c for c in self.fake.chats.values() if c.type != "private")
        self.streams: list[queue.Queue[dict[str, Any] | None]] = []
        self.seq = 0  # changes so far: the page drops events its state snapshot already holds
        self.fake.listeners.append(self._changed)
        self.server = ThreadingHTTPServer((host, port), self._handler())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, name="demo-page", daemon=True)

    @property
    def url(self) -> str:
        host, port = str(self.server.server_address[0]), self.server.server_address[1]
        return f"http://{host}:{port}/"

    def index(self, page: str) -> str:
        """index.html as served: the page's token, and its words in the demo's language
        (``{{key}}`` escaped; ``{{{key}}}`` a word with its own tags, such as <code>)."""
        from bot.i18n import catalog

        words = {key: value for key, value in catalog(self.lang).items() if key.startswith("demo.page.")}

        def fill(match: re.Match[str]) -> str:
            raw, key = bool(match.group(1)), match.group(2)
            if key == "lang":
                return self.lang
            if key == "words":
                return html.escape(json.dumps(words, ensure_ascii=False))
            return words[key] if raw else html.escape(words[key], quote=True)

        return WORD_MARK.sub(fill, page.replace(TOKEN_MARK, self.token))

    def start(self) -> "DemoPage":
        self.thread.start()
        return self

    def stop(self) -> None:
        for stream in list(self.streams):
            stream.put(None)
        self.server.shutdown()
        self.server.server_close()

    # ---------------------------------------------------------------- state and feed
    def _changed(self, event: str, subject: Any) -> None:
        """Emulator listener (called under the API lock): push the change to every page."""
        item = answer_json(subject) if isinstance(subject, CallbackAnswer) else message_json(subject, event)
        self.seq += 1
        item["seq"] = self.seq
        for stream in list(self.streams):
            stream.put(item)

    def state(self) -> dict[str, Any]:
        with self.api._lock:
            chats: list[dict[str, Any]] = [{"id": self.group.id, "type": "group", "title": self.group.title}]
            chats += [
                {"id": p.id, "type": "private", "title": p.first_name, "started": p.id in self.fake.started}
                for p in self.people.values()
            ]
            messages = [
                message_json(m)
                for chat in chats
                for m in self.fake.msgs.get(chat["id"], {}).values()
                if not m.deleted and (m.text or m.media)
            ]
            bot = {"name": self.fake.bot_username, "id": self.fake.bot_id}
            people = [{"id": p.id, "name": p.first_name} for p in self.people.values()]
            return {"bot": bot, "people": people, "chats": chats, "messages": messages, "seq": self.seq}

    # ---------------------------------------------------------------- actions
    def _person(self, body: dict[str, Any]) -> FakeUser:
        user = body.get("user")
        person = self.people.get(user) if type(user) is int else None
        if person is None:
            raise DemoError("no such person")
        return person

    def _chat_for(self, person: FakeUser, chat_id: Any) -> int:
        if chat_id not in (self.group.id, person.id):
            raise DemoError("a person writes in the group or in their own private chat")
        return int(chat_id)

    def file(self, file_id: str) -> Any:
        """A file the bot sent (every chat of the demo world is the page's)."""
        with self.api._lock:
            file = self.fake.files.get(file_id)
        if file is None:
            raise DemoError("no such file")
        return file

    def send(self, body: dict[str, Any]) -> dict[str, Any]:
        person = self._person(body)
        chat = self._chat_for(person, body.get("chat"))
        text = body.get("text")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT:
            raise DemoError(f"the text must have 1 to {MAX_TEXT} characters")
        with self.api._lock:
            msg, update = self.fake.message_update(person, person if chat == person.id else chat, text.strip())
        if update is not None:
            self.api.put(update)
        return {"id": msg.message_id, "delivered": update is not None}

    def press(self, body: dict[str, Any]) -> dict[str, Any]:
        person = self._person(body)
        chat = self._chat_for(person, body.get("chat"))
        data, message_id = body.get("data"), body.get("message_id")
        with self.api._lock:
            msg = self.fake.msgs.get(chat, {}).get(message_id) if type(message_id) is int else None
            if msg is None or msg.deleted:
                raise DemoError("that message is gone")
            if not isinstance(data, str) or data not in {b.get("callback_data") for row in msg.keyboard for b in row}:
                raise DemoError("that message has no such button")
            update = self.fake.callback_update(person, chat, msg.message_id, data)
        self.api.put(update)
        return {"query": update["callback_query"]["id"]}

    # ---------------------------------------------------------------- HTTP
    def _handler(self) -> type[BaseHTTPRequestHandler]:
        page = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _reply(self, status: int, body: bytes, content_type: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def _json(self, status: int, value: Any) -> None:
                self._reply(status, json.dumps(value, ensure_ascii=False).encode(), "application/json; charset=utf-8")

            def _allowed(self) -> bool:
                """Whether this request may be served: our own host name (no DNS rebinding),
                our own origin if the browser names one, and for the API the page's token."""
                port = int(page.server.server_address[1])
                host = self.headers.get("Host")
                if not host_allowed(host, port):
                    self._json(403, {"error": "this page answers to its own address only (localhost or an IP address)"})
                    return False
                origin = self.headers.get("Origin")
                if origin is not None and origin != f"http://{host}":
                    self._json(403, {"error": "requests from other pages are refused"})
                    return False
                if not self.path.startswith("/api/"):
                    return True
                query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
                token = self.headers.get("X-Demo-Token") if self.command == "POST" else query.get("token", [""])[0]
                if not hmac.compare_digest((token or "").encode(), page.token.encode()):
                    self._json(403, {"error": "no page token: reload the page"})
                    return False
                return True

            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                if not self._allowed():
                    return
                path = urllib.parse.urlsplit(self.path).path
                if path == "/api/state":
                    return self._json(200, page.state())
                if path == "/api/events":
                    return self._events()
                if path.startswith("/api/file/"):
                    return self._file(urllib.parse.unquote(path.removeprefix("/api/file/")))
                name = "index.html" if path == "/" else path.removeprefix("/static/")
                file = STATIC / name
                if "/" in name or not name or not file.is_file():
                    return self._json(404, {"error": "not found"})
                content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
                body = file.read_bytes()
                if name == "index.html":
                    body = page.index(body.decode("utf-8")).encode("utf-8")
                self._reply(200, body, f"{content_type}; charset=utf-8")

            def _file(self, file_id: str) -> None:
                try:
                    file = page.file(file_id)
                except DemoError as error:
                    return self._json(404, {"error": str(error)})
                query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
                attach = file.file_name is not None or query.get("download") == ["1"]
                name = file.file_name or file.path.rsplit("/", 1)[-1]
                self.send_response(200)
                self.send_header("Content-Type", file.mime_type)
                self.send_header("Content-Length", str(len(file.content)))
                self.send_header("Cache-Control", "no-store")
                self.send_header("X-Content-Type-Options", "nosniff")
                disposition = "attachment" if attach else "inline"
                self.send_header("Content-Disposition", f"{disposition}; filename*=UTF-8''{urllib.parse.quote(name)}")
                self.end_headers()
                self.wfile.write(file.content)

            def do_POST(self) -> None:  # noqa: N802
                if not self._allowed():
                    self.close_connection = True  # its body is left unread
                    return
                actions = {"/api/send": page.send, "/api/press": page.press}
                action = actions.get(self.path)
                if action is None:
                    return self._json(404, {"error": "not found"})
                try:
                    raw = read_body(self.rfile, self.headers, BODY_LIMIT)
                    body = json.loads(raw or b"{}")
                    if not isinstance(body, dict):
                        raise DemoError("send a JSON object")
                    self._json(200, action(body))
                except BodyError as error:
                    self.close_connection = True
                    self._json(error.status, {"error": str(error)})
                except (DemoError, ValueError) as error:
                    self._json(400, {"error": str(error)})

            def _events(self) -> None:
                """Server-sent events: one ``data:`` line of JSON per change, as it happens."""
                stream: queue.Queue[dict[str, Any] | None] = queue.Queue()
                page.streams.append(stream)
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.send_header("Cache-Control", "no-store")
                    self.end_headers()
                    self.wfile.write(b"retry: 1000\n\n")
                    self.wfile.flush()
                    while True:
                        try:
                            item = stream.get(timeout=KEEPALIVE)
                        except queue.Empty:
                            self.wfile.write(b": keepalive\n\n")
                            self.wfile.flush()
                            continue
                        if item is None:
                            return
                        self.wfile.write(f"data: {json.dumps(item, ensure_ascii=False)}\n\n".encode())
                        self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the page was closed
                finally:
                    page.streams.remove(stream)
                    self.close_connection = True

            def log_message(self, *args: Any) -> None:
                pass

        return Handler


# ----------------------------------------------------------------------------- cardbot demo
def parse_listen(listen: str, allow_remote: bool) -> tuple[str, int]:
    """host:port for the page; a non-loopback host only when explicitly allowed, since the
    page lets anyone who reaches it act as every person."""
    host, _, port = listen.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--listen must be host:port, got {listen[:60]!r}")
    if not allow_remote and not is_loopback(host):
        raise ValueError(
            f"refusing to listen on {host}: anyone who reaches the page can play every seat; "
            "use a loopback address (127.0.0.1) or pass --allow-remote"
        )
    return host, int(port)


def serve(settings: Any, listen: tuple[str, int], lang: str, on_ready: Any = print) -> None:
    """Run the demo until interrupted: the emulator, the page, and the real bot polling the
    emulator (``build_application`` exactly as ``cardbot run`` builds it)."""
    from dataclasses import replace

    from bot.app import build_application
    from bot.polling import run

    fake, people = demo_world(lang)
    api = HttpBotApi(fake).start()
    try:
        page = DemoPage(api, people, *listen, lang=lang).start()
    except BaseException:
        api.stop()
        raise
    try:
        settings = replace(settings, token=f"{fake.bot_id}:DEMO", api_base_url=api.base_url, database_url=None)
        threading.Thread(target=_announce, args=(api, page, on_ready), name="demo-ready", daemon=True).start()
        run(build_application(settings))
    finally:
        page.stop()
        api.stop()


def _announce(api: HttpBotApi, page: DemoPage, on_ready: Any) -> None:
    """Give the page's address once the bot polls: from then on what the page sends is read."""
    while api.polls == 0:
        if not api.thread.is_alive():
            return
        time.sleep(0.05)
    on_ready(f"cardbot demo: open {page.url} (Ctrl+C stops it)")
