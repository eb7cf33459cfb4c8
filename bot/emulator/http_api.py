"""The emulator (bot/emulator/telegram_fake.py) served over real HTTP on 127.0.0.1, so the
production entry point — ``cardbot run`` with ``TELEGRAM_API_BASE_URL`` — can be run as a
separate process: real httpx requests, real long polling, real background loops.

Updates made by FakeTelegram's helpers (``send``, ``press_raw``) are queued for the
bot's ``getUpdates`` instead of being fed to an in-process Application."""

from __future__ import annotations

import collections
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from telegram import Bot, User

from bot.emulator.telegram_fake import FILE_URL, FakeTelegram, RawAnswer
from bot.emulator.wire import BodyError, bot_api_params, host_allowed, read_body

UPLOAD_LIMIT = 50 * 1024 * 1024 + 65536  # Telegram takes files up to 50 MB (and the form around them)


class HttpBotApi:
    def __init__(self, fake: FakeTelegram) -> None:
        self.fake = fake
        # Like the real Bot API, an update stays until a later getUpdates acknowledges it
        # with its offset: a poll cut short by a stopping bot cannot lose it.
        self.pending: list[dict] = []
        self._arrived = threading.Condition()
        self.polls = 0  # getUpdates calls so far
        self.served: collections.Counter[str] = collections.Counter()  # calls by method
        # set: Telegram is unreachable -- requests are taken but never answered
        self.unreachable = threading.Event()
        self.stuck = 0  # requests taken and left unanswered since (tests wait for one)
        self._released = threading.Event()
        self._lock = threading.Lock()  # FakeTelegram is not thread-safe
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.bot_stub = _QueueingApp(self)

    @property
    def port(self) -> int:
        return int(self.server.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "HttpBotApi":
        self.thread.start()
        return self

    def stop(self) -> None:
        self._released.set()
        self.server.shutdown()
        self.server.server_close()

    def call(self, method: str, params: dict) -> tuple[int, dict]:
        self.served[method] += 1
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
            def _answer(self, status: int, data: bytes, content_type: str = "application/json") -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", content_type)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the bot process stopped during a long poll

            def _refused(self, status: int, description: str) -> None:
                body = {"ok": False, "error_code": status, "description": description}
                self.close_connection = True  # an unread body must not be taken for the next request
                self._answer(status, json.dumps(body).encode())

            def do_POST(self):  # noqa: N802 (http.server's naming)
                if api.unreachable.is_set():
                    with api._lock:
                        api.stuck += 1
                    api._released.wait(600)
                    return
                if not host_allowed(self.headers.get("Host"), api.port):
                    return self._refused(403, "Forbidden: wrong Host")
                method = self.path.rsplit("/", 1)[-1]
                try:
                    body = read_body(self.rfile, self.headers, UPLOAD_LIMIT)
                    params = bot_api_params(body, self.headers.get("Content-Type") or "")
                except BodyError as error:
                    return self._refused(error.status, f"Bad Request: {error}")
                except ValueError as error:  # not JSON, not UTF-8
                    return self._refused(400, f"Bad Request: can't parse the request ({type(error).__name__})")
                try:
                    status, answer = api.call(method, params)
                except RawAnswer as raw:  # an injected page that is not JSON
                    return self._answer(raw.status, raw.body, "text/html")
                self._answer(status, json.dumps(answer).encode())

            def do_GET(self):  # noqa: N802
                """The file URL of a file the bot sent (``getFile``'s ``file_path``)."""
                if not host_allowed(self.headers.get("Host"), api.port):
                    return self._refused(403, "Forbidden: wrong Host")
                if not self.path.startswith(FILE_URL):
                    return self._refused(404, "Not Found")
                path = self.path.split("?", 1)[0][len(FILE_URL) :].split("/", 1)[-1]
                with api._lock:
                    file = api.fake.file_content(path)
                if file is None:
                    return self._refused(404, "Not Found")
                self._answer(200, file.content, file.mime_type)

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
