"""The strong (and normal) bridge computer: DD-sampling card play (``play_ai``).

- auction: today's bidding (``ai_easy.choose_call``) — the bidding branch replaces it;
- claim phase: a defender answers with ``ai_easy.claim_is_sound`` (an exact check: he
  sees both the declarer's hand and dummy, so his partner's cards too);
- claims: the declarer claims the rest only when every card of his side is a winner
  (as ``ai_easy``), so a claim is never rejected and the play never loops on claims;
- cards: ``play_ai.choose_play``; never concedes.
``normal`` is the same player with a much smaller sampling budget (``NORMAL_BUDGET``:
2–6 deals per decision instead of 4–128): it plays reasonable cards but misguesses more.
"""
from __future__ import annotations

import random

from endplay._dds import DDSError

from engine.ddplay.chooser import NORMAL_BUDGET, STRONG_BUDGET

from . import ai_easy, play_ai


def _action(view: dict, legal: list[str], rng: random.Random, budget) -> str:
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1:
        return legal[0]
    phase = view.get("phase")
    if phase == "auction":
        action = ai_easy.choose_call(view, legal)
    elif phase == "claim":
        action = "accept" if ai_easy.claim_is_sound(view) else "reject"
    else:
        claim = next((a for a in legal if a.startswith("claim ")), None)
        if claim is not None and view["tricks_played"] < 12 and ai_easy._all_winners(view):
            action = claim  # the first claim offered is all the remaining tricks
        else:
            try:
                action = play_ai.choose_play(view, legal, rng, budget)
            except (ValueError, DDSError):  # a view that does not add up: never stall the table
                action = ai_easy.choose_play(view, legal)
    return action if action in legal else legal[0]


def computer_action(view: dict, legal: list[str], rng: random.Random) -> str:
    return _action(view, legal, rng, STRONG_BUDGET)


def computer_action_normal(view: dict, legal: list[str], rng: random.Random) -> str:
    return _action(view, legal, rng, NORMAL_BUDGET)
