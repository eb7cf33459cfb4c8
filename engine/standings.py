"""How a finished game placed its seats: what each game's ``standings(result, players)``
returns (``engine.base.Game``), and the small pieces the games build it from. The
ratings (``engine.ratings``) read nothing else of a result."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

PARTNERSHIPS = ((0, 2), (1, 3))  # North-South and East-West, the sides of a four-hand partnership game


@dataclass(frozen=True)
class Standings:
    """Sides of a finished game (each a list of seats) and their ranks, 1 = best."""

    teams: list[list[int]]
    ranks: list[int]

    def winners(self) -> set[int]:
        """Seats of the sides in first place; nobody when all sides tie."""
        if len(set(self.ranks)) == 1:
            return set()
        return {seat for team, rank in zip(self.teams, self.ranks) if rank == 1 for seat in team}


def ranks_of(scores: Sequence[float]) -> list[int]:
    """Higher score = better place; equal scores share it (1, 1, 3)."""
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]


def dense(ranks: Sequence[int]) -> list[int]:
    """Ranks renumbered 1, 2, 3 ... keeping ties and order."""
    order = sorted(set(ranks))
    return [order.index(r) + 1 for r in ranks]


def each_alone(ranks: Sequence[int]) -> Standings:
    """One side per seat, seat ``i`` at ``ranks[i]``."""
    return Standings([[s] for s in range(len(ranks))], list(ranks))


def by_scores(scores: Sequence[float]) -> Standings:
    """One side per seat, placed by its score, higher is better."""
    return each_alone(ranks_of(scores))


def partnerships(ns: float, ew: float) -> Standings:
    """North-South against East-West, placed by their scores, higher is better."""
    return Standings([list(PARTNERSHIPS[0]), list(PARTNERSHIPS[1])], ranks_of([ns, ew]))


def last(found: Standings, seat: int) -> Standings:
    """The side of ``seat`` placed behind every other side (it forfeited)."""
    ranks = list(found.ranks)
    for i, team in enumerate(found.teams):
        if seat in team:
            ranks[i] = max(ranks) + 1
    return Standings(found.teams, dense(ranks))
