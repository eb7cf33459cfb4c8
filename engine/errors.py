"""Typed engine errors. Each carries a machine ``code`` (the bot translates it with
its message catalog, filling ``params``) and an English ``reason`` for logs and the
command line. An engine raises these *before* changing anything, so a rejected
action never leaves a half-applied state."""

from __future__ import annotations

from typing import Any, Callable


class EngineError(Exception):
    kind = "error"

    def __init__(self, code: str, reason: str, **params: Any) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.params = params

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.reason


class BadSyntax(EngineError):
    """The action text cannot be parsed (unknown verb, malformed card)."""

    kind = "bad_syntax"


class NotYourTurn(EngineError):
    """Another seat must act now."""

    kind = "not_your_turn"


class IllegalAction(EngineError):
    """Well-formed and your turn, but the rules forbid it now; ``reason`` says why."""

    kind = "illegal"


class GameOver(EngineError):
    """The game has ended; no more actions."""

    kind = "game_over"


class BadOptions(EngineError):
    """Options that contradict each other (e.g. 6 players with a 24-card deck)."""

    kind = "bad_options"


# ---- the per-game code tables ------------------------------------------------------
# Each game keeps a table code -> (error class, English template); templates use
# str.format with the params. These codes read the same in every game, so they live
# here once; a game adds its own codes and may reword or drop a common one.
Table = dict[str, tuple[type[EngineError], str]]

COMMON: Table = {
    "bad_syntax": (BadSyntax, "Cannot read the action {action!r}: {detail}."),
    "bad_options": (BadOptions, "Bad options: {detail}."),
    "game_over": (GameOver, "The game is over."),
    "not_your_turn": (NotYourTurn, "It is not your turn (waiting for {waiting})."),
    "system_only": (IllegalAction, "Only the system can {verb}."),
    "bad_deal": (IllegalAction, "Bad deal: {detail}."),
    "bad_seat": (IllegalAction, "Seat {seat} cannot {verb}."),
    "wrong_phase": (IllegalAction, "You cannot {verb} now."),
    "not_in_hand": (IllegalAction, "You do not hold {card}."),
}


Builder = Callable[..., EngineError]


def _builder(table: Table) -> Builder:
    def error(code: str, **params: Any) -> EngineError:
        """Build the error for ``code``; ``raise error("not_in_hand", card="7S")``."""
        cls, template = table[code]
        return cls(code, template.format(**params), **params)

    return error


def game_errors(own: Table, drop: tuple[str, ...] = ()) -> tuple[dict[str, str], Builder]:
    """A game's ``ERROR_CODES`` (code -> English template, for the bot's catalogs and the
    docs) and its ``error()`` builder: COMMON without ``drop``, then the game's ``own``
    codes (an own code of a common name rewords it)."""
    table = {code: entry for code, entry in COMMON.items() if code not in drop}
    table.update(own)
    return {code: template for code, (_, template) in table.items()}, _builder(table)


#: ``error()`` over COMMON alone, for helpers that every game calls. Use it only for codes
#: no game rewords (bad_syntax, bad_options), so the error is the one the game's own gives.
common_error = _builder(COMMON)


def split_action(action: Any) -> list[str]:
    """The words of an action text; ``bad_syntax`` for a non-text or an empty one."""
    if not isinstance(action, str):
        raise common_error("bad_syntax", action=action, detail="an action is a text")
    parts = action.split()
    if not parts:
        raise common_error("bad_syntax", action=action, detail="the action is empty")
    return parts
