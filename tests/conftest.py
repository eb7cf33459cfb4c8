"""Shared fixtures: the in-process fake Telegram server (see tests/fakebot.py) and the
database every end-to-end test runs on -- each test runs once per storage backend."""

import pytest

from tests.fakebot import FakeTelegram


@pytest.fixture
def fake_telegram():
    """A fresh FakeTelegram (bot @CardTestBot, id 123); use with tests.fakebot.build_app."""
    fake = FakeTelegram()
    yield fake
    fake.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request, tmp_path):
    """What the bot opens: a SQLite file, or a fresh schema in the PostgreSQL test
    database (skipped with the reason when PostgreSQL is not reachable, failed instead
    when CARDBOT_REQUIRE_PG=1, as in CI)."""
    if request.param == "sqlite":
        yield str(tmp_path / "bot.sqlite3")
        return
    from tests.pg import drop_schema, fresh_schema_url

    url = await fresh_schema_url()
    try:
        yield url
    finally:
        await drop_schema(url)


GROUP = -1001  # the supergroup most end-to-end tests play in


@pytest.fixture
async def start_bot(fake_telegram, database):
    """Start a BotUnderTest (tests/e2e.py) on a fresh simulated clock; register the chats
    it needs on ``fake_telegram`` first. Every bot started is stopped after the test."""
    from tests.e2e import BotUnderTest, FakeClock

    running = []

    async def start(**options) -> BotUnderTest:
        clock = FakeClock()
        fake_telegram.clock = clock
        bot = await BotUnderTest(fake_telegram, database, clock, **options).start()
        running.append(bot)
        return bot

    yield start
    for bot in running:
        await bot.stop()


@pytest.fixture
async def bot(request, fake_telegram, start_bot):
    """The running bot with one supergroup, GROUP "Кухня", whose admin is user 1. A test
    module that needs other chats defines its own ``bot`` fixture with ``start_bot``.
    ``@pytest.mark.parametrize("bot", ["http"], indirect=True)`` makes the bot's calls go
    over real HTTP (tests/e2e.py ``transport``), as they do to Telegram."""
    fake_telegram.group(GROUP, "Кухня", admins=[1], supergroup=True)
    return await start_bot(transport=getattr(request, "param", "inprocess"))


# The longest tests (tens of seconds each: a browser, real processes killed and restarted)
# start first, so the four workers never end on one of them while the others idle.
LONGEST_FIRST = (
    "tests/test_demo_browser.py",
    "tests/test_webhook_workers.py",
    "tests/test_chaos.py",
    "tests/test_crowd_play.py",
    "tests/test_preferans_ru_random.py",
    "tests/test_ai_preferans_ru.py",
)


def pytest_collection_modifyitems(items):
    def rank(item) -> int:
        path = item.nodeid.split("::", 1)[0]
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # stable: the rest keep their order
