"""The emulator (bot/emulator/telegram_fake.py) served over real HTTP on 127.0.0.1, so the
production entry point — ``cardbot run`` with ``TELEGRAM_API_BASE_URL`` — can be run as a
separate process: real httpx requests, real long polling, real background loops.

Updates made by FakeTelegram's helpers (``send``, ``press_raw``) are queued for the
bot's ``getUpdates`` instead of being fed to an in-process Application."""

from __future__ import annotations

import json
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from telegram import Bot, User

from bot.emulator.telegram_fake import FakeTelegram

# Parameters whose value is a plain string even when it looks like JSON ("1", "true").
STRING_PARAMS = {
    "text",
    "caption",
    "callback_query_id",
    "url",
    "parse_mode",
    "title",
    "description",
    "filename",
    "language_code",
    "command",
    "offset_date",
}


def _decode(name: str, value: str):
    if name in STRING_PARAMS:
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


class HttpBotApi:
    def __init__(self, fake: FakeTelegram) -> None:
        self.fake = fake
        # Like the real Bot API, an update stays until a later getUpdates acknowledges it
        # with its offset: a poll cut short by a stopping bot cannot lose it.
        self.pending: list[dict] = []
        self._arrived = threading.Condition()
        self.polls = 0  # getUpdates calls so far
        # set: Telegram is unreachable -- requests are taken but never answered
        self.unreachable = threading.Event()
        self._released = threading.Event()
        self._lock = threading.Lock()  # FakeTelegram is not thread-safe
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.bot_stub = _QueueingApp(self)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> "HttpBotApi":
        self.thread.start()
        return self

    def stop(self) -> None:
        self._released.set()
        self.server.shutdown()
        self.server.server_close()

    def call(self, method: str, params: dict) -> tuple[int, dict]:
        if method == "getUpdates":
            self.polls += 1
            return 200, {"ok": True, "result": self._poll(params)}
        with self._lock:
            return self.fake.handle(method, params)

    def put(self, update: dict) -> None:
        with self._arrived:
            self.pending.append(update)
            self._arrived.notify_all()

    def _poll(self, params: dict) -> list[dict]:
        offset = int(params.get("offset") or 0)
        wait = min(float(params.get("timeout") or 0), 1.0)
        with self._arrived:
            self.pending = [u for u in self.pending if u["update_id"] >= offset]
            if not self.pending and wait:
                self._arrived.wait(wait)
            return list(self.pending)

    def _handler(self):
        api = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's naming)
                if api.unreachable.is_set():
                    api._released.wait(600)
                    return
                method = self.path.rsplit("/", 1)[-1]
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode("utf-8") if length else ""
                if "json" in (self.headers.get("Content-Type") or ""):
                    params = json.loads(body or "{}")
                else:
                    params = {k: _decode(k, v) for k, v in urllib.parse.parse_qsl(body)}
                status, answer = api.call(method, params)
                data = json.dumps(answer).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the bot process stopped during a long poll

            def log_message(self, *args):  # keep test output clean
                pass

        return Handler

    def wait_for(self, predicate, timeout: float = 60.0, what: str = "condition"):
        """Poll ``predicate()`` (under the fake's lock) until it returns something truthy."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                value = predicate()
            if value:
                return value
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what}")


class _QueueingApp:
    """Stands in for an Application in FakeTelegram.feed(): queues the update for polling."""

    def __init__(self, api: HttpBotApi) -> None:
        self.api = api
        self.bot = Bot(f"{api.fake.bot_id}:TEST")
        # feed() reads bot.id; an uninitialised Bot has none until getMe
        self.bot._bot_user = User(api.fake.bot_id, api.fake.bot_username, is_bot=True, username=api.fake.bot_username)

    async def process_update(self, update) -> None:
        self.api.put(update.to_dict())
