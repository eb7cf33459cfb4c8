"""Container health check for cardbot (used by deploy/Dockerfile's HEALTHCHECK).

What it proves, and nothing more:
  * the data volume is mounted and the database file named by CARDBOT_DB exists
    (it is opened read-only, so a missing file is an error, never a new empty one);
  * the file is a readable SQLite database that holds a schema, i.e. the bot got
    as far as opening it and running its migrations, and it is not locked or corrupt
    in a way that stops a plain read.

What it does NOT prove: that the long-polling loop is alive and talking to Telegram.
A bot that crashes exits, and the restart policy brings it back; a bot that hangs
while its process stays up is not detected here. Detecting that honestly needs the
bot to record a heartbeat (e.g. the time of the last getUpdates round) that this
script could compare with the clock.

Exit 0 = healthy, 1 = unhealthy (the reason goes to stderr, which `docker inspect`
shows under .State.Health.Log).
"""
from __future__ import annotations

import os
import pathlib
import sqlite3
import sys


def main() -> int:
    path = pathlib.Path(os.environ.get("CARDBOT_DB") or "cardbot.sqlite3").absolute()
    if not path.is_file():
        print(f"database {path} does not exist (yet)", file=sys.stderr)
        return 1
    try:
        conn = sqlite3.connect(path.as_uri() + "?mode=ro", uri=True, timeout=5)
        try:
            (tables,) = conn.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
            ).fetchone()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        print(f"database {path} is not readable: {exc}", file=sys.stderr)
        return 1
    if not tables:
        print(f"database {path} has no tables: migrations have not run", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
