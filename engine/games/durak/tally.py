"""The series tally (§11): fools per seat, games, draws. No points."""

from __future__ import annotations

from engine.jsondata import JsonDict


def result_of(entry: JsonDict) -> JsonDict:
    """Accepts a ``result()`` dict or a tally entry ``{"game_no", "dealer", "result"}``."""
    inner = entry.get("result")
    return inner if isinstance(inner, dict) else entry


def tally(history: list[JsonDict], players: int) -> JsonDict:
    """``{"players", "games", "draws", "fools": [per seat], "games_by_seat": [per seat]}``.

    Raises ``ValueError`` on a result that names no durak and is not a draw, or a seat
    outside the table. Checks Σ fools + draws = games.
    """
    fools = [0] * players
    draws = 0
    for i, entry in enumerate(history):
        res = result_of(entry)
        if res.get("draw"):
            draws += 1
        elif isinstance(res.get("durak"), int) and 0 <= res["durak"] < players:
            fools[res["durak"]] += 1
        else:
            raise ValueError(f"game {i + 1}: not a durak result: {res!r}")
    games = len(history)
    if sum(fools) + draws != games:  # pragma: no cover - guarded by construction
        raise ValueError("tally check failed: fools + draws != games")
    return {"players": players, "games": games, "draws": draws, "fools": fools, "games_by_seat": [games] * players}
