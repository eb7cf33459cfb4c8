"""Message catalogs: every ``bot/locales/<lang>/*.json`` file merged (``core.json`` plus
one file per game, so each game keeps its own words), plus the words an engine owns
because it prints them without the bot (a game's ``GameUI.words``: the bridge score sheet),
added by ``bot.game_registry`` as each game registers.
``t(lang, key, **params)`` formats a message with ``str.format``; a key missing in one
language falls back to English, and a key missing everywhere shows the key itself (a
visible bug, never a crash).

A counted noun is written as a plural field, ``{n|trick|tricks}`` in English and
``{n|взятка|взятки|взяток}`` in Russian: the word that agrees with the parameter ``n``
(the number itself is written separately, "{n} {n|trick|tricks}" -> "1 trick"). The forms
follow ``PLURAL_FORMS``: English one/other, Russian one/few/many."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

LANGUAGES = ("ru", "en")
DEFAULT_LANG = "ru"
_DIR = Path(__file__).parent / "locales"
PLURAL_FORMS = {"en": ("one", "other"), "ru": ("one", "few", "many")}
# {name|form|form...}: a plural field (no braces inside, so "{n}" next to it stays a field)
PLURAL_FIELD = re.compile(r"\{(\w+)\|([^{}]*)\}")


@lru_cache(maxsize=None)
def catalog(lang: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for path in sorted((_DIR / lang).glob("*.json")):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    for words in _engine_words:
        merged.update(words.get(lang, {}))
    return merged


_engine_words: list[dict[str, dict[str, str]]] = []  # pushed by bot.game_registry


def add_words(words: dict[str, dict[str, str]]) -> None:
    """Words an engine owns ({lang: {key: text}}), added by ``bot.game_registry`` as its
    game registers: this module imports no game (the games' modules import it)."""
    _engine_words.append(words)
    catalog.cache_clear()


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


def _number(value: object) -> Fraction | None:
    """A count as a number: ints, fractions and the strings the sheets show ("−3", "10/3",
    "2.5"); None when it is not a number."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(value).limit_denominator(1000)
    try:
        return Fraction(str(value).strip().replace("−", "-").replace(",", ".").lstrip("+"))
    except (ValueError, ZeroDivisionError):
        return None


def plural_form(lang: str, count: object) -> str:
    """The plural category of ``count`` in ``lang`` (one of ``PLURAL_FORMS[lang]``)."""
    number = _number(count)
    if lang == "ru":
        if number is None:
            return "many"
        if number.denominator != 1:
            return "few"  # a fraction takes the genitive singular: "2,5 взятки", "1/3 виста"
        n = abs(number.numerator)
        if n % 10 == 1 and n % 100 != 11:
            return "one"  # 1, 21, 101 взятка
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"  # 2-4, 22-24 взятки
        return "many"  # 0, 5-20, 25 взяток
    return "one" if number is not None and abs(number) == 1 else "other"


def plural(lang: str, count: object, *forms: str) -> str:
    """The one of ``forms`` (ordered as ``PLURAL_FORMS[lang]``) that agrees with ``count``;
    the last form when fewer are given."""
    order = PLURAL_FORMS.get(lang, PLURAL_FORMS["en"])
    index = order.index(plural_form(lang if lang in PLURAL_FORMS else "en", count))
    return forms[min(index, len(forms) - 1)]


def _plurals(lang: str, text: str, params: dict[str, object]) -> str:
    def word(match: re.Match[str]) -> str:
        name, forms = match.group(1), match.group(2).split("|")
        return plural(lang, params[name], *forms) if name in params else match.group(0)

    return PLURAL_FIELD.sub(word, text)


def t(lang: str, key: str, **params: object) -> str:
    lang = lang if lang in LANGUAGES else "en"
    text = catalog(lang).get(key)
    if text is None:
        text, lang = catalog("en").get(key, key), "en"  # the English forms for English words
    if not params:
        return text
    return _plurals(lang, text, params).format(**params)
