"""Тысяча (1000): rules spec in docs/rules/thousand.md."""

from engine.base import register

from .errors import ERROR_CODES
from .game import GAME, ThousandGame
from .options import ThousandOptions, parse_options
from .state import State

register(GAME)

__all__ = ["GAME", "ERROR_CODES", "State", "ThousandGame", "ThousandOptions", "parse_options"]
