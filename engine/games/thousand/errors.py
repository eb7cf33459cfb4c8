"""Тысяча's error codes (engine.errors.game_errors)."""

from __future__ import annotations

from engine.errors import IllegalAction, game_errors

ERROR_CODES, error = game_errors(
    {
        "players_only": (IllegalAction, "Only a player can {verb}."),
        "bad_bid": (IllegalAction, "You cannot bid {amount} now: {detail}."),
        "must_follow": (IllegalAction, "You must follow suit or trump."),
        "no_marriage": (IllegalAction, "You cannot announce a marriage with {card} now."),
        "bad_give": (IllegalAction, "You cannot give {card} to seat {seat}."),
        "bad_contract": (IllegalAction, "You cannot set the contract to {amount}: {detail}."),
    }
)
