"""Preferans options (rules §9). Names and defaults exactly as the rules file.

``max_refe`` defaults to 1 for bula 30, 3 for bula 50 and none (unlimited) otherwise:
when the option is not given, it is filled in from ``bula`` before validation, so a
dumped model always carries the explicit value and reloads unchanged."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.options import parse_model


def default_max_refe(bula: int) -> int | None:
    return {30: 1, 50: 3}.get(bula)


class PreferansOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    bula: int = Field(30, gt=0)
    max_refe: int | None = Field(1, ge=0)
    kontra_scope: Literal["pair_only", "all"] = "pair_only"
    allow_subkontra: bool = True
    max_kontra_level: int | None = Field(None, ge=1)
    two_requires_kontra: bool = True
    slovenian_two_refe: bool = False
    slovenian_sans_lead: bool = False
    show_talon: bool = True
    single_step_bids: bool = False
    lone_defender_quota: int = Field(2, ge=0, le=10)
    first_dealer: Literal["random", "A", "B", "C"] = "random"
    display_rounding: Literal["none", "int"] = "none"

    @model_validator(mode="before")
    @classmethod
    def _refe_follows_bula(cls, data: Any) -> Any:
        if isinstance(data, dict) and "max_refe" not in data:
            data = dict(data)
            bula = data.get("bula", 30)
            data["max_refe"] = default_max_refe(bula) if isinstance(bula, int) else None
        return data

    @property
    def kontra_cap(self) -> int | None:
        """The highest kontra level (§5.5 step 4); None = no end."""
        caps = [c for c in ((None if self.allow_subkontra else 2), self.max_kontra_level) if c is not None]
        return min(caps) if caps else None


def parse_options(options: Any) -> PreferansOptions:
    """``PreferansOptions`` from a model or a plain dict; ``BadOptions`` on bad input."""
    return parse_model(PreferansOptions, options, from_other_models=True)
