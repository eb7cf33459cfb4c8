"""Spectators and /mytables: what a person sees of tables in their DM besides their hand.

Spectators ("👁 Watch" under a running table's group message) get the table's PUBLIC view
(``game.view(state, None)``, exactly what the group sees — in bridge that includes dummy
once it is down) as one DM message that the sender edits whenever it edits the group
message, so a spectator costs at most one Bot API call per group message edit. When
the game ends (or the table closes) the message shows the final state once, without
buttons, and the person stops watching; "Leave" in the DM stops it earlier.

``/mytables`` (in the DM) lists the tables the person sits at, whose turn it is, and a
link to each table's group message (supergroups only, see ``bot.links``).
"""

from __future__ import annotations

from bot.game_registry import ui_for
from bot.i18n import t
from bot.links import group_message_link
from bot.render.common import TITLE_WIDTH, display_name, esc
from bot.screens import seat_names
from bot.press import PressPlace, StaleButton, UserError
from bot.table_core import TableCore
from engine.base import get_game
from storage.models import BETWEEN, CLOSED, LOBBY, PLAYING, OutboxItem, SeatRow, TableRow

# Each spectator is one more DM edit per group message edit (at most ~19 a minute per
# group): 20 spectators of one busy table already cost up to ~6 calls a second of the
# bot's ~30 a second overall.
MAX_SPECTATORS = 20


# ---------------------------------------------------------------------- pressing
async def start_watching(core: TableCore, table_id: int, game_no: int, user_id: int, place: PressPlace) -> str:
    """ "👁 Watch" under the group message: the public view comes to the presser's DM.
    Returns the catalog key of the toast; refusals raise ``UserError`` and change nothing."""
    repo = core.repo
    table = await repo.get_table(table_id)
    if table is None or table.status == CLOSED:
        raise UserError("err.table_gone")
    place.require_table_chat(table)
    if ui_for(table.game).group_controls:  # a score sheet has nothing hidden to watch
        raise UserError("err.bad_button")
    if table.status != PLAYING or game_no != table.game_no:
        raise StaleButton()
    _, mine = await core.seat_of(table_id, user_id)
    if mine is not None:
        raise UserError("watch.err.seated")
    user = await repo.get_user(user_id)
    if not (user and user.dm_open):  # the bot may not write first: a 403 before any DM
        raise UserError("watch.err.start_bot")
    if len(await repo.get_spectators(table_id)) >= MAX_SPECTATORS:
        raise UserError("watch.err.full", n=MAX_SPECTATORS)
    if not await repo.add_spectator(table_id, user_id):
        return "watch.err.already"
    await core.enqueue([OutboxItem("watch", user_id, table_id)])
    return "watch.ok.started"


async def stop_watching(core: TableCore, table_id: int, user_id: int, place: PressPlace) -> str:
    """ "Leave" in the spectator's own DM: no more updates; the message keeps the table as
    it was, without buttons."""
    place.require_own_dm(user_id)
    gone = await core.repo.remove_spectator(table_id, user_id)
    if gone is None:
        raise UserError("watch.err.not_watching")
    if gone.dm_message_id is not None:
        await core.enqueue([OutboxItem("unwatch", user_id, table_id, payload={"message_id": gone.dm_message_id})])
    return "watch.ok.left"


# ---------------------------------------------------------------------- /mytables
async def my_tables_text(core: TableCore, user_id: int, lang: str) -> str:
    """Every table the person sits at (any group), whose turn it is, and a link there."""
    tables = await core.repo.tables_of_user(user_id)
    if not tables:
        return t(lang, "mytables.none")
    lines = [t(lang, "mytables.title", n=len(tables))]
    for number, table in enumerate(tables, 1):
        seats, mine = await core.seat_of(table.id, user_id)
        title = esc(display_name(table.settings.get("title") or "", TITLE_WIDTH))
        lines.append("")
        lines.append(
            t(lang, "mytables.table", n=number, game=esc(ui_for(table.game).title(table.options, lang)), title=title)
        )
        lines.append(await _whose_turn(core, table, seats, mine, lang))
        link = group_message_link(table)
        if link:
            lines.append(f'<a href="{esc(link)}">{t(lang, "mytables.open")}</a>')
    return "\n".join(lines)


async def _whose_turn(core: TableCore, table: TableRow, seats: list[SeatRow], mine: SeatRow | None, lang: str) -> str:
    if table.status == LOBBY:
        return t(lang, "mytables.lobby", n=len(seats))
    if table.status == BETWEEN:
        return t(lang, "mytables.between")
    state = await core.state_of(table)
    waiting = sorted(get_game(table.game).to_act(state)) if state is not None else []
    if mine is not None and mine.seat in waiting:
        return t(lang, "mytables.your_turn")
    names = seat_names(seats)
    others = ", ".join(esc(names[s]) for s in waiting if s < len(names))
    return t(lang, "mytables.turn", names=others) if others else t(lang, "mytables.playing")
