"""The durak computer players by level (engine/ai_levels.py).

- ``easy``: ai_easy.py, the kind simple player the bot had first;
- ``strong``: ai_strong.py, determinized search on the engine with an exact endgame;
- ``normal``: the same search with a much smaller budget.
"""

from __future__ import annotations

import random

from engine.ai_levels import DEFAULT_LEVEL, by_level
from engine.deadline import NEVER, Deadline, anytime
from engine.jsondata import JsonDict

from . import ai_easy, ai_strong

NORMAL = ai_strong.Budget(rollouts=16, min_worlds=2, max_worlds=4, solve_nodes=500)


def _strong(view: JsonDict, legal: list[str], rng: random.Random, deadline: Deadline) -> str:
    return ai_strong.computer_action(view, legal, rng, deadline=deadline)


def _normal(view: JsonDict, legal: list[str], rng: random.Random, deadline: Deadline) -> str:
    return ai_strong.computer_action(view, legal, rng, NORMAL, deadline)


def _easy(view: JsonDict, legal: list[str], rng: random.Random, deadline: Deadline) -> str:
    return ai_easy.computer_action(view, legal, rng)


def computer_action(
    view: JsonDict, legal: list[str], rng: random.Random, level: str = DEFAULT_LEVEL, deadline: Deadline = NEVER
) -> str:
    """One of ``legal``, chosen from this seat's ``view`` only, by ``deadline``."""
    chooser = by_level(level, easy=_easy, normal=_normal, strong=_strong)
    return anytime(
        lambda: chooser(view, legal, rng, deadline), lambda: ai_easy.computer_action(view, legal, rng), deadline
    )
