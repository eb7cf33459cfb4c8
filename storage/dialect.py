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

Values are Python values both drivers take (``bool`` too: SQLite stores 1/0). Where
PostgreSQL cannot tell a parameter's type from its place, the query casts it in SQL
both accept (``CAST(:new AS BIGINT)``). In an f-string query a word is ``{{false}}``.

A rendered query is cached, so rendering costs one dictionary look-up a call. Queries
hold no string literals containing ``:`` or braces (they would be taken for marks).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

# ``= ANY(:list)`` or a plain ``:name`` (not the ``::`` of a cast)
_MARK = re.compile(r"= ANY\(:(?P<list>[A-Za-z_]\w*)\)|(?<![:\w]):(?P<name>[A-Za-z_]\w*)")
_LIST = re.compile(r"= ANY\(:([A-Za-z_]\w*)\)")


class Dialect:
    """What one database spells its own way; ``render`` turns a query into its SQL."""

    def __init__(
        self,
        name: str,
        *,
        numbered: bool,
        arrays: bool,
        max_list: int | None,
        words: Mapping[str, str],
        notify_outbox: str | None = None,
    ) -> None:
        self.name = name
        self.numbered = numbered  # $1, $2 ... rather than ?
        self.arrays = arrays  # = ANY(:list) binds one array parameter
        self.max_list = max_list  # longest list one statement may bind
        self.words = dict(words)
        self.notify_outbox = notify_outbox  # run after queuing outbox rows, if any
        # query (+ the lengths of its lists, on SQLite) -> SQL and where each argument
        # comes from: a parameter's name, or "*name" for the elements of a list
        self._cache: dict[Any, tuple[str, tuple[str, ...]]] = {}

    def __repr__(self) -> str:
        return f"Dialect({self.name!r})"

    def render(self, query: str, params: Mapping[str, Any]) -> tuple[str, list[Any]]:
        """The SQL text and the positional arguments for ``query`` with ``params``."""
        lengths: tuple[int, ...] = ()
        if not self.arrays and "ANY(" in query:
            lengths = tuple(len(params[name]) for name in _LIST.findall(query))
        key = (query, lengths) if lengths else query
        compiled = self._cache.get(key)
        if compiled is None:
            compiled = self._cache[key] = self._compile(query, lengths)
        sql, sources = compiled
        args: list[Any] = []
        for source in sources:
            if source[0] == "*":
                args.extend(params[source[1:]])
            else:
                args.append(params[source])
        return sql, args

    def chunks(self, values: Sequence[Any]) -> Iterator[Sequence[Any]]:
        """``values`` in pieces no longer than one statement may bind."""
        step = self.max_list or max(len(values), 1)
        for i in range(0, len(values), step):
            yield values[i : i + step]

    def _compile(self, query: str, lengths: tuple[int, ...]) -> tuple[str, tuple[str, ...]]:
        sources: list[str] = []
        list_lengths = iter(lengths)

        def placeholder(match: re.Match[str]) -> str:
            name = match["name"] or match["list"]
            if match["list"] and not self.arrays:
                sources.append("*" + name)
                return f"IN ({', '.join('?' * next(list_lengths))})"
            prefix = "= ANY(" if match["list"] else ""
            suffix = ")" if match["list"] else ""
            if not self.numbered:
                sources.append(name)
                return f"{prefix}?{suffix}"
            if name not in sources:
                sources.append(name)
            return f"{prefix}${sources.index(name) + 1}{suffix}"

        return _MARK.sub(placeholder, query.format_map(self.words)), tuple(sources)


SQLITE = Dialect(
    "sqlite",
    numbered=False,
    arrays=False,
    max_list=500,  # well below SQLite's host-parameter limit
    words={"true": "1", "false": "0", "least": "MIN", "for_update": ""},
)

# Listeners of every schema hear the channel; the payload says which schema it was.
OUTBOX_CHANNEL = "cardbot_outbox"

POSTGRES = Dialect(
    "postgres",
    numbered=True,
    arrays=True,
    max_list=None,
    words={"true": "TRUE", "false": "FALSE", "least": "LEAST", "for_update": "FOR UPDATE"},
    notify_outbox=f"SELECT pg_notify('{OUTBOX_CHANNEL}', current_schema())",
)
