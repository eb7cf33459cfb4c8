"""What the emulator's two HTTP servers (the Bot API, the demo page) share about reading a
request: a body read as bytes within a cap whatever ``Content-Length`` says (chunked bodies
included), the forms a Bot API client sends (JSON, url-encoded, ``multipart/form-data``
with uploaded files), and the ``Host`` check that keeps another web site out."""

from __future__ import annotations

import ipaddress
import json
import urllib.parse
from email.message import Message
from email.utils import collapse_rfc2231_value
from typing import Any, Protocol

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
    "photo",
    "document",
    "file_id",
}


class Readable(Protocol):
    """A request's input stream (``BaseHTTPRequestHandler.rfile``)."""

    def read(self, size: int, /) -> bytes: ...

    def readline(self, size: int, /) -> bytes: ...


class BodyError(Exception):
    """A request whose body cannot be taken: answered with ``status`` and the reason."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


def read_body(rfile: Readable, headers: Message, limit: int) -> bytes:
    """The request's body, at most ``limit`` bytes: a larger (or negative, or unreadable)
    ``Content-Length`` is refused before anything is read, and a chunked body is read
    chunk by chunk and refused as soon as it grows past the cap."""
    if "chunked" in (headers.get("Transfer-Encoding") or "").lower():
        return _read_chunked(rfile, limit)
    raw = (headers.get("Content-Length") or "0").strip()
    if not raw.isdigit():  # "-1", "1e9", "12, 12": no honest client sends these
        raise BodyError(400, "bad Content-Length")
    length = int(raw)
    if length > limit:
        raise BodyError(413, f"the body is over {limit} bytes")
    body = rfile.read(length)
    if len(body) < length:
        raise BodyError(400, "the body ended early")
    return body


def _read_chunked(rfile: Readable, limit: int) -> bytes:
    body = bytearray()
    while True:
        size_line = rfile.readline(100).split(b";", 1)[0].strip()
        try:
            size = int(size_line, 16)
        except ValueError:
            raise BodyError(400, "bad chunk size") from None
        if size < 0 or len(body) + size > limit:
            raise BodyError(413, f"the body is over {limit} bytes")
        if size == 0:
            while rfile.readline(1000).strip():  # trailers, up to the blank line
                pass
            return bytes(body)
        chunk = rfile.read(size)
        if len(chunk) < size:
            raise BodyError(400, "the body ended early")
        body += chunk
        rfile.readline(3)  # the CRLF after the chunk


def _decode(name: str, value: str) -> Any:
    if name in STRING_PARAMS:
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


def bot_api_params(body: bytes, content_type: str) -> dict[str, Any]:
    """A Bot API call's parameters as the emulator takes them (``FakeTelegram.handle``):
    JSON values decoded, uploaded files under ``_files`` as (file name, bytes, type)."""
    kind, options = _header_value(content_type)
    if kind == "application/json":
        decoded = json.loads(body or b"{}")
        if not isinstance(decoded, dict):
            raise BodyError(400, "the JSON body must be an object")
        return decoded
    if kind == "multipart/form-data":
        boundary = options.get("boundary")
        if not boundary:
            raise BodyError(400, "multipart/form-data without a boundary")
        params: dict[str, Any] = {}
        files: dict[str, tuple[str | None, bytes, str | None]] = {}
        for name, file_name, part_type, content in multipart_parts(body, boundary):
            if file_name is not None:
                files[name] = (file_name, content, part_type)
            else:
                params[name] = _decode(name, content.decode("utf-8"))
        if files:
            params["_files"] = files
        return params
    text = body.decode("utf-8")
    return {k: _decode(k, v) for k, v in urllib.parse.parse_qsl(text)}


def multipart_parts(body: bytes, boundary: str) -> list[tuple[str, str | None, str | None, bytes]]:
    """(field name, file name or None, content type, content) of each part, as sent."""
    delimiter = b"--" + boundary.encode("latin-1")
    chunks = body.split(delimiter)
    if len(chunks) < 3 or not chunks[-1].startswith(b"--"):
        raise BodyError(400, "malformed multipart body")
    parts = []
    for chunk in chunks[1:-1]:
        chunk = chunk.removeprefix(b"\r\n").removesuffix(b"\r\n")
        head, separator, content = chunk.partition(b"\r\n\r\n")
        if not separator:
            raise BodyError(400, "a multipart part without headers")
        headers = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            key, _, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        disposition, options = _header_value(headers.get("content-disposition", ""))
        if disposition != "form-data" or "name" not in options:
            raise BodyError(400, "a multipart part that is not form data")
        part_type = _header_value(headers["content-type"])[0] if "content-type" in headers else None
        parts.append((options["name"], options.get("filename"), part_type, content))
    return parts


def _header_value(value: str) -> tuple[str, dict[str, str]]:
    """``text/plain; charset=utf-8`` -> ("text/plain", {"charset": "utf-8"}); quoted
    parameters unquoted, ``filename*=UTF-8''…`` decoded (the standard library's parser)."""
    message = Message()
    message["Content-Type"] = value or "text/plain"
    kind = value.split(";", 1)[0].strip().lower()
    params = message.get_params() or []
    return kind, {key.lower(): collapse_rfc2231_value(raw) for key, raw in params[1:]}


def host_allowed(host_header: str | None, port: int) -> bool:
    """Whether a request's ``Host`` names this server: ``localhost`` or an IP address, with
    our port. A web page that made its own name resolve to 127.0.0.1 (DNS rebinding) sends
    its own name here, so it is refused and cannot read what the server holds."""
    if not host_header:
        return False
    parsed = urllib.parse.urlsplit(f"//{host_header}")
    try:
        if parsed.port != port:
            return False
    except ValueError:
        return False
    host = (parsed.hostname or "").lower()
    if host == "localhost":
        return True
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True
