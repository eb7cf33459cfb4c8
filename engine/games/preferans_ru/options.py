"""Russian preferans options (docs/rules/preferans_ru.md §7).

``system`` picks a preset (Сочи, Ленинград, Ростов, §6.6); every option given explicitly
overrides the preset. Unknown keys are an error. A dumped model carries every value
explicitly, so it reloads unchanged whatever ``system`` says."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engine.options import parse_model

System = Literal["sochi", "leningrad", "rostov"]
SYSTEMS: tuple[System, ...] = ("sochi", "leningrad", "rostov")
GAME_LEVELS = (6, 7, 8, 9, 10)

# §6.6 / §7: what each system sets; the model's own defaults are the Сочи column.
PRESETS: dict[str, dict[str, Any]] = {
    "sochi": {},
    "leningrad": {
        "pool_point": 20,
        "whist_factor": 2,
        "remise_factor": 2,
        "whist_responsibility": "half",
        "whist_sharing": "gentleman",
        "raspasy_exit": (6, 7, 8),
    },
    "rostov": {
        "whist_responsibility": "half",
        "whist_sharing": "gentleman",
        "raspasy": "whists",
        "raspasy_price": 5,
        "raspasy_progression": "none",
        "raspasy_talon": "none",
    },
}


class PreferansRuOptions(BaseModel):
    """Every §7 option; defaults are the Сочи preset."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    system: System = "sochi"
    pool: int = Field(20, gt=0)
    pool_point: int = Field(10, gt=0)
    whist_factor: Literal[1, 2] = 1
    remise_factor: Literal[1, 2] = 1
    whist_responsibility: Literal["full", "half"] = "full"
    whist_sharing: Literal["greedy", "gentleman"] = "greedy"
    consolation: bool = True
    consolation_dealer: bool = True
    half_whist: tuple[int, ...] = (6, 7)
    ten_checked: bool = False
    raspasy: Literal["mountain", "whists"] = "mountain"
    raspasy_price: int = Field(1, gt=0)
    raspasy_progression: Literal["none", "arithmetic", "geometric"] = "arithmetic"
    raspasy_cap: int = Field(3, ge=1)
    raspasy_zero_bonus: bool = True
    pool_overflow: Literal["help", "mountain"] = "help"
    # The table conventions that vary inside one system (§7.1); the defaults are §6's.
    whist_quota: Literal["shared", "personal", "personal_if_short"] = "shared"
    raspasy_reset: Literal["any_deal", "made_game", "made_8_or_misere"] = "any_deal"
    consolation_rate: Literal["price", "ten"] = "price"
    raspasy_tie: Literal["full", "split"] = "full"
    # None: random in the engine, the last listed player in a score-only record (§3.5).
    first_dealer: str | None = None
    # engine only (the score-only record accepts and ignores them)
    raspasy_talon: Literal["lead_suit", "none"] = "lead_suit"
    raspasy_exit: tuple[int, ...] = (6,)
    here: bool = False
    jump_bids: bool = True
    misere_without_talon: bool = False
    stalingrad: bool = False
    open_timing: Literal["after_lead", "before_lead"] = "after_lead"
    misere_open_timing: Literal["after_lead", "before_lead", "after_first_trick"] = "after_lead"
    dealer_stays_on_all_pass: bool = False

    @model_validator(mode="before")
    @classmethod
    def _preset(cls, data: Any) -> Any:
        """Fill the options not given from the chosen system's column (§6.6)."""
        if not isinstance(data, dict):
            return data
        system = data.get("system", "sochi")
        preset = PRESETS.get(system) if isinstance(system, str) else None
        if preset is None:
            return data  # the Literal check reports the bad system
        return {**preset, **data}

    @field_validator("half_whist")
    @classmethod
    def _half_levels(cls, levels: tuple[int, ...]) -> tuple[int, ...]:
        if any(level not in GAME_LEVELS for level in levels):
            raise ValueError("levels are 6 to 10")
        return tuple(sorted(set(levels)))

    @field_validator("raspasy_exit")
    @classmethod
    def _exit_levels(cls, levels: tuple[int, ...]) -> tuple[int, ...]:
        if not levels or any(level not in GAME_LEVELS for level in levels):
            raise ValueError("a non-empty list of levels 6 to 10")
        return levels

    @model_validator(mode="after")
    def _applies(self) -> PreferansRuOptions:
        """A convention of one way of scoring is refused where it would silently do nothing."""
        if self.consolation_rate == "ten" and self.system != "rostov":
            raise ValueError("consolation_rate ten is a Ростов convention (system rostov)")
        if self.raspasy_tie == "split" and self.raspasy != "whists":
            raise ValueError("raspasy_tie split needs распасы on whists (raspasy whists)")
        return self

    def exit_level(self, series: int) -> int:
        """The lowest game level allowed after ``series`` consecutive распасы (§5.5)."""
        if series <= 0:
            return 6
        return self.raspasy_exit[min(series, len(self.raspasy_exit)) - 1]


def parse_options(options: Any) -> PreferansRuOptions:
    """``PreferansRuOptions`` from a model, a plain dict or None; ``BadOptions`` on bad input."""
    return parse_model(PreferansRuOptions, options, from_other_models=True)
