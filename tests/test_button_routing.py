"""Buttons are routed by python-telegram-bot's patterns: each family of callback data
(``kind:...``) has its own ``CallbackQueryHandler``, and a press that no family claims
reaches the catch-all, registered last, which answers "Unknown button"."""

from __future__ import annotations

from telegram import CallbackQuery, Update, User
from telegram.ext import Application, CallbackQueryHandler

from bot import buttons, handlers

# one press of every family the bot draws (bot.screens, bot.handlers, bot.players)
PRESSES = {
    "g": "g:durak",
    "pf": "pf:sochi",
    "lang": "lang:ru",
    "sh": "sh:dm",
    "w": "w:1:1:on",
    "l": "l:1:1:join",
    "a": "a:1:1:x",
    "u": "u:1:1:cards",
    "r": "r:1:1:rematch",
    "d": "d:1:1",
    "h": "h:1",
    "fg": "fg:-1001",
}


def press(data: str | None) -> Update:
    user = User(1, "Аня", is_bot=False)
    return Update(1, callback_query=CallbackQuery("q1", user, "ci", data=data))


def routes() -> list[CallbackQueryHandler]:
    app = Application.builder().token("1:test").build()
    handlers.install(app)
    return [h for h in app.handlers[0] if isinstance(h, CallbackQueryHandler)]


def route(data: str | None, handlers: list[CallbackQueryHandler]) -> CallbackQueryHandler:
    """The handler python-telegram-bot gives the press: the first one whose pattern matches."""
    return next(h for h in handlers if h.check_update(press(data)))


def test_each_button_family_has_its_own_handler():
    registered = routes()
    for kind, data in PRESSES.items():
        handler = route(data, registered)
        assert handler.pattern is not None and handler.pattern.match(f"{kind}:"), (data, handler.pattern)
        assert not handler.pattern.match(f"{kind}x:"), (data, handler.pattern)
    # "lang:" is not a lobby button, nor "l:" a language
    assert route("lang:ru", registered) is not route("l:1:1:join", registered)


def test_a_press_no_family_claims_reaches_the_catch_all_last():
    registered = routes()
    assert registered[-1].pattern is None
    for data in ("zzz", "L:1:1:join", "langx:ru", "gg:durak", "l", ":", "x:1:1:join"):
        assert route(data, registered) is registered[-1], data
    assert buttons.BUTTON_FAMILIES.keys() | {"h", "fg"} == PRESSES.keys()
