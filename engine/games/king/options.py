"""King's options (rules §9), with exactly the names and defaults of the rules file.
The number of players is always 4 (rules §2); it is passed beside the options."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from engine.options import parse_model

from .errors import error

Seat = Literal["random", "N", "E", "S", "W"]
Rank = Literal["7", "8", "9", "T", "J", "Q", "K", "A"]

SEAT_LETTERS = "NESW"
PLAYERS = 4

DEAL7_VALUES: dict[Rank, int] = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
DEAL7_THRESHOLDS = ((25, -1), (50, -3), (75, -5), (100, -7))


class KingOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    first_dealer: Seat = "random"
    stop_when_decided: bool = True
    deal1_per_trick: int = -2
    deal2_per_heart: int = -2
    deal2_no_heart_lead: bool = True
    deal3_cards: Literal["J", "KJ"] = "J"
    deal3_per_card: int = -4
    deal4_per_queen: int = -2
    deal4_bachelor_rule: bool = True
    deal4_bachelor_per_queen: int = -4
    deal4_all_four_bonus: int = 8
    deal5_per_trick: int = -4
    deal6_penalty: int = -8
    deal6_no_heart_lead: bool = False
    deal6_must_discard_kh: bool = False
    deal7_values: dict[Rank, int] = Field(default_factory=lambda: dict(DEAL7_VALUES))
    deal7_thresholds: tuple[tuple[int, int], ...] = DEAL7_THRESHOLDS
    deal7_stop_at_100: bool = True
    deal8_penalty: int = -8
    deal8_free_pass: bool = False
    trump_per_trick: int = 3
    trump_must_ruff: bool = True

    @field_validator("deal7_values")
    @classmethod
    def _values(cls, v: dict[Rank, int]) -> dict[Rank, int]:
        full = {r: 0 for r in DEAL7_VALUES}
        full.update(v)  # a rank left out is worth 0
        if any(x < 0 for x in full.values()):
            raise ValueError("card values cannot be negative")
        return full

    @field_validator("deal7_thresholds")
    @classmethod
    def _thresholds(cls, v: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
        totals = [t for t, _ in v]
        if not v or any(t <= 0 for t in totals) or totals != sorted(set(totals)):
            raise ValueError("thresholds must be positive totals in increasing order")
        return tuple((int(t), int(p)) for t, p in v)


def parse_options(options: Any) -> KingOptions:
    """``KingOptions`` from a model or a plain dict; ``BadOptions`` on bad input."""
    return parse_model(KingOptions, options)


def check_players(players: Any) -> int:
    if players != PLAYERS or isinstance(players, bool):
        raise error("bad_options", detail=f"King is played by exactly 4 players, not {players}")
    return PLAYERS
