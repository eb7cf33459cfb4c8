"""Whist's error codes (both engines: the played game and the score-only sheet).

Every rejected action raises one of the ``engine.errors`` classes with a stable
snake_case ``code`` from :data:`ERROR_CODES`, an English ``reason`` (the template
filled with ``params``) and the ``params`` themselves, so the bot can translate it.
"""
from __future__ import annotations

from typing import Any

from engine.errors import BadOptions, BadSyntax, EngineError, GameOver, IllegalAction, NotYourTurn

_TABLE: dict[str, tuple[type[EngineError], str]] = {
    "bad_syntax": (BadSyntax, "Cannot read the action {action!r}: {detail}."),
    "bad_options": (BadOptions, "Bad options: {detail}."),
    "game_over": (GameOver, "The match is over."),
    "not_your_turn": (NotYourTurn, "It is not your turn (waiting for {waiting})."),
    "system_only": (IllegalAction, "Only the system can {verb}."),
    "players_only": (IllegalAction, "Only a player can {verb}."),
    "bad_deal": (IllegalAction, "Bad deal: {detail}."),
    "wrong_phase": (IllegalAction, "You cannot {verb} now."),
    "not_in_hand": (IllegalAction, "You do not hold {card}."),
    "must_follow": (IllegalAction, "You must follow suit: you hold {suit}."),
    "must_trump": (IllegalAction, "You cannot follow suit and hold a trump: you must trump."),
    "no_delegation": (IllegalAction, "Only the dealer can pass the trump choice, and only once."),
    "already_voted": (IllegalAction, "You have already answered."),
    "bad_entry": (IllegalAction, "Impossible entry: {detail}."),
    "nothing_to_undo": (IllegalAction, "There is no entry to undo."),
}

#: code -> English template, for the bot's catalogs and documentation.
ERROR_CODES: dict[str, str] = {code: template for code, (_, template) in _TABLE.items()}


def error(code: str, **params: Any) -> EngineError:
    """Build the error for ``code``; ``raise error("not_in_hand", card="7S")``."""
    cls, template = _TABLE[code]
    return cls(code, template.format(**params), **params)
