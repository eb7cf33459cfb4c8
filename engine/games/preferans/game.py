"""The preferans ``engine.base.Game``: a thin facade over ``rules`` (one match = one pulka)."""

from __future__ import annotations

from engine.preferans_family.facade import VariantGame

from . import record, rules
from .ai import computer_action as _computer_action
from .options import PreferansOptions, parse_options
from .state import State


class PreferansGame(VariantGame, rules=rules):
    name = "preferans"
    rules_version = 1
    Options = PreferansOptions
    State = State
    record = record  # the score-only record (engine.score)
    computer_action = staticmethod(_computer_action)
    seats = (3, 3)
    parse_options = staticmethod(parse_options)


GAME = PreferansGame()
