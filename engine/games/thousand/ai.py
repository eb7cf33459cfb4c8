"""The Тысяча computer players by level (engine/ai_levels.py): ``easy`` is ai_easy.py;
``normal`` and ``strong`` are ai_strong.py with a small and a full sampling budget."""

from __future__ import annotations

import random

from engine.ai_levels import DEFAULT_LEVEL, by_level
from engine.deadline import NEVER, Deadline
from engine.jsondata import JsonDict

from . import ai_easy, ai_strong


def computer_action(
    view: JsonDict, legal: list[str], rng: random.Random, level: str = DEFAULT_LEVEL, deadline: Deadline = NEVER
) -> str:
    """One of ``legal``, chosen from this seat's ``view`` only, by ``deadline``."""
    if level == "easy":
        return ai_easy.computer_action(view, legal, rng)
    chooser = by_level(
        level, easy=ai_easy.computer_action, normal=ai_strong.computer_action_normal, strong=ai_strong.computer_action
    )
    return chooser(view, legal, rng, deadline)
