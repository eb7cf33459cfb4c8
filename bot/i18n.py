"""Message catalogs: every ``bot/locales/<lang>/*.json`` file merged (``core.json`` plus
one file per game, so each game keeps its own words), plus the words an engine owns
because it prints them without the bot (the bridge score sheet, ``engine/bridge/words.py``).
``t(lang, key, **params)`` formats a message with ``str.format``; a key missing in one
language falls back to English, and a key missing everywhere shows the key itself (a
visible bug, never a crash)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from engine.bridge.words import WORDS as BRIDGE_SHEET_WORDS

LANGUAGES = ("ru", "en")
DEFAULT_LANG = "ru"
_DIR = Path(__file__).parent / "locales"
ENGINE_WORDS = (BRIDGE_SHEET_WORDS,)  # each {lang: {key: text}}


@lru_cache(maxsize=None)
def catalog(lang: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for path in sorted((_DIR / lang).glob("*.json")):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    for words in ENGINE_WORDS:
        merged.update(words.get(lang, {}))
    return merged


def pick_lang(code: str | None) -> str:
    """Telegram's ``language_code`` ("ru", "en-US", "uk") -> a catalog we have."""
    if code:
        short = code.split("-")[0].lower()
        if short in LANGUAGES:
            return short
        if short in ("uk", "be", "kk"):
            return "ru"
        return "en"
    return DEFAULT_LANG


def t(lang: str, key: str, **params: object) -> str:
    text = catalog(lang if lang in LANGUAGES else "en").get(key)
    if text is None:
        text = catalog("en").get(key, key)
    return text.format(**params) if params else text


def has(lang: str, key: str) -> bool:
    return key in catalog(lang) or key in catalog("en")
