"""Durak's error codes.

Every rejected action raises one of the ``engine.errors`` classes with a stable
snake_case ``code`` from :data:`ERROR_CODES`, an English ``reason`` (the template
filled with ``params``) and the ``params`` themselves, so the bot can translate
the code with its own catalog.
"""
from __future__ import annotations

from typing import Any

from engine.errors import BadOptions, BadSyntax, EngineError, GameOver, IllegalAction, NotYourTurn

# code -> (error class, English template). Templates use str.format with the params.
_TABLE: dict[str, tuple[type[EngineError], str]] = {
    "bad_syntax": (BadSyntax, "Cannot read the action {action!r}: {detail}."),
    "bad_options": (BadOptions, "Bad options: {detail}."),
    "game_over": (GameOver, "The game is over."),
    "not_your_turn": (NotYourTurn, "It is not your turn (waiting for {waiting})."),
    "system_only": (IllegalAction, "Only the system can {verb}."),
    "bad_deal": (IllegalAction, "Bad deal: {detail}."),
    "bad_seat": (IllegalAction, "Seat {seat} cannot {verb}."),
    "wrong_phase": (IllegalAction, "You cannot {verb} now."),
    "not_in_hand": (IllegalAction, "You do not hold {card}."),
    "not_on_table": (IllegalAction, "{card} is not an unbeaten attack card on the table."),
    "does_not_beat": (IllegalAction, "{cover} does not beat {attack}."),
    "mixed_ranks": (IllegalAction, "An attack must be cards of one rank."),
    "rank_not_on_table": (IllegalAction, "No card of the rank of {card} is face up on the table."),
    "too_many_cards": (IllegalAction, "Too many cards: at most {limit} more can go on the table now."),
    "no_transfer": (IllegalAction, "Transfers are not played in this game."),
    "transfer_after_beat": (IllegalAction, "You cannot transfer once a card is beaten."),
    "transfer_rank": (IllegalAction, "To transfer, play a card of the rank of the unbeaten cards."),
}

#: code -> English template, for the bot's catalogs and documentation.
ERROR_CODES: dict[str, str] = {code: template for code, (_, template) in _TABLE.items()}


def error(code: str, **params: Any) -> EngineError:
    """Build the error for ``code``; ``raise error("not_in_hand", card="7S")``."""
    cls, template = _TABLE[code]
    return cls(code, template.format(**params), **params)
