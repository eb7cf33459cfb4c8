"""Whist's options (rules §8). ``preset`` sets every value of its column; any single
option may then be overridden: a value given explicitly wins over the preset's.

The model is always complete (every field holds a concrete value), so ``model_dump()``
→ ``model_validate()`` gives the same options back whatever the preset says.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engine.options import parse_model

from .errors import error

Seat = Literal["N", "E", "S", "W"]
HonourRank = Literal["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"]

PRESETS: dict[str, dict[str, Any]] = {
    "seed": {
        "trump_method": "turn_up",
        "must_trump": True,
        "points_per_odd_trick": 2,
        "game_target": 10,
        "honours_mode": "in_tricks",
        "honour_ranks": ["A", "K", "Q", "J", "T"],
        "honours_points": {3: 2, 4: 4, 5: 6},
        "honours_barred_from": None,
        "double_below": 5,
        "triple_at_zero": True,
        "rubber_premium": {"2-0": 5, "2-1": 3},
        "deduct_loser_games": False,
        "honours_after_game_out": False,
        "match_rubbers_to_win": 10,
        "first_dealer": "N",
    },
    "classical_long": {
        "trump_method": "turn_up",
        "must_trump": False,
        "points_per_odd_trick": 1,
        "game_target": 10,
        "honours_mode": "held",
        "honour_ranks": ["A", "K", "Q", "J"],
        "honours_points": {3: 2, 4: 4},
        "honours_barred_from": 9,
        "double_below": 5,
        "triple_at_zero": True,
        "rubber_premium": {"2-0": 2, "2-1": 2},
        "deduct_loser_games": True,
        "honours_after_game_out": False,
        "match_rubbers_to_win": 10,
        "first_dealer": "N",
    },
    "classical_short": {
        "trump_method": "turn_up",
        "must_trump": False,
        "points_per_odd_trick": 1,
        "game_target": 5,
        "honours_mode": "held",
        "honour_ranks": ["A", "K", "Q", "J"],
        "honours_points": {3: 2, 4: 4},
        "honours_barred_from": 4,
        "double_below": 3,
        "triple_at_zero": True,
        "rubber_premium": {"2-0": 2, "2-1": 2},
        "deduct_loser_games": True,
        "honours_after_game_out": False,
        "match_rubbers_to_win": 10,
        "first_dealer": "N",
    },
}


RUBBER_PREMIUM: dict[Literal["2-0", "2-1"], int] = {"2-0": 5, "2-1": 3}


class WhistOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    preset: Literal["seed", "classical_long", "classical_short"] = "seed"
    trump_method: Literal["turn_up", "dealer_names"] = "turn_up"
    must_trump: bool = True
    points_per_odd_trick: int = Field(2, ge=1, le=100)
    game_target: int = Field(10, ge=1, le=1000)
    honours_mode: Literal["in_tricks", "held"] = "in_tricks"
    honour_ranks: tuple[HonourRank, ...] = ("A", "K", "Q", "J", "T")
    honours_points: dict[int, int] = Field(default_factory=lambda: {3: 2, 4: 4, 5: 6})
    honours_barred_from: int | None = Field(None, ge=0)
    double_below: int = Field(5, ge=1)
    triple_at_zero: bool = True
    rubber_premium: dict[Literal["2-0", "2-1"], int] = Field(default_factory=lambda: dict(RUBBER_PREMIUM))
    deduct_loser_games: bool = False
    honours_after_game_out: bool = False
    match_rubbers_to_win: int | None = Field(10, ge=1)
    first_dealer: Seat = "N"

    @model_validator(mode="before")
    @classmethod
    def _fill_from_preset(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        preset = data.get("preset", "seed")
        values = PRESETS.get(preset) if isinstance(preset, str) else None
        if values is None:
            return data  # the field validator reports the bad preset
        return {**values, **data}

    @field_validator("honour_ranks")
    @classmethod
    def _distinct_ranks(cls, ranks: tuple[str, ...]) -> tuple[str, ...]:
        if not ranks or len(set(ranks)) != len(ranks):
            raise ValueError("honour ranks must be distinct and not empty")
        return ranks

    @field_validator("honours_points")
    @classmethod
    def _sorted_points(cls, points: dict[int, int]) -> dict[int, int]:
        if any(v < 0 for v in points.values()):
            raise ValueError("honour points cannot be negative")
        return dict(sorted(points.items()))

    @field_validator("rubber_premium")
    @classmethod
    def _both_premiums(cls, premium: dict[str, int]) -> dict[str, int]:
        if set(premium) != {"2-0", "2-1"} or any(v < 0 for v in premium.values()):
            raise ValueError('rubber_premium needs "2-0" and "2-1", not negative')
        return {"2-0": premium["2-0"], "2-1": premium["2-1"]}

    @model_validator(mode="after")
    def _consistent(self) -> "WhistOptions":
        n = len(self.honour_ranks)
        for h in self.honours_points:
            # only a strict majority of the honours may score: at most one side per deal
            if not (2 * h > n and h <= n):
                raise ValueError(f"honours_points: {h} of {n} honours is not a majority")
        return self

    @property
    def first_dealer_seat(self) -> int:
        return "NESW".index(self.first_dealer)

    def dump(self) -> dict[str, Any]:
        """JSON-ready (string keys for the honour table)."""
        return self.model_dump(mode="json")


def parse_options(options: Any) -> WhistOptions:
    """``WhistOptions`` from a model or a plain dict; ``BadOptions`` on bad input."""
    return parse_model(WhistOptions, options, from_other_models=True)


def check_players(players: Any) -> int:
    if players != 4 or isinstance(players, bool):
        raise error("bad_options", detail=f"whist is played by 4 players, not {players}")
    return 4
