"""A simple computer player for durak. It reads only its own ``view`` and the
``legal`` list it was offered, and always returns one of ``legal``."""
from __future__ import annotations

import random

from engine.cards import RANK_VALUE as RV

HIGH = RV["Q"]  # trumps from here up are "high": worth keeping while the stock is big


def computer_action(view: dict, legal: list[str], rng: random.Random) -> str:
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1:
        return legal[0]
    trump = view.get("trump")
    stock = view.get("stock", 0)

    def cost(c: str) -> tuple:
        return (c[1] == trump, RV[c[0]], c)

    kinds: dict[str, list[list[str]]] = {}
    for a in legal:
        parts = a.split()
        kinds.setdefault(parts[0], []).append(parts)

    if "accept" in kinds:  # a blind cover: trust it most of the time
        return "accept" if rng.random() < 0.8 else "challenge"

    if "attack" in kinds:  # lead the cheapest card; a group if that rank has one
        best = min((p for p in kinds["attack"] if len(p) == 2), key=lambda p: cost(p[1]))
        r = best[1][0]
        if best[1][1] != trump:
            groups = [p for p in kinds["attack"] if len(p) > 2 and p[1][0] == r]
            if groups and RV[r] < HIGH:
                return " ".join(groups[0])
        return " ".join(best)

    if "throw" in kinds:  # give away cheap non-trumps; trumps only once the stock is gone
        singles = [p for p in kinds["throw"] if len(p) == 2]
        cheap = [p for p in singles if p[1][1] != trump and (RV[p[1][0]] < HIGH or stock == 0)]
        if not cheap and stock == 0:
            cheap = singles if view.get("taking") else []
        if cheap:
            return " ".join(min(cheap, key=lambda p: cost(p[1])))
        return "pass"

    # DEFEND
    if "transfer" in kinds:
        best = min(kinds["transfer"], key=lambda p: cost(p[1]))
        if best[1][1] != trump:
            return " ".join(best)
    table = view.get("table", [])
    open_cards = [e["attack"] for e in table if e["cover"] is None and not e["hidden"]]
    beats = kinds.get("beat", [])
    coverable = {p[1] for p in beats}
    if open_cards and all(a in coverable for a in open_cards):
        # cover the attack card whose cheapest cover is dearest first? keep it simple:
        best = min(beats, key=lambda p: cost(p[2]))
        c = best[2]
        dear = c[1] == trump and RV[c[0]] >= HIGH
        if not (dear and stock > 6):
            return " ".join(best)
    elif "blind" in kinds and rng.random() < 0.15:  # a bluff now and then
        return " ".join(min(kinds["blind"], key=lambda p: cost(p[2])))
    if "take" in kinds:
        return "take"
    return rng.choice(legal)
