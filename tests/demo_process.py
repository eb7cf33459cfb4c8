"""``cardbot demo`` as a separate process, as a newcomer starts it, for the demo tests
(tests/test_demo.py over HTTP and server-sent events, tests/test_demo_browser.py in Chromium)."""

from __future__ import annotations

import http.client
import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
GROUP = -1001000000001  # bot/emulator/demo.py DEMO_GROUP


class DemoProcess:
    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        # the quick computers and thinking in a thread: computers answer at once
        base = {**os.environ, "CARDBOT_COMPUTER_LEVEL": "easy", "CARDBOT_COMPUTER_WORKERS": "0", **(env or {})}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "demo", "--listen", "127.0.0.1:0", *args],
            cwd=ROOT,
            env=base,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.output: list[str] = []
        self.url = self._read_url()
        threading.Thread(target=self._drain, daemon=True).start()
        # the page's token, as the page itself gets it: from its HTML
        try:
            found = re.search(r'name="demo-token" content="([^"]+)"', self.get("/", token=False)[1].decode())
            assert found, "the page carries no token"
        except BaseException:
            self.stop()  # no test gets this process to stop
            raise
        self.token = found.group(1)

    def _read_url(self) -> str:
        deadline = time.monotonic() + 60
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.output.append(line)
            if "open http://" in line:
                return line.split("open ", 1)[1].split()[0]
        self.stop()
        raise AssertionError("cardbot demo did not start:\n" + "".join(self.output))

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode

    # ---------------------------------------------------------------- HTTP
    def with_token(self, path: str) -> str:
        return path + ("&" if "?" in path else "?") + "token=" + self.token

    def get(self, path: str, token: bool = True) -> tuple[int, bytes, str]:
        """GET as the page does: an API path carries the page's token."""
        url = self.url.rstrip("/") + (self.with_token(path) if token and path.startswith("/api/") else path)
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.status, response.read(), response.headers.get("Content-Type", "")

    def state(self) -> dict[str, Any]:
        return json.loads(self.get("/api/state")[1])

    def post(
        self, path: str, body: dict[str, Any], headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, Any]]:
        """POST as the page does (its token in ``X-Demo-Token``); ``headers`` change that."""
        sent = {"Content-Type": "application/json", "X-Demo-Token": self.token, **(headers or {})}
        request = urllib.request.Request(
            self.url.rstrip("/") + path, data=json.dumps(body).encode(), headers={k: v for k, v in sent.items() if v}
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)

    def events(self) -> "EventStream":
        return EventStream(self.url.rstrip("/") + self.with_token("/api/events"))


class EventStream:
    """Reads the page's server-sent events in a thread; ``wait_for`` takes them in order."""

    def __init__(self, url: str) -> None:
        parts = urllib.parse.urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.netloc, timeout=60)
        self.connection.request("GET", f"{parts.path}?{parts.query}")
        self.response = self.connection.getresponse()
        assert self.response.getheader("Content-Type") == "text/event-stream", self.response.status
        self.items: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line.startswith("data: "):
                    self.items.put(json.loads(line[len("data: ") :]))
        except (OSError, ValueError):
            pass

    def wait_for(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 30.0) -> dict[str, Any]:
        """The first event so far, or arriving within ``timeout``, for which ``predicate`` holds."""
        deadline = time.monotonic() + timeout
        while True:
            found = next((item for item in self.seen if predicate(item)), None)
            if found is not None:
                return found
            if time.monotonic() > deadline:
                break
            try:
                self.seen.append(self.items.get(timeout=max(deadline - time.monotonic(), 0.01)))
            except queue.Empty:
                break
        seen = [str(i.get("text", i))[:80] for i in self.seen]
        raise AssertionError(f"no such event within {timeout} s; saw {seen}")

    def close(self) -> None:
        """Cut the connection under the reading thread (closing the response alone waits
        for that thread's read, up to the server's next keep-alive line)."""
        if self.connection.sock is not None:
            self.connection.sock.shutdown(socket.SHUT_RDWR)
        self.connection.close()
