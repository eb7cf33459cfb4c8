"""PTB logs a few Telegram failures itself, as an ERROR with a traceback, although nothing
is wrong with the bot:

- ``telegram.ext.AIORateLimiter``, "Rate limit hit after maximum of 0 retries": a 429,
  which it then raises as ``RetryAfter``;
- ``telegram.request.BaseRequest``, "Can not load invalid JSON data": a body that is not
  JSON (a proxy's HTML 502 page), which it then raises as a ``NetworkError`` (or a bare
  ``TelegramError`` for a 200);

Whoever called logs them as one warning line (bot.sender, bot.handlers.on_error,
bot.polling), so PTB's records of them are dropped. Only these: any other record, and these
messages with another kind of exception, are left as they are.
"""

from __future__ import annotations

import logging

from telegram.error import RetryAfter


def _error(record: logging.LogRecord) -> BaseException | None:
    return record.exc_info[1] if record.exc_info else None


class _RaisedToTheBot(logging.Filter):
    """Drops PTB's record of a failure it raises to the bot, which logs it in one line."""

    def __init__(self, message: str, errors: tuple[type[BaseException], ...]) -> None:
        super().__init__()
        self.message, self.errors = message, errors

    def filter(self, record: logging.LogRecord) -> bool:
        return not (str(record.msg).startswith(self.message) and isinstance(_error(record), self.errors))


FILTERS: dict[str, logging.Filter] = {
    "telegram.ext.AIORateLimiter": _RaisedToTheBot("Rate limit hit after maximum", (RetryAfter,)),
    # the JSON parser's error: PTB raises its own in its place
    "telegram.request.BaseRequest": _RaisedToTheBot("Can not load invalid JSON data", (ValueError,)),
}


def install() -> None:
    """Add the filters to PTB's loggers (once, however often it is called)."""
    for name, log_filter in FILTERS.items():
        logger = logging.getLogger(name)
        if log_filter not in logger.filters:
            logger.addFilter(log_filter)
