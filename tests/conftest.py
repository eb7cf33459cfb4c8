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
