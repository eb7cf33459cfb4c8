"""Per-game Telegram presentation: one module per game, each providing a ``GameUI``.
The service and the sender stay game-agnostic; everything a game shows or offers in
the lobby lives in its module here."""

from __future__ import annotations

from bot.games.base import GameUI

_UIS: dict[str, GameUI] = {}


def register_ui(ui: GameUI) -> GameUI:
    _UIS[ui.name] = ui
    return ui


def ui_for(game: str) -> GameUI:
    if game not in _UIS:
        _load_all()
    return _UIS[game]


def all_uis() -> list[GameUI]:
    _load_all()  # cheap after the first time: modules are imported once
    return sorted(_UIS.values(), key=lambda ui: ui.order)


def _load_all() -> None:
    import importlib
    import pkgutil

    import bot.games as package

    for module in pkgutil.iter_modules(package.__path__):
        if module.name != "base":
            importlib.import_module(f"bot.games.{module.name}")
