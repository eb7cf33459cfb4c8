"""What the strong whist computer infers about the hidden hands from how cards were played.

Whist has no auction: apart from the turned-up trump, the only clues are the plays. Every
inference here is a card some player is taken not to hold; the sampler keeps them while
a deal fits and drops them when none does (a person may play oddly).

- ``cheapest_of_equals`` (engine/ddplay/sampler.py): a follower played the cheaper of two
  equal cards, so he does not hold the next lower one;
- ``fourth_hand_bans``: the last hand to a trick knows its outcome. When an opponent is
  winning it with a card of the suit led (nobody trumped), he either takes it with his
  cheapest winning card — so he holds none between the winner and the card he played —
  or follows low, and then he holds nothing that would have won.
"""
from __future__ import annotations

from engine.cards import RANK_VALUE as RV
from engine.ddplay.sampler import cheapest_of_equals

Trick = list[tuple[int, str]]


def fourth_hand_bans(tricks: list[Trick], trump: str | None) -> dict[int, set[str]]:
    out: dict[int, set[str]] = {s: set() for s in range(4)}
    for trick in tricks:
        if len(trick) < 4:
            continue
        led = trick[0][1][1]
        first3 = trick[:3]
        if any(c[1] != led and c[1] == trump for _, c in first3):
            continue  # a ruff: following low says nothing
        seat, card = trick[3]
        if card[1] != led:
            continue  # showed out: the voids say it
        top_seat, top = max(((p, c) for p, c in first3 if c[1] == led), key=lambda pc: RV[pc[1][0]])
        if top_seat % 2 == seat % 2:
            continue  # partner wins: any low card will do
        mine, theirs = RV[card[0]], RV[top[0]]
        above = range(theirs + 1, mine) if mine > theirs else range(theirs + 1, 15)
        out[seat] |= {r + led for r in "23456789TJQKA" if RV[r] in above}
    return out


def inferred_bans(tricks: list[Trick], trump: str | None) -> dict[int, set[str]]:
    """Cards each seat is inferred not to hold (cards already played are harmless here)."""
    out = cheapest_of_equals(tricks)
    for seat, cards in fourth_hand_bans(tricks, trump).items():
        out[seat] |= cards
    return out
