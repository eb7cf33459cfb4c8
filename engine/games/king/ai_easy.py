"""A simple computer player for King. It reads only its own ``view`` and the ``legal``
list it was offered, and always returns one of ``legal``.

- trump choice: name the suit it holds most of (highest cards break ties); now and then
  ask to open until that suit, or until the highest card;
- penalty deals (1–6): duck — play the highest card that still loses the trick, else
  (when it must win) the highest card; when void, throw away the most dangerous card
  (the king of hearts, hearts, jacks, queens, then high cards); lead low;
- trump deals (9–12): win as cheaply as possible, else throw the lowest card; lead high;
- card count (7): the highest card that crosses no threshold; if every card crosses one,
  the card worth least;
- jacks layout (8): the playable card of the suit it holds most of (to free its own cards).
"""

from __future__ import annotations

import random

from engine.cards import RANK_VALUE as RV
from engine.tricks import winning_index
from engine.jsondata import JsonDict

DEAL7_DEFAULT = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}


def _danger(card: str, no: int) -> tuple[int, int]:
    """How much a penalty deal wants to get rid of ``card`` (higher = sooner)."""
    special = 0
    if no == 6 and card == "KH":
        special = 3
    elif no == 2 and card[1] == "H":
        special = 2
    elif no == 3 and card[0] in "JK":
        special = 2 if card[0] == "J" else 1
    elif no == 4 and card[0] == "Q":
        special = 2
    elif no == 4 and card[0] in "KA":
        special = 1  # high cards would catch queens
    return (special, RV[card[0]])


def computer_action(view: JsonDict, legal: list[str], rng: random.Random) -> str:
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1:
        return legal[0]
    phase = view["phase"]
    if phase == "choose":
        return _choose(view, legal, rng)
    cards = [a.split()[1] for a in legal if a.startswith("play ")]
    if phase == "count":
        return "play " + _count(view, cards)
    if phase == "domino":
        if not cards:
            return legal[0]
        hand = view.get("hand", [])
        best = max(cards, key=lambda c: (sum(1 for h in hand if h[1] == c[1]), c[0] != "J", RV[c[0]]))
        return "play " + best
    return "play " + _trick(view, cards)


def _choose(view: JsonDict, legal: list[str], rng: random.Random) -> str:
    hand = view.get("hand", [])
    by_suit: dict[str, list[int]] = {}
    for c in hand:
        by_suit.setdefault(c[1], []).append(RV[c[0]])
    suit = max(by_suit, key=lambda s: (len(by_suit[s]), sum(by_suit[s]))) if by_suit else "S"
    roll = rng.random()
    if roll < 0.15 and "highest" in legal:
        return "highest"
    if roll < 0.35 and f"until {suit}" in legal:
        return f"until {suit}"
    return f"name {suit}" if f"name {suit}" in legal else legal[0]


def _count(view: JsonDict, cards: list[str]) -> str:
    total = view.get("total", 0)
    nxt = next((at for at, _, seat in view.get("thresholds", []) if seat is None), None)
    values = (view.get("options") or {}).get("deal7_values") or DEAL7_DEFAULT
    worth = {c: values.get(c[0], 0) for c in cards}
    if nxt is None:
        return min(cards, key=lambda c: worth[c])
    safe = [c for c in cards if total + worth[c] < nxt]
    if safe:
        return max(safe, key=lambda c: (worth[c], RV[c[0]]))
    return min(cards, key=lambda c: (worth[c], RV[c[0]]))


def _trick(view: JsonDict, cards: list[str]) -> str:
    no = view["deal_no"]
    trump = view.get("trump")
    trick = [c for _, c in view.get("trick", [])]
    positive = no >= 9
    if not trick:  # lead
        if positive:
            return max(cards, key=lambda c: (RV[c[0]], c[1] == trump))
        return min(cards, key=lambda c: (c[0] == "K" and c[1] == "H", RV[c[0]]))
    led = trick[0][1]

    def wins(c: str) -> bool:
        return winning_index(trick + [c], trump) == len(trick)

    winning = [c for c in cards if wins(c)]
    losing = [c for c in cards if not wins(c)]
    if positive:
        if winning:
            return min(winning, key=lambda c: (c[1] == trump, RV[c[0]]))
        return min(cards, key=lambda c: (c[1] == trump, RV[c[0]]))
    if losing:
        if all(c[1] == led for c in cards):
            return max(losing, key=lambda c: RV[c[0]])  # the highest that still ducks
        return max(losing, key=lambda c: _danger(c, no))  # void: throw the worst card away
    return max(winning, key=lambda c: _danger(c, no))
