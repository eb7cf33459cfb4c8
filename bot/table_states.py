"""What the service and the sender both need to know about a table, without either
calling the other: its current game state (rebuilt from storage, cached by version) and
the DM keyboard a seat looks at."""

from __future__ import annotations

import collections
from typing import Any

from engine.base import get_game
from storage.models import SeatRow, TableRow
from storage.repository import Repository

STATE_CACHE_SIZE = 5000  # game states kept in memory (least recently used go first)


class TableStates:
    """table id -> (version, state): a cache only, trusted while the version matches;
    otherwise the newest snapshot plus the actions after it, read from storage."""

    def __init__(self, repo: Repository, size: int = STATE_CACHE_SIZE) -> None:
        self.repo = repo
        self.size = size
        self.cache: collections.OrderedDict[int, tuple[int, Any]] = collections.OrderedDict()

    def remember(self, table_id: int, version: int, state: Any) -> None:
        self.cache[table_id] = (version, state)
        self.cache.move_to_end(table_id)
        while len(self.cache) > self.size:
            self.cache.popitem(last=False)

    async def state_of(self, table: TableRow) -> Any | None:
        """The current game state (None before the first deal)."""
        if table.game_no == 0:
            return None
        cached = self.cache.get(table.id)
        if cached and cached[0] == table.version:
            self.cache.move_to_end(table.id)
            return cached[1]
        game = get_game(table.game)
        snap = await self.repo.latest_snapshot(table.id)
        if snap is None:  # cannot happen: every deal is stored with a snapshot
            raise RuntimeError(f"table {table.id} has no snapshot")
        seq, data = snap
        state = game.load(data)
        for row in await self.repo.load_actions(table.id, after_seq=seq):
            state, _ = game.apply(state, row.seat, row.action)
        self.remember(table.id, table.version, state)
        return state


def keyboard_mode(table: TableRow, seat: SeatRow) -> str:
    """The DM keyboard a seat looks at; a switch lasts until the table moves on."""
    return seat.keyboard if seat.keyboard_version == table.version else "normal"
