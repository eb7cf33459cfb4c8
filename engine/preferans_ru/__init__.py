"""Russian preferans (Сочи, Ленинград, Ростов): rules in docs/rules/preferans_ru.md."""

from typing import cast

from engine.base import Game, register

from .game import GAME, PreferansRuGame

# RulesFacade binds the rules functions at class creation, which mypy cannot see
register(cast(Game, GAME))

__all__ = ["GAME", "PreferansRuGame"]
