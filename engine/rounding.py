"""Whole numbers for a settlement shown rounded ("≈ +3"): the rounded figures must still
add up to zero, as the exact ones do, or a sheet would show a winner paid one more than
the losers pay. Every settlement that shows rounded figures rounds them here."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction


def rounded_shares(values: Sequence[Fraction | int]) -> list[int]:
    """Each value rounded to a whole number, down or up, so that the rounded numbers add
    up to the exact total (zero for a settlement; a total that is not whole is rounded
    half away from zero first). The largest-remainder method: every value is rounded
    down, then the ones with the largest remainders are rounded up, as many as the total
    needs. Among equal remainders a half goes up for a gain and down for a loss (as plain
    rounding, half away from zero, does), then the larger amount moves first (the smaller
    change for its size), then the earlier seat. So the result is the plain rounding
    whenever that adds up; otherwise the figures whose plain rounding was the closest
    call move."""
    exact = [Fraction(v) for v in values]
    total = sum(exact, Fraction(0))
    target = math.floor(abs(total) + Fraction(1, 2)) * (1 if total >= 0 else -1)
    out = [math.floor(x) for x in exact]
    missing = target - sum(out)  # from 0 to len(values): each remainder is below 1

    def order(i: int) -> tuple[Fraction, bool, Fraction, int]:
        remainder = exact[i] - out[i]
        half_down = remainder == Fraction(1, 2) and exact[i] < 0  # −2.5 rounds to −3
        return -remainder, half_down, -abs(exact[i]), i

    for i in sorted(range(len(exact)), key=order)[:missing]:
        out[i] += 1
    return out
