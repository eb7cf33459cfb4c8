"""The Russian preferans computer players by level (engine/ai_levels.py).

``computer_action(view, legal, rng, level)`` reads only the seat's own view (through
``ai_view.Seen``) and returns one of ``legal``:
- ``easy``: quick hand estimates for every decision and simple card play (win cheaply,
  duck on распасы and мизер) — no search;
- ``strong``: sampled double-dummy solving (``ai_dd``) of the unseen cards for the мизер
  check, the discard and contract, the whist decision and every card (exact when all the
  hands are known);
- ``normal``: the strong player with a few layouts and a small node budget.
Budgets are counts of layouts and solver nodes, never the clock: reproducible for a seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from engine.ai_levels import DEFAULT_LEVEL
from engine.deadline import NEVER, Deadline, anytime

from . import ai_decide
from .ai_decide import Budget
from .ai_play import PlayBudget, choose_card, simple_card
from .ai_view import Seen


@dataclass(frozen=True)
class Level:
    decide: Budget
    play: PlayBudget | None  # None: the simple card rules


EASY = Level(Budget(samples=0, nodes=0, reach=0.5, misere_safe=1.0), None)
NORMAL = Level(Budget(samples=4, nodes=20_000, reach=0.6, misere_safe=0.75), PlayBudget(5_000, 1, 4))
# One sampled layout of a whist, contract or discard estimate costs a few thousand solver
# nodes, and the nodes are shared by the estimate's layouts: with 35000 about half of the
# estimates stopped after 2-9 of their 10 layouts, and the same hand whisted or passed,
# declared seven or eight, by the seed. 90000 nodes give 15-17 layouts on average (of 20).
STRONG = Level(Budget(samples=20, nodes=90_000, reach=0.75, misere_safe=0.8), PlayBudget(20_000, 3, 16))
LEVELS = {"easy": EASY, "normal": NORMAL, "strong": STRONG}


def computer_action(
    view: dict[str, Any], legal: list[str], rng: random.Random, level: str = DEFAULT_LEVEL, deadline: Deadline = NEVER
) -> str:
    """One of ``legal``, chosen from this seat's ``view`` only, by ``deadline`` (the
    layouts solved by then decide; none: the easy player's quick estimates)."""
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1:
        return legal[0]
    seen = Seen.of(view)
    chosen = LEVELS.get(level, STRONG)
    if deadline is not NEVER and chosen.play is not None:
        chosen = Level(replace(chosen.decide, deadline=deadline), replace(chosen.play, deadline=deadline))
    choice = anytime(lambda: act(seen, legal, rng, chosen), lambda: act(seen, legal, rng, EASY), deadline)
    return choice if choice in legal else legal[0]


def act(seen: Seen, legal: list[str], rng: random.Random, level: Level) -> str:
    b = level.decide
    plays = [a.split()[1] for a in legal if a.startswith("play ")]
    if plays:
        card = simple_card(seen, plays) if level.play is None else choose_card(seen, plays, rng, level.play)
        return "play " + card
    phase = seen.phase
    if phase == "auction":
        return ai_decide.auction(seen, legal, rng, b)
    if phase == "discard":
        return ai_decide.discard(seen, legal, rng, b)
    if phase == "contract":
        return ai_decide.contract(seen, legal, rng, b)
    if phase == "whist":
        return ai_decide.whist(seen, legal, rng, b)
    if phase == "open_choice":
        return ai_decide.open_choice(legal)
    return "pass" if "pass" in legal else legal[0]
