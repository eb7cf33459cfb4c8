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
    assert "TELEGRAM_BOT_TOKEN is not set" in err and "BotFather" in err and "cardbot demo" in err


def test_settings_from_dotenv_and_environment(tmp_path):
    dotenv = tmp_path / ".env"
    dotenv.write_text(
        "# comment\nTELEGRAM_BOT_TOKEN='1:abc'\nCARDBOT_DB=x.db\nexport TELEGRAM_API_BASE_URL=http://localhost:8081\n",
        encoding="utf-8",
    )
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


def test_replay_prints_the_result_and_names_the_first_bad_action(tmp_path, capsys):
    from pathlib import Path

    example = Path(__file__).parent.parent / "docs" / "examples" / "durak_game.json"
    assert main(["replay", str(example)]) == 0
    out = capsys.readouterr().out
    assert '"result"' in out
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "durak", "players": 2, "actions": ["deal dealer=0 lead=rule 6S"]}')
    assert main(["replay", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "action 0" in captured.err
    bad.write_text("{not json")
    assert main(["replay", str(bad)]) == 2


def test_selfplay_prints_games_per_second(capsys):
    assert main(["selfplay", "durak", "--games", "5", "--seed", "3"]) == 0
    assert "games/s" in capsys.readouterr().out
    assert main(["selfplay", "nosuchgame"]) == 2


def test_database_url_picks_postgresql_and_wins_over_the_sqlite_path(tmp_path):
    from storage.factory import repository_for
    from storage.postgres import PostgresRepository
    from storage.sqlite import SqliteRepository

    env = {"TELEGRAM_BOT_TOKEN": "1:abc", "CARDBOT_DB": "x.db"}
    assert isinstance(repository_for(Settings.from_env(env=env, dotenv=None).database), SqliteRepository)
    env["CARDBOT_DATABASE_URL"] = "postgresql://cardbot@db:5432/cardbot"
    settings = Settings.from_env(env=env, dotenv=None)
    assert settings.database == "postgresql://cardbot@db:5432/cardbot"
    assert isinstance(repository_for(settings.database), PostgresRepository)


@pytest.mark.parametrize(
    "env, complaint",
    [
        ({}, "CARDBOT_WEBHOOK_URL"),
        ({"CARDBOT_WEBHOOK_URL": "http://plain.example/tg"}, "https://"),
        ({"CARDBOT_WEBHOOK_URL": "https://b.example/tg"}, "CARDBOT_WEBHOOK_SECRET must be set"),
        (
            {"CARDBOT_WEBHOOK_URL": "https://b.example/tg", "CARDBOT_WEBHOOK_SECRET": "has space"},
            "CARDBOT_WEBHOOK_SECRET",
        ),
        (
            {
                "CARDBOT_WEBHOOK_URL": "https://b.example/tg",
                "CARDBOT_WEBHOOK_SECRET": "ok",
                "CARDBOT_LISTEN": "nowhere",
            },
            "CARDBOT_LISTEN",
        ),
    ],
)
def test_webhook_mode_refuses_to_start_half_configured(monkeypatch, tmp_path, capsys, env, complaint):
    for name in ("CARDBOT_WEBHOOK_URL", "CARDBOT_WEBHOOK_SECRET", "CARDBOT_LISTEN", "CARDBOT_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "1:abc")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)
    assert main(["webhook"]) == 2
    assert complaint in capsys.readouterr().err


def test_webhook_settings_give_host_port_and_path():
    settings = Settings(
        token="1:abc", webhook_url="https://cards.example/hooks/tg", webhook_secret="s3cret-_", listen="127.0.0.1:8443"
    )
    assert settings.webhook() == ("127.0.0.1", 8443, "hooks/tg")


def test_a_reader_that_goes_away_ends_the_output_quietly(tmp_path):
    """`cardbot score game.json | head -1`: the pipe closes after one line; the command
    stops without a BrokenPipeError traceback."""
    import json
    import subprocess
    import sys

    deals = []
    for i, x in enumerate("ABC" * 100):  # made and lost by turns; the бочка keeps everyone under 1000
        made = i // 3 % 2 == 0
        deals.append(
            {"declarer": x, "contract": 100, "made": made, "points": {y: 0 if made else 60 for y in "ABC" if y != x}}
        )
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"game": "thousand", "deals": deals}), "utf-8")
    command = [sys.executable, "-m", "bot.cli", "score", str(path)]
    # an output bigger than a pipe holds (300 deals' JSON, ~100 KB) read for ten bytes only
    done = subprocess.run(
        f"{subprocess.list2cmdline(command)} | head -c 10 >/dev/null", shell=True, capture_output=True, timeout=60
    )
    assert done.stderr == b""


def test_ctrl_c_before_a_command_is_up_is_one_line(monkeypatch, capsys):
    """A KeyboardInterrupt out of a command (Ctrl+C while it imports, or in a long
    selfplay): one line and the shell's interrupt status 130, no traceback."""
    import engine.selfplay

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(engine.selfplay, "selfplay", interrupted)
    assert main(["selfplay", "durak", "--games", "1"]) == 130
    assert capsys.readouterr().err == "cardbot selfplay: interrupted\n"
