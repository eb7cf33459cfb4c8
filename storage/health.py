"""Is the database there? One WARNING when it is lost, one INFO when it is back.

A backend turns the errors that mean "the database cannot be reached or written now"
(PostgreSQL stopped or restarting, a dropped connection, SQLite's disk full or read-only
file) into ``StorageUnavailable`` through ``Health.unavailable``, and reports every
statement that worked with ``Health.ok``. So an outage makes two log lines, whatever
the number of loops (timers, sender, inbox) that meet it meanwhile: they catch
``StorageUnavailable`` and wait, quietly.
"""

from __future__ import annotations

import logging
import time

from storage.repository import StorageUnavailable

log = logging.getLogger("storage")


def describe(error: BaseException) -> str:
    """An error in one short line: its class and its first line."""
    text = " ".join(str(error).split())[:200]
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class Health:
    def __init__(self, what: str) -> None:
        self.what = what  # "PostgreSQL", "SQLite database x.db": said in the log lines
        self.lost_since: float | None = None

    @property
    def lost(self) -> bool:
        return self.lost_since is not None

    def unavailable(self, error: BaseException) -> StorageUnavailable:
        """The error to raise in place of ``error``; the first of an outage is logged."""
        if self.lost_since is None:
            self.lost_since = time.monotonic()
            log.warning("%s is unavailable (%s); waiting for it", self.what, describe(error))
        return StorageUnavailable(describe(error))

    def ok(self) -> None:
        if self.lost_since is not None:
            lost_for = time.monotonic() - self.lost_since
            self.lost_since = None
            log.info("%s is back after %.1f s", self.what, lost_for)
