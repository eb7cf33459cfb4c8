"""A fast, deterministic durak heuristic: the strong player's first guess and the policy
its simulated players follow in rollouts (ai_strong.py).

Cards are worth their rank, trumps a whole suit more, so spending an ace of a plain
suit is cheaper than spending the lowest trump. The ideas, all commonplace at a table:
- attack with the cheapest rank, the whole group of it while it is low: low cards are
  the ones to get rid of, trumps and high cards win the end of the game;
- cover cheaply; but early, while the stock is big, take rather than pay with a high
  trump (or with much more than the attack is worth): the cards taken are low and the
  stock will give fresh ones;
- throw in low plain cards while the stock lasts (high ones and trumps are kept), and
  anything once the stock is gone and the defender is already taking;
- with the stock gone, shed cards: every card out of the hand is a step to the exit.
It never transfers or covers blind unless nothing else is left, and accepts blind
covers: ai_strong.py looks further where those matter.
"""

from __future__ import annotations

from engine.cards import RANK_VALUE as RV
from engine.jsondata import JsonDict

TRUMP_BONUS = 13  # a trump is worth a suit more than the same rank in a plain suit
LOW = RV["J"]  # plain ranks below this are "low": lead and throw them freely


def value(card: str, trump: str | None) -> int:
    return RV[card[0]] + (TRUMP_BONUS if card[1] == trump else 0)


def choose(view: JsonDict, legal: list[str]) -> str:
    """One of ``legal`` for the seat whose ``view`` this is."""
    if len(legal) == 1:
        return legal[0]
    verb = legal[0].split(" ", 1)[0]
    trump = view.get("trump")
    stock = view.get("stock", 0)
    if verb == "accept":
        return "accept"
    if verb == "attack":
        return _attack(legal, trump, stock)
    if verb in ("throw", "pass"):
        return _throw(view, legal, trump, stock)
    return _defend(view, legal, trump, stock)


def _attack(legal: list[str], trump: str | None, stock: int) -> str:
    # every card of the cheapest rank goes together while it is low (or the stock is gone)
    best, best_key = legal[0], None
    for a in legal:
        cards = a.split()[1:]
        v = max(value(c, trump) for c in cards)
        many = len(cards) > 1
        group_ok = many and (v < LOW or stock == 0) and not any(c[1] == trump for c in cards)
        key = (v, 0 if group_ok else (1 if many else 0.5))
        if best_key is None or key < best_key:
            best, best_key = a, key
    return best


def _throw(view: JsonDict, legal: list[str], trump: str | None, stock: int) -> str:
    taking = view.get("taking")
    defender = view.get("defender")
    counts = view.get("hand_counts") or []
    best, best_v = "pass", None
    for a in legal:
        if a == "pass":
            continue
        cards = a.split()[1:]
        v = max(value(c, trump) for c in cards)
        if stock > 0:
            if any(c[1] == trump for c in cards) or v >= LOW + (2 if taking else 0):
                continue
        elif not taking and defender is not None and counts and counts[defender] > 0:
            # stock gone, defender still covering: throw what is cheap for me, keep trumps
            if any(c[1] == trump for c in cards):
                continue
        key = (-len(cards), v)
        if best_v is None or key < best_v:
            best, best_v = a, key
    return best


def _defend(view: JsonDict, legal: list[str], trump: str | None, stock: int) -> str:
    cover: dict[str, tuple[int, str]] = {}  # attack card -> (cost, cheapest beat)
    for a in legal:
        p = a.split()
        if p[0] == "beat":
            v = value(p[2], trump)
            old = cover.get(p[1])
            if old is None or v < old[0]:
                cover[p[1]] = (v, a)
    open_cards = [e["attack"] for e in view["table"] if e["cover"] is None and not e["hidden"]]
    if "take" in legal and (not open_cards or not covers_all(open_cards, legal)):
        return "take"
    if not cover:
        return "take" if "take" in legal else legal[0]
    # cover the dearest open card first: it needs the scarce cover
    target = max(open_cards, key=lambda c: value(c, trump))
    cost, action = cover[target]
    if "take" in legal and stock > 0:
        spent = sum(cover[c][0] for c in open_cards)
        attack = sum(value(c, trump) for c in open_cards)
        hand = len(view.get("hand", ()))
        high_trump = any(cover[c][0] >= TRUMP_BONUS + RV["Q"] for c in open_cards)
        if hand <= 7 and stock >= 6 and (high_trump or spent - attack > 12):
            return "take"
    return action


def covers_all(open_cards: list[str], legal: list[str]) -> bool:
    """Can every open card get its own cover at once? Several cards open (a multi-card
    attack, or throw-ins while the defender covers) may all need the one trump: then
    beating some of them first only shows the throwers more ranks before the take."""
    options: dict[str, list[str]] = {c: [] for c in open_cards}
    for a in legal:
        p = a.split()
        if p[0] == "beat" and p[1] in options:
            options[p[1]].append(p[2])
    used: set[str] = set()

    def place(i: int) -> bool:  # at most six open cards: a tiny backtracking search
        if i == len(open_cards):
            return True
        for c in options[open_cards[i]]:
            if c not in used:
                used.add(c)
                if place(i + 1):
                    return True
                used.discard(c)
        return False

    return place(0)
