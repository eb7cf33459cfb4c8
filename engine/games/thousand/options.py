"""Тысяча's options (rules §6): every convention players argue about, with its default.
The number of players (3, or 4 with the dealer sitting out) is passed beside them."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.options import parse_model

from .errors import error


class ThousandOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    target: int = Field(1000, ge=100, le=5000)  # §5.5
    bid_step: Literal[5, 10] = 5  # §2.2
    cap_without_marriage: bool = True  # §2.3: no bid over 120 without a marriage in hand
    marriage_after_trick: bool = True  # §4.2: a marriage only by a player who has taken a trick
    rounding: Literal[5, 10] = 5  # §5.2
    bolts: bool = True  # §6.1
    bolt_penalty: int = Field(120, ge=0, le=1000)
    barrel: bool = True  # §6.2
    barrel_at: int = Field(880, ge=0, le=5000)
    barrel_tries: int = Field(3, ge=1, le=10)
    barrel_penalty: int = Field(120, ge=0, le=1000)
    samosval: bool = True  # §6.3: exactly 555 falls back to 0
    concede: bool = True  # §6.4 распишись
    concede_points: int = Field(60, ge=0, le=120)
    dark: bool = False  # §6.5 тёмная

    def dump(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


def parse_options(options: Any) -> ThousandOptions:
    return parse_model(ThousandOptions, options, from_other_models=True)


def check_players(players: Any) -> int:
    if players not in (3, 4) or isinstance(players, bool):
        raise error("bad_options", detail=f"Тысяча is played by 3 or 4 players, not {players}")
    return int(players)
