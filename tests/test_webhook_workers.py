"""Webhook mode for real: two ``cardbot webhook`` processes, one PostgreSQL schema, the
fake Bot API over HTTP. Updates are POSTed to the workers as Telegram would (with the
secret token header), any update to any worker, conflicting presses to both at once.
Checks the secret-token check, that each accepted move is applied exactly once, that a
game finishes, and that Telegram re-sending an update (to another worker) changes nothing."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from engine.base import get_game
from storage.factory import repository_for
from tests.fakebot import FakeTelegram
from tests.http_fake import HttpBotApi, _QueueingApp
from tests.pg import drop_schema, fresh_schema_url

GROUP = -1001
ROOT = Path(__file__).resolve().parent.parent
SECRET = "test-secret_42"
PUBLIC_URL = "https://cards.example.test/telegram"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Worker:
    def __init__(self, api: HttpBotApi, database: str, workdir: Path) -> None:
        self.port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "CARDBOT_"))}
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        env.update(
            TELEGRAM_BOT_TOKEN=f"{api.fake.bot_id}:TEST",
            TELEGRAM_API_BASE_URL=api.base_url,
            CARDBOT_DATABASE_URL=database,
            CARDBOT_WEBHOOK_URL=PUBLIC_URL,
            CARDBOT_WEBHOOK_SECRET=SECRET,
            CARDBOT_LISTEN=f"127.0.0.1:{self.port}",
            CARDBOT_LOG_LEVEL="WARNING",
        )
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "webhook"],
            env=env,
            cwd=workdir,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )

    def post(self, update: dict, secret: str | None = SECRET) -> int:
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/telegram",
            data=json.dumps(update).encode(),
            headers={
                "Content-Type": "application/json",
                **({"X-Telegram-Bot-Api-Secret-Token": secret} if secret else {}),
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    def ready(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                return True
        except OSError:
            return False

    def stop(self) -> str:
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGINT)
            try:
                output, _ = self.process.communicate(timeout=120)  # generous: a loaded machine exits slowly
            except subprocess.TimeoutExpired:
                self.process.kill()
                output, _ = self.process.communicate()
            self.output = output
        return self.output


class Router(_QueueingApp):
    """Stands in for an Application in FakeTelegram.feed(): POSTs the update to a worker.
    ``to`` picks the worker(s) of the next update; a list sends it to each (a re-delivery)."""

    def __init__(self, api: HttpBotApi, workers: list[Worker]) -> None:
        super().__init__(api)
        self.workers = workers
        self.to: list[Worker] = [workers[0]]

    @classmethod
    def single(cls, api: HttpBotApi, worker: Worker) -> "Router":
        return cls(api, [worker])

    async def process_update(self, update) -> None:
        data = update.to_dict()
        for worker in self.to:
            assert await asyncio.to_thread(worker.post, data) == 200


@pytest.fixture
async def cluster(tmp_path):
    database = await fresh_schema_url()
    fake = FakeTelegram()
    fake.group(GROUP, "Кухня", admins=[1], supergroup=True)
    api = HttpBotApi(fake).start()
    # the schema is created by the first worker; start the second once it is there
    workers = [Worker(api, database, tmp_path)]
    api.wait_for(lambda: fake.webhook, what="the first worker to set the webhook")
    workers.append(Worker(api, database, tmp_path))
    try:
        for worker in workers:
            api.wait_for(worker.ready, what=f"worker on port {worker.port} to listen")
        yield api, workers, database
    finally:
        outputs = [w.stop() for w in workers]
        api.stop()
        fake.close()
        await drop_schema(database)
    for output in outputs:
        assert "Traceback" not in output, output


def hand_message(fake: FakeTelegram, user_id: int):
    found = [m for m in fake.messages(user_id) if "Ваши карты" in m.text]
    return found[-1] if found else None


def move_buttons(fake: FakeTelegram, message, table_id: int, version: int) -> list[str]:
    """The move buttons of a hand message drawn for this table version."""
    prefix = f"a:{table_id}:{version}:"
    return [d for _, d in fake.buttons(message) if d and d.startswith(prefix)] if message else []


async def test_two_webhook_workers_share_one_game(cluster):
    api, workers, database = cluster
    fake = api.fake
    router = Router(api, workers)
    first, second = workers
    assert fake.webhook["url"] == PUBLIC_URL and fake.webhook["secret_token"] == SECRET

    # Telegram signs every request with the secret; anything else is refused unread
    update = {
        "update_id": 999_999,
        "message": {
            "message_id": 1,
            "date": 0,
            "text": "/durak",
            "chat": {"id": GROUP, "type": "supergroup", "title": "x"},
            "from": {"id": 66, "is_bot": False, "first_name": "Mallory"},
            "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
        },
    }
    assert await asyncio.to_thread(first.post, update, None) == 403
    assert await asyncio.to_thread(second.post, update, "wrong") == 403

    anya, boris = fake.user(1, "Аня"), fake.user(2, "Борис")
    router.to = [first]
    await fake.send(router, anya, anya, "/start")
    router.to = [second]
    await fake.send(router, boris, boris, "/start")
    router.to = [first, second]  # Telegram re-delivers: both workers get the same update
    await fake.send(router, anya, GROUP, "/durak")
    lobby = api.wait_for(lambda: next((m for m in fake.messages(GROUP) if m.keyboard), None), what="the lobby")
    router.to = [second]
    await fake.press(router, boris, lobby, "Сесть за стол")
    api.wait_for(lambda: "Борис" in lobby.text, what="Борис in the lobby")
    router.to = [first]
    for label, size in (("36 карт", "52"), ("52 карт", "24")):  # a 24-card game: shorter, same paths
        await fake.press(router, anya, lobby, label)
        api.wait_for(lambda: f"{size} карт" in lobby.text, what=f"the {size}-card deck")
    await fake.press(router, anya, lobby, "Начать")
    api.wait_for(lambda: hand_message(fake, 1) and hand_message(fake, 2), what="both hands")
    assert len([m for m in fake.messages(GROUP) if m.keyboard or "Аня" in m.text]) >= 1
    assert not any("уже есть" in m.text for m in fake.messages(GROUP)), "the re-delivered /durak was handled twice"

    repo = repository_for(database)
    await repo.open()
    try:
        table = await repo.find_open_table(GROUP, 0)
        game = get_game("durak")
        by_id = {1: anya, 2: boris}
        accepted_presses = 0
        for step in range(300):
            row = await repo.get_table(table.id)
            if row.status != "playing":
                break
            state = game.initial_state(game.Options(**row.options), 2)
            for action in await repo.load_actions(table.id):
                state, _ = game.apply(state, action.seat, action.action)
            seats = sorted(await repo.get_seats(table.id), key=lambda s: s.seat)
            user = by_id[seats[game.to_act(state)[0]].user_id]
            moves = api.wait_for(
                lambda: move_buttons(fake, hand_message(fake, user.id), table.id, row.version),
                what=f"{user.first_name}'s buttons for version {row.version}",
            )
            mover = hand_message(fake, user.id)
            answers_before = len(fake.answers)
            if step % 3 == 0:  # the same player's two presses reach two workers at once
                await asyncio.gather(
                    *(
                        fake.press_raw(Router.single(api, w), user, user.id, mover.message_id, d)
                        for w, d in zip(workers, [moves[0], moves[-1]])
                    )
                )
                expected_answers = 2
            else:
                await fake.press_raw(Router.single(api, workers[step % 2]), user, user.id, mover.message_id, moves[0])
                expected_answers = 1
            api.wait_for(
                lambda: len(fake.answers) >= answers_before + expected_answers, what="the press to be answered"
            )
            new = list(fake.answers.values())[answers_before:]
            assert len([a for a in new if not a.text]) == 1, new
            accepted_presses += 1
        else:
            raise AssertionError("the game did not end")
        log = await repo.load_actions(table.id)
        assert len([a for a in log if a.seat is not None]) == accepted_presses
        state = game.initial_state(game.Options(**table.options), 2)
        for action in log:
            state, _ = game.apply(state, action.seat, action.action)
        assert game.is_over(state)
        assert (await repo.get_table(table.id)).status == "between"
        api.wait_for(
            lambda: any(b for m in fake.messages(GROUP) for _, b in fake.buttons(m) if b and b.startswith("r:")),
            what="the rematch buttons",
        )
    finally:
        await repo.close()
