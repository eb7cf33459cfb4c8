"""The strong and the normal preferans computers.

Method (see each module's docstring):
- card play (``ai_play``): sample layouts of the unseen cards consistent with what this
  seat has seen (``ai_sample``: the played tricks, voids, a shown talon), solve each
  double-dummy (``dd``), pick the card with the best average outcome;
- before the play (``ai_decide``): the expected settlement of each choice over sampled
  layouts solved double-dummy, the other players answering by an ordinary player's
  rules (``ai_eval``, ``ai_defend``, ``ai_settle``): bid, pick discards and contract,
  whist, pass or invite, kontra.
- igra naming is left to the easy player's rules (the strong player never says igra).

``normal`` is the same player with a much smaller search (fewer layouts, fewer search
nodes, one contract checked instead of two): between the easy player and the strong one.
Every search is bounded by counts, never by the clock, so a decision is reproducible.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.deadline import NEVER, Deadline
from engine.jsondata import JsonDict

from . import ai_decide, ai_easy
from .ai_decide import Budget
from .ai_play import choose_card


@dataclass(frozen=True)
class Level:
    decide: Budget
    play_nodes: int
    play_min: int
    play_max: int


STRONG = Level(ai_decide.STRONG, play_nodes=3000, play_min=2, play_max=24)
NORMAL = Level(ai_decide.NORMAL, play_nodes=800, play_min=1, play_max=4)


def act(view: JsonDict, legal: list[str], rng: random.Random, level: Level, deadline: Deadline = NEVER) -> str:
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1:
        return legal[0]
    phase = view["phase"]
    b = level.decide
    if phase == "play":
        return choose_card(view, legal, rng, level.play_nodes, level.play_min, level.play_max, deadline)
    if phase == "auction":
        return ai_decide.auction(view, legal, rng, b, deadline)
    if phase == "discard":
        return ai_decide.discard(view, legal, b, deadline)
    if phase == "contract":
        return ai_decide.contract(view, legal, rng, b, deadline)
    if phase == "defence":
        return ai_decide.defence(view, legal, rng, b, deadline)
    if phase == "kontra":
        return ai_decide.kontra(view, legal, rng, b, deadline)
    return ai_easy.computer_action(view, legal, rng)  # igra naming


def computer_action(view: JsonDict, legal: list[str], rng: random.Random, deadline: Deadline = NEVER) -> str:
    return act(view, legal, rng, STRONG, deadline)


def normal_action(view: JsonDict, legal: list[str], rng: random.Random, deadline: Deadline = NEVER) -> str:
    return act(view, legal, rng, NORMAL, deadline)
