"""The README's way of running the bot, for real: ``cardbot run`` as its own process,
long-polling a Bot API served over HTTP on 127.0.0.1 (TELEGRAM_API_BASE_URL). This checks
what the in-process tests cannot: the console script, configuration from the
environment, PTB's polling and post_init, and the background sender and timer loops."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fakebot import FakeTelegram
from tests.http_fake import HttpBotApi

GROUP = -1001
ROOT = Path(__file__).resolve().parent.parent


def start_bot(api: HttpBotApi, db: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TELEGRAM_")}
    # the project's own code, also when it is not installed; cwd is a scratch folder, so
    # no developer's .env is read
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.update(
        TELEGRAM_BOT_TOKEN=f"{api.fake.bot_id}:TEST",
        CARDBOT_DB=str(db),
        TELEGRAM_API_BASE_URL=api.base_url,
        CARDBOT_LOG_LEVEL="WARNING",
    )
    return subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "run"],
        env=env,
        cwd=db.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def stop_bot(process: subprocess.Popen) -> str:
    process.send_signal(signal.SIGINT)
    try:
        output, _ = process.communicate(timeout=120)  # generous: a loaded machine exits slowly
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
    return output


def hand_message(fake: FakeTelegram, user_id: int):
    found = [m for m in fake.messages(user_id) if "Ваши карты" in m.text]
    return found[-1] if found else None


@pytest.fixture
def api():
    fake = FakeTelegram()
    fake.group(GROUP, "Кухня", admins=[1], supergroup=True)
    server = HttpBotApi(fake).start()
    yield server
    server.stop()
    fake.close()


async def test_cardbot_run_plays_over_http_and_survives_a_restart(api, tmp_path):
    fake, app = api.fake, api.bot_stub
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Борис")
    process = start_bot(api, tmp_path / "bot.sqlite3")
    try:
        api.wait_for(lambda: api.polls, what="the bot to poll")
        for user in (anya, boris):
            await fake.send(app, user, user, "/start")
        await fake.send(app, anya, GROUP, "/durak")
        lobby = api.wait_for(lambda: next((m for m in fake.messages(GROUP) if m.keyboard), None), what="the lobby")
        await fake.press(app, boris, lobby, "Сесть за стол")
        api.wait_for(lambda: "Борис" in lobby.text, what="Борис in the lobby")
        await fake.press(app, anya, lobby, "Начать")
        hands = api.wait_for(
            lambda: (
                (hand_message(fake, 1), hand_message(fake, 2))
                if hand_message(fake, 1) and hand_message(fake, 2)
                else None
            ),
            what="both hands in the DMs",
        )
        mover = next(h for h in hands if h.keyboard)
        user = anya if mover.chat_id == 1 else boris
        before = mover.text
        await fake.press(app, user, mover, callback_data=fake.buttons(mover)[0][1])
        api.wait_for(lambda: mover.text != before, what="the hand to change after a move")
    finally:
        output = stop_bot(process)
    assert process.returncode == 0, output
    assert "Traceback" not in output, output

    # a new process over the same database shows the same game and takes the next move
    polls_before = api.polls
    process = start_bot(api, tmp_path / "bot.sqlite3")
    try:
        # polling again means start-up (and the outbox left by the first process) is done
        api.wait_for(lambda: api.polls > polls_before, what="the second start to poll")
        mover = api.wait_for(
            lambda: next((h for h in (hand_message(fake, 1), hand_message(fake, 2)) if h.keyboard), None),
            what="a hand with buttons",
        )
        user = anya if mover.chat_id == 1 else boris
        before = mover.text
        await fake.press(app, user, mover, callback_data=fake.buttons(mover)[0][1])
        api.wait_for(lambda: mover.text != before, what="a move after the restart")
    except AssertionError as error:
        raise AssertionError(f"{error}\n--- bot output ---\n{stop_bot(process)}") from None
    finally:
        output = stop_bot(process) if process.returncode is None else ""
    assert "Traceback" not in output, output
