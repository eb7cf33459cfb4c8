"""Double-dummy figures of a finished four-hand deal (bridge, whist): the table of tricks
for every declarer and strain, and the costly cards of the play.

A costly card is one whose play lowered its side's double-dummy result: its score (the
tricks its side takes from there on with best play) is below the best card's.
"""

from __future__ import annotations

from typing import Any, Sequence

from engine.tricks import winning_index

from .solver import best_score, check_position

SEATS = "NESW"
STRAINS = ("C", "D", "H", "S", "NT")
_ENDPLAY_ROWS = ("S", "H", "D", "C", "NT")  # endplay's table rows; columns are N, E, S, W
_RANKS_DOWN = "AKQJT98765432"


def pbn(hands: Sequence[Sequence[str]]) -> str:
    """``N:`` PBN of four hands (seats N, E, S, W)."""

    def holding(hand: Sequence[str], suit: str) -> str:
        return "".join(sorted((c[0] for c in hand if c[1] == suit), key=_RANKS_DOWN.index))

    return "N:" + " ".join(".".join(holding(h, s) for s in "SHDC") for h in hands)


def dd_table(hands: Sequence[Sequence[str]]) -> tuple[dict[str, dict[str, int]], Any]:
    """``{declarer: {strain: tricks}}`` for the four hands of seats N, E, S, W as dealt,
    and endplay's ``DDTable`` (bridge's par reads it)."""
    from endplay.dds import calc_dd_table
    from endplay.types import Deal

    check_position(hands, 0, ())
    if any(len(h) != 13 for h in hands):
        raise ValueError("a double-dummy table needs four hands of 13 cards")
    table = calc_dd_table(Deal.from_pbn(pbn(hands)))
    rows = table.to_list()
    out = {seat: {strain: rows[_ENDPLAY_ROWS.index(strain)][i] for strain in STRAINS} for i, seat in enumerate(SEATS)}
    return out, table


def costly_cards(
    hands: Sequence[Sequence[str]], plays: Sequence[tuple[int, str]], trump: str | None
) -> list[dict[str, Any]]:
    """``[{"trick", "seat", "card", "loss"}]``: the cards that cost their side ``loss``
    double-dummy tricks, in the order played. ``plays``: ``(seat, card)`` from the
    opening lead on, as far as the deal was played.

    One search per position, for its best score only (the cheap one): the played card's
    own score is read from the position it leads to — the other side's best there
    (within a trick the next player is an opponent), or after a completed trick the
    trick itself plus the winner's side's best."""
    left = [list(h) for h in hands]
    best: list[int] = []  # before each card: the side on play's tricks from here, best play
    remaining: list[int] = []  # ... and the tricks still to play, the current one included
    leader = plays[0][0] if plays else 0
    for i, (seat, card) in enumerate(plays):
        start = i - i % 4
        leader = plays[start][0]
        best.append(best_score(left, leader, trump, [c for _, c in plays[start:i]]))
        remaining.append(len(left[seat]))
        left[seat].remove(card)
    if plays and any(left):  # the play stopped early (a claim, a concession, a record cut): solve where it stopped
        start = len(plays) - len(plays) % 4
        trick = [c for _, c in plays[start:]]
        if trick:
            best.append(best_score(left, plays[start][0], trump, trick))
        else:
            winner = plays[start - 4 + winning_index([c for _, c in plays[start - 4 :]], trump)][0]
            best.append(best_score(left, winner, trump, []))
    out = []
    for i, (seat, card) in enumerate(plays):
        if i % 4 < 3:  # the next card is an opponent's, in the same trick
            value = remaining[i] - best[i + 1]
        else:
            cards = [c for _, c in plays[i - 3 : i + 1]]
            winner = plays[i - 3 + winning_index(cards, trump)][0]
            ours = winner % 2 == seat % 2
            after = best[i + 1] if i + 1 < len(best) else 0
            value = int(ours) + (after if ours else remaining[i] - 1 - after)
        loss = best[i] - value
        if loss:
            out.append({"trick": i // 4 + 1, "seat": SEATS[seat], "card": card, "loss": loss})
    return out
