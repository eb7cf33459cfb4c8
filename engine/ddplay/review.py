"""Double-dummy figures of a finished four-hand deal (bridge, whist): the table of tricks
for every declarer and strain, and the costly cards of the play.

A costly card is one whose play lowered its side's double-dummy result: every position of
the play is solved once (DDS scores every card the player on play could have played),
and the played card's score is compared with the best one's.
"""

from __future__ import annotations

from typing import Any, Sequence

from engine.analysis_core import side_costs

from .solver import check_position, solve

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


def position_values(
    hands: Sequence[Sequence[str]], plays: Sequence[tuple[int, str]], trump: str | None
) -> list[dict[str, int]]:
    """For each card of ``plays`` (``(seat, card)`` from the opening lead on), the score of
    every card its player could have played there: his side's tricks from that trick on."""
    left = [list(h) for h in hands]
    values: list[dict[str, int]] = []
    for i, (seat, card) in enumerate(plays):
        start = i - i % 4
        values.append(solve(left, plays[start][0], trump, [c for _, c in plays[start:i]]))
        left[seat].remove(card)
    return values


def costly_cards(
    hands: Sequence[Sequence[str]], plays: Sequence[tuple[int, str]], trump: str | None
) -> list[dict[str, Any]]:
    """``[{"trick", "seat", "card", "loss"}]``: the cards that cost their side ``loss``
    double-dummy tricks, in the order played."""
    values = position_values(hands, plays, trump)
    return [
        {"trick": trick, "seat": SEATS[seat], "card": card, "loss": loss}
        for trick, seat, card, loss in side_costs(values, plays, 4)
    ]
