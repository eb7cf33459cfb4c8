"""What the strong whist computer infers about the hidden hands from how cards were played.

Whist has no auction: apart from the turned-up trump, the only clues are the plays. Every
inference here is a card some player is taken not to hold; the sampler keeps them while
a deal fits and drops them when none does (a person may play oddly).

- ``cheapest_of_equals`` (engine/ddplay/sampler.py): a follower played the cheaper of two
  equal cards, so he does not hold the next lower one;
- ``follower_bans``: a follower whose card loses to the card already winning the trick
  plays his cheapest card of that suit (a lower card would lose as well and keeps the
  higher one), so he holds no lower card of it. The last hand knows the trick's outcome:
  when he takes it he does so with his cheapest winning card — none between the card he
  beat and his own. The third or last hand who follows low under an opponent's card
  holds nothing that would have beaten it (third hand high).
"""

from __future__ import annotations

from engine.cards import RANK_VALUE as RV
from engine.ddplay.sampler import cheapest_of_equals

Trick = list[tuple[int, str]]
RANKS = "23456789TJQKA"


def _ranks(suit: str, low: int, high: int) -> set[str]:
    """Cards of ``suit`` ranked strictly between ``low`` and ``high`` (rank values)."""
    return {r + suit for r in RANKS if low < RV[r] < high}


def _beats(card: str, top: str, trump: str | None) -> bool:
    if card[1] == top[1]:
        return RV[card[0]] > RV[top[0]]
    return card[1] == trump


def follower_bans(tricks: list[Trick], trump: str | None) -> dict[int, set[str]]:
    out: dict[int, set[str]] = {s: set() for s in range(4)}
    for trick in tricks:
        if not trick:
            continue
        led = trick[0][1][1]
        top_seat, top = trick[0]
        for place, (seat, card) in enumerate(trick[1:], start=2):
            last = place == 4
            if card[1] != led and card[1] != trump:
                continue  # a discard: the voids say what it shows
            if not _beats(card, top, trump):
                if card[1] == top[1] or card[1] == led:
                    # a loser: his cheapest of the suit
                    out[seat] |= _ranks(card[1], 1, RV[card[0]])
                if place >= 3 and top_seat % 2 != seat % 2 and card[1] == top[1]:
                    # nothing that would have won (third hand high: 2 in 44 held one)
                    out[seat] |= _ranks(card[1], RV[top[0]], 15)
                continue
            if last:  # the cheapest card that takes the trick
                floor = RV[top[0]] if top[1] == card[1] else 1
                out[seat] |= _ranks(card[1], floor, RV[card[0]])
            top_seat, top = seat, card
    return out


def inferred_bans(tricks: list[Trick], trump: str | None) -> dict[int, set[str]]:
    """Cards each seat is inferred not to hold (cards already played are harmless here)."""
    out = cheapest_of_equals(tricks)
    for seat, cards in follower_bans(tricks, trump).items():
        out[seat] |= cards
    return out
