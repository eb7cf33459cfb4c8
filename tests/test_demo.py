"""``cardbot demo`` over HTTP: the page's files, its state, its live feed of server-sent
events, the people's actions reaching the real bot, and the refusals. The browser test
(tests/test_demo_browser.py) plays whole games through the page itself."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bot.emulator.demo import demo_world, page_html, parse_listen
from bot.emulator.telegram_fake import FakeTelegram
from tests.demo_process import GROUP, ROOT, DemoProcess
from tests.http_fake import raw_request


@pytest.fixture
def demo():
    process = DemoProcess()
    yield process
    assert process.stop() == 0, "".join(process.output)


def _button(message: dict, *texts: str) -> str:
    for row in message["keyboard"]:
        for button in row:
            if button["text"] in texts:
                return button["data"]
    raise AssertionError(f"no button {texts} in {message['text']!r}: {message['keyboard']}")


def test_page_and_its_files_are_served(demo):
    status, body, kind = demo.get("/")
    assert status == 200 and kind.startswith("text/html") and b"/static/demo.js" in body
    for name, expected in (("demo.js", "javascript"), ("demo.css", "text/css")):
        status, body, kind = demo.get(f"/static/{name}")
        assert status == 200 and expected in kind and body
    with pytest.raises(Exception, match="404"):
        demo.get("/static/../demo.py")
    state = demo.state()
    assert [p["name"] for p in state["people"]] == ["Alice", "Bob", "Carol"]
    assert [c["type"] for c in state["chats"]] == ["group", "private", "private", "private"]
    assert state["messages"] == [] and state["seq"] == 0


def test_a_durak_table_through_the_live_feed(demo):
    events = demo.events()
    try:
        # nobody opened the private chat yet: the bot may not write there (403 in Telegram)
        assert not any(c.get("started") for c in demo.state()["chats"])
        assert demo.post("/api/send", {"user": 1, "chat": 1, "text": "/start"})[0] == 200
        welcome = events.wait_for(lambda e: e["type"] == "message" and e["chat"] == 1 and e["from"]["bot"])
        assert welcome["event"] == "sent" and "/newgame" in welcome["text"]
        assert next(c for c in demo.state()["chats"] if c["id"] == 1)["started"]

        demo.post("/api/send", {"user": 1, "chat": GROUP, "text": "/durak"})
        table = events.wait_for(lambda e: e["type"] == "message" and e["chat"] == GROUP and e["from"]["bot"])
        assert table["html"].startswith("<b>Durak") and "1. ✅ Alice" in table["text"]
        status, answer = demo.post(
            "/api/press",
            {"user": 1, "chat": GROUP, "message_id": table["id"], "data": _button(table, "+ Computer")},
        )
        assert status == 200 and answer["query"]
        edited = events.wait_for(lambda e: e.get("event") == "edited" and e.get("id") == table["id"])
        assert "Computer" in edited["text"] and edited["edited"]
        events.wait_for(lambda e: e["type"] == "answer" and e["user"] == 1)

        demo.post(
            "/api/press", {"user": 1, "chat": GROUP, "message_id": table["id"], "data": _button(edited, "▶️ Start")}
        )
        hand = events.wait_for(
            lambda e: (
                e["type"] == "message"
                and e["chat"] == 1
                and e["id"] > welcome["id"]
                and any(b["data"] for row in e["keyboard"] for b in row)
            )
        )
        assert "Your cards" in hand["text"], hand
        # the state snapshot holds the same messages the feed announced, newest versions
        snapshot = {(m["chat"], m["id"]): m for m in demo.state()["messages"]}
        assert (1, hand["id"]) in snapshot and snapshot[(GROUP, table["id"])]["edited"]
        # Bob never opened his private chat and sees nothing of Alice's hand
        assert not [m for m in demo.state()["messages"] if m["chat"] == 2]
    finally:
        events.close()


def test_bad_actions_are_refused_and_change_nothing(demo):
    demo.post("/api/send", {"user": 1, "chat": GROUP, "text": "/durak"})
    refused = [
        ("/api/send", {"user": 9, "chat": GROUP, "text": "/durak"}, "no such person"),
        ("/api/send", {"user": 2, "chat": 1, "text": "hi"}, "own private chat"),
        ("/api/send", {"user": 1, "chat": GROUP, "text": "  "}, "1 to 4096"),
        ("/api/send", {"user": 1, "chat": GROUP, "text": "x" * 4097}, "1 to 4096"),
        ("/api/press", {"user": 1, "chat": GROUP, "message_id": 99, "data": "x"}, "gone"),
        ("/api/press", {"user": 1, "chat": GROUP, "message_id": [2], "data": "x"}, "gone"),
        ("/api/press", {"user": True, "chat": GROUP, "message_id": 2, "data": "x"}, "no such person"),
        ("/api/press", {"user": 1, "chat": [GROUP], "message_id": 2, "data": "x"}, "own private chat"),
        ("/api/press", {"user": 1, "chat": GROUP, "message_id": 1, "data": "l:1:0:start"}, "no such button"),
        ("/api/nothing", {}, "not found"),
    ]
    before = demo.state()
    for path, body, reason in refused:
        status, answer = demo.post(path, body)
        assert status in (400, 404) and reason in answer["error"], (path, body, answer)
    after = demo.state()
    assert after["messages"] == [m for m in after["messages"] if m in before["messages"] or m["from"]["bot"]]
    assert len([m for m in after["messages"] if not m["from"]["bot"]]) == 1  # only the /durak


def test_the_page_refuses_a_public_address_unless_told():
    with pytest.raises(ValueError, match="--allow-remote"):
        parse_listen("0.0.0.0:8080", allow_remote=False)
    assert parse_listen("0.0.0.0:8080", allow_remote=True) == ("0.0.0.0", 8080)
    assert parse_listen("localhost:9000", allow_remote=False) == ("localhost", 9000)
    assert parse_listen("[::1]:9000", allow_remote=False) == ("::1", 9000)
    with pytest.raises(ValueError, match="host:port"):
        parse_listen("127.0.0.1", allow_remote=False)
    run = subprocess.run(
        [sys.executable, "-m", "bot.cli", "demo", "--listen", "0.0.0.0:8080"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and "--allow-remote" in run.stderr and not run.stdout


def test_page_html_keeps_telegram_formatting_and_nothing_else():
    raw = (
        '<b>Bold</b> <i>it</i> <pre>A♠  10♥\n K♦</pre> <a href="https://example.org/r?a=1&amp;b=2">rules</a> '
        '<a href="javascript:alert(1)">x</a> <tg-spoiler>s</tg-spoiler> 5 &lt; 6 &amp; <code>c</code>'
    )
    shown = page_html(raw, "HTML", "")
    assert shown.startswith("<b>Bold</b> <i>it</i> <pre>A♠  10♥\n K♦</pre> ")
    assert '<a href="https://example.org/r?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">rules</a>' in shown
    assert 'href="#"' in shown and "javascript" not in shown
    assert '<span class="spoiler">s</span>' in shown and "5 &lt; 6 &amp; <code>c</code>" in shown
    # a person's text is not markup
    assert page_html("<b>hi</b> & co", None, "<b>hi</b> & co") == "&lt;b&gt;hi&lt;/b&gt; &amp; co"


def test_the_emulator_keeps_telegrams_group_flood_limit():
    clock = [100.0]
    fake = FakeTelegram(clock=lambda: clock[0], group_flood_limit=3)
    fake.group(-5, "G")
    sends = [fake.handle("sendMessage", {"chat_id": -5, "text": f"m{i}"}) for i in range(4)]
    assert [status for status, _ in sends] == [200, 200, 200, 429]
    assert sends[-1][1]["parameters"]["retry_after"] == 61
    clock[0] += 61
    assert fake.handle("sendMessage", {"chat_id": -5, "text": "later"})[0] == 200
    # private chats are paced by Telegram differently; the group limit does not apply
    fake.user(7, "P")
    fake.start_dm(7)
    assert all(fake.handle("sendMessage", {"chat_id": 7, "text": "dm"})[0] == 200 for _ in range(5))
    # the demo world has it on, no private chat open, and one group with everyone in it
    world, people = demo_world("ru")
    assert world.group_flood_limit == 20 and not world.started
    assert [p.first_name for p in people] == ["Аня", "Борис", "Вера"]
    assert world.chats[GROUP].members == {1, 2, 3} and world.chats[GROUP].admins == [1]


def test_the_feed_carries_sends_edits_deletions_and_toasts_in_order():
    """In-process: the page server over the emulator's HTTP API, without a bot; the calls a
    bot would make arrive on the page's feed in order, and the state leaves deleted ones out."""
    from bot.emulator.demo import DemoPage
    from bot.emulator.http_api import HttpBotApi
    from tests.demo_process import EventStream

    fake, people = demo_world("en")
    api = HttpBotApi(fake).start()
    page = DemoPage(api, people, port=0).start()
    events = EventStream(page.url + f"api/events?token={page.token}")
    try:
        fake.start_dm(1)
        keyboard = {"inline_keyboard": [[{"text": "Go", "callback_data": "go"}]]}
        _, sent = api.call(
            "sendMessage", {"chat_id": 1, "text": "<b>hi</b>", "parse_mode": "HTML", "reply_markup": keyboard}
        )
        message_id = sent["result"]["message_id"]
        update = page.press({"user": 1, "chat": 1, "message_id": message_id, "data": "go"})
        api.call("editMessageText", {"chat_id": 1, "message_id": message_id, "text": "hi!", "reply_markup": keyboard})
        api.call("answerCallbackQuery", {"callback_query_id": update["query"], "text": "Done", "show_alert": True})
        api.call("deleteMessage", {"chat_id": 1, "message_id": message_id})
        assert api.call("sendMessage", {"chat_id": 2, "text": "to Bob"})[0] == 403  # Bob never pressed START
        kinds = [
            (e.get("event", e["type"]), e["seq"])
            for e in [events.wait_for(lambda e, n=n: e["seq"] == n) for n in range(1, 5)]
        ]
        assert kinds == [("sent", 1), ("edited", 2), ("answer", 3), ("deleted", 4)]
        assert events.seen[0]["html"] == "<b>hi</b>" and events.seen[1]["text"] == "hi!"
        assert events.seen[1]["keyboard"][0][0]["data"] == "go" and events.seen[1]["edited"]
        assert events.seen[2] == {"type": "answer", "user": 1, "text": "Done", "alert": True, "seq": 3}
        state = page.state()
        assert state["seq"] == 4 and state["messages"] == []
        assert [u["callback_query"]["data"] for u in api.pending] == ["go"]
    finally:
        events.close()
        page.stop()
        api.stop()


@pytest.fixture
def page_server():
    """In-process: the page server over the emulator's HTTP API, without a bot."""
    from bot.emulator.demo import DemoPage
    from bot.emulator.http_api import HttpBotApi

    fake, people = demo_world("en")
    api = HttpBotApi(fake).start()
    page = DemoPage(api, people, port=0).start()
    yield page
    page.stop()
    api.stop()


def _request(page, method: str, path: str, headers: dict[str, str], body: bytes = b"") -> tuple[int, bytes, dict]:
    return raw_request(page.server.server_address[1], method, path, headers, body)


def test_pictures_and_files_reach_the_page_and_download(page_server):
    """The bot's uploads over HTTP (PTB's multipart, as `/sheets` pictures, `/export` and
    the `/history` record are sent) appear in the page's state with their links, and the
    links give the bytes back: a picture inline, a file as a download with its name."""
    import asyncio
    import io
    import json

    from PIL import Image
    from telegram import Bot

    page, api = page_server, page_server.api
    picture = io.BytesIO()
    Image.new("RGB", (900, 600), "white").save(picture, "PNG")
    record = json.dumps({"game": "king", "log": []}).encode()

    async def bot_sends() -> None:
        bot = Bot(f"{api.fake.bot_id}:DEMO", base_url=api.base_url + "/bot")
        async with bot:
            await bot.send_photo(GROUP, photo=picture.getvalue(), caption="<b>Пулька</b> · 1", parse_mode="HTML")
            await bot.send_document(GROUP, document=record, filename="king-1-1.json")

    asyncio.run(bot_sends())
    photo_msg, doc_msg = page.state()["messages"]
    assert photo_msg["html"] == "<b>Пулька</b> · 1" and photo_msg["photo"]["width"] == 900
    assert doc_msg["document"]["file_name"] == "king-1-1.json" and doc_msg["document"]["size"] == len(record)
    host = {"Host": f"127.0.0.1:{page.server.server_address[1]}"}
    token = f"?token={page.token}"
    status, body, headers = _request(page, "GET", photo_msg["photo"]["url"] + token, host)
    assert status == 200 and body == picture.getvalue() and headers["Content-Type"] == "image/png"
    assert headers["Content-Disposition"].startswith("inline")
    status, body, _ = _request(page, "GET", photo_msg["photo"]["thumb"] + token, host)
    assert status == 200 and Image.open(io.BytesIO(body)).size == (320, 213)
    status, body, headers = _request(page, "GET", doc_msg["document"]["url"] + token, host)
    assert status == 200 and body == record and headers["Content-Type"] == "application/json"
    assert headers["Content-Disposition"] == "attachment; filename*=UTF-8''king-1-1.json"
    assert _request(page, "GET", "/api/file/nothing" + token, host)[0] == 404
    assert _request(page, "GET", doc_msg["document"]["url"], host)[0] == 403  # no token


def test_the_page_is_safe_to_leave_open(page_server):
    """Another web site the person visits cannot drive the demo (a foreign Origin, no
    token), cannot read it by DNS rebinding (a foreign Host), and no body gets past the cap."""
    import json

    page = page_server
    port = page.server.server_address[1]
    own = {"Host": f"127.0.0.1:{port}"}
    body = json.dumps({"user": 1, "chat": GROUP, "text": "/durak"}).encode()
    send = {**own, "Content-Type": "application/json", "Content-Length": str(len(body))}
    token = {"X-Demo-Token": page.token}

    status, html_page, _ = _request(page, "GET", "/", own)
    assert status == 200 and page.token.encode() in html_page  # the page itself carries the token
    refused = [
        ({**send, **token, "Origin": "https://evil.example"}, "other pages"),
        ({**send, **token, "Host": f"evil.example:{port}"}, "own address"),
        ({**send, **token, "Host": f"localhost:{port + 1}"}, "own address"),
        (send, "token"),
        ({**send, "X-Demo-Token": "guess"}, "token"),
    ]
    for headers, reason in refused:
        status, answer, _ = _request(page, "POST", "/api/send", headers, body)
        assert status == 403 and reason in json.loads(answer)["error"], (headers, answer)
    for path in ("/api/state", "/api/events", "/api/state?token=guess"):
        assert _request(page, "GET", path, own)[0] == 403, path
    assert _request(page, "GET", f"/api/state?token={page.token}", {"Host": f"evil.example:{port}"})[0] == 403
    assert not page.api.pending and not page.state()["messages"]  # nothing got through

    # the same request from the page itself (same origin, with its token) is taken
    status, _, _ = _request(page, "POST", "/api/send", {**send, **token, "Origin": f"http://127.0.0.1:{port}"}, body)
    assert status == 200 and len(page.api.pending) == 1
    # no body gets past the cap, whatever its length says
    for headers, expected in (
        ({"Content-Length": "-1"}, 400),
        ({"Content-Length": str(300 * 1024 * 1024)}, 413),
        ({"Content-Length": "12abc"}, 400),
    ):
        status, _, _ = _request(page, "POST", "/api/send", {**send, **token, **headers}, body)
        assert status == expected, headers
    chunk = b"x" * 8192
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(20)) + b"0\r\n\r\n"
    headers = {**own, **token, "Content-Type": "application/json", "Transfer-Encoding": "chunked"}
    assert _request(page, "POST", "/api/send", headers, chunked)[0] == 413
    small = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    assert _request(page, "POST", "/api/send", headers, small)[0] == 200 and len(page.api.pending) == 2


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_page_speaks_the_demo_s_language(lang):
    """``cardbot demo --lang ru``: the page's own words (tabs, buttons, hints) are Russian
    too, not only the bot's (issue 45); every word of bot/locales/<lang>/demo.json is put in."""
    import html as html_module
    import json
    import re

    from bot.emulator.demo import DemoPage
    from bot.emulator.http_api import HttpBotApi
    from bot.i18n import catalog

    fake, people = demo_world(lang)
    api = HttpBotApi(fake).start()
    page = DemoPage(api, people, port=0, lang=lang).start()
    try:
        port = page.server.server_address[1]
        status, body, _ = _request(page, "GET", "/", {"Host": f"127.0.0.1:{port}"})
    finally:
        page.stop()
        api.stop()
    text = body.decode("utf-8")
    assert status == 200 and "{{" not in text and f'<html lang="{lang}">' in text
    english = ["You are", "Private chat", "No messages here yet.", "Send /durak", ">Send<", "all private chats"]
    russian = ["Вы —", "Личный чат", "Здесь пока нет сообщений.", "Отправить /durak", "все личные чаты"]
    for word in russian if lang == "ru" else english:
        assert word in text, word
    for word in english if lang == "ru" else russian:
        assert word not in text, word
    # the script's words (the chip, "edited", a failed request) ride in a meta tag
    words = json.loads(html_module.unescape(re.search(r'name="demo-words" content="([^"]*)"', text).group(1)))
    assert words == {k: v for k, v in catalog(lang).items() if k.startswith("demo.page.")}
    from bot.emulator.demo import STATIC

    script = (STATIC / "demo.js").read_text(encoding="utf-8")
    used = set(re.findall(r'word\("(demo\.page\.\w+)"', script))
    assert used and used <= set(words), used - set(words)
