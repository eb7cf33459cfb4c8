"""Score-only records (``docs/rules/records.md``): people who play with real cards
hand in what happened, and the same scoring code the engines use computes the sheet.

Each game with a score sheet provides a module ``engine.<game>.record`` with
``score(record: dict) -> dict`` (the JSON result) and ``text(record: dict, lang: str) -> str``
(the sheet exactly as the bot posts it, HTML-free monospaced text). Both raise
``ScoreError`` for a malformed or impossible record. ``text`` wraps the prose lines to
the 40 columns a phone shows (the tables already fit).
"""

from __future__ import annotations

import importlib

from engine.text import wrap_lines
from typing import Any


class ScoreError(Exception):
    """A bad record: ``entry`` is the 1-based number of the bad deal/hand (0 = the record
    itself: game, options, players), ``message`` says what is wrong."""

    def __init__(self, entry: int, message: str) -> None:
        super().__init__(f"entry {entry}: {message}" if entry else message)
        self.entry = entry
        self.message = message


SCORED_GAMES = ("preferans", "bridge", "whist")


def _module(record: Any):
    if not isinstance(record, dict):
        raise ScoreError(0, "the record must be a JSON object")
    game = record.get("game")
    if game not in SCORED_GAMES:
        raise ScoreError(0, f"unknown game {game!r}; expected one of {', '.join(SCORED_GAMES)}")
    try:
        return importlib.import_module(f"engine.{game}.record")
    except ModuleNotFoundError:
        raise ScoreError(0, f"score sheets for {game} are not available yet") from None


def score(record: Any) -> dict:
    return _module(record).score(record)


def text(record: Any, lang: str = "en") -> str:
    return wrap_lines(_module(record).text(record, lang))
