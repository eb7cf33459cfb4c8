"""/help and /start's text: core's frame (``help.text`` in core.json) around the lists of
games, each game's entry read from its own catalog (``help.<game>``: its commands, e.g.
"/bridge, /chicago (bridge in four-deal rounds)"; a score-only sheet's: "/score bridge"),
in the registry's order. A new game adds its entry to its own catalog files, never to
core's text."""

from __future__ import annotations

from bot.game_registry import all_uis
from bot.i18n import t


def help_text(lang: str) -> str:
    uis = all_uis()
    games = ", ".join(t(lang, f"help.{ui.name}") for ui in uis if not ui.score_for)
    sheets = ", ".join(t(lang, f"help.{ui.name}") for ui in uis if ui.score_for)
    return t(lang, "help.text", games=games, sheets=sheets)
