"""``/rules <game>`` ends with a pointer to the full rules in the repository: a link when
CARDBOT_RULES_URL is set, the file's path otherwise; every game's file exists."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, Settings
from bot.game_registry import all_uis
from bot.rules_link import RULES_DIR, full_rules_line

ROOT = Path(__file__).parent.parent


def test_every_game_and_the_records_have_their_rules_file():
    games = {ui.name for ui in all_uis() if not ui.score_for}
    assert games >= {"durak", "preferans", "king", "bridge", "whist"}
    for name in sorted(games) + ["records"]:
        assert (ROOT / RULES_DIR / f"{name}.md").is_file(), name


def test_link_with_a_configured_address():
    line = full_rules_line("king", "en", "https://example.org/repo/blob/main/docs/rules/")
    assert line == (
        'Full rules: <a href="https://example.org/repo/blob/main/docs/rules/king.md">docs/rules/king.md</a>'
    )
    assert full_rules_line("king", "ru", "https://x.org/a?b=1&c=2").startswith(
        'Полные правила: <a href="https://x.org/a?b=1&amp;c=2/king.md">'
    )


def test_path_without_an_address():
    assert full_rules_line("bridge", "en", None) == "Full rules: docs/rules/bridge.md in the bot's repository."
    assert "docs/rules/durak.md" in full_rules_line("durak", "ru", "")


def test_the_address_comes_from_the_environment():
    env = {"TELEGRAM_BOT_TOKEN": "1:abc"}
    assert Settings.from_env(env=env, dotenv=None).rules_url is None
    url = "https://example.org/repo/blob/main/docs/rules"
    assert Settings.from_env(env={**env, "CARDBOT_RULES_URL": url}, dotenv=None).rules_url == url
    with pytest.raises(ConfigError, match="CARDBOT_RULES_URL"):
        Settings.from_env(env={**env, "CARDBOT_RULES_URL": "javascript:alert(1)"}, dotenv=None)
