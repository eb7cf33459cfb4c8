"""Webhook abuse against a real ``cardbot webhook`` worker: malformed bodies with the
right secret are a 400 (not a 500 with a traceback), oversized ones a 413, and a
request without the secret is still a 403 whatever its body."""
from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from tests.fakebot import FakeTelegram
from tests.http_fake import HttpBotApi
from tests.test_webhook_workers import PUBLIC_URL, SECRET, Worker


def post(worker: Worker, body: bytes, secret: str | None = SECRET) -> int:
    headers = {"Content-Type": "application/json"}
    if secret:
        headers["X-Telegram-Bot-Api-Secret-Token"] = secret
    request = urllib.request.Request(f"http://127.0.0.1:{worker.port}/telegram", data=body, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.fixture
def worker(tmp_path):
    fake = FakeTelegram()
    api = HttpBotApi(fake).start()
    running = Worker(api, str(tmp_path / "bot.sqlite3"), tmp_path)
    try:
        api.wait_for(running.ready, what="the worker to listen")
        api.wait_for(lambda: fake.webhook, what="the worker to set the webhook")
        assert fake.webhook["url"] == PUBLIC_URL
        yield running
    finally:
        output = running.stop()
        api.stop()
        fake.close()
    assert "Traceback" not in output, output


def test_malformed_and_oversized_bodies_are_refused_cleanly(worker):
    for body in (b"{not json", b"\xff\xfe", b"[1, 2]", b'"text"', b"[" * 50_000, b""):
        assert post(worker, body) == 400, body[:20]
    assert post(worker, b"{" + b" " * 3_000_000 + b"}") == 413
    assert post(worker, b"{not json", secret="wrong") == 403
    assert post(worker, b"{not json", secret=None) == 403
    assert post(worker, b'{"update_id": 1}') == 200
