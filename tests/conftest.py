"""Shared fixtures: the in-process fake Telegram server (see tests/fakebot.py)."""
import pytest

from tests.fakebot import FakeTelegram


@pytest.fixture
def fake_telegram():
    """A fresh FakeTelegram (bot @CardTestBot, id 123); use with tests.fakebot.build_app."""
    fake = FakeTelegram()
    yield fake
    fake.close()
