"""Both catalogs say everything: every key exists in Russian and in English, and every
message formats with the same placeholders."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest

from bot.i18n import ENGINE_WORDS, pick_lang, t

LOCALES = Path(__file__).parent.parent / "bot" / "locales"


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("name", sorted(p.name for p in (LOCALES / "en").glob("*.json")))
def test_catalog_files_match(name):
    ru = json.loads((LOCALES / "ru" / name).read_text(encoding="utf-8"))
    en = json.loads((LOCALES / "en" / name).read_text(encoding="utf-8"))
    assert set(ru) == set(en), set(ru) ^ set(en)
    for key in ru:
        assert placeholders(ru[key]) == placeholders(en[key]), key


def test_language_pick_and_fallback():
    assert pick_lang("ru") == "ru" and pick_lang("en-US") == "en" and pick_lang("uk") == "ru"
    assert pick_lang("de") == "en" and pick_lang(None) == "ru"
    assert t("ru", "no.such.key") == "no.such.key"
    assert t("en", "durak.deck", n=36) == "36 cards"


@pytest.mark.parametrize("words", ENGINE_WORDS)
def test_engine_words_match_and_reach_the_bot(words):
    """Words an engine owns (the bridge sheet): both languages, same placeholders, no key
    that a bot catalog also defines, and ``t`` finds them."""
    assert set(words["ru"]) == set(words["en"]), set(words["ru"]) ^ set(words["en"])
    bot_keys = {key for path in LOCALES.glob("*/*.json") for key in json.loads(path.read_text(encoding="utf-8"))}
    assert not bot_keys & set(words["en"])
    for lang in ("ru", "en"):
        for key, text in words[lang].items():
            assert placeholders(text) == placeholders(words["en"][key]), key
            assert t(lang, key) == text
