"""The Russian preferans ``engine.base.Game``: a thin facade over ``rules`` (one match =
one pulka). ``computer_action`` is the computer player's choice from a seat's own view."""

from __future__ import annotations

from engine.preferans_family.facade import VariantGame

from . import record, rules
from .ai import computer_action
from .options import PreferansRuOptions, parse_options
from .state import State


class PreferansRuGame(VariantGame, rules=rules):
    name = "preferans_ru"
    rules_version = 1
    Options = PreferansRuOptions
    State = State
    record = record  # the score-only record (engine.score)
    computer_action = staticmethod(computer_action)
    seats = (3, 4)
    parse_options = staticmethod(parse_options)


GAME = PreferansRuGame()
