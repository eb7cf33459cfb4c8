"""What each seat's calls show, as the computers read them: the explanations a bridge
player gets from robots online ("1NT: 15–17, balanced"), so a person sitting with
computers knows what they bid and how they took his own calls; and, before a call is made,
what each call in the bidding box would show (``preview``), as BBO's bidding box says.

It is ``inference.auction_inferences`` (the one reading of the auction, shared with the
computers' bidding and card play) cut down to what a player would say aloud: the points,
the suits of three or more cards (or of two at most), "balanced", and the name of the call when it is
conventional ("Stayman", "transfer to hearts", "takeout"). Public: it reads the calls
only, never a hand, so every seat gets the same text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .auction import legal_calls
from .bidding import slam
from .bidding.system import meanings, situation
from .inference import SUITS, HandRange, auction_inferences, call_range, last_meaning, normalize

MAX_HCP = 37
# the computer levels that bid by this system (ai.py: ``normal`` and ``strong`` are
# ai_strong.py; ``easy`` bids by points alone, ai_easy.py): only their table explains calls
SYSTEM_LEVELS = ("normal", "strong")
# the answers to Blackwood's 4NT (bidding/slam.py): they count aces and show no suit
BLACKWOOD_ANSWERS = {"5C": "0 or 4 aces", "5D": "1 ace", "5H": "2 aces", "5S": "3 aces"}
# a suit is named from three cards ("1♦: 3+♦", a raise's support) or when at most two
# ("takeout: ≤2 in their suit"); a range in between says nothing a player would say
MIN_NAMED_LENGTH, MAX_NAMED_SHORTNESS = 3, 2
GAME_BIDS = ("3NT", "4H", "4S", "5C", "5D")


@dataclass(frozen=True)
class Shown:
    seat: int
    hcp: tuple[int, int] | None  # None: no points shown
    suits: tuple[tuple[str, int, int], ...]  # (suit, at least, at most): three cards or more, or at most two
    balanced: bool
    note: str  # the system's name for the seat's last call, "" if none
    forcing: bool  # that call is forcing


def explain(auction: list[Any], dealer: int) -> list[Shown]:
    """One entry per seat that has made a call other than pass, in the order of their
    first such call: all that seat's calls have shown, named by its last call."""
    calls = normalize(auction)
    ranges = auction_inferences(calls, dealer)
    order: list[int] = []
    last: dict[int, int] = {}
    for i, call in enumerate(calls):
        seat = (dealer + i) % 4
        if call != "P":
            if seat not in order:
                order.append(seat)
            last[seat] = i
    return [_shown(seat, ranges[seat], calls, dealer, last[seat]) for seat in order]


@dataclass(frozen=True)
class CallPreview:
    call: str  # engine notation: "P", "X", "XX", "1C".."7NT"
    shown: Shown  # what this call alone would show (its note: the call's own name)
    kind: str  # "table" (the system's table has it here), "blackwood" (4NT or an answer), "natural"


def preview(auction: list[Any], dealer: int) -> list[CallPreview]:
    """For the seat to call: what each legal call would show in the computers' system,
    read exactly as ``explain`` will read it once made (``inference.call_range`` on the
    auction with that call appended). Legal order: pass, double, redouble, bids upwards."""
    calls = normalize(auction)
    seat = (dealer + len(calls)) % 4
    before = auction_inferences(calls, dealer)
    known = {m.call for m in meanings(situation(calls, dealer))}
    out = []
    for call in legal_calls(calls, dealer):
        after = [*calls, call]
        shown = _shown(seat, call_range(after, dealer, len(calls), before), after, dealer, len(calls))
        kind = "blackwood" if slam.role(after, dealer, len(calls)) else "table" if call in known else "natural"
        out.append(CallPreview(call, shown, kind))
    return out


def worth_listing(previews: list[CallPreview]) -> tuple[list[CallPreview], bool]:
    """The calls a bidding box should explain, and whether some legal calls are left out
    (they are natural: one line says so). Pass always; every call the system names here
    (these are what a newcomer cannot guess: the conventions and the ranges of the
    system's own bids); doubles only when they mean something particular. Where the system
    has no bid for the situation (later rounds, placed by points), the natural bids a
    player weighs: the cheapest in each strain and each strain's game, so the points each
    level would promise are there without listing all 35 bids."""
    system_bids = any(p.kind == "table" and p.call[0].isdigit() for p in previews)
    cheapest: dict[str, str] = {}
    for p in previews:
        if p.call[0].isdigit():
            cheapest.setdefault(p.call[1:], p.call)
    natural = set() if system_bids else {*cheapest.values(), *GAME_BIDS}
    listed = [p for p in previews if p.call == "P" or p.kind != "natural" or p.call in natural]
    return listed, len(listed) < len(previews)


def _shown(seat: int, shown: HandRange, calls: list[str], dealer: int, index: int) -> Shown:
    """``shown`` (a range) as a player says it, named by call ``index``."""
    meaning = last_meaning(calls, dealer, index)
    hcp = None if shown.hcp == (0, MAX_HCP) else shown.hcp
    suits = tuple(
        (s, lo, hi)
        for s in SUITS
        for lo, hi in [shown.length[s]]
        if lo >= MIN_NAMED_LENGTH or hi <= MAX_NAMED_SHORTNESS
    )
    balanced = all(shown.length[s][0] >= 2 and shown.length[s][1] <= 5 for s in SUITS)
    note, forcing = (meaning.note, meaning.forcing) if meaning else ("", False)
    role = slam.role(calls, dealer, index)
    if role == "ask":
        note, forcing = "Blackwood", True
    elif role == "answer":
        note, forcing = BLACKWOOD_ANSWERS[calls[index]], False
    return Shown(seat, hcp, suits, balanced, note, forcing)
