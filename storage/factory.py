"""Pick the storage backend from a database setting.

* ``postgresql://...`` or ``postgres://...`` -> ``PostgresRepository`` (several bot
  processes may share it; ``?search_path=<schema>`` selects a schema);
* ``sqlite:///relative/path.db``, ``sqlite:////absolute/path.db`` (SQLAlchemy style),
  ``sqlite://:memory:`` (or bare ``sqlite://``), or a plain path -> ``SqliteRepository``.

The repository is returned unopened: call ``await repo.open()``.
"""

from __future__ import annotations

from storage.repository import Repository

_PG_SCHEMES = ("postgresql://", "postgres://")
_SQLITE_SCHEME = "sqlite://"


def repository_for(database: str) -> Repository:
    """A repository for ``database`` (see the module docstring); ``ValueError`` for an
    unsupported scheme."""
    database = str(database).strip()
    if not database:
        raise ValueError("no database given: use a path, sqlite:///path or postgresql://...")
    if database.lower().startswith(_PG_SCHEMES):
        from storage.postgres import PostgresRepository  # asyncpg only when needed

        return PostgresRepository(database)

    from storage.sqlite import SqliteRepository

    if database.lower().startswith(_SQLITE_SCHEME):
        rest = database[len(_SQLITE_SCHEME) :]
        if rest in ("", ":memory:", "/:memory:"):
            return SqliteRepository(":memory:")
        if not rest.startswith("/") or rest == "/":
            raise ValueError(
                "bad SQLite URL: use sqlite:///relative/path.db, sqlite:////absolute/path.db or sqlite://:memory:"
            )
        return SqliteRepository(rest[1:])
    if "://" in database:
        scheme = database.split("://", 1)[0]
        raise ValueError(
            f"unsupported database scheme {scheme[:20]!r}: use postgresql://..., sqlite:///path or a plain file path"
        )
    return SqliteRepository(database)
