"""Double-dummy scores of every card in one position, through DDS (``endplay._dds``).

We call ``SolveBoard`` directly with a binary deal (bit masks per hand and suit) rather
than going through ``endplay.types.Deal``: building the structure ourselves is several
times cheaper than parsing PBN, and the strong players call this thousands of times per
deal. ``SolveBoard`` runs in the calling thread (thread index 0): no threads of ours.

The position is checked before DDS sees it: on a bad deal DDS writes a ``dump.txt`` into
the working directory and answers with an error code, so a bad position raises
``BadPosition`` (a ``ValueError``) here instead, saying what is wrong.
"""

from __future__ import annotations

from typing import Sequence

import endplay._dds as _dds

RANKS = "23456789TJQKA"
SUIT_INDEX = {"S": 0, "H": 1, "D": 2, "C": 3}  # DDS denominations; 4 = no trump
SUIT_OF = "SHDC"
_BIT = {r + s: (SUIT_INDEX[s], 1 << (i + 2)) for i, r in enumerate(RANKS) for s in SUIT_OF}
NO_TRUMP = 4


class BadPosition(ValueError):
    """Hands and trick that no deal can produce (DDS would reject them)."""


def check_position(hands: Sequence[Sequence[str]], leader: int, trick: Sequence[str]) -> None:
    """Raise ``BadPosition`` unless the four hands and the trick on the table fit together:
    known cards, none twice, at most 13 a hand, and each hand holding as many cards as
    the trick leaves it (one more for the seats that have not played to it yet)."""
    if len(hands) != 4 or not 0 <= leader <= 3 or len(trick) > 3:
        raise BadPosition(
            f"4 hands, a leader 0..3 and 0..3 cards on the table expected: "
            f"{len(hands)} hands, leader {leader}, {len(trick)} on the table"
        )
    seen: set[str] = set()
    for card in [c for h in hands for c in h] + list(trick):
        if card not in _BIT:
            raise BadPosition(f"unknown card {card!r}")
        if card in seen:
            raise BadPosition(f"card {card} twice")
        seen.add(card)
    played = {(leader + i) % 4 for i in range(len(trick))}
    sizes = [len(h) + (seat in played) for seat, h in enumerate(hands)]
    if len(set(sizes)) != 1 or not 0 < sizes[0] <= 13:
        raise BadPosition(
            f"hands of {[len(h) for h in hands]} cards with {len(trick)} on the table led by seat {leader}"
        )


def _deal(hands: Sequence[Sequence[str]], leader: int, trump: str | None, trick: Sequence[str]) -> _dds.deal:
    """DDS's binary ``deal`` of a checked position."""
    check_position(hands, leader, trick)
    dl = _dds.deal()
    dl.trump = SUIT_INDEX[trump] if trump else NO_TRUMP
    dl.first = leader
    for i in range(3):
        dl.currentTrickSuit[i] = 0
        dl.currentTrickRank[i] = 0
    for i, card in enumerate(trick):
        dl.currentTrickSuit[i] = SUIT_INDEX[card[1]]
        dl.currentTrickRank[i] = RANKS.index(card[0]) + 2
    remain = dl.remainCards
    for seat in range(4):
        row = remain[seat]
        masks = [0, 0, 0, 0]
        for card in hands[seat]:
            suit, bit = _BIT[card]
            masks[suit] |= bit
        for suit in range(4):
            row[suit] = masks[suit]
    return dl


def solve_counted(
    hands: Sequence[Sequence[str]], leader: int, trump: str | None, trick: Sequence[str] = (), solutions: int = 3
) -> tuple[dict[str, int], int]:
    """``solve`` and the number of search nodes DDS spent: a measure of the work that,
    unlike a clock, gives the same answer on a busy machine (~0.35 us a node here)."""
    dl = _deal(hands, leader, trump, trick)
    fut = _dds.futureTricks()
    # target -1, solutions 3: the score of every card (1: one best card); mode 1: always search
    _dds.SolveBoard(dl, -1, solutions, 1, fut, 0)
    out: dict[str, int] = {}
    for i in range(fut.cards):
        holding = (1 << fut.rank[i]) | fut.equals[i]
        suit_name = SUIT_OF[fut.suit[i]]
        for r in range(2, 15):
            if holding >> r & 1:
                out[RANKS[r - 2] + suit_name] = fut.score[i]
    return out, fut.nodes


def solve(hands: Sequence[Sequence[str]], leader: int, trump: str | None, trick: Sequence[str] = ()) -> dict[str, int]:
    """For the seat on play — ``leader`` plus ``len(trick)`` — each card it may play and
    the tricks its side then takes from here on (the trick in progress included), with
    best play by all four hands. ``hands`` are the cards still held by seats 0..3
    (N, E, S, W as in the engines); ``trick`` the cards already on the table, in order."""
    return solve_counted(hands, leader, trump, trick)[0]


def play_values(hands: Sequence[Sequence[str]], leader: int, trump: str | None, cards: Sequence[str]) -> list[int]:
    """The double-dummy tricks of the side NOT on lead (the declarer's, after an opening
    lead) before the first of ``cards`` and after each of them: the tricks it has won in
    the play so far plus its best from there on. ``hands`` as dealt, ``leader`` plays
    ``cards[0]``; the cards must be a legal play from those hands.

    One DDS call (``AnalysePlayBin``) for the whole play: it keeps one transposition
    table through the positions and starts each search from the previous result, several
    times cheaper than a solve per position. Its answer stops after the 12th trick (the
    13th has one card a hand: nothing to choose), so it may be shorter than ``cards`` + 1."""
    dl = _deal(hands, leader, trump, ())
    trace = _dds.playTraceBin()
    trace.number = len(cards)
    for i, card in enumerate(cards):
        if card not in _BIT:
            raise BadPosition(f"unknown card {card!r}")
        trace.suit[i] = SUIT_INDEX[card[1]]
        trace.rank[i] = RANKS.index(card[0]) + 2
    solved = _dds.solvedPlay()
    _dds.AnalysePlayBin(dl, trace, solved, 0)
    return [solved.tricks[k] for k in range(solved.number)]
