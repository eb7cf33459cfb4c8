"""Blackwood: 4NT asks for aces once a suit slam is in view; 5C 0 or 4, 5D 1, 5H 2, 5S 3.
The asker bids six when at most one ace is missing, seven with all four and the points for
a grand, and stops at five of the suit when two are missing.

A 4NT the system table gives a meaning (the quantitative raises of a notrump opening) is
not Blackwood; every other 4NT is.
"""

from __future__ import annotations

from .hand import Hand

ANSWERS = {"5C": 0, "5D": 1, "5H": 2, "5S": 3}


def _our_calls(calls: list[str], dealer: int, seat: int) -> list[tuple[int, int, str]]:
    """(index, seat, call) of our side's calls."""
    return [(i, (dealer + i) % 4, c) for i, c in enumerate(calls) if (dealer + i) % 2 == seat % 2]


def asks_for_aces(calls: list[str], dealer: int, index: int | None = None) -> bool:
    """A 4NT as call ``index`` (default: the next call) is Blackwood: the table gives 4NT
    no other meaning there (over partner's notrump it is quantitative, and partner would
    pass it)."""
    from .system import meanings, situation

    return not any(m.call == "4NT" for m in meanings(situation(calls, dealer, index)))


def partner_asks(calls: list[str], dealer: int, seat: int) -> bool:
    """Partner's last call is an ace-asking 4NT: every 4NT the system table does not give
    another meaning (the quantitative raises of a notrump opening)."""
    ours = [(i, s, c) for i, s, c in _our_calls(calls, dealer, seat) if c != "P"]
    if not ours or ours[-1][2] != "4NT" or ours[-1][1] == seat:
        return False
    return asks_for_aces(calls, dealer, ours[-1][0])


def role(calls: list[str], dealer: int, index: int) -> str:
    """What call ``index`` is in Blackwood: "ask" (an ace-asking 4NT), "answer" (5C-5S
    straight over partner's ask, the opponent between passing or doubling) or ""."""
    call = calls[index]
    if call == "4NT" and asks_for_aces(calls, dealer, index):
        return "ask"
    if (
        call in ANSWERS
        and index >= 2
        and calls[index - 1] in ("P", "X")
        and calls[index - 2] == "4NT"
        and asks_for_aces(calls, dealer, index - 2)
    ):
        return "answer"
    return ""


def answer(hand: Hand, legal: set[str]) -> str:
    call = {0: "5C", 1: "5D", 2: "5H", 3: "5S", 4: "5C"}[hand.aces]
    return call if call in legal else "P"


def partner_answered(calls: list[str], dealer: int, seat: int) -> str | None:
    """Partner's answer if I asked with 4NT and he replied with 5C-5S."""
    ours = [(i, s, c) for i, s, c in _our_calls(calls, dealer, seat) if c != "P"]
    if len(ours) >= 2 and ours[-2][1] == seat and ours[-2][2] == "4NT" and ours[-1][2] in ANSWERS:
        return ours[-1][2]
    return None


def after_answer(hand: Hand, reply: str, strain: str, combined: float, legal: set[str]) -> str:
    shown = ANSWERS[reply]
    if reply == "5C" and hand.aces == 0:
        shown = 4
    missing = 4 - hand.aces - shown
    if missing >= 2:
        bid = f"5{strain}"
        return bid if bid in legal else "P"
    level = 7 if missing == 0 and combined >= 34 else 6
    bid = f"{level}{strain}"
    return bid if bid in legal else ("6" + strain if f"6{strain}" in legal else "P")
