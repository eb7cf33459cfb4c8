""" "📜 Tricks": a seated player looks back, in their hand message, at the tricks of the
deal being played: numbered, who played which card, who won each, and the trick on the
table as it lies; "↩ Back to the hand" shows the hand again.

It is a screen of the hand message, not a message of its own: the ``u:`` switch stores
the mode ``tricks`` on the seat with the table's version (as durak's blind covers do,
``bot.play.switch_keyboard``), and the sender draws the hand message as this screen
while the table stays at that version. Any move moves the version on, so the next
redraw of the hand is the normal hand again.

Nothing hidden: the list is read from the seat's own view by the game's
``tricks_so_far`` (every card of a finished trick was played face up; no hand, talon
or discard is in it). Cost: a press is the callback answer and one edit of the presser's
own hand message, through the outbox like every hand edit; never a group message.
"""

from __future__ import annotations

from bot.game_registry import ui_for
from bot.game_ui import Rows
from bot.i18n import t
from bot.render.common import display_name, esc
from bot.render.deal_record import trick_lines
from storage.models import PLAYING, TableRow

TRICKS = "tricks"  # the hand message's mode (SeatRow.keyboard) while it shows the tricks
NAME_WIDTH = 12  # a name in a trick line, as the deal records write them


def tricks_of(table: TableRow, view: dict) -> list[dict]:
    """The tricks of the deal being played, from a seat's view; none while no deal is."""
    ui = ui_for(table.game)
    if ui.tricks_so_far is None or table.status != PLAYING:
        return []
    return ui.tricks_so_far(view)


def offered(tricks: list[dict]) -> bool:
    """The button shows once a trick of the deal is complete."""
    return any(trick["winner"] is not None for trick in tricks)


def button_rows(table: TableRow, tricks: list[dict]) -> Rows:
    """The hand message's "📜 Tricks" button, while it has something to show."""
    if not offered(tricks):
        return []
    return [[(t(table.lang, "tricks.btn"), f"u:{table.id}:{table.version}:{TRICKS}")]]


def back_rows(table: TableRow) -> Rows:
    return [[(t(table.lang, "tricks.back"), f"u:{table.id}:{table.version}:normal")]]


def text(table: TableRow, names: list[str], tricks: list[dict], head: str) -> str:
    """The screen: the table's heading, the tricks one a line as the deal records write
    them (``bot.render.deal_record.trick_lines``). Fixed seats (N E S W) are written by
    their letter, as the hand message does, with a line saying who sits where."""
    lang, seat_names = table.lang, ui_for(table.game).seat_names

    def name(seat: object) -> str:
        if seat is None:
            return t(lang, "tricks.talon")
        index = int(str(seat))
        if seat_names:
            return seat_names[index]
        return esc(display_name(names[index], NAME_WIDTH)) if index < len(names) else str(seat)

    lines = [f"<b>{esc(head)}</b>", t(lang, "tricks.title")]
    if seat_names:
        lines.append(" · ".join(f"{letter} {esc(display_name(n, NAME_WIDTH))}" for letter, n in zip(seat_names, names)))
    played = trick_lines(tricks, name, lang)
    if tricks and tricks[-1]["winner"] is None:
        played[-1] += " " + t(lang, "tricks.on_table")
    return "\n".join(lines + played)
