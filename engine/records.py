"""Replaying a game record (docs/records.md).

A record is a JSON object::

    {"game": "durak", "players": 3, "options": {...},
     "actions": [{"seat": null, "action": "deal dealer=1 lead=rule 7S ..."},
                 {"seat": 2, "action": "attack 9C"}, "0: pass", ...]}

Each entry of ``actions`` is either ``{"seat": int|null, "action": str}`` or a string:
``"<seat>: <action>"`` for a player, or the bare action for a system action
(``deal ...``, ``forfeit 1``). ``rules_version`` may be given; it must match.

``python -m engine.records FILE`` (or ``-`` for standard input) prints the replay as
JSON; a bad record exits with status 2 and one line naming the first bad action.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from engine.base import get_game
from engine.errors import EngineError
from engine.jsondata import JsonDict
from engine.options import record_options

_STRING_ACTION = re.compile(r"^\s*(\d+)\s*:\s*(.+?)\s*$")

# The largest record file the command-line tools read. A whole long match is a few
# hundred KB; the parsed JSON takes about ten times its size in memory.
MAX_RECORD_BYTES = 8 * 1024 * 1024
MAX_RECORD_TEXT = "8 MiB"


class RecordTooLarge(Exception):
    """A record file over ``MAX_RECORD_BYTES`` (or an endless stream)."""


def read_record_file(path: str, limit: int = MAX_RECORD_BYTES) -> bytes:
    """The bytes of a record file (``-``: standard input). Reads at most ``limit`` + 1 bytes,
    so a huge file, /dev/zero or an endless pipe is refused at once (``RecordTooLarge``)
    instead of filling the memory; ``OSError`` for a file that cannot be read."""
    if path == "-":
        data = sys.stdin.buffer.read(limit + 1)
    else:
        with open(path, "rb") as file:
            data = file.read(limit + 1)
    if len(data) > limit:
        name = "standard input" if path == "-" else path
        raise RecordTooLarge(f"{name} is over the {MAX_RECORD_TEXT} a record may have")
    return data


class RecordError(ValueError):
    """A record that cannot be replayed. ``index`` is the 0-based position of the first
    bad entry of ``actions`` (None when the record itself is malformed), ``action`` its
    text, ``reason`` what is wrong, ``code`` the engine's error code when there is one."""

    def __init__(self, index: int | None, message: str, *, action: str | None = None, code: str | None = None) -> None:
        self.index = index
        self.action = action
        self.reason = message
        self.code = code
        if index is None:
            text = message
        else:
            text = f"action {index}" + (f" ({action!r})" if action is not None else "") + f": {message}"
        super().__init__(text)


def parse_entry(index: int, entry: Any) -> tuple[int | None, str]:
    """``(seat, action)`` from one entry of a record's ``actions`` list."""
    if isinstance(entry, str):
        m = _STRING_ACTION.match(entry)
        if m:
            return int(m.group(1)), m.group(2)
        if not entry.strip():
            raise RecordError(index, "empty action", action=entry)
        return None, entry.strip()
    if isinstance(entry, dict) and isinstance(entry.get("action"), str):
        seat = entry.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise RecordError(index, "seat must be a number or null", action=entry["action"])
        return seat, entry["action"]
    raise RecordError(index, 'an action is "<seat>: <action>" or {"seat": ..., "action": ...}', action=str(entry))


def make_record(game_name: str, players: int, options: Any, log: list[tuple[int | None, str]]) -> JsonDict:
    """A record of a played game from its ``(seat, action)`` log, in the string form."""
    game = get_game(game_name)
    opts = game.Options.model_validate(options or {})
    return {
        "game": game.name,
        "rules_version": game.rules_version,
        "players": players,
        "options": opts.model_dump(),
        "actions": [a if seat is None else f"{seat}: {a}" for seat, a in log],
    }


def replay(record: JsonDict) -> JsonDict:
    """Replay ``record``; return ``{"game", "players", "final", "result", "actions"}``.

    ``final`` is the public view of the last state plus ``hands`` (every hand, for
    checking). Raises :class:`RecordError` naming the first bad action."""
    if not isinstance(record, dict):
        raise RecordError(None, "a record is a JSON object")
    name: Any = record.get("game")  # parsed JSON: anything; get_game rejects what is not a game
    try:
        game = get_game(name)
    except (KeyError, TypeError):
        raise RecordError(None, f"unknown game {name!r}") from None
    version = record.get("rules_version")
    if version is not None and version != game.rules_version:
        raise RecordError(None, f"rules_version {version} is not {game.rules_version}")
    players: Any = record.get("players")  # parsed JSON: the engine rejects a bad count
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise RecordError(None, "actions must be a list")
    try:
        given = record_options(record)
    except ValueError as exc:
        raise RecordError(None, str(exc)) from None
    try:
        options = game.Options.model_validate(given)
        state = game.initial_state(options, players)
    except EngineError as exc:
        raise RecordError(None, exc.reason, code=exc.code) from None
    except Exception as exc:  # pydantic validation errors
        raise RecordError(None, f"bad options: {exc}") from None
    for i, entry in enumerate(actions):
        seat, action = parse_entry(i, entry)
        try:
            state, _ = game.apply(state, seat, action)
        except EngineError as exc:
            raise RecordError(i, exc.reason, action=action, code=exc.code) from None
    final = game.view(state, None)
    hands = game.dump(state).get("hands")
    if isinstance(hands, list) and all(isinstance(h, list) for h in hands):
        final["hands"] = [sorted(h) for h in hands]
    elif hands is not None:
        final["hands"] = hands
    return {
        "game": game.name,
        "players": players,
        "final": final,
        "result": game.result(state),
        "actions": len(actions),
    }


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m engine.records FILE|-", file=sys.stderr)
        return 2
    try:
        record = json.loads(read_record_file(args[0]).decode("utf-8"))
    except (OSError, ValueError, RecordTooLarge) as exc:
        print(f"cannot read the record: {exc}", file=sys.stderr)
        return 2
    try:
        out = replay(record)
    except RecordError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    print(json.dumps(out, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
