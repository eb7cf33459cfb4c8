"""The cardbot command line: a missing token is a clear message, not a traceback."""
from __future__ import annotations

import pytest

from bot.cli import main
from bot.config import ConfigError, Settings, read_dotenv


def test_run_without_token_explains_and_exits_2(monkeypatch, tmp_path, capsys):
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "TELEGRAM_BOT_TOKEN is not set" in err and "BotFather" in err


def test_settings_from_dotenv_and_environment(tmp_path):
    dotenv = tmp_path / ".env"
    dotenv.write_text("# comment\nTELEGRAM_BOT_TOKEN='1:abc'\nCARDBOT_DB=x.db\n"
                      "export TELEGRAM_API_BASE_URL=http://localhost:8081\n", encoding="utf-8")
    assert read_dotenv(dotenv)["TELEGRAM_BOT_TOKEN"] == "1:abc"
    settings = Settings.from_env(env={}, dotenv=dotenv)
    assert (settings.token, settings.db_path, settings.api_base_url) == ("1:abc", "x.db", "http://localhost:8081")
    # the real environment wins over .env
    assert Settings.from_env(env={"TELEGRAM_BOT_TOKEN": "2:def"}, dotenv=dotenv).token == "2:def"
    with pytest.raises(ConfigError):
        Settings.from_env(env={}, dotenv=tmp_path / "missing")


def test_bot_api_base_url_is_configurable(tmp_path):
    from bot.app import build_application

    settings = Settings(token="1:abc", db_path=str(tmp_path / "x.db"), api_base_url="http://localhost:8081")
    app = build_application(settings)
    assert app.bot.base_url == "http://localhost:8081/bot1:abc"
    assert app.bot.base_file_url == "http://localhost:8081/file/bot1:abc"
