"""The group's ratings and history: ``/top [game]``, ``/stats`` (``/stats off``,
``/stats on``), ``/history`` with a button per game that sends its record, and
``/forget`` (group admins, after a confirmation button). The ratings themselves are
written when a game ends (``bot.ratings``, ``engine.ratings``)."""

from __future__ import annotations

import html
import json
import re
import time
from typing import Any

from telegram import Update
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

from engine.base import get_game
from engine.ratings import Skill, rated_games
from engine.records import make_record
from storage.models import FinishedGame, RatingRow
from bot.game_registry import ui_for
from bot.chat_context import (
    admin_check,
    answer,
    chat_lang,
    is_group,
    press_place,
    reply,
    service_of,
    storage_of,
    use_chooser,
)
from bot.i18n import t
from bot.render.common import display_name, seat_name
from bot.service import UserError, button_number

TOP_LIMIT = 10  # rows of a group's table for one game ...
TOP_LIMIT_ALL = 5  # ... and for each game when /top names none (one message holds them all)
STATS_LIMIT = 30  # /stats rows, the most recently played first
RESEND_AFTER = 60.0  # seconds: one game's files go to a chat once in this time, however often pressed
HISTORY_LIMIT = 10  # games /history lists
_TAG = re.compile(r"<[^>]+>")


def _chat_id(update: Update) -> int:
    chat = update.effective_chat
    assert chat is not None  # a command always comes from a chat
    return chat.id


def _date(stamp: float) -> str:
    return time.strftime("%d.%m.%Y", time.gmtime(stamp))


def _rated_name(row: RatingRow, lang: str) -> str:
    """A person's name, or a computer level ("🤖 Computer (easy)"), escaped for HTML."""
    if row.player.startswith("cpu:"):
        return html.escape(t(lang, f"rating.cpu.{row.player[4:]}"))
    return html.escape(display_name(row.name))


def _seat_name(seat: dict[str, Any]) -> str:
    """A seat of a finished game as the table showed it ("Аня", "🤖 Маша"), escaped for HTML."""
    return html.escape(display_name(seat["name"]))


def _game_title(game: str, lang: str, options: dict | None = None) -> str:
    """The game's name; with a finished game's options, as its table showed it ("Chicago")."""
    return ui_for(game).title(options or {}, lang)


# ---------------------------------------------------------------------- /top
def top_text(game: str, rows: list[RatingRow], lang: str) -> str:
    lines = [t(lang, "top.title", game=_game_title(game, lang))]
    for i, row in enumerate(rows, 1):
        lines.append(
            t(
                lang,
                "top.row",
                n=i,
                name=_rated_name(row, lang),
                rating=Skill(row.mu, row.sigma).display,
                games=row.games,
                wins=row.wins,
                date=_date(row.last_played),
            )
        )
    return "\n".join(lines)


async def top(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    lang = await chat_lang(update, context)
    if not is_group(update):
        await reply(update, context, t(lang, "err.group_only"))
        return
    repo = storage_of(context)
    chat_id = _chat_id(update)
    wanted = context.args[0].lower() if context.args else None
    rated = rated_games()
    if wanted is not None and wanted not in rated:
        await reply(update, context, t(lang, "top.unknown", games=", ".join(rated)))
        return
    games = [wanted] if wanted else await repo.rated_games(chat_id)
    limit = TOP_LIMIT if wanted else TOP_LIMIT_ALL
    tables = [(g, await repo.top_ratings(chat_id, g, limit)) for g in games]
    tables = [(g, rows) for g, rows in tables if rows]
    if not tables:
        await reply(update, context, t(lang, "top.empty"))
        return
    await reply(
        update, context, "\n\n".join(top_text(g, rows, lang) for g, rows in tables) + "\n\n" + t(lang, "top.how")
    )


# ---------------------------------------------------------------------- /stats
async def stats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    lang = await chat_lang(update, context)
    repo = storage_of(context)
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None  # the gate drops messages without a sender
    user_id = user.id
    choice = context.args[0].lower() if context.args else None
    if choice in ("off", "on"):
        await repo.set_rating_opt_out(user_id, choice == "off")
        await reply(update, context, t(lang, f"stats.{choice}"))
        return
    if choice is not None:
        await reply(update, context, t(lang, "stats.usage"))
        return
    if chat.type != ChatType.PRIVATE:
        await reply(update, context, t(lang, "stats.dm_only"))
        return
    if await repo.rating_opted_out(user_id):
        await reply(update, context, t(lang, "stats.opted_out"))
        return
    rows = await repo.ratings_of_user(user_id)
    if not rows:
        await reply(update, context, t(lang, "stats.empty"))
        return
    titles: dict[int, str] = {}
    lines = [t(lang, "stats.title")]
    for row in rows[:STATS_LIMIT]:
        if row.chat_id not in titles:
            titles[row.chat_id] = await _chat_title(context, row.chat_id)
        lines.append(
            t(
                lang,
                "stats.row",
                group=html.escape(titles[row.chat_id]),
                game=_game_title(row.game, lang),
                rating=Skill(row.mu, row.sigma).display,
                games=row.games,
                wins=row.wins,
                date=_date(row.last_played),
            )
        )
    await reply(update, context, "\n".join(lines) + "\n\n" + t(lang, "stats.footer"))


async def _chat_title(context: ContextTypes.DEFAULT_TYPE, chat_id: int) -> str:
    try:
        chat = await context.bot.get_chat(chat_id)
        return display_name(chat.title or str(chat_id))
    except TelegramError:  # the bot has left that group: its id is all we know
        return str(chat_id)


# ---------------------------------------------------------------------- /history
def result_line(fg: FinishedGame, lang: str) -> str:
    """The outcome of a finished game in one line (HTML): the game's own line, and who
    ran out of time when a seat forfeited."""
    names = [_seat_name(p) for p in fg.players]
    text = ui_for(fg.game).result_line(fg.result, names, lang)
    forfeit = fg.result.get("forfeit")
    if isinstance(forfeit, int) and not isinstance(forfeit, bool):
        text += " " + t(lang, "history.forfeit", name=seat_name(names, forfeit))
    return text


def history_text(games: list[FinishedGame], lang: str) -> str:
    lines = [t(lang, "history.title")]
    for i, fg in enumerate(games, 1):
        players = ", ".join(_seat_name(p) for p in fg.players)
        lines.append(
            t(
                lang,
                "history.row",
                n=i,
                game=_game_title(fg.game, lang, fg.options),
                players=players,
                result=result_line(fg, lang),
                date=_date(fg.finished_at),
            )
        )
    return "\n".join(lines) + "\n\n" + t(lang, "history.buttons")


async def history(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    lang = await chat_lang(update, context)
    if not is_group(update):
        await reply(update, context, t(lang, "err.group_only"))
        return
    games = await storage_of(context).finished_games(_chat_id(update), HISTORY_LIMIT)
    if not games:
        await reply(update, context, t(lang, "history.empty"))
        return
    buttons = [(f"📄 {i}", f"h:{fg.id}") for i, fg in enumerate(games, 1)]
    rows = [buttons[i : i + 5] for i in range(0, len(buttons), 5)]
    await reply(update, context, history_text(games, lang), rows)


async def _game_files(context: ContextTypes.DEFAULT_TYPE, fg: FinishedGame, lang: str) -> list[tuple[str, bytes]]:
    """The game's record (JSON, for ``cardbot replay``), its deals as text, and the game's
    export files (bridge: its boards as PBN): all rebuilt from the table's action log."""
    repo = storage_of(context)
    actions = [a for a in await repo.load_actions(fg.table_id) if a.game_no == fg.game_no]
    log = [(a.seat, a.action) for a in actions]
    dealt = [a.created_at for a in actions if a.seat is None and a.action.startswith("deal ")]
    record = make_record(fg.game, len(fg.players), fg.options, log)
    stem = f"{fg.game}-{fg.table_id}-{fg.game_no}"
    files = [(f"{stem}.json", json.dumps(record, ensure_ascii=False, indent=1).encode("utf-8"))]
    game, ui = get_game(fg.game), ui_for(fg.game)
    names = [display_name(p["name"]) for p in fg.players]
    earlier = (await repo.game_results(fg.table_id))[: fg.game_no - 1]
    state = game.initial_state(game.Options(**fg.options), len(fg.players))
    texts: list[str] = []
    for seat, action in log:
        state, events = game.apply(state, seat, action)
        done = earlier + [fg.result] if game.is_over(state) else earlier
        texts += ui.posts(events, game.view(state, None), names, lang, done)
    header = f"{_game_title(fg.game, lang, fg.options)} · {', '.join(names)} · {_date(fg.finished_at)}"
    summary = "\n\n".join([header, *(html.unescape(_TAG.sub("", text)) for text in texts)])
    files.append((f"{stem}.txt", summary.encode("utf-8")))
    if ui.export_files is not None:  # bridge: its boards as PBN
        files += ui.export_files([state], names, "cardbot", stem, [dealt])
    return files


# ---------------------------------------------------------------------- /forget
async def forget(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    lang = await chat_lang(update, context)
    if not is_group(update):
        await reply(update, context, t(lang, "err.group_only"))
        return
    chat_id = _chat_id(update)
    if not await admin_check(update, context)(chat_id):
        await reply(update, context, t(lang, "forget.admins_only"))
        return
    rows = [[(t(lang, "forget.confirm_button"), f"fg:{chat_id}")]]
    await reply(update, context, t(lang, "forget.confirm"), rows)


# ---------------------------------------------------------------------- buttons
async def press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None  # this handler is for button presses only
    lang = await chat_lang(update, context)
    kind, _, rest = (query.data or "").partition(":")
    try:
        if kind not in ("h", "fg"):  # python-telegram-bot lets a press without data past the pattern
            raise UserError("err.bad_button")
        place = press_place(update)
        if kind == "h":
            game_id = button_number(rest)
            fg = await storage_of(context).finished_game(game_id)
            if fg is None:
                raise UserError("history.gone")
            if place.private or place.chat_id != fg.chat_id:
                raise UserError("err.other_chat")
            # every press would cost the group's message budget: a burst sends the files once
            sent: dict[int, float] = context.application.bot_data.setdefault("history_sent", {})
            now = time.monotonic()
            if game_id in sent and now - sent[game_id] < RESEND_AFTER:
                raise UserError("history.just_sent")
            sent[game_id] = now
            if len(sent) > 1000:
                sent.clear()
            files = await _game_files(context, fg, lang)
            await service_of(context).chat_admin.send_files(place.chat_id, fg.table_id, files, place.thread_id)
            await answer(query, t(lang, "history.sending"))
            return
        # fg:<chat id>, the confirmation of /forget: used once, it becomes the outcome
        chat_id = -button_number(rest[1:]) if rest.startswith("-") else button_number(rest)
        if place.private or place.chat_id != chat_id:
            raise UserError("err.other_chat")

        if not await admin_check(update, context)(chat_id):
            raise UserError("forget.admins_only")

        async def erase() -> str:
            erased = await storage_of(context).forget_chat(chat_id)
            return t(lang, "forget.done", n=erased)

        if await use_chooser(update, context, lang, erase) is not None:
            await answer(query, t(lang, "forget.done_toast"))
    except UserError as error:
        await answer(query, t(lang, error.key, **error.params))


def install(app: Application) -> None:
    """Before the table buttons' catch-all handler: these buttons are ``h:`` and ``fg:``."""
    app.add_handler(CommandHandler("top", top))
    app.add_handler(CommandHandler("stats", stats))
    app.add_handler(CommandHandler("history", history))
    app.add_handler(CommandHandler("forget", forget))
    app.add_handler(CallbackQueryHandler(press, pattern=r"^(h|fg):"))
