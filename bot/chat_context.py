"""What every Telegram handler needs from an update and its context: the service and the
storage of this process, the chat, the person, the chat's language, the admin check, the
place a button was pressed, the answer to a command or a press, the choosers used once;
and the two actions a command and its chooser button both take (open a table here, set
this chat's language). The handler modules (``bot.handlers``, ``bot.buttons``,
``bot.players``) import this one and never each other."""

from __future__ import annotations

import collections
import html
import logging
import re
from typing import Awaitable, Callable

from telegram import Chat, Message, Update, User
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.admins import AdminCache
from bot.i18n import pick_lang, t
from bot.service import Person, PressPlace, TableService, UserError
from storage.repository import Repository

log = logging.getLogger(__name__)


def storage_of(context: ContextTypes.DEFAULT_TYPE) -> Repository:
    """This process's storage (``bot.app`` puts it in ``bot_data``): what a handler reads
    that is no table's move (a chat's language, /top, /history, /export)."""
    return context.application.bot_data["storage"]


def service_of(context: ContextTypes.DEFAULT_TYPE) -> TableService:
    return context.application.bot_data["service"]


# The handlers are registered for updates that carry a chat, a message and a user
# (commands, button presses): a missing one is a bug, not something a user can send.
def chat_of(update: Update) -> Chat:
    assert update.effective_chat is not None, "the handler's update has a chat"
    return update.effective_chat


def message_of(update: Update) -> Message:
    assert update.effective_message is not None, "the handler's update has a message"
    return update.effective_message


def user_of(update: Update) -> User:
    assert update.effective_user is not None, "the handler's update has a user"
    return update.effective_user


def person_of(update: Update) -> Person:
    user = user_of(update)
    return Person(user.id, user.full_name or str(user.id), user.username, user.language_code)


def thread_of(update: Update) -> int:
    message = update.effective_message
    if message is not None and message.is_topic_message and message.message_thread_id:
        return message.message_thread_id
    return 0


def is_group(update: Update) -> bool:
    return chat_of(update).type in (ChatType.GROUP, ChatType.SUPERGROUP)


async def chat_lang(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str:
    if is_group(update):
        stored = await storage_of(context).get_chat_lang(chat_of(update).id)
        if stored:
            return stored
    return pick_lang(update.effective_user.language_code if update.effective_user else None)


def admins_of(context: ContextTypes.DEFAULT_TYPE) -> AdminCache:
    admins = context.application.bot_data.get("admins")
    if admins is None:  # an Application not built by bot.app
        admins = context.application.bot_data["admins"] = AdminCache(context.bot)
    return admins


def admin_check(update: Update, context: ContextTypes.DEFAULT_TYPE):
    """Is the person behind ``update`` an administrator of the chat the service names
    (the table's own chat, wherever the button was pressed)? Answered from the chat's
    cached admin list (``bot.admins``)."""
    admins, user_id = admins_of(context), user_of(update).id

    async def check(chat_id: int) -> bool:
        return await admins.is_admin(chat_id, user_id)

    return check


def press_place(update: Update) -> PressPlace:
    """The chat and topic of the message a button sits under. A press without a message
    (an inline message, or one too old for Telegram to include) has no place to act from."""
    chat = update.effective_chat
    if update.callback_query is None or update.callback_query.message is None or chat is None:
        raise UserError("err.other_chat")
    return PressPlace(chat.id, thread_of(update), private=chat.type == ChatType.PRIVATE)


Rows = list[list[tuple[str, str]]]  # buttons: (label, callback data | "url:<link>")


async def reply(
    update: Update, context: ContextTypes.DEFAULT_TYPE, text: str, rows: Rows | None = None, *, preview: bool = True
) -> None:
    """Answer a command in its chat and topic (HTML). The sender sends it, in order with the
    chat's other messages and in a group's budget: a flood wait delays it, never loses it.
    In a group it quotes the command, as a crowd needs to see whose answer it is."""
    message = message_of(update)
    await service_of(context).chat_admin.send_reply(
        message.chat_id,
        text,
        rows,
        thread_id=thread_of(update),
        reply_to=message.message_id if is_group(update) else None,
        preview=preview,
    )


async def group_admin(update: Update, context: ContextTypes.DEFAULT_TYPE) -> bool:
    """May the person change this chat's settings? In a group only its admins may; in a
    private chat the settings are the person's own."""
    return not is_group(update) or await admin_check(update, context)(chat_of(update).id)


# ---------------------------------------------------------------------- choosers
# A chooser (which game, which language...) or a confirmation is used once: its message
# becomes the one-line outcome without buttons, and a press on it after that (before
# the edit reaches Telegram, or from a client still showing the buttons) hears the
# outcome as a toast; nothing is posted to the group again.
CHOOSER_MEMORY = 10_000  # used chooser messages remembered per process (oldest out first)


def _used_choosers(context: ContextTypes.DEFAULT_TYPE) -> collections.OrderedDict[tuple[int, int], str]:
    return context.application.bot_data.setdefault("used_choosers", collections.OrderedDict())


async def use_chooser(
    update: Update, context: ContextTypes.DEFAULT_TYPE, lang: str, choose: Callable[[], Awaitable[str]]
) -> str | None:
    """Act on a chooser press once: ``choose()`` acts (or raises ``UserError``, leaving the
    chooser as it was) and returns the outcome line, which replaces the chooser. Returns
    None when the chooser was used already: the press has then been answered with a toast."""
    query = update.callback_query
    assert query is not None, "a chooser is pressed"
    used = _used_choosers(context)
    key = (chat_of(update).id, message_of(update).message_id)
    if key in used:  # "" while the first press is being handled
        await answer(query, _plain(used[key]) or t(lang, "chooser.used"))
        return None
    used[key] = ""
    try:
        outcome = await choose()
    except BaseException:
        used.pop(key, None)
        raise
    used[key] = outcome
    used.move_to_end(key)
    while len(used) > CHOOSER_MEMORY:
        used.popitem(last=False)
    await service_of(context).chat_admin.edit_message(key[0], key[1], outcome)
    return outcome


def _plain(text: str) -> str:
    """A toast shows no HTML: an outcome line without its tags and entities."""
    return html.unescape(re.sub(r"<[^>]+>", "", text))


async def answer(query, text: str | None, alert: bool = False) -> None:
    """The toast under a press. Only a courtesy: when Telegram fails it (a 5xx, a timeout,
    a query too old), the press has been handled all the same, and what follows it (the
    computers' answers) must still happen; so the failure is one line in the log."""
    try:
        await query.answer(text, show_alert=alert)
    except TelegramError as error:
        log.warning("could not answer a button press of user %s: %s", query.from_user.id, error)


# ---------------------------------------------------------------------- what a command and its chooser both do
async def open_here(
    update: Update, context: ContextTypes.DEFAULT_TYPE, game: str, lang: str, options: dict | None = None
) -> None:
    """Open a table here (its message is the answer); a refusal raises ``UserError``."""
    await service_of(context).lobby.open_table(
        chat_of(update).id,
        thread_of(update),
        game,
        person_of(update),
        lang,
        chat_of(update).title or "",
        options,
        answers=update.message.message_id if update.message else None,
    )


async def set_language_here(update: Update, context: ContextTypes.DEFAULT_TYPE, choice: str) -> None:
    service = service_of(context)
    if is_group(update):
        await service.chat_admin.set_language(chat_of(update).id, thread_of(update), choice)
    else:
        person = person_of(update)
        person.lang = choice
        await service.core.remember_user(person)
