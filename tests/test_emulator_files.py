"""The emulator's Bot API over HTTP takes files the way Telegram does: PTB's own HTTPX
request sends ``multipart/form-data`` uploads (``sendPhoto``, ``sendDocument``,
``sendMediaGroup``, ``editMessageMedia``), the answers carry file ids and a photo's sizes,
and ``getFile`` with the file URL gives the bytes back. Bodies are capped whatever they claim."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image
from telegram import Bot, InputFile, InputMediaDocument, InputMediaPhoto
from telegram.error import BadRequest

from bot.emulator.http_api import HttpBotApi
from bot.emulator.telegram_fake import FakeTelegram
from bot.emulator.wire import BodyError, multipart_parts
from tests.http_fake import raw_request

GROUP = -100500


def png(width: int, height: int, colour: str = "red") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, "PNG")
    return out.getvalue()


@pytest.fixture
def api():
    fake = FakeTelegram()
    fake.group(GROUP, "Files")
    server = HttpBotApi(fake).start()
    yield server
    server.stop()


def bot_for(api: HttpBotApi) -> Bot:
    return Bot(f"{api.fake.bot_id}:TEST", base_url=api.base_url + "/bot", base_file_url=api.base_url + "/file/bot")


async def test_a_photo_upload_has_sizes_and_its_bytes_come_back(api):
    picture = png(1000, 1500)
    async with bot_for(api) as bot:
        message = await bot.send_photo(GROUP, photo=picture, caption="<b>Sheet</b>", parse_mode="HTML")
        sizes = message.photo
        # thumbnails first, the photo as uploaded last, each with its own file id
        assert [(s.width, s.height) for s in sizes] == [(60, 90), (213, 320), (533, 800), (1000, 1500)]
        assert len({s.file_id for s in sizes}) == 4 and message.caption == "Sheet"
        file = await bot.get_file(sizes[-1].file_id)
        assert bytes(await file.download_as_bytearray()) == picture
        thumb = await (await bot.get_file(sizes[0].file_id)).download_as_bytearray()
        assert Image.open(io.BytesIO(thumb)).size == (60, 90)
        # sent again by its file id, as a bot re-sends a picture without uploading it
        again = await bot.send_photo(GROUP, photo=sizes[-1].file_id)
        assert again.photo[-1].file_id == sizes[-1].file_id
        # Telegram refuses what is not an image, and names it
        with pytest.raises(BadRequest, match="(?i)IMAGE_PROCESS_FAILED"):
            await bot.send_photo(GROUP, photo=b"not a picture")
        with pytest.raises(BadRequest, match="(?i)PHOTO_INVALID_DIMENSIONS"):
            await bot.send_photo(GROUP, photo=png(2000, 50))
    assert api.served["sendPhoto"] == 4 and api.fake.last_message(GROUP).photo == picture


async def test_documents_albums_and_an_edited_photo(api):
    record = json.dumps({"game": "durak", "ход": 1}, ensure_ascii=False).encode()
    async with bot_for(api) as bot:
        sent = await bot.send_document(GROUP, document=record, filename="durak-1-1.json", caption="record")
        assert sent.document.file_name == "durak-1-1.json" and sent.document.file_size == len(record)
        assert sent.document.mime_type == "application/json"
        assert bytes(await (await bot.get_file(sent.document.file_id)).download_as_bytearray()) == record
        stored = api.fake.last_message(GROUP)
        assert stored.document["content"] == record and stored.text == "record"

        album = await bot.send_media_group(
            GROUP, [InputMediaPhoto(png(40, 30), caption="one"), InputMediaPhoto(png(30, 40, "blue"), caption="two")]
        )
        assert len(album) == 2 and album[0].media_group_id == album[1].media_group_id
        assert [m.caption for m in album] == ["one", "two"] and album[1].photo[-1].width == 30
        files = await bot.send_media_group(
            GROUP, [InputMediaDocument(InputFile(b"a", filename="a.txt")), InputMediaDocument(b"b")]
        )
        assert files[0].document.file_name == "a.txt"

        edited = await bot.edit_message_media(
            InputMediaPhoto(png(50, 50, "green"), caption="new"), chat_id=GROUP, message_id=album[0].message_id
        )
        assert edited.caption == "new" and edited.photo[-1].width == 50
        assert api.fake.msgs[GROUP][album[0].message_id].edited
        # a photo message has a caption, not a text; a text message has no media
        with pytest.raises(BadRequest, match="(?i)no text in the message"):
            await bot.edit_message_text("x", chat_id=GROUP, message_id=album[0].message_id)
        text = await bot.send_message(GROUP, "plain")
        with pytest.raises(BadRequest, match="(?i)no media in the message"):
            await bot.edit_message_media(InputMediaPhoto(png(5, 5)), chat_id=GROUP, message_id=text.message_id)
        with pytest.raises(BadRequest, match="(?i)wrong file identifier"):
            await bot.send_document(GROUP, document="no-such-file")
        with pytest.raises(BadRequest, match="(?i)wrong number of media"):
            await bot.send_media_group(GROUP, [InputMediaPhoto(png(5, 5))] * 11)
    for method in ("sendDocument", "sendMediaGroup", "editMessageMedia", "getFile"):
        assert api.served[method] >= 1, method


def _raw(api: HttpBotApi, headers: dict[str, str], body: bytes = b"", path: str = "/botx/sendMessage") -> tuple:
    status, answer, _ = raw_request(api.port, "POST", path, headers, body)
    return status, json.loads(answer or b"{}")


def test_bodies_are_capped_and_only_our_host_is_served(api):
    host = f"127.0.0.1:{api.port}"
    form = {"Host": host, "Content-Type": "application/json"}
    # a Content-Length the server must not believe: refused before anything is read
    assert _raw(api, {**form, "Content-Length": "-1"})[0] == 400
    assert _raw(api, {**form, "Content-Length": str(10**12)})[0] == 413
    # a chunked body past the cap is refused as it grows
    chunk = b"x" * 65536
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(900)) + b"0\r\n\r\n"
    assert _raw(api, {**form, "Transfer-Encoding": "chunked"}, chunks)[0] == 413
    # a small chunked body is read as usual
    api.fake.group(-7, "G")
    body = json.dumps({"chat_id": -7, "text": "hi"}).encode()
    small = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    assert _raw(api, {**form, "Transfer-Encoding": "chunked"}, small)[0] == 200
    assert api.fake.last_message(-7).text == "hi"
    # a web site whose own name resolves here (DNS rebinding) is not this server
    assert _raw(api, {**form, "Host": f"evil.example:{api.port}", "Content-Length": "0"})[0] == 403
    assert _raw(api, {**form, "Host": "127.0.0.1:1", "Content-Length": "0"})[0] == 403


def test_malformed_multipart_is_refused():
    with pytest.raises(BodyError):
        multipart_parts(b"--b\r\nno headers here--b--", "b")
    with pytest.raises(BodyError):
        multipart_parts(b"garbage", "b")
    parts = multipart_parts(
        b'--b\r\nContent-Disposition: form-data; name="photo"; filename="s.png"\r\n'
        b"Content-Type: image/png\r\n\r\n\x89PNG\r\n--b\r\n"
        b'Content-Disposition: form-data; name="chat_id"\r\n\r\n-5\r\n--b--\r\n',
        "b",
    )
    assert parts == [("photo", "s.png", "image/png", b"\x89PNG"), ("chat_id", None, None, b"-5")]
