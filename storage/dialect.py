"""The one way ``storage.core`` writes SQL, and how each backend's dialect renders it.

A query is written once, in SQL that SQLite and PostgreSQL both accept, with three
marks for what they spell differently:

* ``:name`` -- a named parameter; a name may appear more than once. Rendered as ``?``
  (SQLite, the value repeated) or ``$1, $2, ...`` (PostgreSQL, one number a name).
* ``= ANY(:name)`` -- "equals one of the list ``name``". PostgreSQL takes the list as
  one array parameter; SQLite has no arrays, so it becomes ``IN (?, ?, ...)``, one
  ``?`` an element (callers split long lists with ``Dialect.chunks``).
* ``{word}`` -- a word of ``Dialect.words``: ``{true}``/``{false}`` (SQLite keeps
  booleans as 1/0 and its partial indexes say ``reminded = 0``), ``{least}`` (``MIN``
  vs ``LEAST``) and ``{for_update}`` (PostgreSQL locks the row a writer read; SQLite's
  ``BEGIN IMMEDIATE`` has already locked the whole database).

A rendered query is cached, so rendering costs one dictionary look-up a call. Queries
hold no string literals containing ``:`` or braces (they would be taken for marks).
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

_PARAM = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")  # not the ``::`` of a cast
_ANY = re.compile(r"= ANY\(:([A-Za-z_]\w*)\)")


class Dialect:
    """What one database spells its own way; ``render`` turns a query into its SQL."""

    def __init__(self, name: str, *, numbered: bool, arrays: bool,
                 max_list: int | None, words: Mapping[str, str],
                 notify_outbox: str | None = None) -> None:
        self.name = name
        self.numbered = numbered            # $1, $2 ... rather than ?
        self.arrays = arrays                # = ANY(:list) binds one array parameter
        self.max_list = max_list            # longest list one statement may bind
        self.words = dict(words)
        self.notify_outbox = notify_outbox  # run after queuing outbox rows, if any
        self._cache: dict[str, tuple[str, tuple[str, ...]]] = {}

    def __repr__(self) -> str:
        return f"Dialect({self.name!r})"

    def render(self, query: str, params: Mapping[str, Any]) -> tuple[str, list[Any]]:
        """The SQL text and the positional arguments for ``query`` with ``params``."""
        if not self.arrays and "ANY(" in query:
            query, params = _expand_lists(query, params)
        compiled = self._cache.get(query)
        if compiled is None:
            compiled = self._cache[query] = self._compile(query)
        sql, names = compiled
        return sql, [params[name] for name in names]

    def chunks(self, values: Sequence[Any]) -> Iterator[Sequence[Any]]:
        """``values`` in pieces no longer than one statement may bind."""
        step = self.max_list or max(len(values), 1)
        for i in range(0, len(values), step):
            yield values[i:i + step]

    def _compile(self, query: str) -> tuple[str, tuple[str, ...]]:
        names: list[str] = []

        def placeholder(match: re.Match[str]) -> str:
            name = match.group(1)
            if not self.numbered:
                names.append(name)
                return "?"
            if name not in names:
                names.append(name)
            return f"${names.index(name) + 1}"

        return _PARAM.sub(placeholder, query.format_map(self.words)), tuple(names)


def _expand_lists(query: str, params: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """``= ANY(:ids)`` with ``ids=[7, 9]`` -> ``IN (:ids__0, :ids__1)``."""
    expanded = dict(params)

    def one_mark_each(match: re.Match[str]) -> str:
        name = match.group(1)
        marks = []
        for i, value in enumerate(params[name]):
            expanded[f"{name}__{i}"] = value
            marks.append(f":{name}__{i}")
        return f"IN ({', '.join(marks)})"

    return _ANY.sub(one_mark_each, query), expanded


SQLITE = Dialect(
    "sqlite", numbered=False, arrays=False,
    max_list=500,  # well below SQLite's host-parameter limit
    words={"true": "1", "false": "0", "least": "MIN", "for_update": ""},
)

# Listeners of every schema hear the channel; the payload says which schema it was.
OUTBOX_CHANNEL = "cardbot_outbox"

POSTGRES = Dialect(
    "postgres", numbered=True, arrays=True, max_list=None,
    words={"true": "TRUE", "false": "FALSE", "least": "LEAST", "for_update": "FOR UPDATE"},
    notify_outbox=f"SELECT pg_notify('{OUTBOX_CHANNEL}', current_schema())",
)
