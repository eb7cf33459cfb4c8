"""Double-dummy figures of a finished four-hand deal (bridge, whist): the table of tricks
for every declarer and strain, and the costly cards of the play.

A costly card is one whose play lowered its side's double-dummy result: its score (the
tricks its side takes from there on with best play) is below the best card's.
"""

from __future__ import annotations

from typing import Any, Sequence

from .solver import check_position, play_values

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

    The double-dummy result of the side not on lead, before and after each card, comes
    from one DDS call for the whole play (``solver.play_values``); a card that moved its
    own side's result down by ``k`` cost ``k``. The 13th trick's cards are forced."""
    if not plays:
        return []
    leading_side = plays[0][0] % 2
    values = play_values(hands, plays[0][0], trump, [card for _, card in plays])
    out = []
    for i, (seat, card) in enumerate(plays[: len(values) - 1]):
        change = values[i + 1] - values[i]  # for the side not on lead
        loss = change if seat % 2 == leading_side else -change
        if loss:
            out.append({"trick": i // 4 + 1, "seat": SEATS[seat], "card": card, "loss": loss})
    return out
