"""The registry of games on the bot side: each game module registers its ``GameUI`` (the
game's manifest, ``bot.game_ui``) once, and every list of games in the bot and the
benches is read from here. Game modules are found by walking ``bot.games``, so the shared
modules never import one by name."""

from __future__ import annotations

import importlib
import pkgutil

from bot.game_ui import GameUI
from bot.i18n import add_words

_UIS: dict[str, GameUI] = {}


def register_ui(ui: GameUI) -> GameUI:
    if ui.words and ui.name not in _UIS:
        add_words(ui.words)  # the catalogs know the engine's words from now on
    _UIS[ui.name] = ui
    return ui


def ui_for(game: str) -> GameUI:
    if game not in _UIS:
        _load_all()
    return _UIS[game]


def all_uis() -> list[GameUI]:
    _load_all()  # cheap after the first time: modules are imported once
    return sorted(_UIS.values(), key=lambda ui: ui.order)


def engine_words() -> list[dict[str, dict[str, str]]]:
    """The games' engine-owned words, each {lang: {key: text}} (``bot.i18n.add_words``)."""
    return [ui.words for ui in all_uis() if ui.words]


def playable() -> list[GameUI]:
    """Games with a table of their own (``/durak``, ``/king``…), in /newgame order: not
    the score-only sheets."""
    return [ui for ui in all_uis() if not ui.score_for]


def _load_all() -> None:
    import bot.games as package

    for module in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{package.__name__}.{module.name}")
