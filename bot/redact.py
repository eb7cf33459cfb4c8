"""Secrets never reach a log: the bot token (httpx and PTB put it in every request URL
at DEBUG level), database passwords (a bad URL ends up in an error message) and the
webhook secret. Every log line, traceback included, goes through ``redact``."""

from __future__ import annotations

import logging
import re
from urllib.parse import urlsplit

# user:password@ in any URL, and anything shaped like a bot token (<digits>:<35 chars>)
_URL_PASSWORD = re.compile(r"(\b[a-zA-Z][a-zA-Z0-9+.-]*://[^:/@\s]*):[^@\s]*@")
_TOKEN_SHAPE = re.compile(r"\b\d{5,}:[A-Za-z0-9_-]{30,}")


def redact(text: str, secrets: tuple[str, ...] = ()) -> str:
    for secret in secrets:
        if secret:
            text = text.replace(secret, "<redacted>")
    text = _URL_PASSWORD.sub(r"\1:<redacted>@", text)
    return _TOKEN_SHAPE.sub("<token>", text)


def url_secrets(url: str | None) -> tuple[str, ...]:
    """The password of a database URL, to redact even where it appears outside the URL."""
    try:
        password = urlsplit(url).password if url else None
    except ValueError:
        password = None
    return (password,) if password else ()


class RedactingFormatter(logging.Formatter):
    def __init__(self, fmt: str, secrets: tuple[str, ...] = ()) -> None:
        super().__init__(fmt)
        self.secrets = tuple(s for s in secrets if s and len(s) >= 4)

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record), self.secrets)


def install(level: str, secrets: tuple[str, ...]) -> None:
    """Log to stderr at ``level`` with every line redacted."""
    logging.basicConfig(level=level)
    formatter = RedactingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s", secrets)
    for handler in logging.getLogger().handlers:
        handler.setFormatter(formatter)
