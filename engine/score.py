"""Score-only records (``docs/rules/records.md``): people who play with real cards
hand in what happened, and the same scoring code the engines use computes the sheet.

Each game with a score sheet names its module ``engine.games.<game>.record`` as the game's
``record`` attribute (``engine.base.Game``), with ``score(record: dict) -> dict`` (the JSON result) and ``text(record: dict, lang: str) -> str``
(the sheet exactly as the bot posts it, HTML-free monospaced text). Both raise
``ScoreError`` for a malformed or impossible record. ``text`` wraps the prose lines to
the 40 columns a phone shows (the tables already fit).
"""

from __future__ import annotations

from typing import Any, Protocol, cast

from engine.base import games, get_game
from engine.jsondata import JsonDict
from engine.text import wrap_lines


class ScoreError(Exception):
    """A bad record: ``entry`` is the 1-based number of the bad deal/hand (0 = the record
    itself: game, options, players), ``message`` says what is wrong."""

    def __init__(self, entry: int, message: str) -> None:
        super().__init__(f"entry {entry}: {message}" if entry else message)
        self.entry = entry
        self.message = message


class _RecordModule(Protocol):
    """What ``engine/games/<game>/record.py`` of a scored game provides."""

    def score(self, record: Any) -> JsonDict: ...

    def text(self, record: Any, lang: str = ...) -> str: ...


def scored_games() -> tuple[str, ...]:
    """The registered games that have a score-only record, by name."""
    return tuple(sorted(g.name for g in games() if hasattr(g, "record")))


def _module(record: Any) -> _RecordModule:
    if not isinstance(record, dict):
        raise ScoreError(0, "the record must be a JSON object")
    game = record.get("game")
    scored = scored_games()
    if game not in scored:
        raise ScoreError(0, f"unknown game {game!r}; expected one of {', '.join(scored)}")
    return cast(_RecordModule, get_game(game).record)  # type: ignore[attr-defined]


def score(record: Any) -> JsonDict:
    return _module(record).score(record)


def text(record: Any, lang: str = "en") -> str:
    return wrap_lines(_module(record).text(record, lang))
