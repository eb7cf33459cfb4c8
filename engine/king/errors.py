"""King's error codes.

Every rejected action raises one of the ``engine.errors`` classes with a stable
snake_case ``code`` from :data:`ERROR_CODES`, an English ``reason`` (the template
filled with ``params``) and the ``params`` themselves.
"""
from __future__ import annotations

from typing import Any

from engine.errors import BadOptions, BadSyntax, EngineError, GameOver, IllegalAction, NotYourTurn

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
    "must_follow": (IllegalAction, "You must follow suit: play a card of the suit led ({suit})."),
    "must_trump": (IllegalAction, "You cannot follow suit, so you must play a trump ({suit})."),
    "no_heart_lead": (IllegalAction, "You may not lead a heart while you hold another suit."),
    "must_discard_kh": (IllegalAction, "You cannot follow suit and hold the king of hearts: play it."),
    "not_playable": (IllegalAction, "{card} does not fit the layout: play a jack or the next card "
                                    "of a row."),
    "cannot_pass": (IllegalAction, "You cannot pass: {detail}."),
}

#: code -> English template, for the bot's catalogs and documentation.
ERROR_CODES: dict[str, str] = {code: template for code, (_, template) in _TABLE.items()}


def error(code: str, **params: Any) -> EngineError:
    """Build the error for ``code``; ``raise error("not_in_hand", card="7S")``."""
    cls, template = _TABLE[code]
    return cls(code, template.format(**params), **params)
