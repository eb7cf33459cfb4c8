"""What each chat sees: the lobby, the group table message, a player's DM hand. Pure
functions of rows + engine views; the game's ``GameUI`` supplies the game's own texts.
Callback data formats (all < 64 bytes):
  ``l:<table>:<stamp>:<command>``    lobby buttons in the group (``lobby_stamp``: only
                                     the buttons that cycle a value check it)
  ``a:<table>:<version>:<move>``     a legal action, by its key (``move_key``): in a DM,
                                     or under the group message of a score-only table
  ``u:<table>:<version>:<mode>``     switch a DM keyboard (e.g. durak's blind covers) or
                                     the hand message's screen (``tricks``: bot.trick_view)
  ``r:<table>:<version>:<command>``  rematch / close after a game
  ``w:<table>:<game no>:on|off``     watch a game (under the group message) / stop
                                     watching it (in the spectator's DM)
"""

from __future__ import annotations

import base64
import hashlib
import json
import zlib
from dataclasses import dataclass

from telegram import InlineKeyboardMarkup

from bot import trick_view
from bot.game_registry import ui_for
from bot.game_ui import Rows
from bot.i18n import t
from bot.links import group_message_link
from bot.render.common import COMPUTER_MARK, TITLE_WIDTH, display_name, esc, keyboard
from engine.ai_levels import LEVELS
from engine.base import get_game
from storage.models import BETWEEN, CLOSED, LOBBY, PLAYING, SeatRow, TableRow

TIMER_CHOICES = (0, 60, 300, 3600, 12 * 3600, 24 * 3600)


MOVE_KEY_PREFIX = "m"
MOVE_KEY_LENGTH = 9  # the prefix and 8 characters of a 48-bit digest


def move_key(action: str) -> str:
    """A short fixed-length name of an action for callback data (64 bytes at most): the
    press names the move itself, not its place in a list that other moves change."""
    digest = hashlib.blake2b(action.encode(), digest_size=6).digest()
    return MOVE_KEY_PREFIX + base64.urlsafe_b64encode(digest).decode()


@dataclass
class Screen:
    text: str
    markup: InlineKeyboardMarkup | None = None


def timer_label(seconds: int, lang: str) -> str:
    if not seconds:
        return t(lang, "timer.off")
    if seconds < 3600:
        return t(lang, "timer.minutes", n=seconds // 60)
    return t(lang, "timer.hours", n=seconds // 3600)


def computer_level(table: TableRow) -> str:
    """The level the table's computers play at; tables opened before levels existed
    keep the player they started with."""
    level = table.settings.get("computers", "easy")
    return level if level in LEVELS else "easy"


# what the lobby's cycling buttons (options, timer, computers' level, on timeout) change
STAMPED_SETTINGS = ("timer", "on_timeout", "computers")


def lobby_stamp(table: TableRow) -> int:
    """A short digest of the options and settings a lobby was drawn with. A button that
    cycles a value is refused once they changed (a stale double press must not cycle
    twice); Join, Sit, Leave and the others name what they do and ignore it."""
    drawn = {"options": table.options, "settings": {k: table.settings.get(k) for k in STAMPED_SETTINGS}}
    return zlib.crc32(json.dumps(drawn, sort_keys=True, separators=(",", ":")).encode())


def seat_names(seats: list[SeatRow]) -> list[str]:
    """The players' names as every screen and post shows them (cut to a display width:
    three 64-character names must not push a table past Telegram's message limit)."""
    return [display_name(s.name) for s in sorted(seats, key=lambda s: s.seat)]


def header(table: TableRow) -> str:
    ui = ui_for(table.game)
    variant = ui.variant_text(table.options, table.lang)
    return ui.title(table.options, table.lang) + (f" · {variant}" if variant else "")


def lobby(table: TableRow, seats: list[SeatRow], dm_open: dict[int, bool], bot_username: str) -> Screen:
    lang, st = table.lang, table.settings
    ui, game = ui_for(table.game), get_game(table.game)
    lo, hi = game.seat_range(game.Options(**table.options))
    # "4–4 players" reads like a typo: a game for exactly n players says n; fixed seats
    # (bridge, whist) are taken with "Sit N"… buttons, not "Join"
    if ui.seat_names:
        title = t(lang, "lobby.title_seats", n=len(ui.seat_names))
    elif lo == hi:
        title = t(lang, "lobby.title_exact", n=lo)
    else:
        title = t(lang, "lobby.title", lo=lo, hi=hi)
    lines = [f"<b>{esc(header(table))}</b>", title, *ui.lobby_lines(table.options, lang)]
    by_seat = {s.seat: s for s in seats}
    missing_dm = []
    seat_count = len(ui.seat_names) if ui.seat_names else len(seats)
    for number in range(seat_count):
        s = by_seat.get(number)
        place = ui.seat_names[number] if ui.seat_names else str(number + 1)
        if s is None:
            lines.append(f"{place}. —")
            continue
        needs_dm = not s.is_computer and not ui.group_controls
        mark = ("✅ " if dm_open.get(s.user_id) else "✉️ ") if needs_dm else ""
        lines.append(f"{place}. {mark}{esc(display_name(s.name))}")
        if needs_dm and not dm_open.get(s.user_id):
            missing_dm.append(esc(display_name(s.name)))
    if not seats:
        lines.append(t(lang, "lobby.empty"))
    if not ui.group_controls:
        lines.append(t(lang, "lobby.computers", level=t(lang, f"computers.{computer_level(table)}")))
        lines.append(
            t(
                lang,
                "lobby.timer",
                timer=timer_label(st.get("timer", 0), lang),
                consequence=t(lang, f"timer.on_timeout.{st.get('on_timeout', 'lose')}"),
            )
        )
    if missing_dm:
        lines.append(t(lang, "lobby.open_dm", names=", ".join(missing_dm)))
    p = f"l:{table.id}:{lobby_stamp(table)}:"
    if ui.seat_names:
        join_rows = [[(t(lang, "lobby.btn.sit", seat=name), p + f"join:{i}") for i, name in enumerate(ui.seat_names)]]
    else:
        join_rows = [[(t(lang, "lobby.btn.join"), p + "join")]]
    join_rows[-1].append((t(lang, "lobby.btn.leave"), p + "leave"))
    rows = join_rows
    if missing_dm and bot_username:
        rows.append([(t(lang, "lobby.btn.open_dm"), f"url:https://t.me/{bot_username}?start=t{table.id}")])
    if not ui.group_controls:
        rows.append(
            [
                (t(lang, "lobby.btn.cpu_add"), p + "cpu+"),
                (t(lang, "lobby.btn.cpu_remove"), p + "cpu-"),
                ("🤖 " + t(lang, f"computers.{computer_level(table)}"), p + "computers"),
            ]
        )
    rows += [[(label, p + f"o:{key}") for label, key in row] for row in ui.option_rows(table.options, lang)]
    if not ui.group_controls:
        rows.append(
            [
                ("⏱ " + timer_label(st.get("timer", 0), lang), p + "timer"),
                (t(lang, f"timer.on_timeout.{st.get('on_timeout', 'lose')}"), p + "on_timeout"),
            ]
        )
    rows.append([(t(lang, "lobby.btn.start"), p + "start"), (t(lang, "lobby.btn.cancel"), p + "cancel")])
    return Screen("\n".join(lines), keyboard(rows))


def _action_keyboard(
    table: TableRow, seats: list[SeatRow], legal: list[str], view: dict, mode: str, extra: Rows | None = None
) -> InlineKeyboardMarkup | None:
    action_rows, switches = ui_for(table.game).action_rows(legal, view, table.lang, mode, seat_names(seats))
    rows = [[(label, f"a:{table.id}:{table.version}:{move_key(legal[i])}") for label, i in row] for row in action_rows]
    if switches:
        rows.append([(label, f"u:{table.id}:{table.version}:{m}") for label, m in switches])
    return keyboard([*rows, *(extra or [])])


def last_deal_rows(table: TableRow) -> Rows:
    """A player's "🔍 The last deal" (bot.deal_view) once a deal of this game has ended."""
    last = table.settings.get("last_deal")
    if not last or last[0] != table.game_no or table.status == CLOSED:
        return []
    return [[(t(table.lang, "deal_view.btn_last"), f"d:{table.id}:{last[1]}")]]


def group_table(table: TableRow, seats: list[SeatRow], state, thinking: int | None = None) -> Screen:
    """The group's table message; ``thinking`` is the seat of a computer whose decision
    is taking a while (the table says so rather than look frozen)."""
    if table.status == CLOSED:
        return Screen(f"<b>{esc(header(table))}</b>\n" + t(table.lang, "table.closed"))
    ui, game = ui_for(table.game), get_game(table.game)
    view = game.view(state, None)
    text = ui.group_text(view, seat_names(seats), table.lang, header(table))
    if thinking is not None and thinking < len(seats):
        name = seat_names(seats)[thinking]  # a computer's name carries its 🤖 already
        name = name if name.startswith(COMPUTER_MARK) else f"{COMPUTER_MARK} {name}"
        text += "\n" + t(table.lang, "table.thinking", name=esc(name))
    markup = None
    if ui.group_controls and table.status not in (LOBBY, BETWEEN):
        # score-only: every seat may enter, so the public legal actions are seat 0's
        markup = _action_keyboard(table, seats, game.legal_actions(state, 0), view, "normal")
    elif table.status == PLAYING:  # a score sheet shows everything already: nothing to watch
        markup = keyboard([[(t(table.lang, "watch.btn.watch"), watch_data(table, "on"))]])
    return Screen(text, markup)


def watch_data(table: TableRow, command: str) -> str:
    """Callback data of the Watch button ("on") and of a spectator's Leave ("off"). It names
    the game of the series, so a Watch under an earlier game's message is just stale."""
    return f"w:{table.id}:{table.game_no}:{command}"


def hand(table: TableRow, seats: list[SeatRow], state, seat: int, mode: str = "normal") -> Screen:
    """A player's DM: their view of the table, and buttons for their legal actions."""
    ui, game = ui_for(table.game), get_game(table.game)
    view = game.view(state, seat)
    title = display_name(table.settings.get("title") or "", TITLE_WIDTH)
    head = header(table) + (f" — {title}" if title else "")
    tricks = trick_view.tricks_of(table, view)
    if mode == trick_view.TRICKS and trick_view.offered(tricks):  # "📜 Tricks" pressed (bot.trick_view)
        return Screen(trick_view.text(table, seat_names(seats), tricks, head), keyboard(trick_view.back_rows(table)))
    legal = game.legal_actions(state, seat) if table.status not in (LOBBY, BETWEEN, CLOSED) else []
    if table.status == CLOSED:  # cancelled: nobody acts any more, so no "▶️ X to play"
        view = {**view, "to_act": []}
    # the hand text also knows the computers' level (bridge: only computers that bid by
    # its system have their calls explained)
    text = ui.hand_text({**view, "computer_level": computer_level(table)}, seat_names(seats), table.lang, head, legal)
    if table.status == CLOSED:  # cancelled, or the bot left the group: nothing to press
        text += "\n" + t(table.lang, "table.closed")
    # "📜 Tricks" and "🔍 The last deal" share a row under the moves
    extra = [[button for row in trick_view.button_rows(table, tricks) + last_deal_rows(table) for button in row]]
    return Screen(text, _action_keyboard(table, seats, legal, view, mode, extra if extra[0] else []))


def ping(table: TableRow, reminder: bool = False) -> str:
    """The "your turn" message in a player's DM; it names the group the table is in,
    as a link to the table's message where the group has message links (supergroups)."""
    title = esc(display_name(table.settings.get("title") or "", TITLE_WIDTH))
    link = group_message_link(table)
    if link:
        title = f'<a href="{esc(link)}">{title or esc(header(table))}</a>'
    return t(table.lang, "ping.reminder" if reminder else "ping.turn", title=title)


def notice(table: TableRow, key: str) -> str:
    """A one-off DM about a table, naming its game and group."""
    title = esc(display_name(table.settings.get("title") or "", TITLE_WIDTH))
    return t(table.lang, key, game=esc(header(table)), title=title)


def post_keyboard(table: TableRow, deal_seq: int | None, rematch: bool) -> InlineKeyboardMarkup | None:
    """Under a score-sheet post: "🔍 The deal" when the post ends a deal that can be
    shown (bot.deal_view), and Rematch / Close under a game's last post while it waits."""
    rows = []
    if deal_seq is not None:
        rows.append([(t(table.lang, "deal_view.btn"), f"d:{table.id}:{deal_seq}")])
    if rematch:
        p = f"r:{table.id}:{table.version}:"
        rows.append(
            [(t(table.lang, "table.btn.rematch"), p + "rematch"), (t(table.lang, "table.btn.close"), p + "close")]
        )
    return keyboard(rows)


def spectator_screen(table: TableRow, seats: list[SeatRow], state: object, leaving: bool = False) -> Screen:
    """The spectator's DM message: the group's own public table text under the group's
    name, a "Leave" button while the game runs, and a last line once it is over."""
    lang = table.lang
    view = get_game(table.game).view(state, None)  # the public view, never a seat's
    title = esc(display_name(table.settings.get("title") or "", TITLE_WIDTH))
    lines = [t(lang, "watch.title", title=title)]
    lines.append(ui_for(table.game).group_text(view, seat_names(seats), lang, header(table)))
    markup = None
    if leaving:
        lines.append(t(lang, "watch.left"))
    elif table.status == BETWEEN:
        lines.append(t(lang, "watch.game_over"))
    elif table.status == CLOSED:
        lines.append(t(lang, "watch.closed"))
    else:
        markup = keyboard([[(t(lang, "watch.btn.leave"), watch_data(table, "off"))]])
    return Screen("\n".join(lines), markup)
