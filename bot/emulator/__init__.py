"""A Telegram Bot API emulator: Telegram's rules that matter to the bot (HTML parse mode with
Telegram's tag set, 4096 characters, 64-byte callback data, "message is not modified", 403
before the person opened the DM, flood limits) kept in memory. One emulator serves the tests
(in-process, ``telegram_fake``), the multi-process tests and benchmarks (over HTTP,
``http_api``) and ``cardbot demo`` (``demo``: the same HTTP API plus a web page that plays the
people)."""
