"""Telegram handlers of commands, service messages and errors: parse the update, call the
service, answer. No rules here. What every handler needs (the service, the chat, the
answer...) is ``bot.chat_context``; the buttons are ``bot.buttons`` and ``bot.players``."""

from __future__ import annotations

import html
import logging

from telegram import Update
from telegram.constants import ChatType
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError
from telegram.ext import (
    Application,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot import buttons, players, watching
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
    reply,
    service_of,
    set_language_here,
    storage_of,
    thread_of,
    user_of,
)
from bot.game_ui import GameUI
from bot.game_registry import all_uis, ui_for
from bot.help_text import help_text
from bot.game_commands import choosers, playable_games, score_games, score_presets, table_presets
from bot.telegram_errors import is_telegram_failure, short
from bot.i18n import LANGUAGES, pick_lang, t
from bot import screens, sheet_mode
from bot.rules_link import full_rules_line
from bot.service import UserError
from storage.repository import StorageUnavailable

log = logging.getLogger(__name__)


# ---------------------------------------------------------------------- commands
async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    lang = await chat_lang(update, context)
    if chat_of(update).type == ChatType.PRIVATE:
        await service_of(context).chat_admin.dm_opened(person_of(update))
        if context.args and context.args[0] == MYTABLES_START:  # the link under /mytables in a group
            await my_tables(update, context)
            return
        # someone already seated (they came by the lobby's link) needs no "/newgame opens a table"
        seated = await storage_of(context).tables_of_user(user_of(update).id)
        if seated:
            named = [
                screens.header(table) + (f" — {table.settings['title']}" if table.settings.get("title") else "")
                for table in seated
            ]
            tables = ", ".join(f"<b>{html.escape(name, quote=False)}</b>" for name in named)
            await reply(update, context, t(lang, "start.dm_seated", tables=tables))
        else:
            await reply(update, context, t(lang, "start.dm_ready"))
    else:
        await reply(update, context, help_text(lang))


async def new_table(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    lang = await chat_lang(update, context)
    if not is_group(update):
        await reply(update, context, t(lang, "err.group_only"))
        return
    command = (message_of(update).text or "").split()[0].lstrip("/").split("@")[0].lower()
    presets = table_presets()
    if command in presets:
        game, options = presets[command]
        await _open_or_say(update, context, game, lang, options)
        return
    chooser = choosers().get(command)
    if chooser is not None:  # /preferans [sochi|leningrad|rostov|balkan]
        choice = context.args[0].lower() if context.args else None
        if choice in chooser.choices:
            game, options = chooser.choices[choice]
            await _open_or_say(update, context, game, lang, options)
        else:
            await _choose_variant(update, context, lang, chooser)
        return
    games = playable_games()
    asked = command if command in games else (context.args[0].lower() if context.args else None)
    if asked is None or asked not in games:
        rows = [[(t(lang, f"game.{g}"), f"g:{g}") for g in games]]
        await reply(update, context, t(lang, "newgame.choose"), rows)
        return
    await _open_or_say(update, context, asked, lang)


async def _choose_variant(update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str, chooser: GameUI) -> None:
    """``/preferans``: the variant this group played last (Russian preferans in its system,
    or Balkan); a group that has not chosen yet gets the choices as buttons."""
    games = list(dict.fromkeys(game for game, _ in chooser.choices.values()))
    last = await storage_of(context).last_table_of(chat_of(update).id, games)
    if last is None:
        words = chooser.choice_words
        rows = [[(t(lang, f"{words}.choice.{c}"), f"pf:{c}") for c in chooser.choices]]
        await reply(update, context, t(lang, f"{words}.choose"), rows)
        return
    # the choice that opened it: its game and the options it set (a system), or none
    chosen = (
        options
        for game, options in chooser.choices.values()
        if game == last.game and all(last.options.get(k) == v for k, v in options.items())
    )
    await _open_or_say(update, context, last.game, lang, dict(next(chosen, {})))


async def score(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/score preferans``: a score sheet for people playing with real cards."""
    lang = await chat_lang(update, context)
    if not is_group(update):
        await reply(update, context, t(lang, "err.group_only"))
        return
    sheets = score_games()
    wanted = context.args[0].lower() if context.args else None
    presets = score_presets()
    if wanted in presets:
        game, options = presets[wanted]
        await _open_or_say(update, context, game, lang, options)
        return
    if wanted not in sheets:
        rows = [[(t(lang, f"game.{g}"), f"g:{sheets[g]}") for g in sheets]]
        await reply(update, context, t(lang, "score.choose" if rows[0] else "score.none"), rows if rows[0] else None)
        return
    await _open_or_say(update, context, sheets[wanted], lang)


async def _open_or_say(
    update: Update, context: ContextTypes.DEFAULT_TYPE, game: str, lang: str, options: dict | None = None
) -> None:
    """A command opening a table: a refusal (a table already here) is its answer."""
    try:
        await open_here(update, context, game, lang, options)
    except UserError as error:
        await reply(update, context, t(lang, error.key, **error.params))


async def language(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/language [ru|en]``: a group's language (its admins), or in the DM one's own."""
    lang = await chat_lang(update, context)
    if not await group_admin(update, context):
        await reply(update, context, t(lang, "settings.admins_only"))
        return
    choice = context.args[0].lower() if context.args else None
    if choice not in LANGUAGES:
        rows = [[("Русский", "lang:ru"), ("English", "lang:en")]]
        await reply(update, context, t(lang, "language.choose"), rows)
        return
    await set_language_here(update, context, choice)
    await reply(update, context, t(choice, "language.set"))


async def sheets(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/sheets [text|picture|both]``: how this group gets its score sheets (its admins)."""
    lang = await chat_lang(update, context)
    if not is_group(update):
        await reply(update, context, t(lang, "err.group_only"))
        return
    if not await group_admin(update, context):
        await reply(update, context, t(lang, "settings.admins_only"))
        return
    text, rows = await sheet_mode.command(storage_of(context), chat_of(update).id, context.args or [], lang)
    await reply(update, context, text, rows)


async def help_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await reply(update, context, help_text(await chat_lang(update, context)))


async def rules(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    lang = await chat_lang(update, context)
    games = playable_games()
    game = context.args[0].lower() if context.args else games[0]
    game = table_presets().get(game, (game, {}))[0]  # /rules sochi -> Russian preferans
    if game not in games:
        await reply(update, context, t(lang, "rules.unknown", games=", ".join(games)))
        return
    link = full_rules_line(game, lang, context.application.bot_data.get("rules_url"))
    await reply(update, context, ui_for(game).rules_text(lang) + "\n\n" + link)


async def cancel(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    lang = await chat_lang(update, context)
    if not is_group(update):
        await reply(update, context, t(lang, "err.group_only"))
        return
    try:
        key = await service_of(context).lobby.cancel(
            chat_of(update).id, thread_of(update), person_of(update), admin_check(update, context)
        )
    except UserError as error:
        key = error.key
    await reply(update, context, t(lang, key))


MYTABLES_START = "mytables"  # t.me/<bot>?start=mytables: the private chat opens on the list


async def my_tables(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/mytables`` in the DM: the tables the person sits at, in every group. In a group
    the list would show everyone's tables to everyone: a link to the private chat instead."""
    lang = await chat_lang(update, context)
    if is_group(update):
        username = context.bot.username
        rows = [[(t(lang, "mytables.btn.dm"), f"url:https://t.me/{username}?start={MYTABLES_START}")]]
        await reply(update, context, t(lang, "mytables.dm_only"), rows if username else None)
        return
    text = await watching.my_tables_text(service_of(context).core, user_of(update).id, lang)
    await reply(update, context, text, preview=False)


async def export(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/export``: the deals of this chat's table as files for other programs (bridge: PBN);
    with no such table open, those of the chat's last table that had some (a finished
    Chicago, a closed rubber)."""
    lang = await chat_lang(update, context)
    service, storage = service_of(context), storage_of(context)
    table = await storage.find_open_table(chat_of(update).id, thread_of(update)) if is_group(update) else None
    if is_group(update) and (table is None or ui_for(table.game).export_files is None):
        exporting = [ui.name for ui in all_uis() if ui.export_files is not None]
        table = await storage.last_table_of(chat_of(update).id, exporting)
    export_files = ui_for(table.game).export_files if table is not None else None
    if table is None or export_files is None:
        await reply(update, context, t(lang, "export.none"))
        return
    names = [s.name for s in sorted(await storage.get_seats(table.id), key=lambda s: s.seat)]
    event = table.settings.get("title") or "cardbot"
    states, dealt = await service.chat_admin.match_states(table)
    files = export_files(states, names, event, f"{table.game}-{table.id}", dealt)
    await service.chat_admin.send_files(
        table.chat_id, table.id, files, table.thread_id, caption=t(lang, "export.caption")
    )


# ---------------------------------------------------------------------- the gate
async def gate(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Runs before every handler and drops what the bot does not act on: edited messages
    (editing a message into "/durak" must not open a table), messages without a sender
    (a channel posting into its linked group), and presses without a message to act
    from (an inline message, or data made up by an unofficial client)."""
    if not isinstance(update, Update):
        raise ApplicationHandlerStop
    if update.edited_message or update.edited_channel_post or update.channel_post:
        raise ApplicationHandlerStop
    query = update.callback_query
    if query is not None and (query.message is None or update.effective_chat is None):
        await answer(query, t(pick_lang(query.from_user.language_code), "err.bad_button"))
        raise ApplicationHandlerStop
    if update.message is not None and update.effective_user is None:
        raise ApplicationHandlerStop


# ---------------------------------------------------------------------- service messages
async def bot_membership(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The bot was removed from a group: its tables there close (players hear it in DMs)."""
    change = update.my_chat_member
    if change and change.new_chat_member.status in ("left", "kicked") and change.chat.id < 0:
        await service_of(context).chat_admin.chat_lost(change.chat.id)


async def migrated(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    message = message_of(update)
    if message.migrate_to_chat_id:
        await service_of(context).chat_admin.migrate_chat(message.chat.id, message.migrate_to_chat_id)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    if isinstance(context.error, RetryAfter):  # Telegram's flood control: expected, not a bug
        log.warning("flood wait while answering an update: %s", context.error)
        return
    if isinstance(context.error, StorageUnavailable):  # logged once an outage (storage.health)
        await _not_saved(update, context)
        return
    # Telegram failed a reply (5xx, a page that is not JSON, timeout) or may not write there
    # (403, another 4xx but 400): not a bug. A 400 (BadRequest) is the bot's own mistake and
    # keeps its traceback.
    error = context.error
    if error is not None and (
        is_telegram_failure(error)
        or (isinstance(error, (NetworkError, Forbidden)) and not isinstance(error, BadRequest))
    ):
        chat = update.effective_chat.id if isinstance(update, Update) and update.effective_chat else None
        log.warning("could not reply in chat %s: %s", chat, short(error))
        return
    log.error("error while handling an update", exc_info=context.error)
    if isinstance(update, Update) and update.callback_query:
        await answer(update.callback_query, t("en", "err.internal"))


async def _not_saved(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The database was lost while an update was handled: nothing of it was written (each
    write is one transaction). The person hears so straight from Telegram, not through the
    outbox, which is in the database too."""
    if not isinstance(update, Update) or update.effective_user is None:
        return
    text = t(pick_lang(update.effective_user.language_code), "err.not_saved")
    try:
        if update.callback_query is not None:
            await update.callback_query.answer(text, show_alert=True)
        elif update.effective_message is not None and update.effective_message.text:
            await update.effective_message.reply_text(text, do_quote=is_group(update))
    except TelegramError as error:
        log.warning("could not say 'not saved' in chat %s: %s", chat_of(update).id, short(error))


def install(app: Application) -> None:
    app.add_handler(TypeHandler(object, gate), group=-2)
    app.add_handler(ChatMemberHandler(bot_membership, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(CommandHandler("start", start))
    commands = [ui.command for ui in all_uis() if ui.command] + list(table_presets()) + ["newgame"]
    app.add_handler(CommandHandler(commands, new_table))
    app.add_handler(CommandHandler("score", score))
    app.add_handler(CommandHandler("export", export))
    app.add_handler(CommandHandler("mytables", my_tables))
    app.add_handler(CommandHandler("language", language))
    app.add_handler(CommandHandler("sheets", sheets))
    app.add_handler(CommandHandler("help", help_command))
    app.add_handler(CommandHandler("rules", rules))
    app.add_handler(CommandHandler("cancel", cancel))
    buttons.install(app)  # the tables' and the choosers' buttons, one handler per family
    players.install(app)  # /top /stats /history /forget and their buttons, before the catch-all
    app.add_handler(CallbackQueryHandler(buttons.on_press("", buttons.unknown_press)))  # "Unknown button"
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, migrated))
    app.add_error_handler(on_error)
