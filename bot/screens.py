"""What each chat sees: the lobby, the group table message, a player's DM hand, the
post-game sheet. Pure functions of rows + engine views; the sender sends the result.
Callback data formats (all < 64 bytes):
  ``l:<table>:<version>:<command>``  lobby buttons in the group
  ``a:<table>:<version>:<index>``    a legal action (index into legal_actions) in a DM
  ``r:<table>:<version>:<command>``  rematch / close after a game
  ``u:<table>:<version>:<mode>``     switch the DM keyboard (``blind`` covers / ``normal``)
"""
from __future__ import annotations

from dataclasses import dataclass

from telegram import InlineKeyboardMarkup

from bot.i18n import t
from bot.render import durak as durak_render
from bot.render.common import esc, keyboard
from engine.base import get_game
from storage.models import BETWEEN, CLOSED, LOBBY, SeatRow, TableRow

TIMER_CHOICES = (0, 60, 300, 3600, 12 * 3600, 24 * 3600)


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


def seat_names(seats: list[SeatRow]) -> list[str]:
    return [s.name for s in sorted(seats, key=lambda s: s.seat)]


def header(table: TableRow) -> str:
    lang = table.lang
    return t(lang, f"game.{table.game}") + " · " + durak_render.variant_name(table.options, lang)


def lobby(table: TableRow, seats: list[SeatRow], dm_open: dict[int, bool], bot_username: str) -> Screen:
    lang, opts, st = table.lang, table.options, table.settings
    game = get_game(table.game)
    lo, hi = game.seat_range(game.Options(**opts))
    lines = [f"<b>{esc(header(table))}</b>", t(lang, "lobby.title", lo=lo, hi=hi)]
    missing_dm = []
    for s in sorted(seats, key=lambda s: s.seat):
        mark = "" if s.is_computer else ("✅ " if dm_open.get(s.user_id) else "✉️ ")
        lines.append(f"{s.seat + 1}. {mark}{esc(s.name)}")
        if not s.is_computer and not dm_open.get(s.user_id):
            missing_dm.append(esc(s.name))
    if not seats:
        lines.append(t(lang, "lobby.empty"))
    lines.append(t(lang, "lobby.timer", timer=timer_label(st.get("timer", 0), lang),
                   consequence=t(lang, f"timer.on_timeout.{st.get('on_timeout', 'lose')}")))
    if missing_dm:
        lines.append(t(lang, "lobby.open_dm", names=", ".join(missing_dm)))
    p = f"l:{table.id}:{table.version}:"
    onoff = lambda flag: "✓" if flag else "✗"  # noqa: E731
    rows = [
        [(t(lang, "lobby.btn.join"), p + "join"), (t(lang, "lobby.btn.leave"), p + "leave")],
        [(t(lang, "lobby.btn.cpu_add"), p + "cpu+"), (t(lang, "lobby.btn.cpu_remove"), p + "cpu-")],
        [(t(lang, f"durak.variant.{opts['base_game']}"), p + "o:base_game"),
         (t(lang, "durak.deck", n=opts["deck_size"]), p + "o:deck_size")],
        [(f"{onoff(opts['trumps'])} " + t(lang, "durak.opt.trumps"), p + "o:trumps"),
         (f"{onoff(opts['two_decks'])} " + t(lang, "durak.opt.two_decks"), p + "o:two_decks")],
        [(f"{onoff(opts['blind_beating'])} " + t(lang, "durak.opt.blind_beating"), p + "o:blind_beating"),
         (f"{onoff(opts['first_bout_five'])} " + t(lang, "durak.opt.first_bout_five"), p + "o:first_bout_five")],
        [("⏱ " + timer_label(st.get("timer", 0), lang), p + "timer"),
         (t(lang, f"timer.on_timeout.{st.get('on_timeout', 'lose')}"), p + "on_timeout")],
        [(t(lang, "lobby.btn.start"), p + "start"), (t(lang, "lobby.btn.cancel"), p + "cancel")],
    ]
    if missing_dm and bot_username:
        rows.insert(1, [(t(lang, "lobby.btn.open_dm"), f"url:https://t.me/{bot_username}?start=t{table.id}")])
    return Screen("\n".join(lines), keyboard(rows))


def group_table(table: TableRow, seats: list[SeatRow], state) -> Screen:
    if table.status == CLOSED:
        return Screen(f"<b>{esc(header(table))}</b>\n" + t(table.lang, "table.closed"))
    game = get_game(table.game)
    view = game.view(state, None)
    return Screen(durak_render.group_text(view, seat_names(seats), table.lang, header(table)))


def hand(table: TableRow, seats: list[SeatRow], state, seat: int, blind_mode: bool = False) -> Screen:
    """A player's DM. ``blind_mode`` shows the face-down cover keyboard instead (``u:`` toggle)."""
    game = get_game(table.game)
    view = game.view(state, seat)
    legal = game.legal_actions(state, seat) if table.status not in (LOBBY, BETWEEN, CLOSED) else []
    title = table.settings.get("title") or ""
    head = header(table) + (f" — {title}" if title else "")
    text = durak_render.hand_text(view, seat_names(seats), table.lang, head, legal)
    action_rows, has_blind = durak_render.action_rows(legal, view, table.lang, blind_mode)
    rows = [[(text_, f"a:{table.id}:{table.version}:{i}") for text_, i in row] for row in action_rows]
    if blind_mode and has_blind:
        rows.append([(t(table.lang, "durak.btn.blind_back"), f"u:{table.id}:{table.version}:normal")])
    elif has_blind:
        rows.append([(t(table.lang, "durak.btn.blind_menu"), f"u:{table.id}:{table.version}:blind")])
    return Screen(text, keyboard(rows))


def game_over_post(table: TableRow, seats: list[SeatRow], game_no: int, result: dict,
                   tally: dict) -> Screen:
    lang = table.lang
    names = seat_names(seats)
    text = "\n".join([
        f"<b>{esc(header(table))}</b>",
        t(lang, "sheet.game_no", n=game_no),
        durak_render.result_text(result, names, lang),
        durak_render.tally_sheet(tally, names, lang),
    ])
    return Screen(text)


def rematch_keyboard(table_id: int, version: int, lang: str) -> InlineKeyboardMarkup | None:
    p = f"r:{table_id}:{version}:"
    return keyboard([[(t(lang, "table.btn.rematch"), p + "rematch"), (t(lang, "table.btn.close"), p + "close")]])
