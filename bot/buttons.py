"""Button presses, routed by python-telegram-bot: one ``CallbackQueryHandler`` per family of
callback data (``kind:rest``), and what every family does alike in one wrapper."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Awaitable, Callable, Coroutine

from telegram import Update
from telegram.ext import Application, CallbackQueryHandler, ContextTypes

from bot import sheet_mode, watching
from bot.deal_view import DealViews
from bot.game_registry import all_uis
from bot.chat_context import (
    admin_check,
    answer,
    chat_lang,
    chat_of,
    group_admin,
    is_group,
    message_of,
    open_here,
    person_of,
    press_place,
    service_of,
    set_language_here,
    storage_of,
    use_chooser,
)
from bot.game_commands import variant_choices
from bot.i18n import LANGUAGES, t
from bot.service import UserError, button_number
from bot.table_core import Loaded
from storage.repository import VersionConflict

# refusals shown as an alert the presser must close: they ask them to do something first
ALERTS = ("err.dm_needed", "watch.err.start_bot")

# a move key (bot.screens.move_key) or a legacy index: ASCII letters, digits, - and _
MOVE_KEY_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


@dataclass(frozen=True)
class Pressed:
    """What a press came to: the toast's catalog key (None: the press is answered already),
    the language to say it in when not the chat's, and after a move the table and its seats
    as the move wrote them: its computers answer next, without reading them again."""

    toast: str | None
    lang: str | None = None
    moved: Loaded | None = None


Family = Callable[[Update, ContextTypes.DEFAULT_TYPE, str, str], Awaitable[Pressed]]


def on_press(kind: str, family: Family) -> Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]:
    """One button family (callback data ``kind:rest``) with what every family does alike: the
    chat's language, the toast, a refusal as a toast (or an alert), a table another process
    moved on first as "outdated", and the computers only after the presser has heard back."""

    async def handle(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None, "registered for button presses"
        lang = await chat_lang(update, context)
        pressed_kind, _, rest = (query.data or "").partition(":")
        try:
            if pressed_kind != kind:  # python-telegram-bot lets a press without data past the pattern
                raise UserError("err.bad_button")
            pressed = await family(update, context, lang, rest)
            if pressed.toast is not None:
                text = t(pressed.lang or lang, pressed.toast) if pressed.toast != "ok.move" else None
                await answer(query, text)
        except UserError as error:
            await answer(query, t(lang, error.key, **error.params), alert=error.key in ALERTS)
            return
        except VersionConflict:  # another process moved the table on first
            await answer(query, t(lang, "err.stale"))
            return
        if pressed.moved is not None:
            table, _ = pressed.moved
            service_of(context).computers.start(table.id, pressed.moved)

    return handle


async def _chosen(
    update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str, choose: Callable[[], Awaitable[str]], toast: str
) -> Pressed:
    if await use_chooser(update, context, lang, choose) is None:
        return Pressed(None)  # used already: answered
    return Pressed(toast)


async def game_chosen(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str, rest: str) -> Pressed:
    """``g:<game>``: the /newgame chooser opens that game's table."""
    if rest not in [ui.name for ui in all_uis()] or not is_group(update):
        raise UserError("err.bad_button")

    async def open_game() -> str:
        await open_here(update, context, rest, lang)
        return t(lang, "chooser.opened", game=t(lang, f"game.{rest}"))

    return await _chosen(update, context, lang, open_game, "ok.opened")


async def variant_chosen(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str, rest: str) -> Pressed:
    """``pf:<choice>``: a game's variant chooser (``/preferans``) opens the variant chosen."""
    if rest not in variant_choices() or not is_group(update):
        raise UserError("err.bad_button")

    async def open_variant() -> str:
        game, options, label = variant_choices()[rest]
        await open_here(update, context, game, lang, options)
        return t(lang, "chooser.opened", game=t(lang, label))

    return await _chosen(update, context, lang, open_variant, "ok.opened")


async def language_chosen(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str, rest: str) -> Pressed:
    """``lang:<code>``: the chat's language (admins only in a group), said in the new one."""
    if rest not in LANGUAGES:
        raise UserError("err.bad_button")
    if not await group_admin(update, context):
        raise UserError("settings.admins_only")  # before the press counts as the chooser's use

    async def set_language() -> str:
        await set_language_here(update, context, rest)
        return t(rest, "language.set")

    return replace(await _chosen(update, context, lang, set_language, "language.set"), lang=rest)


async def sheets_chosen(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str, rest: str) -> Pressed:
    """``sh:<mode>``: how the group's players get their sheets (admins only)."""
    if rest not in sheet_mode.SHEET_MODES or not is_group(update):
        raise UserError("err.bad_button")
    if not await group_admin(update, context):
        raise UserError("settings.admins_only")  # before the press counts as the chooser's use

    async def set_sheets() -> str:
        await storage_of(context).set_chat_sheets(chat_of(update).id, rest)
        return t(lang, "sheets.set", mode=t(lang, f"sheets.mode.{rest}"))

    return await _chosen(update, context, lang, set_sheets, "sheets.saved")


async def watch_press(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str, rest: str) -> Pressed:
    """``w:<table>:<game no>:on|off``: watch a game, or stop watching (bot.watching)."""
    table_id, game_no, command = _parse_table_data(rest)
    place = press_place(update)
    if command == "on":
        return Pressed(
            await watching.start_watching(service_of(context).core, table_id, game_no, person_of(update).id, place)
        )
    if command == "off":
        return Pressed(await watching.stop_watching(service_of(context).core, table_id, person_of(update).id, place))
    raise UserError("err.bad_button")


# every table button (``kind:<table>:<version>:<command>``) is checked against its table's chat
async def lobby_press(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str, rest: str) -> Pressed:
    """``l:``: a button under a table that has not started."""
    table_id, version, command = _parse_table_data(rest)
    place = press_place(update)
    service = service_of(context)
    return Pressed(
        await service.lobby.press(table_id, version, person_of(update), command, admin_check(update, context), place)
    )


async def move_press(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str, rest: str) -> Pressed:
    """``a:``: a move by its key; the computers answer after the presser's toast."""
    table_id, version, command = _parse_table_data(rest)
    place = press_place(update)
    if not command or len(command) > 16 or not set(command) <= MOVE_KEY_CHARS:
        raise UserError("err.bad_button")
    message = message_of(update)
    toast, moved = await service_of(context).play.move(
        table_id, version, person_of(update).id, command, message.message_id, place
    )
    return Pressed(toast, moved=moved)


async def keyboard_press(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str, rest: str) -> Pressed:
    """``u:``: the player switches their keyboard."""
    table_id, version, command = _parse_table_data(rest)
    place = press_place(update)
    return Pressed(
        await service_of(context).play.switch_keyboard(table_id, version, person_of(update).id, command, place)
    )


async def rematch_press(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str, rest: str) -> Pressed:
    """``r:``: Rematch or Close under a finished game."""
    table_id, version, command = _parse_table_data(rest)
    place = press_place(update)
    service = service_of(context)
    return Pressed(
        await service.lobby.after_game_press(
            table_id, version, person_of(update), command, admin_check(update, context), place
        )
    )


async def deal_press(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str, rest: str) -> Pressed:
    """``d:<table>:<seq>``: "🔍 The deal" under a deal's sheet: the deal in the presser's DM."""
    table, _, seq = rest.partition(":")
    views = context.application.bot_data.get("deal_views")
    if views is None:
        views = context.application.bot_data["deal_views"] = DealViews(service_of(context).core)
    key = await views.press(button_number(table), button_number(seq), person_of(update).id, press_place(update))
    return Pressed(key)


async def unknown_press(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str, rest: str) -> Pressed:
    raise UserError("err.bad_button")


# the button families by the kind their callback data starts with ("kind:...")
BUTTON_FAMILIES: dict[str, Family] = {
    "g": game_chosen,
    "pf": variant_chosen,
    "lang": language_chosen,
    "sh": sheets_chosen,
    "w": watch_press,
    "l": lobby_press,
    "a": move_press,
    "u": keyboard_press,
    "r": rematch_press,
    "d": deal_press,
}


def _parse_table_data(rest: str) -> tuple[int, int, str]:
    table, version, command = (rest.split(":", 2) + ["", ""])[:3]
    return button_number(table), button_number(version), command


def install(app: Application) -> None:
    """Before the catch-all for unknown presses (``bot.handlers.install``, which imports this module)."""
    for kind, family in BUTTON_FAMILIES.items():
        app.add_handler(CallbackQueryHandler(on_press(kind, family), pattern=rf"^{kind}:"))
