"""Plain JSON data (dicts, lists, scalars), as game states hold results and sheets."""

from __future__ import annotations

from typing import Any

JsonDict = dict[str, Any]
"""A JSON object: a view, an event, a result, a dumped state or options. Its values are
whatever JSON holds, hence ``Any``; code that knows a field's type says so where it reads it."""


_SCALARS = frozenset({str, int, float, bool, type(None)})


def copy_json(value: Any) -> Any:
    """A deep copy of plain JSON data; tuples become lists, as JSON would make them."""
    # the scalars are tested by their exact type first: dumps of game states copy long
    # lists of cards, and a call per card would cost three times as much
    if isinstance(value, dict):
        return {k: v if type(v) in _SCALARS else copy_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [v if type(v) in _SCALARS else copy_json(v) for v in value]
    return value
