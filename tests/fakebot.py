"""The tests' fake Bot API: the emulator now ships in the package (bot/emulator/telegram_fake.py)
so ``cardbot demo`` can serve it too. This module keeps the old import path and names."""

from bot.emulator.telegram_fake import (  # noqa: F401 (re-exported for the tests and benches)
    _HTML_TAGS,
    _NAMED,
    NOT_MODIFIED,
    QUERY_INVALID,
    SEND_METHODS,
    APIError,
    Call,
    CallbackAnswer,
    FakeChat,
    FakeMessage,
    FakeRequest,
    FakeTelegram,
    FakeUser,
    MessageVersion,
    NetworkFault,
    _bad,
    _decode_entities,
    _normalize_markup,
    _render_html,
    _render_mdv2,
    _utf16_len,
    build_app,
    render,
)
