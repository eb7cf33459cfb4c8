"""Durak's options (rules §12). The number of players is not an option: it is
passed beside the options to ``initial_state`` / ``new_deal``."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.options import parse_model

from .errors import error

BaseGame = Literal["prostoy", "podkidnoy", "perevodnoy", "perevodnoy_after_beating"]
Rank = Literal["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]


# every option there was before ``throw_in`` (see DurakOptions._dumped_before_throw_in)
OLD_FIELDS = (
    "deck_size",
    "base_game",
    "trumps",
    "two_decks",
    "two_deck_loss_at",
    "blind_beating",
    "max_attack_cards",
    "first_bout_five",
    "high_trump_from",
    "next_game_leader",
)


class DurakOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    deck_size: Literal[24, 36, 52] = 36
    base_game: BaseGame = "podkidnoy"
    trumps: bool = True
    two_decks: bool = False
    # Checked after every bout (two decks only); below 7 a refilled hand would lose.
    two_deck_loss_at: int = Field(52, ge=7)
    blind_beating: bool = False
    max_attack_cards: int = Field(6, ge=1, le=52)
    first_bout_five: bool = False
    high_trump_from: Rank = "Q"
    next_game_leader: Literal["trump_rule", "dealer_left"] = "trump_rule"
    # §6: throw in while the defender is still covering (the apps' way), or only once
    # every card on the table is covered.
    throw_in: Literal["any_time", "all_covered"] = "any_time"

    @model_validator(mode="before")
    @classmethod
    def _dumped_before_throw_in(cls, data: Any) -> Any:
        """A complete dump of the options written before ``throw_in`` existed (a saved
        game, a record, a table's settings) played throw-ins after full covers: it keeps
        that rule. A partial dict gets today's default like any other option."""
        if isinstance(data, dict) and "throw_in" not in data and set(OLD_FIELDS) <= set(data):
            return {**data, "throw_in": "all_covered"}
        return data

    @property
    def deck_cards(self) -> int:
        return self.deck_size * (2 if self.two_decks else 1)

    @property
    def max_players(self) -> int:
        return min(6, self.deck_cards // 6)


def parse_options(options: Any) -> DurakOptions:
    """``DurakOptions`` from a model or a plain dict; ``BadOptions`` on bad input."""
    return parse_model(DurakOptions, options)


def check_players(options: DurakOptions, players: Any) -> int:
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= options.max_players:
        raise error(
            "bad_options",
            detail=f"{players} players do not fit: {options.deck_cards} cards allow 2 to {options.max_players}",
        )
    return players
