"""Pure helpers of ``storage.core`` (the SQL both backends share): argument
validation, JSON encoding and row -> dataclass conversion. No I/O here.

Both backends store JSON columns as the text ``dumps`` produces and decode them with
``loads``, so they hand back identical dicts (key order included). Rows are anything
indexable by column name (``sqlite3.Row``, ``asyncpg.Record``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any, TypeVar

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

from storage.repository import SETTINGS_CHANGES

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

_Row = TypeVar("_Row", bound="DataclassInstance")

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
        SETTINGS_CHANGES,
    }
)
JSON_FIELDS = frozenset({"options", "settings"})


# the inbox: remember handled update ids this long (the housekeeping purges them)
UPDATE_RETENTION_S = 86400.0


def dumps(value: Any) -> str:
    """Compact JSON. NaN/Infinity are refused (``ValueError``) on both backends:
    they are not JSON, and PostgreSQL's ``json`` type would reject them."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def loads(text: str | None) -> Any:
    return json.loads(text) if text else {}


# --- rows -> dataclasses ---------------------------------------------------------


def _decode(cls: type[_Row], row: Mapping[str, Any], **decoded: Any) -> _Row:
    """A ``cls`` from the row's column of each field's name; ``decoded`` gives the
    fields whose column needs converting (JSON text, SQLite's 0/1 booleans)."""
    values = {f.name: row[f.name] for f in fields(cls)}
    values.update(decoded)
    return cls(**values)


def table_row(row: Mapping[str, Any]) -> TableRow:
    return _decode(TableRow, row, options=loads(row["options"]), settings=loads(row["settings"]))


def seat_row(row: Mapping[str, Any]) -> SeatRow:
    return _decode(SeatRow, row, is_computer=bool(row["is_computer"]))


def spectator_row(row: Mapping[str, Any]) -> SpectatorRow:
    return _decode(SpectatorRow, row)


def user_row(row: Mapping[str, Any]) -> UserRow:
    return _decode(UserRow, row, dm_open=bool(row["dm_open"]))


def action_row(row: Mapping[str, Any]) -> ActionRow:
    return _decode(ActionRow, row)


def outbox_row(row: Mapping[str, Any]) -> OutboxItem:
    return _decode(OutboxItem, row, payload=loads(row["payload"]))


def timer_row(row: Mapping[str, Any]) -> TimerRow:
    return _decode(TimerRow, row, reminded=bool(row["reminded"]))


def finished_row(row: Mapping[str, Any]) -> FinishedGame:
    return _decode(
        FinishedGame,
        row,
        options=loads(row["options"]),
        players=json.loads(row["players"]) if row["players"] else [],
        result=loads(row["result"]),
        rated=bool(row["rated"]),
    )


def rating_row(row: Mapping[str, Any]) -> RatingRow:
    return _decode(RatingRow, row)


# --- argument validation (before anything is written) ---------------------------


def encode_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    """Validate table fields against the whitelist and encode JSON columns."""
    unknown = set(fields) - TABLE_FIELDS
    if unknown:
        raise ValueError(f"table fields not updatable: {sorted(unknown)}")
    if "settings" in fields and SETTINGS_CHANGES in fields:
        raise ValueError("give settings or settings_changes, not both")
    out: dict[str, Any] = {}
    for key, value in fields.items():
        if key == SETTINGS_CHANGES:
            if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
                raise ValueError(f"{key} must be a dict with str keys")
            dumps(value)  # refused now (ValueError/TypeError) rather than inside the transaction
            value = dict(value)
        elif key in JSON_FIELDS:
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


def changed_settings(stored: str | None, changes: Mapping[str, Any]) -> str:
    """The stored settings JSON with ``changes`` applied (None removes a key)."""
    settings = loads(stored)
    for key, value in changes.items():
        if value is None:
            settings.pop(key, None)
        else:
            settings[key] = value
    return dumps(settings)
