"""The group commands the registered games bring (``/durak``, ``/score sochi``, a
chooser's variants), looked up in the registry: no game is named here."""

from __future__ import annotations

from bot.game_ui import GameUI
from bot.game_registry import all_uis, playable


def playable_games() -> list[str]:
    """Games with a table of their own (``/durak``, ``/king``…), in /newgame order."""
    return [ui.name for ui in playable()]


def score_games() -> dict[str, str]:
    """``/score <game>`` → the score-only table's game name."""
    return {ui.score_for: ui.name for ui in all_uis() if ui.score_for}


def score_presets() -> dict[str, tuple[str, dict]]:
    """``/score <word>`` → (the score-only table's game name, its options), e.g. ``sochi``."""
    return {word: (ui.name, options) for ui in all_uis() for word, options in ui.score_presets.items()}


def table_presets() -> dict[str, tuple[str, dict]]:
    """``/sochi`` → (the game name, its options): group commands that open a preset table."""
    return {word: (ui.name, options) for ui in all_uis() for word, options in ui.table_presets.items()}


def choosers() -> dict[str, GameUI]:
    """``/preferans`` → the game whose command asks which variant to open (``GameUI.choices``)."""
    return {ui.command: ui for ui in all_uis() if ui.choices}


def variant_choices() -> dict[str, tuple[str, dict, str]]:
    """A chooser's button ``pf:<word>`` → (the game name, its options, the button's text key)."""
    return {
        word: (game, options, f"{ui.choice_words}.choice.{word}")
        for ui in choosers().values()
        for word, (game, options) in ui.choices.items()
    }
