"""PTB logs a few Telegram failures itself, as an ERROR with a traceback, although nothing
is wrong with the bot:

- ``telegram.ext.AIORateLimiter``, "Rate limit hit after maximum of 0 retries": a 429,
  which it then raises as ``RetryAfter``;
- ``telegram.request.BaseRequest``, "Can not load invalid JSON data": a body that is not
  JSON (a proxy's HTML 502 page), which it then raises as a ``NetworkError`` (or a bare
  ``TelegramError`` for a 200);
- ``telegram.ext.Updater``, "Error while calling `get_updates` one more time": the last
  getUpdates of a stop, when Telegram does not answer it in time (the updates it would have
  acknowledged come again at the next start, and are dropped there by update id).

Whoever called logs the first two as one warning line (bot.sender, bot.handlers.on_error),
so PTB's records of them are dropped; the third becomes one warning line. Only these: any
other record, and these messages with another kind of exception, are left as they are.
"""

from __future__ import annotations

import logging

from telegram.error import RetryAfter

from bot.telegram_errors import is_telegram_failure, short


def _error(record: logging.LogRecord) -> BaseException | None:
    return record.exc_info[1] if record.exc_info else None


class _RaisedToTheBot(logging.Filter):
    """Drops PTB's record of a failure it raises to the bot, which logs it in one line."""

    def __init__(self, message: str, errors: tuple[type[BaseException], ...]) -> None:
        super().__init__()
        self.message, self.errors = message, errors

    def filter(self, record: logging.LogRecord) -> bool:
        return not (str(record.msg).startswith(self.message) and isinstance(_error(record), self.errors))


class _OneLine(logging.Filter):
    """Makes PTB's record of a Telegram failure it handles itself one warning line."""

    def __init__(self, message: str, says: str) -> None:
        super().__init__()
        self.message, self.says = message, says

    def filter(self, record: logging.LogRecord) -> bool:
        error = _error(record)
        if error is not None and str(record.msg).startswith(self.message) and is_telegram_failure(error):
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.msg, record.args = self.says, (short(error),)
            record.exc_info, record.exc_text = None, None
        return True


FILTERS: dict[str, logging.Filter] = {
    "telegram.ext.AIORateLimiter": _RaisedToTheBot("Rate limit hit after maximum", (RetryAfter,)),
    # the JSON parser's error: PTB raises its own in its place
    "telegram.request.BaseRequest": _RaisedToTheBot("Can not load invalid JSON data", (ValueError,)),
    "telegram.ext.Updater": _OneLine(
        "Error while calling `get_updates` one more time",
        "stopping: the last getUpdates failed (%s); its updates come again at the next start",
    ),
}


def install() -> None:
    """Add the filters to PTB's loggers (once, however often it is called)."""
    for name, log_filter in FILTERS.items():
        logger = logging.getLogger(name)
        if log_filter not in logger.filters:
            logger.addFilter(log_filter)
