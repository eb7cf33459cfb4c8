"""What a failed Bot API call means: wait and call again, or give the call up.

PTB (telegram/request/_baserequest.py) raises a type per answer only for some: 400
``BadRequest``, 403 ``Forbidden``, 401 and 404 ``InvalidToken``, 409 ``Conflict``, a 429
with ``retry_after`` ``RetryAfter``, no answer in time ``TimedOut``. Every other answer
(413, any other 4xx, a 5xx) and a broken connection are a plain ``NetworkError``, told
apart only by its message: Telegram's description, which starts with the HTTP reason
("Request Entity Too Large"), or, when the body is not JSON (an HTML 502 page), "<reason>
(<code>). Parsing the server response ... failed". A 200 whose body is not JSON is a bare
``TelegramError("Invalid server response")``.
"""

from __future__ import annotations

import re
from http import HTTPStatus

from telegram.error import BadRequest, NetworkError, RetryAfter, TelegramError, TimedOut

_CODE = re.compile(r"\((\d{3})\)")
# reasons of the 4xx answers, longest first (so "Request Entity Too Large" is not a prefix match of another)
_REFUSALS = sorted(
    {s.phrase for s in HTTPStatus if 400 <= s.value < 500 and s.value != 429} | {"Request Entity Too Large"},
    key=len,
    reverse=True,
)
SHORT = 200  # characters of an error's message put in a log line (an HTML page can be long)


def refused(error: BaseException) -> bool:
    """Telegram answered and will not do this call (any 4xx but a flood wait): the same
    call again gets the same answer. Everything else -- a 5xx, a page that is not JSON, a
    timeout, a broken connection -- may pass on a later try."""
    if isinstance(error, (RetryAfter, TimedOut)):
        return False
    if not isinstance(error, TelegramError):
        return False
    if type(error) is TelegramError:  # only "Invalid server response" (a 200 that is not JSON)
        return False
    if isinstance(error, BadRequest) or not isinstance(error, NetworkError):
        return True  # BadRequest, Forbidden, InvalidToken, Conflict, ChatMigrated, ...
    message = str(error)
    code = _CODE.search(message)
    if code:
        return 400 <= int(code.group(1)) < 500 and code.group(1) != "429"
    return any(message.startswith(reason) for reason in _REFUSALS)


def is_telegram_failure(error: BaseException) -> bool:
    """A failure on Telegram's side or on the way there, not a bug of the bot: a flood
    wait, a 5xx, a body that is not JSON, a timeout, a broken connection."""
    return isinstance(error, TelegramError) and not refused(error)


def short(error: BaseException) -> str:
    """``Type: message`` on one line, cut to ``SHORT`` characters."""
    text = " ".join(f"{type(error).__name__}: {error}".split())
    return text if len(text) <= SHORT else text[: SHORT - 1] + "…"
