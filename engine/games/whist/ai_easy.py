"""A simple computer player for whist. It reads only its own ``view`` and the
``legal`` list it was offered, and always returns one of ``legal``.

- trump (dealer_names): the longest suit, high cards breaking ties; never delegates;
- lead: a non-trump ace if any, else the lowest card of the longest non-trump suit;
- follow: when the partner wins the trick safely (last to play, or with a high card),
  throw the cheapest card; otherwise win with the cheapest winning card, or throw the
  cheapest card when nothing wins;
- after a rubber with no rubber limit: go on.
"""

from __future__ import annotations

import random

from engine.cards import RANK_VALUE as RV
from engine.tricks import winning_index
from engine.jsondata import JsonDict


def _cost(card: str, trump: str | None) -> tuple[bool, int, str]:
    return (card[1] == trump, RV[card[0]], card[1])


def computer_action(view: JsonDict, legal: list[str], rng: random.Random) -> str:
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1:
        return legal[0]
    verb = legal[0].split()[0]
    if verb in ("next", "stop"):
        return "next" if "next" in legal else legal[0]
    hand = view.get("hand", [])
    if verb in ("trump", "delegate"):

        def strength(suit: str) -> tuple[int, int]:
            mine = [c for c in hand if c[1] == suit]
            return (len(mine), sum(RV[c[0]] for c in mine))

        options = [a for a in legal if a.startswith("trump ")]
        return max(options, key=lambda a: strength(a.split()[1]))
    trump = view.get("trump")
    cards = [a.split()[1] for a in legal]
    trick = [c for _, c in view.get("trick", [])]
    if not trick:
        aces = [c for c in cards if c[0] == "A" and c[1] != trump]
        if aces:
            return "play " + aces[0]
        plain = [c for c in cards if c[1] != trump] or cards
        length = {s: sum(1 for c in hand if c[1] == s) for s in "SHDC"}
        best_suit = max(
            sorted({c[1] for c in plain}), key=lambda s: (length[s], -min(RV[c[0]] for c in plain if c[1] == s))
        )
        return "play " + min((c for c in plain if c[1] == best_suit), key=lambda c: RV[c[0]])
    seat = view["seat"]
    plays = view["trick"]
    top = winning_index(trick, trump)
    top_seat, top_card = plays[top]
    last = len(trick) == 3
    cheapest = min(cards, key=lambda c: _cost(c, trump))
    if top_seat == (seat + 2) % 4 and (last or top_card[1] == trump or RV[top_card[0]] >= RV["Q"]):
        return "play " + cheapest
    winners = [c for c in cards if winning_index(trick + [c], trump) == len(trick)]
    if winners:
        return "play " + min(winners, key=lambda c: _cost(c, trump))
    return "play " + cheapest
