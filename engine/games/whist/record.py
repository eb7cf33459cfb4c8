"""``cardbot score`` for whist (docs/rules/records.md §4): a paper game's deals in, the
sheet out. The same :class:`~engine.games.whist.scoring.Sheet` scores played deals.

Input::

    {"game": "whist", "options": {...},
     "deals": [{"tricks": {"NS": 9, "EW": 4}, "honours": {"NS": 3, "EW": 2}}, ...]}
"""

from __future__ import annotations

from typing import Any

from engine.errors import EngineError
from engine.jsondata import JsonDict
from engine.options import record_options
from engine.score import ScoreError

from .options import parse_options
from .scoring import EntryError, Sheet
from .sheet import sheet_text


# the shortest valid record: a sheet with nothing written yet (tests/test_hostile_cli.py)
EMPTY = {"game": "whist", "deals": []}


def build(record: Any) -> Sheet:
    if not isinstance(record, dict):
        raise ScoreError(0, "the record must be a JSON object")
    if record.get("game") != "whist":
        raise ScoreError(0, f"this is not a whist record (game {record.get('game')!r})")
    try:
        given = record_options(record)
    except ValueError as exc:
        raise ScoreError(0, str(exc)) from None
    try:
        options = parse_options(given)
    except EngineError as exc:
        raise ScoreError(0, exc.reason) from None
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise ScoreError(0, "deals must be a list")
    sheet = Sheet(options)
    for n, deal in enumerate(deals, 1):
        try:
            sheet.add(deal)
        except EntryError as exc:
            raise ScoreError(n, str(exc)) from None
    return sheet


def score(record: Any) -> JsonDict:
    return build(record).score()


def text(record: Any, lang: str = "en") -> str:
    return sheet_text(build(record), lang)
