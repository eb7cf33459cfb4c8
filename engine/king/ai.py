"""The king computer players by level (engine/ai_levels.py): ``easy`` is ai_easy.py
(today's heuristic player, unchanged); ``strong`` is ai_strong.py (determinized
look-ahead with play-outs and an exact endgame search); ``normal`` is the same look-ahead
in the trick play only, with a tiny budget (2 samples, no exact search), and the easy
heuristic for the trump choice and deals 7–8 (``ai_strong.NORMAL``)."""

from __future__ import annotations

import random

from engine.ai_levels import DEFAULT_LEVEL, by_level
from engine.jsondata import JsonDict

from . import ai_easy, ai_strong


def _strong(view: JsonDict, legal: list[str], rng: random.Random) -> str:
    return ai_strong.computer_action(view, legal, rng, ai_strong.STRONG)


def _normal(view: JsonDict, legal: list[str], rng: random.Random) -> str:
    return ai_strong.computer_action(view, legal, rng, ai_strong.NORMAL)


def computer_action(view: JsonDict, legal: list[str], rng: random.Random, level: str = DEFAULT_LEVEL) -> str:
    """One of ``legal``, chosen from this seat's ``view`` only."""
    chooser = by_level(level, easy=ai_easy.computer_action, normal=_normal, strong=_strong)
    return chooser(view, legal, rng)
