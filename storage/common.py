"""Pure helpers of ``storage.core`` (the SQL both backends share): argument
validation, JSON encoding and row -> dataclass conversion. No I/O here.

Both backends store JSON columns as the text ``dumps`` produces and decode them with
``loads``, so they hand back identical dicts (key order included). Rows are anything
indexable by column name (``sqlite3.Row``, ``asyncpg.Record``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from storage.models import (
    ActionRow,
    FinishedGame,
    OutboxItem,
    RatingRow,
    SeatRow,
    SpectatorRow,
    TableRow,
    TimerRow,
    UserRow,
)

STATUSES = frozenset({"lobby", "playing", "between", "closed"})

# Columns that update_table / commit_actions(table_fields=...) may change.
TABLE_FIELDS = frozenset(
    {
        "options",
        "settings",
        "status",
        "group_message_id",
        "lang",
        "game_no",
        "game",
        "opener_id",
    }
)
JSON_FIELDS = frozenset({"options", "settings"})


# claim_update: remember update ids this long, purge when an id is a multiple of this
UPDATE_RETENTION_S = 86400.0
UPDATE_PURGE_EVERY = 100


def dumps(value: Any) -> str:
    """Compact JSON. NaN/Infinity are refused (``ValueError``) on both backends:
    they are not JSON, and PostgreSQL's ``json`` type would reject them."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def loads(text: str | None) -> Any:
    return json.loads(text) if text else {}


# --- rows -> dataclasses ---------------------------------------------------------


def table_row(row: Mapping[str, Any]) -> TableRow:
    return TableRow(
        id=row["id"],
        chat_id=row["chat_id"],
        thread_id=row["thread_id"],
        game=row["game"],
        options=loads(row["options"]),
        status=row["status"],
        opener_id=row["opener_id"],
        version=row["version"],
        game_no=row["game_no"],
        group_message_id=row["group_message_id"],
        lang=row["lang"],
        settings=loads(row["settings"]),
        created_at=row["created_at"],
    )


def seat_row(row: Mapping[str, Any]) -> SeatRow:
    return SeatRow(
        table_id=row["table_id"],
        seat=row["seat"],
        user_id=row["user_id"],
        name=row["name"],
        is_computer=bool(row["is_computer"]),
        dm_message_id=row["dm_message_id"],
        ping_message_id=row["ping_message_id"],
        keyboard=row["keyboard"],
        keyboard_version=row["keyboard_version"],
    )


def spectator_row(row: Mapping[str, Any]) -> SpectatorRow:
    return SpectatorRow(table_id=row["table_id"], user_id=row["user_id"], dm_message_id=row["dm_message_id"])


def user_row(row: Mapping[str, Any]) -> UserRow:
    return UserRow(
        user_id=row["user_id"],
        name=row["name"],
        username=row["username"],
        lang=row["lang"],
        dm_open=bool(row["dm_open"]),
    )


def action_row(row: Mapping[str, Any]) -> ActionRow:
    return ActionRow(
        table_id=row["table_id"],
        seq=row["seq"],
        game_no=row["game_no"],
        seat=row["seat"],
        action=row["action"],
        created_at=row["created_at"],
    )


def outbox_row(row: Mapping[str, Any]) -> OutboxItem:
    return OutboxItem(
        kind=row["kind"],
        chat_id=row["chat_id"],
        table_id=row["table_id"],
        target=row["target"],
        payload=loads(row["payload"]),
        id=row["id"],
        created_at=row["created_at"],
    )


def timer_row(row: Mapping[str, Any]) -> TimerRow:
    return TimerRow(
        table_id=row["table_id"],
        version=row["version"],
        remind_at=row["remind_at"],
        expire_at=row["expire_at"],
        reminded=bool(row["reminded"]),
    )


def finished_row(row: Mapping[str, Any]) -> FinishedGame:
    return FinishedGame(
        chat_id=row["chat_id"],
        thread_id=row["thread_id"],
        table_id=row["table_id"],
        game_no=row["game_no"],
        game=row["game"],
        options=loads(row["options"]),
        players=json.loads(row["players"]) if row["players"] else [],
        result=loads(row["result"]),
        rated=bool(row["rated"]),
        id=row["id"],
        finished_at=row["finished_at"],
    )


def rating_row(row: Mapping[str, Any]) -> RatingRow:
    return RatingRow(
        chat_id=row["chat_id"],
        game=row["game"],
        player=row["player"],
        user_id=row["user_id"],
        name=row["name"],
        mu=row["mu"],
        sigma=row["sigma"],
        games=row["games"],
        wins=row["wins"],
        last_played=row["last_played"],
    )


# --- argument validation (before anything is written) ---------------------------


def encode_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    """Validate table fields against the whitelist and encode JSON columns."""
    unknown = set(fields) - TABLE_FIELDS
    if unknown:
        raise ValueError(f"table fields not updatable: {sorted(unknown)}")
    out: dict[str, Any] = {}
    for key, value in fields.items():
        if key in JSON_FIELDS:
            if not isinstance(value, dict):
                raise ValueError(f"{key} must be a dict")
            value = dumps(value)
        elif key == "status" and value not in STATUSES:
            raise ValueError(f"unknown table status {value!r}")
        out[key] = value
    return out


def check_seats(table_id: int, seats: Sequence[SeatRow]) -> list[SeatRow]:
    """Seats for ``replace_seats``: all of ``table_id``, seat numbers unique."""
    seats = list(seats)
    numbers = set()
    for s in seats:
        if s.table_id != table_id:
            raise ValueError(f"seat {s.seat} belongs to table {s.table_id}, not {table_id}")
        if s.seat in numbers:
            raise ValueError(f"seat {s.seat} given twice")
        numbers.add(s.seat)
    return seats


def seat_values(table_id: int, seats: Sequence[SeatRow]) -> list[dict[str, Any]]:
    """The parameters of a seat's row by column name, a dict a seat."""
    return [
        {
            "table_id": table_id,
            "seat": s.seat,
            "user_id": s.user_id,
            "name": s.name,
            "is_computer": bool(s.is_computer),
            "dm_message_id": s.dm_message_id,
            "ping_message_id": s.ping_message_id,
            "keyboard": s.keyboard,
            "keyboard_version": s.keyboard_version,
        }
        for s in seats
    ]


def check_commit(table_id: int, expected_version: int, actions: Sequence[ActionRow], timer: Any) -> int:
    """Validate ``commit_actions`` arguments; return the version after the commit."""
    for i, a in enumerate(actions):
        if a.table_id != table_id:
            raise ValueError(f"action seq {a.seq} belongs to table {a.table_id}, not {table_id}")
        if a.seq != expected_version + 1 + i:
            raise ValueError(f"action seq must run on from version {expected_version}: got {[x.seq for x in actions]}")
    if isinstance(timer, TimerRow) and timer.table_id != table_id:
        raise ValueError(f"timer belongs to table {timer.table_id}, not {table_id}")
    if timer is not ... and timer is not None and not isinstance(timer, TimerRow):
        raise TypeError("timer must be a TimerRow, None (clear) or ... (keep)")
    return actions[-1].seq if actions else expected_version


def conflict_message(table_id: int, stored: int, expected: int) -> str:
    return f"table {table_id} is at version {stored}, expected {expected}"
