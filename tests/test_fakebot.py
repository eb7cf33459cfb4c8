"""Self-tests of the fake Telegram harness, driving a tiny real PTB Application."""

import pytest
from telegram import BotCommand, InlineKeyboardButton, InlineKeyboardMarkup, MenuButtonCommands
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter
from telegram.ext import CallbackQueryHandler, CommandHandler, MessageHandler, filters

from tests.fakebot import build_app

GROUP, FORUM, OLD_GROUP, NEW_GROUP = -100, -1002, -300, -1003

KEYBOARD = InlineKeyboardMarkup(
    [
        [InlineKeyboardButton("Join", callback_data="join"), InlineKeyboardButton("Same", callback_data="same")],
        [
            InlineKeyboardButton("Alert me", callback_data="alert"),
            InlineKeyboardButton("Slow join", callback_data="slow"),
        ],
    ]
)


async def start(update, context):
    name = update.effective_user.first_name
    await update.message.reply_text(
        f"<b>Lobby</b> of {name} &amp; co", parse_mode=ParseMode.HTML, reply_markup=KEYBOARD
    )
    context.bot_data.setdefault("starts", []).append(context.args)


async def on_button(update, context):
    query = update.callback_query
    if query.data == "join":
        await query.edit_message_text(f"Joined: {query.from_user.first_name}", reply_markup=KEYBOARD)
        await query.answer("Welcome!")
    elif query.data == "same":
        try:
            await query.edit_message_text(query.message.text, reply_markup=KEYBOARD)
        except BadRequest as error:
            context.bot_data["error"] = str(error)
        await query.answer()
    elif query.data == "alert":
        await query.answer("Only for you", show_alert=True)
    else:
        await query.answer(f"unknown {query.data}")


async def slow_join(update, context):
    await update.callback_query.answer("slow ok")


async def dm(update, context):
    try:
        await context.bot.send_message(update.effective_user.id, "your secret hand")
        context.bot_data["dm"] = "sent"
    except Forbidden as error:
        context.bot_data["dm"] = str(error)


async def boom(update, context):
    raise ValueError("handler exploded")


async def on_migrate(update, context):
    message = update.message
    context.bot_data.setdefault("migrations", []).append(
        (message.chat.id, message.migrate_to_chat_id, message.migrate_from_chat_id)
    )


async def on_text(update, context):
    context.bot_data.setdefault("texts", []).append(update.message.text)


@pytest.fixture
async def env(fake_telegram):
    fake = fake_telegram
    app = build_app(fake).build()
    app.add_handler(CommandHandler("start", start))
    app.add_handler(CommandHandler("dm", dm))
    app.add_handler(CommandHandler("boom", boom))
    app.add_handler(CallbackQueryHandler(slow_join, pattern="^slow$", block=False))
    app.add_handler(CallbackQueryHandler(on_button))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, on_migrate))
    app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, on_text))
    alice = fake.user(1, "Alice")
    bob = fake.user(2, "Bob", language_code="en", username="bob")
    fake.group(GROUP, "Table", admins=[1])
    async with app:
        await app.start()
        yield fake, app, alice, bob
        await app.stop()


async def test_command_in_group_press_edit_and_toast(env):
    fake, app, alice, bob = env
    assert fake.calls()[0].method == "getMe"
    await fake.send(app, alice, GROUP, f"/start@{fake.bot_username}")
    lobby = fake.last_message(GROUP)
    assert lobby.text == "Lobby of Alice & co"  # what users see: HTML parsed away
    assert lobby.raw_text.startswith("<b>Lobby</b>")
    assert fake.buttons(lobby)[0] == ("Join", "join")
    assert len(fake.messages(GROUP)) == 1 and len(fake.messages(GROUP, include_users=True)) == 2

    answer = await fake.press(app, bob, lobby, "Join")
    assert (answer.text, answer.show_alert, answer.user_id) == ("Welcome!", False, bob.id)
    assert lobby.text == "Joined: Bob" and lobby.edited and lobby.keyboard
    assert fake.sent_texts_to(GROUP) == ["Lobby of Alice & co", "Joined: Bob"]

    alert = await fake.press(app, alice, (GROUP, lobby.message_id), lambda t: "Alert" in t)
    assert alert.show_alert and alert.text == "Only for you"
    assert [a.text for a in fake.toasts_for(bob.id)] == ["Welcome!"]
    forged = await fake.press_raw(app, bob, GROUP, lobby.message_id, "x" * 64)
    assert forged.text == "unknown " + "x" * 64


async def test_press_unknown_button_lists_available(env):
    fake, app, alice, _ = env
    await fake.send(app, alice, GROUP, "/start")
    with pytest.raises(AssertionError, match=r"(?s)no button 'Nope'.*'Join' -> 'join'"):
        await fake.press(app, alice, fake.last_message(GROUP), "Nope")
    with pytest.raises(AssertionError, match="ambiguous"):
        await fake.press(app, alice, fake.last_message(GROUP), "oin")  # 'Join' and 'Slow join'
    answer = await fake.press(app, alice, fake.last_message(GROUP), callback_data="slow")
    assert answer.text == "slow ok"  # block=False handler was awaited by the harness


async def test_message_not_modified_and_missing_messages(env):
    fake, app, alice, _ = env
    await fake.send(app, alice, GROUP, "/start")
    lobby = fake.last_message(GROUP)
    await fake.press(app, alice, lobby, "Same")  # HTML-bold text -> plain text: a real change
    assert "error" not in app.bot_data and lobby.text == "Lobby of Alice & co"
    await fake.press(app, alice, lobby, "Same")
    assert app.bot_data["error"].startswith("Message is not modified")  # PTB capitalises
    with pytest.raises(BadRequest, match="not modified"):
        await app.bot.edit_message_reply_markup(GROUP, lobby.message_id, reply_markup=KEYBOARD)
    # Like Telegram: editing the text without reply_markup drops the keyboard.
    await app.bot.edit_message_text("bare", GROUP, lobby.message_id)
    assert lobby.keyboard == [] and fake.buttons(lobby) == []
    await app.bot.delete_message(GROUP, lobby.message_id)
    assert fake.messages(GROUP) == [] and "bare" in fake.sent_texts_to(GROUP)
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await app.bot.edit_message_text("again", GROUP, lobby.message_id)
    with pytest.raises(BadRequest, match="Message to delete not found"):
        await app.bot.delete_message(GROUP, lobby.message_id)
    failed = fake.calls("editMessageText")[-1]
    assert not failed.ok and "not found" in failed.error


async def test_forbidden_until_user_starts_the_bot(env):
    fake, app, alice, bob = env
    await fake.send(app, bob, GROUP, "/dm")
    assert app.bot_data["dm"] == "Forbidden: bot can't initiate conversation with a user"
    with pytest.raises(Forbidden, match="can't initiate conversation"):
        await app.bot.send_message(bob.id, "hi")
    await fake.send(app, bob, bob, "/start table_100")
    assert app.bot_data["starts"][-1] == ["table_100"]
    await fake.send(app, bob, GROUP, "/dm")
    assert app.bot_data["dm"] == "sent"
    assert fake.sent_texts_to(bob.id)[-1] == "your secret hand"
    fake.block(bob)
    with pytest.raises(Forbidden, match="blocked by the user"):
        await app.bot.send_message(bob.id, "hi")
    fake.start_dm(alice)
    await app.bot.send_message(alice.id, "ok")


async def test_forum_threads_are_preserved(env):
    fake, app, alice, _ = env
    fake.group(FORUM, "Forum", admins=[1], forum=True)
    await fake.send(app, alice, FORUM, "/start", thread_id=7)
    reply = fake.last_message(FORUM)
    assert reply.thread_id == 7 and reply.to_api()["is_topic_message"] is True
    assert fake.calls("sendMessage", chat_id=FORUM)[-1].params["message_thread_id"] == 7
    assert fake.messages(FORUM, thread_id=7) == [reply] and fake.messages(FORUM, thread_id=8) == []
    await fake.press(app, alice, reply, "Join")
    assert fake.last_message(FORUM, thread_id=7).text == "Joined: Alice"
    with pytest.raises(BadRequest, match="thread not found"):
        await app.bot.send_message(FORUM, "x", message_thread_id=99)


async def test_migration(env):
    fake, app, alice, _ = env
    fake.group(OLD_GROUP, "Old", admins=[1])
    new = await fake.migrate_group(app, OLD_GROUP, NEW_GROUP)
    assert new.type == "supergroup"
    assert app.bot_data["migrations"] == [(OLD_GROUP, NEW_GROUP, None), (NEW_GROUP, None, OLD_GROUP)]
    with pytest.raises(ChatMigrated) as info:
        await app.bot.send_message(OLD_GROUP, "hello?")
    assert info.value.new_chat_id == NEW_GROUP
    await fake.send(app, alice, NEW_GROUP, "/start")
    assert fake.last_message(NEW_GROUP).text.startswith("Lobby")


async def test_calls_log_members_and_commands(env):
    fake, app, alice, bob = env
    await fake.send(app, alice, GROUP, "/start")
    await fake.press(app, bob, fake.last_message(GROUP), "Join")
    methods = [c.method for c in fake.calls()]
    assert methods == ["getMe", "sendMessage", "editMessageText", "answerCallbackQuery"]
    send = fake.calls("sendMessage")[0]
    assert send.chat_id == GROUP and send.params["parse_mode"] == "HTML"
    assert send.params["reply_markup"]["inline_keyboard"][0][0]["callback_data"] == "join"
    times = [c.t for c in fake.group_sends_and_edits(GROUP)]
    assert len(times) == 2 and times == sorted(times)
    qid = fake.calls("answerCallbackQuery")[0].params["callback_query_id"]
    with pytest.raises(BadRequest, match="(?i)query is too old"):
        await app.bot.answer_callback_query(qid, "twice")

    assert (await app.bot.get_chat_member(GROUP, 1)).status == "creator"
    assert (await app.bot.get_chat_member(GROUP, 2)).status == "member"
    assert [m.user.id for m in await app.bot.get_chat_administrators(GROUP)] == [1]
    await app.bot.set_my_commands([BotCommand("start", "Start")], language_code="en")
    assert [c.command for c in await app.bot.get_my_commands(language_code="en")] == ["start"]
    assert await app.bot.get_my_commands() == ()
    await app.bot.set_chat_menu_button(menu_button=MenuButtonCommands())
    assert await app.bot.send_chat_action(GROUP, "typing") is True  # unknown method: ok
    assert fake.calls("sendChatAction")


async def test_privacy_errors_and_validation(env):
    fake, app, alice, _ = env
    await fake.send(app, alice, GROUP, "just chatting")  # privacy mode: not delivered
    assert "texts" not in app.bot_data and fake.undelivered
    await fake.send(app, alice, GROUP, f"hey @{fake.bot_username}")
    await fake.send(app, alice, alice, "in DM")
    assert app.bot_data["texts"] == [f"hey @{fake.bot_username}", "in DM"]
    with pytest.raises(ValueError, match="handler exploded"):
        await fake.send(app, alice, GROUP, "/boom")
    with pytest.raises(BadRequest, match="parse entities"):
        await app.bot.send_message(GROUP, "a <x> b", parse_mode=ParseMode.HTML)
    with pytest.raises(BadRequest, match="parse entities"):
        await app.bot.send_message(GROUP, "<b>open", parse_mode=ParseMode.HTML)
    with pytest.raises(BadRequest, match="too long"):
        await app.bot.send_message(GROUP, "x" * 4097)
    with pytest.raises(BadRequest, match="(?i)button_data_invalid"):
        big = InlineKeyboardMarkup([[InlineKeyboardButton("b", callback_data="x" * 65)]])
        await app.bot.send_message(GROUP, "x", reply_markup=big)
    fake.fail_next("sendMessage", retry_after=3, chat_id=GROUP)
    with pytest.raises(RetryAfter):
        await app.bot.send_message(GROUP, "flood")
    await app.bot.send_message(GROUP, "after flood")


async def test_send_document_keeps_the_file(fake_telegram):
    from tests.fakebot import build_app

    fake = fake_telegram
    fake.group(-42, "Files", admins=[1])
    app = build_app(fake).build()
    async with app:
        message = await app.bot.send_document(-42, document=b'[Event "x"]\n', filename="rubber.pbn", caption="PBN")
    assert message.document.file_name == "rubber.pbn"
    stored = fake.last_message(-42)
    assert stored.document["file_name"] == "rubber.pbn" and stored.document["content"] == b'[Event "x"]\n'
    assert stored.document["file_id"] == message.document.file_id
    assert stored.text == "PBN"
