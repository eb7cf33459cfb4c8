"""Container health check for cardbot (used by deploy/Dockerfile's HEALTHCHECK).

Standard library only, no Bot API call, no database query: it runs every minute in every
container and must stay cheap. Which check runs follows the database setting:

PostgreSQL (CARDBOT_DATABASE_URL is a postgresql:// or postgres:// URL): the container is
a `cardbot webhook` worker (deploy/compose.workers.yaml). It proves that the worker's
port (CARDBOT_LISTEN, default 0.0.0.0:8080) accepts a TCP connection, i.e. the worker got
past start-up (it opens the port only after connecting to the database and migrating it)
and its web server is up. It posts no update, and says nothing about the database now
(the postgres container has its own check).

SQLite (otherwise; CARDBOT_DB, default cardbot.sqlite3): what it proves, and nothing more:
  * the data volume is mounted and the database file named by CARDBOT_DB exists
    (it is opened read-only, so a missing file is an error, never a new empty one);
  * the file is a readable SQLite database that holds a schema, i.e. the bot got
    as far as opening it and running its migrations, and it is not locked or corrupt
    in a way that stops a plain read.
Only CARDBOT_DB is looked at: in a container, name the SQLite file with it, not with a
sqlite:// CARDBOT_DATABASE_URL.

In neither case does it prove that updates are being handled. A bot that crashes exits,
and the restart policy brings it back; a bot that hangs while its process (and port) stay
up is not detected here. Detecting that honestly needs the bot to record a heartbeat
(e.g. the time of the last getUpdates round or webhook request) that this script could
compare with the clock.

Exit 0 = healthy, 1 = unhealthy (the reason goes to stderr, which `docker inspect`
shows under .State.Health.Log).
"""

from __future__ import annotations

import os
import pathlib
import socket
import sqlite3
import sys

# "Listen on every address" cannot be connected to; ask the loopback of the same family.
WILDCARDS = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "*": "127.0.0.1", "::": "::1"}


def is_postgres(url: str) -> bool:
    return url.strip().lower().startswith(("postgresql:", "postgres:"))


def check_port(listen: str) -> int:
    """The webhook worker's port accepts a connection (bot.config.Settings.webhook parses
    CARDBOT_LISTEN the same way: host:port, split at the last colon)."""
    host, _, port = listen.rpartition(":")
    if not port.isdigit():
        print(f"CARDBOT_LISTEN must be host:port, got {listen!r}", file=sys.stderr)
        return 1
    host = host.strip("[]")
    host = WILDCARDS.get(host, host)
    try:
        with socket.create_connection((host, int(port)), timeout=5):
            pass
    except OSError as exc:
        print(f"webhook worker is not accepting connections on {host}:{port}: {exc}", file=sys.stderr)
        return 1
    return 0


def check_sqlite(db: str) -> int:
    path = pathlib.Path(db).absolute()
    if not path.is_file():
        print(f"database {path} does not exist (yet)", file=sys.stderr)
        return 1
    try:
        conn = sqlite3.connect(path.as_uri() + "?mode=ro", uri=True, timeout=5)
        try:
            (tables,) = conn.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        print(f"database {path} is not readable: {exc}", file=sys.stderr)
        return 1
    if not tables:
        print(f"database {path} has no tables: migrations have not run", file=sys.stderr)
        return 1
    return 0


def main() -> int:
    if is_postgres(os.environ.get("CARDBOT_DATABASE_URL") or ""):
        return check_port(os.environ.get("CARDBOT_LISTEN") or "0.0.0.0:8080")
    return check_sqlite(os.environ.get("CARDBOT_DB") or "cardbot.sqlite3")


if __name__ == "__main__":
    sys.exit(main())
