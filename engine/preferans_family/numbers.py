"""Exact numbers in a preferans sheet's JSON: the scores are fractions (a whist of 10 shared
by two), written as an int or as "a/b"."""

from __future__ import annotations

from fractions import Fraction


def fnum(x: Fraction | int) -> int | str:
    """JSON form of an exact number: an int, or ``"a/b"``."""
    f = Fraction(x)
    return f.numerator if f.denominator == 1 else f"{f.numerator}/{f.denominator}"
