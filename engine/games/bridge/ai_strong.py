"""The strong (and normal) bridge computer: DD-sampling card play (``play_ai``).

- auction: the natural bidding system of ``bidding/`` (docs/bridge-bidding.md); the strong
  level checks its placing calls by simulation within the deadline (``bidding/simulate.py``);
  at the normal level one call in four is the easy player's instead, and none is simulated;
- claim phase: a defender answers with ``ai_easy.claim_is_sound`` (an exact check: he
  sees both the declarer's hand and dummy, so his partner's cards too);
- claims: the declarer claims the rest only when every card of his side is a winner
  (as ``ai_easy``), so a claim is never rejected and the play never loops on claims;
- cards: ``play_ai.choose_play``; never concedes.
``normal`` is the same player with a much smaller sampling budget (``NORMAL_BUDGET``:
2–6 deals per decision instead of 4–128 and more within ``play_ai.STRONG_NODES``): it
plays reasonable cards but misguesses more, and bids the same system less reliably.
"""

from __future__ import annotations

import random

from endplay._dds import DDSError

from engine.ddplay.chooser import NORMAL_BUDGET, STRONG_BUDGET, Budget
from engine.deadline import NEVER, Deadline, OutOfTime
from engine.jsondata import JsonDict

from .bidding import choose_call  # first: the bidding package and inference.py import each other
from . import ai_easy, play_ai  # noqa: E402 (after the bidding package, see above)


NORMAL_EASY_CALLS = 0.25  # the normal level's share of calls made the easy player's way


def _call(view: JsonDict, legal: list[str], rng: random.Random, normal: bool, deadline: Deadline) -> str:
    if normal:
        return ai_easy.choose_call(view, legal) if rng.random() < NORMAL_EASY_CALLS else choose_call(view, legal)
    return choose_call(view, legal, deadline)  # the strong level simulates its placing calls


def _action(
    view: JsonDict, legal: list[str], rng: random.Random, budget: Budget, normal: bool, deadline: Deadline
) -> str:
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1:
        return legal[0]
    phase = view.get("phase")
    if phase == "auction":
        action = _call(view, legal, rng, normal, deadline)
    elif phase == "claim":
        action = "accept" if ai_easy.claim_is_sound(view) else "reject"
    else:
        claim = next((a for a in legal if a.startswith("claim ")), None)
        if claim is not None and view["tricks_played"] < 12 and ai_easy._all_winners(view):
            action = claim  # the first claim offered is all the remaining tricks
        else:
            try:
                action = play_ai.choose_play(view, legal, rng, budget, deadline=deadline)
            # a view that does not add up: never stall the table; no deal solved in time
            except (ValueError, DDSError, OutOfTime):
                action = ai_easy.choose_play(view, legal)
    return action if action in legal else legal[0]


def computer_action(view: JsonDict, legal: list[str], rng: random.Random, deadline: Deadline = NEVER) -> str:
    return _action(view, legal, rng, STRONG_BUDGET, False, deadline)


def computer_action_normal(view: JsonDict, legal: list[str], rng: random.Random, deadline: Deadline = NEVER) -> str:
    return _action(view, legal, rng, NORMAL_BUDGET, True, deadline)
