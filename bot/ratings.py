"""What the service stores when a game ends: the group's history row and the rating
update (``engine.ratings``), handed to ``commit_actions`` so both are written in the
transaction that ends the game."""

from __future__ import annotations

import logging
from typing import Any

from engine.ratings import Skill, Standings, standings, update
from storage.models import FinishedGame, RatingRow, SeatRow, TableRow
from storage.repository import RateFn
from bot.screens import computer_level

log = logging.getLogger(__name__)


def player_key(seat: SeatRow, level: str) -> str:
    """Whom a seat's results count for: the person, or the table's computer level
    (every computer of one level is one player of the group's table)."""
    return f"cpu:{level}" if seat.is_computer else f"u{seat.user_id}"


def finished_game(
    table: TableRow, seats: list[SeatRow], result: dict[str, Any], rated: bool, now: float
) -> FinishedGame:
    level = computer_level(table)
    return FinishedGame(
        chat_id=table.chat_id,
        thread_id=table.thread_id,
        table_id=table.id,
        game_no=table.game_no,
        game=table.game,
        options=dict(table.options),
        players=[
            {
                "name": s.name,
                "player": player_key(s, level),
                "user_id": None if s.is_computer else s.user_id,
            }
            for s in sorted(seats, key=lambda s: s.seat)
        ],
        result=result,
        rated=rated,
        finished_at=now,
    )


def rating_function(finished: FinishedGame, found: Standings, now: float) -> RateFn:
    """The update ``commit_actions`` runs inside its transaction, on the rows it read.
    People who opted out still play their part in the others' update, as newcomers,
    but nothing of theirs is written."""
    keys = [p["player"] for p in finished.players]
    winners = {keys[seat] for seat in found.winners()}

    def rate(current: dict[str, RatingRow], opted_out: set[int]) -> list[RatingRow]:
        skills = {key: Skill(row.mu, row.sigma) for key, row in current.items()}
        new = update(keys, skills, found)
        rows = []
        for seat_info in {p["player"]: p for p in finished.players}.values():
            key, user_id = seat_info["player"], seat_info.get("user_id")
            if user_id in opted_out:
                continue
            old = current.get(key)
            rows.append(
                RatingRow(
                    chat_id=finished.chat_id,
                    game=finished.game,
                    player=key,
                    user_id=user_id,
                    name=seat_info["name"],
                    mu=new[key].mu,
                    sigma=new[key].sigma,
                    games=(old.games if old else 0) + 1,
                    wins=(old.wins if old else 0) + (key in winners),
                    last_played=now,
                )
            )
        return rows

    return rate


def ending(
    table: TableRow, seats: list[SeatRow], result: dict[str, Any], now: float
) -> tuple[FinishedGame, RateFn | None]:
    """The history row of a game that just ended, and its rating update (None for a
    game that is not rated: a score sheet, or no person at the table)."""
    try:
        found = standings(table.game, result, len(seats))
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        # a result the rating cannot read must never block the game's last move: the
        # game goes into the history unrated, and the log says why
        log.exception("table %s: game %s result not rated: %r", table.id, table.game, result)
        found = None
    rated = found is not None and any(not s.is_computer for s in seats)
    finished = finished_game(table, seats, result, rated, now)
    if not rated or found is None:
        return finished, None
    return finished, rating_function(finished, found, now)
