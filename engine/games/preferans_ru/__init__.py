"""Russian preferans (Сочи, Ленинград, Ростов): rules in docs/rules/preferans_ru.md."""

from typing import cast

from engine.base import Game, register

from .game import GAME, PreferansRuGame
from .score_game import SCORE_GAME

# RulesFacade binds the rules functions at class creation, which mypy cannot see
register(cast(Game, GAME))
register(cast(Game, SCORE_GAME))  # the score-only пулька (/score sochi|leningrad|rostov)

__all__ = ["GAME", "SCORE_GAME", "PreferansRuGame"]
