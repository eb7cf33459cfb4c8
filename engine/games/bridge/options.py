"""Bridge's options (rules §8) and the two scoring presets as data (§5.4).

Every key of a preset may be overridden by an option of the same name; ``None`` (the
default) means "the preset's value". A dict override is merged into the preset's dict,
so ``{"insult": {"XX": 100}}`` changes one value and keeps the rest.
"""

from __future__ import annotations

import copy
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engine.options import parse_model
from engine.jsondata import JsonDict

PRESETS: dict[str, dict[str, Any]] = {
    "seed": {
        "game_threshold": 100,
        "per_game_bonus": 100,
        "insult": {"X": 50, "XX": 50},
        "small_slam": {"nv": 500, "v": 700},
        "grand_slam": {"nv": 750, "v": 1500},
        "undertrick_undoubled": {"nv": 50, "v": 100},
        "undertrick_doubled": {"nv": [100, 200, 200, 200], "v": [200, 300, 300, 300]},
        "overtrick_doubled": {"nv": 100, "v": 200},
        "redouble_factor": 2,
        "honours": {"four_trump": 100, "five_trump": 150, "four_aces_nt": 150},
        "rubber_bonus": {"2-0": 700, "2-1": 500},
    },
    "acbl": {
        "game_threshold": 100,
        "per_game_bonus": 0,
        "insult": {"X": 50, "XX": 100},
        "small_slam": {"nv": 500, "v": 750},
        "grand_slam": {"nv": 1000, "v": 1500},
        "undertrick_undoubled": {"nv": 50, "v": 100},
        "undertrick_doubled": {"nv": [100, 200, 200, 300], "v": [200, 300, 300, 300]},
        "overtrick_doubled": {"nv": 100, "v": 200},
        "redouble_factor": 2,
        "honours": {"four_trump": 100, "five_trump": 150, "four_aces_nt": 150},
        "rubber_bonus": {"2-0": 700, "2-1": 500},
    },
}
TABLE_KEYS = tuple(PRESETS["seed"])
# §7.8 Chicago (the score table holds it as "chicago"). By the laws (`chicago_scoring: laws`):
# part-scores carry over until a game, 300 / 500 for the game by the vulnerability of the side
# completing it, 100 for a part-score on the fourth deal that completes no game, a passed-out
# deal redealt. The clubs' scheme (`each_deal`): every deal stands alone, 50 for any
# part-score, a passed-out deal one of the four.
CHICAGO: dict[str, dict[str, Any]] = {
    "laws": {"game": {"nv": 300, "v": 500}, "part_score": 0, "fourth_deal_part_score": 100, "deals": 4},
    "each_deal": {"game": {"nv": 300, "v": 500}, "part_score": 50, "fourth_deal_part_score": 50, "deals": 4},
}

Points = Annotated[int, Field(ge=0)]
Vul = Literal["nv", "v"]


class BridgeOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    preset: Literal["seed", "acbl"] = "seed"
    # rubber: two games win a rubber (§5-§7); chicago: four deals a round (§7.8)
    scoring: Literal["rubber", "chicago"] = "rubber"
    # §7.8: Chicago by the laws, or every deal on its own (the scheme some clubs play)
    chicago_scoring: Literal["laws", "each_deal"] = "laws"
    rounding: Literal["half_up", "down", "none"] = "half_up"
    score_honours: bool = True
    unfinished_rubber_bonus: bool = False
    first_dealer: Literal["N", "E", "S", "W"] = "N"
    # overrides of single values of the preset's table (None: the preset's value)
    game_threshold: Annotated[int, Field(ge=1)] | None = None
    per_game_bonus: Points | None = None
    insult: dict[Literal["X", "XX"], Points] | None = None
    small_slam: dict[Vul, Points] | None = None
    grand_slam: dict[Vul, Points] | None = None
    undertrick_undoubled: dict[Vul, Points] | None = None
    undertrick_doubled: dict[Vul, list[Points]] | None = None
    overtrick_doubled: dict[Vul, Points] | None = None
    redouble_factor: Annotated[int, Field(ge=1)] | None = None
    honours: dict[Literal["four_trump", "five_trump", "four_aces_nt"], Points] | None = None
    rubber_bonus: dict[Literal["2-0", "2-1"], Points] | None = None

    @model_validator(mode="before")
    @classmethod
    def _old_chicago_dump(cls, data: Any) -> Any:
        """A complete dump of the options (a snapshot or a record the bot wrote) from before
        ``chicago_scoring`` existed was a Chicago of the clubs' scheme: it goes on, or replays,
        as it was played (docs/rules/bridge.md §7.8)."""
        if (
            isinstance(data, dict)
            and data.get("scoring") == "chicago"
            and "chicago_scoring" not in data
            and set(cls.model_fields) - {"chicago_scoring"} <= set(data)
        ):
            return {**data, "chicago_scoring": "each_deal"}
        return data

    @field_validator("undertrick_doubled")
    @classmethod
    def _non_empty(cls, value: dict[Vul, list[Points]] | None) -> dict[Vul, list[Points]] | None:
        if value is not None and any(len(v) == 0 for v in value.values()):
            raise ValueError("each list needs at least one value")
        return value


def parse_options(options: Any) -> BridgeOptions:
    """``BridgeOptions`` from a model, a plain dict or None; ``BadOptions`` on bad input."""
    return parse_model(BridgeOptions, options)


_TABLES: dict[str, JsonDict] = {}


def scoring_table(options: Any) -> dict[str, Any]:
    """The preset's table with the options' overrides merged in (do not mutate it)."""
    opts = parse_options(options)
    key = opts.model_dump_json()
    cached = _TABLES.get(key)
    if cached is not None:
        return cached
    table = copy.deepcopy(PRESETS[opts.preset])
    for name in TABLE_KEYS:
        value = getattr(opts, name)
        if value is None:
            continue
        table[name] = {**table[name], **copy.deepcopy(value)} if isinstance(value, dict) else value
    if opts.scoring == "chicago":
        table["chicago"] = {
            **copy.deepcopy(CHICAGO[opts.chicago_scoring]),
            "scheme": opts.chicago_scoring,
            "first_dealer": "NESW".index(opts.first_dealer),
        }
    if len(_TABLES) > 64:
        _TABLES.clear()
    _TABLES[key] = table
    return table
