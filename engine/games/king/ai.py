"""The king computer players by level (engine/ai_levels.py): ``easy`` is ai_easy.py
(today's heuristic player, unchanged); ``strong`` is ai_strong.py (determinized
look-ahead with play-outs and an exact endgame search); ``normal`` is the same look-ahead
in the trick play only, with a tiny budget (2 samples, no exact search), and the easy
heuristic for the trump choice and deals 7–8 (``ai_strong.NORMAL``)."""

from __future__ import annotations

import random

from engine.ai_levels import DEFAULT_LEVEL, by_level
from engine.deadline import NEVER, Deadline, anytime
from engine.jsondata import JsonDict

from . import ai_easy, ai_strong


def _strong(view: JsonDict, legal: list[str], rng: random.Random, deadline: Deadline) -> str:
    return ai_strong.computer_action(view, legal, rng, ai_strong.STRONG, deadline)


def _normal(view: JsonDict, legal: list[str], rng: random.Random, deadline: Deadline) -> str:
    return ai_strong.computer_action(view, legal, rng, ai_strong.NORMAL, deadline)


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
