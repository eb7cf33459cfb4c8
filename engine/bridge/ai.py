"""The bridge computer players by level (engine/ai_levels.py).

- ``easy``: ai_easy.py, the kind simple player (bids by points, plays simply).
- ``strong``: the natural bidding system of ``bidding/`` (docs/bridge-bidding.md), card
  play from ai_easy for now.
- ``normal``: the strong bidding, but one call in four (drawn from ``rng``) is the easy
  player's instead — it plays the same system, only less reliably.
"""
from __future__ import annotations

import random

from engine.ai_levels import DEFAULT_LEVEL, by_level

from . import ai_easy
from .bidding import choose_call

NORMAL_EASY_SHARE = 0.25


def strong_action(view: dict, legal: list[str], rng: random.Random) -> str:
    if view.get("phase") == "auction" and len(legal) > 1:
        return choose_call(view, legal)
    return ai_easy.computer_action(view, legal, rng)


def normal_action(view: dict, legal: list[str], rng: random.Random) -> str:
    if view.get("phase") == "auction" and len(legal) > 1 and rng.random() < NORMAL_EASY_SHARE:
        return ai_easy.computer_action(view, legal, rng)
    return strong_action(view, legal, rng)


def computer_action(view: dict, legal: list[str], rng: random.Random,
                    level: str = DEFAULT_LEVEL) -> str:
    """One of ``legal``, chosen from this seat's ``view`` only."""
    chooser = by_level(level, easy=ai_easy.computer_action, normal=normal_action,
                       strong=strong_action)
    return chooser(view, legal, rng)
