"""PostgreSQL for tests: one fresh schema per test in the database named by
``CARDBOT_TEST_PG`` (default ``postgresql://postgres@127.0.0.1:5432/test``).

    url = await fresh_schema_url()   # ...?search_path=t_<hex>; skips if PG is down
    repo = PostgresRepository(url)
    ...
    await drop_schema(url)

If PostgreSQL cannot be reached the test is skipped -- or fails when
``CARDBOT_REQUIRE_PG=1`` (CI), so the PostgreSQL cases never vanish silently there.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest

DEFAULT_DSN = "postgresql://postgres@127.0.0.1:5432/test"
CONNECT_TIMEOUT_S = 30.0  # a slow answer on a loaded machine is not "unreachable" (refused is at once)


def pg_dsn() -> str:
    return os.environ.get("CARDBOT_TEST_PG") or DEFAULT_DSN


def pg_required() -> bool:
    return os.environ.get("CARDBOT_REQUIRE_PG") == "1"


def with_search_path(url: str, schema: str) -> str:
    """``url`` with its ``search_path`` query parameter set to ``schema``."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "search_path"]
    query.append(("search_path", schema))
    return urlunsplit(parts._replace(query=urlencode(query)))


def schema_of(url: str) -> str:
    for key, value in parse_qsl(urlsplit(url).query):
        if key == "search_path":
            return value
    raise ValueError(f"no search_path in {url!r}")


def unavailable(reason: str) -> None:
    """Skip the test, or fail it when PostgreSQL is required."""
    message = f"PostgreSQL not reachable at {pg_dsn()}: {reason}"
    if pg_required():
        pytest.fail(message + " (CARDBOT_REQUIRE_PG=1)")
    pytest.skip(message)


async def _connect(url: str):
    try:
        import asyncpg
    except ImportError as exc:  # pragma: no cover - asyncpg is a dependency
        unavailable(f"asyncpg is not installed ({exc})")
    try:
        return await asyncpg.connect(url, timeout=CONNECT_TIMEOUT_S)
    except (OSError, asyncio.TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        unavailable(f"{type(exc).__name__}: {exc}")


def new_schema_name() -> str:
    return f"t_{uuid.uuid4().hex}"


async def fresh_schema_url() -> str:
    """Create an empty schema ``t_<uuid hex>``; return the DSN selecting it."""
    schema = new_schema_name()
    conn = await _connect(pg_dsn())
    try:
        await conn.execute(f'CREATE SCHEMA "{schema}"')
    finally:
        await conn.close()
    return with_search_path(pg_dsn(), schema)


async def drop_schema(url: str) -> None:
    """Drop the schema ``url`` selects, with everything in it."""
    schema = schema_of(url)
    conn = await _connect(url)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await conn.close()
