"""Ratings from finished games: who placed where, read from a game's ``result(...)``
dict, and the skill update, done by the OpenSkill library (Plackett-Luce model, made
for many players and for teams) -- no rating maths of our own.

Places, best first (a lower rank is better, equal ranks are a tie):

* durak: the durak is last (durak §7.4). The others place in the order
  they got rid of their cards (``finish_order``: the seats that went out with one
  action share a place); without that order, everyone but the durak shares first
  place. A draw (nobody left holding cards) is a tie of everyone.
* King: the game's own ``places``.
* preferans and Russian preferans: the settlement, higher is better (exact: "a/b" strings).
* whist and bridge: two partnerships, North-South (seats 0, 2) against East-West
  (seats 1, 3), placed by the match's winner, else by the balance or the amounts.

A forfeit (the turn timer ran out on a player, ``result["forfeit"]``) puts that
player's side last whatever the score says: it is a loss for the one who left. A table
closed before its game ended has no result, so it is not rated. Score sheets (games
played with real cards, only written down here) are not rated: the sheet's seats are
the people holding the pen, not necessarily the players.

Shown to people is the conservative estimate ``mu - 3 sigma`` (the skill the player
has with about 99.7% certainty), scaled so that a newcomer shows ``DISPLAY_BASE``:
``DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 sigma)``. A new player's ``sigma`` is large, so
the figure first climbs as the system gets sure of the player, then follows the results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # mu 25, sigma 25/3: the library's defaults
DISPLAY_BASE = 1500  # a newcomer's figure (mu - 3 sigma = 0)
DISPLAY_SCALE = 24  # points per unit of mu - 3 sigma: one sigma of a newcomer is 200
TEAMS = ((0, 2), (1, 3))  # North-South and East-West at whist and bridge
RATED_GAMES = ("durak", "king", "preferans", "preferans_ru", "whist", "bridge")


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate: ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        """What people see: the ordinal on a familiar scale (a newcomer shows 1500)."""
        return round(DISPLAY_BASE + DISPLAY_SCALE * self.ordinal)


NEW_SKILL = Skill(MODEL.mu, MODEL.sigma)


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


def standings(
    game: str, result: Mapping[str, Any], players: int, finish_order: Sequence[Sequence[int]] = ()
) -> Standings | None:
    """How the seats placed, or None for a game that is not rated."""
    if game == "durak":
        found = _durak(result, players, finish_order)
    elif game == "king":
        found = Standings([[s] for s in range(players)], [int(p) for p in result["places"]])
    elif game in ("preferans", "preferans_ru"):  # exact settlements: ints or "a/b" strings
        found = Standings([[s] for s in range(players)], ranks_of([float(Fraction(x)) for x in result["settlement"]]))
    elif game in ("whist", "bridge"):
        found = _partnerships(game, result)
    else:
        return None
    forfeit = result.get("forfeit")  # a seat; durak writes True (its durak is the one who left)
    if isinstance(forfeit, int) and not isinstance(forfeit, bool):
        found = _last(found, forfeit)
    return found


def _durak(result: Mapping[str, Any], players: int, finish_order: Sequence[Sequence[int]]) -> Standings:
    seats = list(range(players))
    if result.get("draw"):
        return Standings([[s] for s in seats], [1] * players)
    durak = int(result["durak"])
    rank = {s: 0 for s in seats}
    place = 1
    for group in finish_order:
        for seat in group:
            if seat != durak and rank[seat] == 0:
                rank[seat] = place
        place += 1
    for seat in seats:  # still holding cards when the game ended (a forfeit): behind those out
        if rank[seat] == 0 and seat != durak:
            rank[seat] = place
    rank[durak] = max(rank.values()) + 1
    return Standings([[s] for s in seats], _dense([rank[s] for s in seats]))


def _partnerships(game: str, result: Mapping[str, Any]) -> Standings:
    winner = result.get("winner")
    if winner in ("NS", "EW"):
        ranks = [1, 2] if winner == "NS" else [2, 1]
    elif game == "whist":
        balance = result.get("balance") or {}
        ranks = ranks_of([float(balance.get("NS", 0)), float(balance.get("EW", 0))])
    else:
        amounts = result.get("amounts") or [0, 0]
        ranks = ranks_of([float(amounts[0]), float(amounts[1])])
    return Standings([list(TEAMS[0]), list(TEAMS[1])], ranks)


def _last(found: Standings, seat: int) -> Standings:
    """The side of ``seat`` placed behind every other side."""
    ranks = list(found.ranks)
    for i, team in enumerate(found.teams):
        if seat in team:
            ranks[i] = max(ranks) + 1
    return Standings(found.teams, _dense(ranks))


def _dense(ranks: Sequence[int]) -> list[int]:
    """Ranks renumbered 1, 2, 3 ... keeping ties and order."""
    order = sorted(set(ranks))
    return [order.index(r) + 1 for r in ranks]


def finish_order(events_by_action: Sequence[Sequence[Mapping[str, Any]]]) -> list[list[int]]:
    """Who went out, in order, from the events of a game's actions: the seats of one
    action's ``finished`` events went out together (durak §7)."""
    order: list[list[int]] = []
    for events in events_by_action:
        group = [int(e["seat"]) for e in events if e.get("type") == "finished"]
        if group:
            order.append(group)
    return order


def update(seat_players: Sequence[str], current: Mapping[str, Skill], found: Standings) -> dict[str, Skill]:
    """New skills after a game. ``seat_players[seat]`` names who held the seat; one
    player may hold several seats (the computers of one level): each seat is rated as
    its own participant from the player's current skill, and the player's new skill is
    the mean of those seats' new skills."""
    teams = [[current.get(seat_players[s], NEW_SKILL) for s in team] for team in found.teams]
    rated = MODEL.rate(
        [[MODEL.rating(mu=sk.mu, sigma=sk.sigma) for sk in team] for team in teams], ranks=list(found.ranks)
    )
    per_player: dict[str, list[Skill]] = {}
    for team, new_team in zip(found.teams, rated):
        for seat, new in zip(team, new_team):
            per_player.setdefault(seat_players[seat], []).append(Skill(new.mu, new.sigma))
    return {
        player: Skill(sum(s.mu for s in skills) / len(skills), sum(s.sigma for s in skills) / len(skills))
        for player, skills in per_player.items()
    }
