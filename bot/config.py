"""Configuration from the environment, or from a ``.env`` file in the working directory
(``KEY=value`` lines; real environment variables win)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from engine.ai_levels import LEVELS


class ConfigError(Exception):
    pass


def read_dotenv(path: Path) -> dict[str, str]:
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = line.split("=", 1)
        key = key.strip().removeprefix("export ").strip()
        values[key] = value.strip().strip('"').strip("'")
    return values


SECRET_TOKEN = re.compile(r"^[A-Za-z0-9_-]{1,256}$")  # what Telegram accepts as secret_token


@dataclass(frozen=True)
class Settings:
    token: str
    db_path: str = "cardbot.sqlite3"
    api_base_url: str | None = None  # e.g. http://localhost:8081/bot for a self-hosted Bot API
    log_level: str = "INFO"
    database_url: str | None = None  # postgresql://... (or sqlite:///path); wins over db_path
    webhook_url: str | None = None  # the public HTTPS address Telegram posts updates to
    webhook_secret: str | None = None  # checked on every webhook request
    listen: str = "0.0.0.0:8080"  # where `cardbot webhook` accepts them (behind the proxy)
    computer_level: str = "strong"  # the computers' level at a new table (easy, normal, strong)
    computer_workers: int | None = None  # processes the computers think in; None = one per CPU
    rules_url: str | None = None  # web folder of docs/rules/ (bot/rules_link.py); None = name the file

    @property
    def database(self) -> str:
        """What storage.factory.repository_for opens: the URL, else the SQLite path."""
        return self.database_url or self.db_path

    def webhook(self) -> tuple[str, int, str]:
        """(host, port, url path) for webhook mode; ConfigError when it is not set up."""
        if not self.webhook_url or not self.webhook_url.startswith("https://"):
            raise ConfigError(
                "CARDBOT_WEBHOOK_URL must be the public https:// address Telegram "
                "posts updates to, e.g. https://bot.example.com/telegram"
            )
        if not self.webhook_secret or not SECRET_TOKEN.match(self.webhook_secret):
            raise ConfigError(
                "CARDBOT_WEBHOOK_SECRET must be set: 1-256 characters of A-Z, a-z, "
                "0-9, _ and - (e.g. the output of: python3 -c 'import secrets; "
                "print(secrets.token_urlsafe(32))')"
            )
        host, _, port = self.listen.rpartition(":")
        if not port.isdigit():
            raise ConfigError(f"CARDBOT_LISTEN must be host:port, got {self.listen!r}")
        return host or "0.0.0.0", int(port), urlsplit(self.webhook_url).path.strip("/")

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, dotenv: Path | None = Path(".env")) -> "Settings":
        merged = dict(read_dotenv(dotenv)) if dotenv else {}
        merged.update(os.environ if env is None else env)
        token = merged.get("TELEGRAM_BOT_TOKEN", "").strip()
        if not token:
            raise ConfigError(
                "TELEGRAM_BOT_TOKEN is not set. Get a token from @BotFather (see deploy/BOTFATHER.md) "
                "and put it in the environment or in a .env file: TELEGRAM_BOT_TOKEN=123456:ABC... "
                "(To try the bot in a browser without a token: cardbot demo)"
            )
        return cls(
            token=token,
            db_path=merged.get("CARDBOT_DB", "cardbot.sqlite3"),
            api_base_url=merged.get("TELEGRAM_API_BASE_URL") or None,
            log_level=merged.get("CARDBOT_LOG_LEVEL", "INFO"),
            database_url=merged.get("CARDBOT_DATABASE_URL") or None,
            webhook_url=merged.get("CARDBOT_WEBHOOK_URL") or None,
            webhook_secret=merged.get("CARDBOT_WEBHOOK_SECRET") or None,
            listen=merged.get("CARDBOT_LISTEN") or "0.0.0.0:8080",
            computer_level=_level(merged.get("CARDBOT_COMPUTER_LEVEL") or "strong"),
            computer_workers=_workers(merged.get("CARDBOT_COMPUTER_WORKERS")),
            rules_url=_rules_url(merged.get("CARDBOT_RULES_URL")),
        )


def _level(value: str) -> str:
    if value not in LEVELS:
        raise ConfigError(f"CARDBOT_COMPUTER_LEVEL must be one of {', '.join(LEVELS)}, got {value[:40]!r}")
    return value


def _workers(value: str | None) -> int | None:
    if not value:
        return None
    if not value.isascii() or not value.isdigit() or int(value) > 256:
        raise ConfigError(
            f"CARDBOT_COMPUTER_WORKERS must be a number of processes (0 = think in a thread), got {value[:40]!r}"
        )
    return int(value)


def _rules_url(value: str | None) -> str | None:
    if not value:
        return None
    if not value.startswith(("https://", "http://")):
        raise ConfigError(
            f"CARDBOT_RULES_URL must be the http(s):// address of the repository's "
            f"docs/rules folder, got {value[:60]!r}"
        )
    return value
