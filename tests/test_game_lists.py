"""The lists of games people read are the registry's: /help's (built from each game's own
``help.<game>`` words by bot/help_text.py, so a new game edits no shared catalog) and the
README's table of commands. A registered game missing from either is named here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.game_commands import choosers, score_presets, table_presets
from bot.game_registry import all_uis, playable
from bot.help_text import help_text
from bot.i18n import LANGUAGES, catalog

README = Path(__file__).parent.parent / "README.md"


def group_commands() -> set[str]:
    """Every group command that opens a game: its own, a chooser's and the presets."""
    return {ui.command for ui in playable() if ui.command} | set(choosers()) | set(table_presets())


def score_words() -> dict[str, set[str]]:
    """Each score-only sheet's words after /score: its game's name or a preset's."""
    words = {ui.name: {ui.score_for} for ui in all_uis() if ui.score_for}
    for word, (name, _) in score_presets().items():
        words[name].add(word)
    return words


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_lists_every_game_from_its_own_catalog(lang):
    missing = [f"help.{ui.name}" for ui in all_uis() if f"help.{ui.name}" not in catalog(lang)]
    assert not missing, f"{lang}: no {missing} in the games' catalogs (bot/locales/{lang}/<game>.json)"
    text = help_text(lang)
    assert "{" not in text, text
    shown = set(re.findall(r"/(\w+)", text))
    assert not group_commands() - shown, f"/help ({lang}) does not name {group_commands() - shown}"
    for words in score_words().values():
        assert any(f"/score {word}" in text for word in words), f"/help ({lang}) does not name /score {words}"


def test_the_readme_table_names_every_command():
    rows = [line for line in README.read_text(encoding="utf-8").splitlines() if line.startswith("| `/")]
    shown = {word for row in rows for word in re.findall(r"`/(\w+)", row.split("|")[1])}
    assert not group_commands() - shown, f"README's table of games has no row for {group_commands() - shown}"
