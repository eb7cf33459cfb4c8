"""The preferans computer players by level (engine/ai_levels.py).

``easy`` is ai_easy.py (today's kind player); ``strong`` is ai_strong.py (sampled
double-dummy play and expected-value decisions); ``normal`` is the strong player with a
much smaller search budget (see ``ai_strong.normal_action``)."""

from __future__ import annotations

import random

from engine.ai_levels import DEFAULT_LEVEL, by_level
from engine.deadline import NEVER, Deadline, anytime
from engine.jsondata import JsonDict

from . import ai_easy, ai_strong


def computer_action(
    view: JsonDict, legal: list[str], rng: random.Random, level: str = DEFAULT_LEVEL, deadline: Deadline = NEVER
) -> str:
    """One of ``legal``, chosen from this seat's ``view`` only, by ``deadline``."""
    if level == "easy":
        return ai_easy.computer_action(view, legal, rng)
    chooser = by_level(
        level, easy=ai_easy.computer_action, normal=ai_strong.normal_action, strong=ai_strong.computer_action
    )
    return anytime(
        lambda: chooser(view, legal, rng, deadline), lambda: ai_easy.computer_action(view, legal, rng), deadline
    )
