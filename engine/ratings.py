"""Ratings from finished games: who placed where, as each game's own
``standings(result, players)`` says (``engine.base.Game``; a game without it is not
rated), and the skill update, done by the OpenSkill library (Plackett-Luce model, made
for many players and for teams) -- no rating maths of our own.

A forfeit (the turn timer ran out on a player, ``result["forfeit"]`` naming the seat)
puts that player's side last whatever the score says: it is a loss for the one who left.
A table closed before its game ended has no result, so it is not rated. Score sheets
(games played with real cards, only written down here) define no standings: the sheet's
seats are the people holding the pen, not necessarily the players.

Shown to people is the conservative estimate ``mu - 3 sigma`` (the skill the player
has with about 99.7% certainty), scaled so that a newcomer shows ``DISPLAY_BASE``:
``DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 sigma)``. A new player's ``sigma`` is large, so
the figure first climbs as the system gets sure of the player, then follows the results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from engine.base import games, get_game
from engine.standings import Standings, last

__all__ = ["DISPLAY_BASE", "NEW_SKILL", "Skill", "Standings", "rated_games", "standings", "update"]

MODEL = PlackettLuce()  # mu 25, sigma 25/3: the library's defaults
DISPLAY_BASE = 1500  # a newcomer's figure (mu - 3 sigma = 0)
DISPLAY_SCALE = 24  # points per unit of mu - 3 sigma: one sigma of a newcomer is 200


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


def rated_games() -> tuple[str, ...]:
    """The registered games that define standings, by name."""
    return tuple(sorted(g.name for g in games() if hasattr(g, "standings")))


def standings(game: str, result: Mapping[str, Any], players: int) -> Standings | None:
    """How the seats of a finished ``game`` placed, or None for a game that is not rated."""
    placed = getattr(get_game(game), "standings", None)
    if placed is None:
        return None
    found: Standings = placed(result, players)
    forfeit = result.get("forfeit")  # a seat; durak writes True (its durak is the one who left)
    if isinstance(forfeit, int) and not isinstance(forfeit, bool):
        found = last(found, forfeit)
    return found


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
