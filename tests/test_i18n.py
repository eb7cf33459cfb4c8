"""Both catalogs say everything: every key exists in Russian and in English, and every
message formats with the same placeholders."""

from __future__ import annotations

import json
import re
import string
from fractions import Fraction
from pathlib import Path

import pytest

from bot.game_registry import engine_words
from bot.i18n import PLURAL_FIELD, PLURAL_FORMS, catalog, pick_lang, plural, t

LOCALES = Path(__file__).parent.parent / "bot" / "locales"


def placeholders(text: str) -> set[str]:
    """The parameters a message takes: "{n|trick|tricks}" takes ``n`` like "{n}" does."""
    return {name.split("|")[0] for _, name, _, _ in string.Formatter().parse(text) if name}


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


@pytest.mark.parametrize("words", engine_words())
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


# ------------------------------------------------------------------------- plurals
COUNTS = (0, 1, 2, 5, 11, 21, 22, 25)
# the plural category of each count, written out here rather than computed by the code
# under test: English one/other; Russian 1, 21 one; 2-4, 22-24 few; 0, 5-20, 25 many
CATEGORY = {
    "en": dict.fromkeys(COUNTS, "other") | {1: "one"},
    "ru": {0: "many", 1: "one", 2: "few", 5: "many", 11: "many", 21: "one", 22: "few", 25: "many"},
}
PLURAL_KEYS = sorted({key for lang in PLURAL_FORMS for key, text in catalog(lang).items() if "|" in text})


def test_plural_rules():
    for n in COUNTS:
        assert plural("en", n, "trick", "tricks") == ("trick" if n == 1 else "tricks")
        assert (
            plural("ru", n, "взятка", "взятки", "взяток")
            == {"one": "взятка", "few": "взятки", "many": "взяток"}[CATEGORY["ru"][n]]
        )
    assert [plural("ru", n, "a", "b", "c") for n in (111, 112, 104, 1001, 14)] == ["c", "c", "b", "a", "c"]
    # signs, fractions and the numbers the sheets print: a fraction takes "взятки"
    assert plural("ru", -21, "a", "b", "c") == "a" and plural("ru", "−2", "a", "b", "c") == "b"
    assert plural("ru", Fraction(5, 2), "a", "b", "c") == "b" and plural("ru", "10/3", "a", "b", "c") == "b"
    assert plural("en", Fraction(1, 2), "trick", "tricks") == "tricks" and plural("en", "−1", "x", "xs") == "x"


def test_counted_nouns_agree():
    assert [t("en", "king.tricks_count", n=n) for n in (1, 2, 0)] == ["1 trick", "2 tricks", "0 tricks"]
    ru = [t("ru", "king.tricks_count", n=n) for n in COUNTS]
    assert ru == ["0 взяток", "1 взятка", "2 взятки", "5 взяток", "11 взяток", "21 взятка", "22 взятки", "25 взяток"]
    assert t("ru", "durak.deck", n=24) == "24 карты" and t("ru", "durak.deck", n=36) == "36 карт"
    assert t("en", "timer.minutes", n=1) == "1 minute a move" and t("ru", "timer.hours", n=24) == "24 часа на ход"
    assert t("en", "forget.done", n=1) == "Erased: 1 finished game and this group's ratings."
    assert t("ru", "watch.err.full", n=21).startswith("У этого стола уже 21 зритель ")
    assert t("ru", "bridge.explain.hcp", lo=20, hi=21) == "20–21 очко"
    assert t("ru", "bridge.explain.hcp_min", lo=22) == "от 22 очков"
    assert t("en", "bridge.claim_line", seat="N", name="Ann", k=1, rest=1).startswith(
        "N (Ann) claims 1 of the remaining 1 trick "
    )


@pytest.mark.parametrize("key", PLURAL_KEYS)
def test_every_plural_message_renders_each_count(key):
    """Each message with a plural field, in both languages, for every count: the form of
    the written-out category, in a message left with no braces or bars."""
    for lang, order in PLURAL_FORMS.items():
        text = catalog(lang)[key]
        fields = PLURAL_FIELD.findall(text)
        for _, forms in fields:
            assert len(forms.split("|")) == len(order), (lang, key, forms)
        for n in COUNTS:
            params = dict.fromkeys(placeholders(text), n)
            expected = PLURAL_FIELD.sub(lambda m: m.group(2).split("|")[order.index(CATEGORY[lang][n])], text)
            shown = t(lang, key, **params)
            assert shown == expected.format(**params), (lang, key, n)
            assert "|" not in shown and "{" not in shown, (lang, key, n)


COUNT_PARAMS = r"n|k|lo|hi|m|rest|tricks|count|total|games|wins|points|diff|deals"
NOUNS = (
    r"tricks?|cards?|players?|games?|points?|spectators?|whists?|deals?|boards?|rubbers?|hours?|minutes?|seconds?|"
    r"взят\w*|карт\w*|игрок\w*|парти\w*|очк\w*|зрител\w*|вист\w*|раздач\w*|сдач\w*|час\w*|минут\w*|секунд\w*"
)
BARE_COUNT = re.compile(rf"\{{({COUNT_PARAMS})\}}\s+({NOUNS})\b")


@pytest.mark.parametrize("name", sorted(p.name for p in (LOCALES / "en").glob("*.json")))
def test_no_count_before_a_noun_without_its_plural(name):
    """ "{n} tricks" says "1 tricks": a number before a counted noun takes a plural field."""
    for lang in PLURAL_FORMS:
        for key, text in json.loads((LOCALES / lang / name).read_text(encoding="utf-8")).items():
            assert not BARE_COUNT.search(text), (lang, key, text)
