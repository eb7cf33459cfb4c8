"""Typed engine errors. Each carries a machine ``code`` (the bot translates it with
its message catalog, filling ``params``) and an English ``reason`` for logs and the
command line. An engine raises these *before* changing anything, so a rejected
action never leaves a half-applied state."""
from __future__ import annotations

from typing import Any


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
