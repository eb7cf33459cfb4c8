"""The durak computer players by level (engine/ai_levels.py).

- ``easy``: ai_easy.py, the kind simple player the bot had first;
- ``strong``: ai_strong.py, determinized search on the engine with an exact endgame;
- ``normal``: the same search with a much smaller budget.
"""

from __future__ import annotations

import random

from engine.ai_levels import DEFAULT_LEVEL, by_level
from engine.jsondata import JsonDict

from . import ai_easy, ai_strong

NORMAL = ai_strong.Budget(rollouts=16, min_worlds=2, max_worlds=4, solve_nodes=500)


def _strong(view: JsonDict, legal: list[str], rng: random.Random) -> str:
    return ai_strong.computer_action(view, legal, rng)


def _normal(view: JsonDict, legal: list[str], rng: random.Random) -> str:
    return ai_strong.computer_action(view, legal, rng, NORMAL)


def computer_action(view: JsonDict, legal: list[str], rng: random.Random, level: str = DEFAULT_LEVEL) -> str:
    """One of ``legal``, chosen from this seat's ``view`` only."""
    chooser = by_level(level, easy=ai_easy.computer_action, normal=_normal, strong=_strong)
    return chooser(view, legal, rng)
