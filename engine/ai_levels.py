"""Difficulty levels of the computer players, shared by every game.

Each game's ``engine/games/<game>/ai.py`` exposes ``computer_action(view, legal, rng,
level="strong")``: the seat's own view, the legal actions offered, a random source, and
the level. Called with no level it plays its strongest. ``easy`` is the kind, simple
player the bot had first; ``normal`` sits between; ``strong`` searches.
"""

from __future__ import annotations

from typing import Callable

LEVELS = ("easy", "normal", "strong")
DEFAULT_LEVEL = "strong"

Chooser = Callable[..., str]


def by_level(level: str, *, easy: Chooser, normal: Chooser, strong: Chooser) -> Chooser:
    """The chooser for ``level``; an unknown level plays the default."""
    return {"easy": easy, "normal": normal, "strong": strong}.get(level, strong)
