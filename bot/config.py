"""Configuration from the environment, or from a ``.env`` file in the working directory
(``KEY=value`` lines; real environment variables win)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


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


@dataclass(frozen=True)
class Settings:
    token: str
    db_path: str = "cardbot.sqlite3"
    api_base_url: str | None = None  # e.g. http://localhost:8081/bot for a self-hosted Bot API
    log_level: str = "INFO"

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, dotenv: Path | None = Path(".env")) -> "Settings":
        merged = dict(read_dotenv(dotenv)) if dotenv else {}
        merged.update(os.environ if env is None else env)
        token = merged.get("TELEGRAM_BOT_TOKEN", "").strip()
        if not token:
            raise ConfigError(
                "TELEGRAM_BOT_TOKEN is not set. Get a token from @BotFather (see deploy/BOTFATHER.md) "
                "and put it in the environment or in a .env file: TELEGRAM_BOT_TOKEN=123456:ABC...")
        return cls(
            token=token,
            db_path=merged.get("CARDBOT_DB", "cardbot.sqlite3"),
            api_base_url=merged.get("TELEGRAM_API_BASE_URL") or None,
            log_level=merged.get("CARDBOT_LOG_LEVEL", "INFO"),
        )
