"""King's scoring table (rules §8): each deal's score is a pure function of the deal's
facts, so the played engine and any score-only entry share this code.

``facts`` per deal (seats 0..3 = N E S W):

==========  ============================================================
deal        facts
==========  ============================================================
1           ``{"tricks": [t0, t1, t2, t3]}`` tricks taken
2           ``{"hearts": [...]}`` hearts in the tricks taken
3           ``{"cards": [...]}`` jacks (or kings and jacks) taken
4           ``{"queens": [...]}`` queens taken
5           ``{"last_two": [winner of trick 7, winner of trick 8]}``
6           ``{"king": seat}`` who took the king of hearts
7           ``{"thresholds": [seat crossing each threshold, or None]}``
8           ``{"left": seat}`` the player left holding cards
9–12        ``{"tricks": [...]}`` tricks taken
==========  ============================================================
"""

from __future__ import annotations

from typing import Any

from engine.cards import make_deck
from engine.jsondata import JsonDict

PLAYERS = 4
TRUMP_DEALS = (9, 10, 11, 12)

#: deal number -> contract key (catalog keys ``king.contract.<key>``)
CONTRACTS = {
    1: "tricks",
    2: "hearts",
    3: "boys",
    4: "queens",
    5: "last_two",
    6: "king",
    7: "count",
    8: "domino",
    9: "trumps",
    10: "trumps",
    11: "trumps",
    12: "trumps",
}

DECK = make_deck(32)


def kind(no: int) -> str:
    """``tricks`` (deals 1–6, 9–12), ``count`` (7) or ``domino`` (8)."""
    return "count" if no == 7 else "domino" if no == 8 else "tricks"


_SCORING: dict[tuple[int, str], frozenset[str]] = {}


def scoring_cards(no: int, options: Any) -> frozenset[str]:
    """The cards whose taking scores in deals 2, 3, 4 and 6 (empty for the others)."""
    key = (no, options.deal3_cards)
    hit = _SCORING.get(key)
    if hit is None:
        hit = _SCORING[key] = _scoring_cards(no, options)
    return hit


def _scoring_cards(no: int, options: Any) -> frozenset[str]:
    if no == 2:
        return frozenset(c for c in DECK if c[1] == "H")
    if no == 3:
        ranks = "KJ" if options.deal3_cards == "KJ" else "J"
        return frozenset(c for c in DECK if c[0] in ranks)
    if no == 4:
        return frozenset(c for c in DECK if c[0] == "Q")
    if no == 6:
        return frozenset(("KH",))
    return frozenset()


def _seat(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < PLAYERS:
        raise ValueError(f"{what} must be a seat 0..3, not {value!r}")
    return value


def _counts(value: Any, what: str, total: int | None = None, most: int = 8) -> list[int]:
    if (
        not isinstance(value, (list, tuple))
        or len(value) != PLAYERS
        or any(not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= most for v in value)
    ):
        raise ValueError(f"{what} must be four counts 0..{most}")
    if total is not None and sum(value) != total:
        raise ValueError(f"{what} must add up to {total}, not {sum(value)}")
    return list(value)


def queens_score(queens: list[int], options: Any) -> list[int]:
    """Deal 4 with the bachelor rule (rules §8)."""
    if 4 in queens:
        return [options.deal4_all_four_bonus if q == 4 else 0 for q in queens]
    if options.deal4_bachelor_rule and 0 in queens:
        return [options.deal4_bachelor_per_queen * q for q in queens]
    return [options.deal4_per_queen * q for q in queens]


def deal_score(no: int, facts: JsonDict, options: Any) -> list[int]:
    """The four seats' points for deal ``no`` with ``facts``. ValueError on bad facts."""
    o = options
    if no == 1:
        return [o.deal1_per_trick * t for t in _counts(facts.get("tricks"), "tricks", 8)]
    if no == 2:
        return [o.deal2_per_heart * h for h in _counts(facts.get("hearts"), "hearts", 8)]
    if no == 3:
        n = 8 if o.deal3_cards == "KJ" else 4
        return [o.deal3_per_card * c for c in _counts(facts.get("cards"), "cards", n)]
    if no == 4:
        return queens_score(_counts(facts.get("queens"), "queens", 4, most=4), o)
    if no == 5:
        last = facts.get("last_two")
        if not isinstance(last, (list, tuple)) or len(last) != 2:
            raise ValueError("last_two must name the winners of tricks 7 and 8")
        out = [0] * PLAYERS
        for w in last:
            out[_seat(w, "a trick winner")] += o.deal5_per_trick
        return out
    if no == 6:
        out = [0] * PLAYERS
        out[_seat(facts.get("king"), "king")] = o.deal6_penalty
        return out
    if no == 7:
        seats = facts.get("thresholds")
        if not isinstance(seats, (list, tuple)) or len(seats) != len(o.deal7_thresholds):
            raise ValueError("thresholds must name one seat (or None) per threshold")
        out = [0] * PLAYERS
        for (_, points), seat in zip(o.deal7_thresholds, seats):
            if seat is not None:
                out[_seat(seat, "a threshold seat")] += points
        return out
    if no == 8:
        out = [0] * PLAYERS
        out[_seat(facts.get("left"), "left")] = o.deal8_penalty
        return out
    if no in TRUMP_DEALS:
        return [o.trump_per_trick * t for t in _counts(facts.get("tricks"), "tricks", 8)]
    raise ValueError(f"there is no deal {no!r}")


def places(totals: list[int], last: int | None = None) -> list[int]:
    """Place of each seat, 1 = best; equal totals share a place (1, 1, 3, 4). A seat
    ``last`` (a forfeit) comes after everyone else."""
    out = []
    for seat, total in enumerate(totals):
        if seat == last:
            out.append(len(totals))
            continue
        better = sum(1 for s, t in enumerate(totals) if s != last and s != seat and t > total)
        out.append(better + 1)
    return out
