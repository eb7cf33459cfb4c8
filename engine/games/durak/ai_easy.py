"""A simple computer player for durak. It reads only its own ``view`` and the
``legal`` list it was offered, and always returns one of ``legal``.

- attack: the cheapest card (non-trumps before trumps, low ranks first), with the
  other cards of that rank when it is a low non-trump;
- defend: transfer with a non-trump when possible; beat with the cheapest cover,
  but usually take rather than spend a high trump while the stock is big and the
  hand is small, and take when
  some card cannot be beaten (now and then bluff a blind cover instead);
- throw in: low non-trumps; trumps only once the stock is gone and D is taking;
- verdict on a blind cover: accept four times in five;
- one move in twenty (outside verdicts) is a random legal action.
"""

from __future__ import annotations

import random

from engine.cards import RANK_VALUE as RV
from engine.jsondata import JsonDict

from .ai_policy import covers_all

HIGH = RV["Q"]  # trumps from here up are "high": worth keeping while the stock is big
NOISE = 0.05  # share of random moves


def computer_action(view: JsonDict, legal: list[str], rng: random.Random) -> str:
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1:
        return legal[0]
    trump = view.get("trump")
    first = legal[0]
    verb = first.split(" ", 1)[0]

    if verb == "accept":
        return "accept" if rng.random() < 0.8 else "challenge"
    if rng.random() < NOISE:
        # a random move now and then: players are not machines, and it breaks the
        # endless take-take cycles a fixed strategy can fall into
        return rng.choice(legal)

    if verb == "attack" or verb == "throw":
        # singles come first; each is "<verb> <card>"
        best: str | None = None
        best_cost: tuple[bool, int] | None = None
        for a in legal:
            parts = a.split()
            if len(parts) != 2:
                continue
            c = parts[1]
            cost = (c[1] == trump, RV[c[0]])
            if best_cost is None or cost < best_cost:
                best, best_cost = a, cost
        if verb == "attack":
            assert best is not None, "an attacker may always lead a single card"
            c = best.split()[1]
            if c[1] != trump and RV[c[0]] < HIGH:
                for a in legal:  # lead the whole low group
                    parts = a.split()
                    if len(parts) > 2 and parts[1][0] == c[0]:
                        return a
            return best
        stock = view.get("stock", 0)
        if best is None:
            return "pass"
        c = best.split()[1]
        if c[1] != trump and (RV[c[0]] < HIGH or stock == 0):
            return best
        if stock == 0 and view.get("taking"):
            return best
        return "pass"

    # DEFEND: legal is beats, transfers, blinds, then take
    stock = view.get("stock", 0)
    beat_opts: dict[str, tuple[tuple[bool, int], str]] = {}  # attack card -> (cost, action) of its cheapest cover
    transfer = None
    blinds: list[list[str]] = []
    for a in legal:
        parts = a.split()
        v = parts[0]
        if v == "beat":
            c = parts[2]
            cost = (c[1] == trump, RV[c[0]])
            old = beat_opts.get(parts[1])
            if old is None or cost < old[0]:
                beat_opts[parts[1]] = (cost, a)
        elif v == "transfer":
            c = parts[1]
            if transfer is None and c[1] != trump:
                transfer = a
        elif v == "blind":
            blinds.append(parts)
    if transfer is not None:
        return transfer
    open_cards = [e["attack"] for e in view["table"] if e["cover"] is None and not e["hidden"]]
    if open_cards and covers_all(open_cards, legal):
        cost, action = min(beat_opts.values())
        dearest = max(beat_opts.values())[0]
        dear = dearest[0] and dearest[1] >= HIGH and stock > 6
        # a big hand, or now and then anyway: beat (it also breaks take-take cycles)
        if not dear or len(view.get("hand", ())) >= 8 or rng.random() < 0.25:
            return action
    elif blinds and rng.random() < 0.15:  # a bluff now and then
        cheapest_blind = min(blinds, key=lambda p: (p[2][1] == trump, RV[p[2][0]]))
        return " ".join(cheapest_blind)
    if "take" in legal:
        return "take"
    return rng.choice(legal)
