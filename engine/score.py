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
from typing import Any, Protocol, cast

from engine.jsondata import JsonDict
from engine.text import wrap_lines


class ScoreError(Exception):
    """A bad record: ``entry`` is the 1-based number of the bad deal/hand (0 = the record
    itself: game, options, players), ``message`` says what is wrong."""

    def __init__(self, entry: int, message: str) -> None:
        super().__init__(f"entry {entry}: {message}" if entry else message)
        self.entry = entry
        self.message = message


SCORED_GAMES = ("preferans", "preferans_ru", "bridge", "whist")


class _RecordModule(Protocol):
    """What ``engine/<game>/record.py`` of a scored game provides."""

    def score(self, record: Any) -> JsonDict: ...

    def text(self, record: Any, lang: str = ...) -> str: ...


def _module(record: Any) -> _RecordModule:
    if not isinstance(record, dict):
        raise ScoreError(0, "the record must be a JSON object")
    game = record.get("game")
    if game not in SCORED_GAMES:
        raise ScoreError(0, f"unknown game {game!r}; expected one of {', '.join(SCORED_GAMES)}")
    try:
        return cast(_RecordModule, importlib.import_module(f"engine.{game}.record"))
    except ModuleNotFoundError:
        raise ScoreError(0, f"score sheets for {game} are not available yet") from None


def score(record: Any) -> JsonDict:
    return _module(record).score(record)


def text(record: Any, lang: str = "en") -> str:
    return wrap_lines(_module(record).text(record, lang))
