"""The easy Тысяча player: simple rules of thumb, from the seat's view only. Its card
choice (``card_choice``) is also the strong player's playout policy (ai_sim.py)."""

from __future__ import annotations

import random

from engine.jsondata import JsonDict

from . import cards as C


def hand_estimate(hand: list[str]) -> int:
    """The points a hand may make as declarer: its aces and guarded tens, its marriages,
    and a share of the прикуп (§2: a rough guide, not a count)."""
    held = set(hand)
    sure = 0
    for suit in C.SUIT_ORDER:
        if "A" + suit in held:
            sure += 11 + (10 if "T" + suit in held else 0)
    married = sum(C.MARRIAGE[s] for s in C.marriages(hand))
    return sure + married + C.points(hand) // 3 + 25


def gifts(hand: list[str], n: int = 2) -> list[str]:
    """The ``n`` cards the declarer can spare best: no marriage card, no ace, the cheapest."""
    keep = {r + s for s in C.marriages(hand) for r in "KQ"}
    held = set(hand)

    def cost(card: str) -> tuple[int, int]:
        guarded_ten = card[0] == "T" and "A" + card[1] in held
        return (1 if card in keep or card[0] == "A" or guarded_ten else 0, C.POINTS[card[0]])

    return sorted(hand, key=cost)[:n]


def card_choice(hand: list[str], trick: list[str], trump: str | None, can_marry: bool, rng: random.Random) -> str:
    """A card (``"marry XX"`` for a marriage) for this trick: lead a marriage or an ace;
    follow by winning as cheaply as possible, else by throwing the cheapest card."""
    led = trick[0][1] if trick else None
    options = C.playable(hand, led, trump)
    if not trick:
        if can_marry:
            held = C.marriages(hand)
            best = max(held, key=lambda s: C.MARRIAGE[s])
            return "marry K" + best
        aces = [c for c in options if c[0] == "A"]
        if aces:
            return "play " + rng.choice(aces)
        return "play " + min(options, key=lambda c: (C.POINTS[c[0]], rng.random()))
    winners = [c for c in options if C.trick_winner(trick + [c], trump) == len(trick)]
    if winners:
        return "play " + min(winners, key=lambda c: (c[1] == trump, C.RANK_ORDER[c[0]]))
    return "play " + min(options, key=lambda c: (C.POINTS[c[0]], c[1] == trump))


def computer_action(view: JsonDict, legal: list[str], rng: random.Random) -> str:
    if legal == ["dark", "look"]:
        return "look"
    verb = legal[0].split()[0]
    hand = view["hand"] or []
    if verb in ("bid", "pass") or "pass" in legal:
        bids = [a for a in legal if a.startswith("bid ")]
        if "pass" not in legal:
            return bids[0]
        if bids and int(bids[0].split()[1]) <= hand_estimate(hand):
            return bids[0]
        return "pass"
    if verb == "give":
        card = gifts(hand, 1)[0]
        return next(a for a in legal if a.split()[1] == card)
    if verb == "contract":
        return legal[0]
    trick = [c for _, c in view["trick"]]
    can_marry = any(a.startswith("marry ") for a in legal)
    choice = card_choice(hand, trick, view["trump"], can_marry, rng)
    if choice in legal:
        return choice
    marry = [a for a in legal if a.startswith("marry ")]
    return marry[0] if choice.startswith("marry") and marry else next(a for a in legal if a.startswith("play "))
