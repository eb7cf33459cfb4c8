"""Plain rows the repository hands out. Times are UNIX seconds (float, UTC)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Table status values
LOBBY = "lobby"  # seats being taken, options being set
PLAYING = "playing"  # a game is running
BETWEEN = "between"  # a game ended; rematch possible
CLOSED = "closed"  # cancelled or abandoned; frees the chat/topic for a new table


@dataclass
class TableRow:
    id: int
    chat_id: int
    thread_id: int  # forum topic id, 0 when the chat has no topics
    game: str  # "durak"
    options: dict[str, Any]
    status: str
    opener_id: int
    version: int  # the optimistic-lock version: seq of the last action, or
    # higher after versioned lobby edits (update_table bumps it)
    game_no: int  # 0 in the lobby, 1 for the first game of the series, ...
    group_message_id: int | None
    lang: str
    settings: dict[str, Any] = field(default_factory=dict)  # table settings: timer, ...
    created_at: float = 0.0


@dataclass
class SeatRow:
    table_id: int
    seat: int
    user_id: int  # Telegram user id; computer players get negative ids
    name: str
    is_computer: bool = False
    dm_message_id: int | None = None  # the hand message in the player's DM
    ping_message_id: int | None = None  # the last "your turn" ping, deleted on the next one
    keyboard: str = "normal"  # the seat's DM keyboard mode (set_seat_keyboard) ...
    keyboard_version: int = 0  # ... valid only while the table version equals this


@dataclass
class SpectatorRow:
    """Someone watching a table's public view in their DM (not a player)."""

    table_id: int
    user_id: int
    dm_message_id: int | None = None  # the watched table's message in their DM


@dataclass
class UserRow:
    user_id: int
    name: str
    username: str | None = None
    lang: str | None = None
    dm_open: bool = False  # the user has started the bot in a private chat


@dataclass
class ActionRow:
    table_id: int
    seq: int  # 1-based, strictly increasing per table (gaps where versioned
    # lobby edits bumped the version); the table version after it
    game_no: int
    seat: int | None  # None for system actions (the deal, timeouts)
    action: str
    created_at: float = 0.0


@dataclass
class OutboxItem:
    """One thing the sender must do. ``kind``:
    - ``group``: refresh the table's group message from the current state (coalesced);
    - ``hand``: refresh seat ``target``'s DM hand message (coalesced);
    - ``ping``: tell seat ``target`` it is their turn (delete the previous ping);
    - ``unping``: seat ``target``'s turn is over: delete its ping;
    - ``post``: send ``payload["text"]`` (HTML) to ``chat_id`` as a new message; with a
      ``payload["picture"]`` spec, the drawn sheet as a photo with that text as its
      caption (``payload["fallback"]``, or the text, when it cannot be drawn);
    - ``file``: send the document ``payload["file_name"]`` (bytes as ``payload["base64"]``,
      an optional plain ``payload["caption"]``) to ``chat_id``, in topic ``target`` if set;
    - ``watch``: refresh spectator ``chat_id``'s DM view of the table (coalesced);
    - ``unwatch``: the spectator left: their DM message ``payload["message_id"]`` shows
      the table as it was, without buttons.
    - ``reply``: a command's answer ``payload["text"]`` (HTML) with the buttons
      ``payload["rows"]`` (rows of [label, callback data | "url:<link>"]) to ``chat_id``,
      in topic ``target`` if set, quoting message ``payload["reply_to"]`` if set;
    - ``edit``: message ``payload["message_id"]`` of ``chat_id`` gets the text
      ``payload["text"]`` and loses its buttons (a used chooser).

    ``attempts`` counts Telegram's refusals of the row (``outbox_refused``).
    """

    kind: str
    chat_id: int
    table_id: int | None = None
    target: int | None = None
    payload: dict[str, Any] = field(default_factory=dict)
    id: int | None = None
    created_at: float = 0.0
    attempts: int = 0


@dataclass
class TimerRow:
    table_id: int
    version: int  # the table version the deadline belongs to; stale if it moved on
    remind_at: float | None
    expire_at: float
    reminded: bool = False


@dataclass
class FinishedGame:
    """A finished game of a group, kept for ``/history``: who sat where (each seat
    ``{"name", "player", "user_id"}``; ``player`` is the rating key, ``"u<id>"`` for a
    person, ``"cpu:<level>"`` for a computer) and the game's ``result``. The record is
    rebuilt from the table's action log (``table_id``, ``game_no``)."""

    chat_id: int
    thread_id: int
    table_id: int
    game_no: int
    game: str
    options: dict[str, Any]
    players: list[dict[str, Any]]
    result: dict[str, Any]
    rated: bool = False
    id: int | None = None
    finished_at: float = 0.0


@dataclass
class RatingRow:
    """A player's rating in one group and game (OpenSkill's ``mu`` and ``sigma``)."""

    chat_id: int
    game: str
    player: str  # "u<user id>" or "cpu:<level>"
    user_id: int | None
    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    last_played: float = 0.0
