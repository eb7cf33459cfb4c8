"""The rejections both preferans games word the same way. A game builds its ``error()``
from ``engine.errors.game_errors({**FAMILY_ERRORS, ...its own})``, so a code here is in
that game's ``ERROR_CODES`` (and its bot catalog) under the same name."""

from __future__ import annotations

from engine.errors import IllegalAction, Table, game_errors

FAMILY_ERRORS: Table = {
    "bid_too_low": (IllegalAction, "A bid must be higher than {high}."),
    "contract_low": (IllegalAction, "The contract must be at least your bid {bid}."),
    "must_follow": (IllegalAction, "{card} is not playable: follow suit, else play a trump."),
}

_, error = game_errors(FAMILY_ERRORS)
