"""Bridge's error codes.

Every rejected action raises one of the ``engine.errors`` classes with a stable
snake_case ``code`` from :data:`ERROR_CODES`, an English ``reason`` (the template filled
with ``params``) and the ``params`` themselves, so the bot can translate the code.
"""
from __future__ import annotations

from typing import Any

from engine.errors import BadOptions, BadSyntax, EngineError, GameOver, IllegalAction, NotYourTurn

_TABLE: dict[str, tuple[type[EngineError], str]] = {
    "bad_syntax": (BadSyntax, "Cannot read the action {action!r}: {detail}."),
    "bad_options": (BadOptions, "Bad options: {detail}."),
    "game_over": (GameOver, "The rubber is over."),
    "not_your_turn": (NotYourTurn, "It is not your turn (waiting for {waiting})."),
    "system_only": (IllegalAction, "Only the system can {verb}."),
    "bad_deal": (IllegalAction, "Bad deal: {detail}."),
    "bad_seat": (IllegalAction, "Seat {seat} cannot {verb}."),
    "wrong_phase": (IllegalAction, "You cannot {verb} now."),
    "insufficient_bid": (IllegalAction, "{bid} is not higher than the last bid {last}."),
    "cannot_double": (IllegalAction, "You can double only an opponent's last bid that is not doubled yet."),
    "cannot_redouble": (IllegalAction, "You can redouble only when an opponent doubled your side's last bid."),
    "not_in_hand": (IllegalAction, "{card} is not in the hand that plays now."),
    "must_follow": (IllegalAction, "Follow suit: play a {suit} card."),
    "claim_not_now": (IllegalAction, "Only the declarer may claim, on his turn to lead."),
    "claim_too_many": (IllegalAction, "Only {remaining} tricks remain."),
    "not_a_defender": (IllegalAction, "Only a defender can {verb}."),
    # the score-only sheet
    "entry_step": (IllegalAction, "The entry expects {expected} now."),
    "nothing_to_undo": (IllegalAction, "There is no entry to undo."),
    "bad_honours": (IllegalAction, "Honours {detail}."),
}

#: code -> English template, for the bot's catalogs and documentation.
ERROR_CODES: dict[str, str] = {code: template for code, (_, template) in _TABLE.items()}


def error(code: str, **params: Any) -> EngineError:
    """Build the error for ``code``; ``raise error("not_in_hand", card="7S")``."""
    cls, template = _TABLE[code]
    return cls(code, template.format(**params), **params)
