"""Housekeeping: the bot deletes what it no longer needs, so a group playing every day
keeps a database whose size follows its games, not the messages and updates around them
(README "Retention"; bench/storage_year.py measures a year).

What is kept how long:

* delivered outbox rows: a day (``OUTBOX_KEPT_S``). The sender reads pending rows only;
  a pending row (Telegram not answering, a flood wait) is never deleted.
* handled Telegram update ids: a day (``storage.common.UPDATE_RETENTION_S``), against
  Telegram re-sending one; an update not handled yet stays.
* deal analyses ("🔍 The deal"): a week (``ANALYSES_KEPT_S``). They are a cache: a press
  of an older button computes the analysis again from the action log.
* snapshots: the newest of each table. A table is replayed from its latest snapshot and
  the actions after it; nothing reads an older one.
* kept for good: the action logs, the tables, the finished games and the ratings -- the
  truth of every game and the group's history (``/forget`` erases a group's).

Every worker runs this: the deletes are idempotent, and each batch is a short
transaction of its own (``storage.core``), so a purge never holds the write lock long.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Awaitable, Callable

from storage.common import UPDATE_RETENTION_S
from storage.repository import StorageError

log = logging.getLogger(__name__)

DAY_S = 86400.0
OUTBOX_KEPT_S = DAY_S
INBOX_KEPT_S = UPDATE_RETENTION_S
ANALYSES_KEPT_S = 7 * DAY_S
FIRST_AFTER_S = 60.0  # the first round, once the start's own work is done
EVERY_S = 3600.0  # then hourly


class Housekeeper:
    """``clock`` is the one the storage stamps its rows with (``time.time``)."""

    def __init__(
        self,
        repo,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        speedup: float | None = None,
    ) -> None:
        self.repo, self.clock, self.sleep = repo, clock, sleep
        # benches only (bench/soak.py): every period divided by this, so half an hour of
        # accelerated play shows the rows level off (144: a day is 10 minutes)
        self.speedup = speedup or float(os.environ.get("CARDBOT_HOUSEKEEPING_SPEEDUP") or 1.0)

    async def run_once(self) -> dict[str, int]:
        """One round: the rows deleted, by kind."""
        now, speedup = self.clock(), self.speedup
        purged = {
            "outbox": await self.repo.purge_outbox(now - OUTBOX_KEPT_S / speedup),
            "inbox": await self.repo.purge_inbox(now - INBOX_KEPT_S / speedup),
            "deal_analyses": await self.repo.purge_deal_analyses(now - ANALYSES_KEPT_S / speedup),
            "snapshots": await self.repo.purge_old_snapshots(),
        }
        if any(purged.values()):
            log.info("housekeeping deleted %s", ", ".join(f"{n} {kind}" for kind, n in purged.items() if n))
        return purged

    async def run_forever(self) -> None:
        await self.sleep(FIRST_AFTER_S)
        while True:
            try:
                await self.run_once()
            except asyncio.CancelledError:
                raise
            except StorageError:
                pass  # the database is lost (logged once, storage.health): the next round
            except Exception as error:
                log.warning("housekeeping failed (%s); next round in %.0f s", error, EVERY_S / self.speedup)
            await self.sleep(EVERY_S / self.speedup)
