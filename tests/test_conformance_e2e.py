"""What every game must do through the bot, checked over the whole registry (the engine's
part: tests/test_conformance.py). For every playable game, through the Telegram emulator:
its command (a chooser's button when the command asks which variant) opens a table,
computers fill it but one seat, the host turns the turn timer on and starts; the one
person plays with ``any_move`` (tests/e2e.py), which knows no game's button words, and
then lets a turn's minute run out. bot/timers.py sends ``forfeit <seat>``: the game is
over with that seat last, the group has seen a ``<pre>`` sheet and a result naming that
person, and ``/history`` lists the game. Every settle runs the leak check on what
reached a chat. Every score-only sheet (``/score <game>``) is opened by people and pressed
at random, its posts held to a phone's width."""

from __future__ import annotations

import html
import re

import pytest

from bot.game_registry import all_uis, playable
from bot.game_ui import GameUI
from bot.i18n import t
from engine.base import get_game
from engine.ratings import standings
from engine.text import PHONE_WIDTH, display_width
from tests.e2e import any_move

GROUP = -1001
PRE = re.compile(r"<pre>(.*?)</pre>", re.S)
PRESSES = 12  # the person's moves before the timer runs out (a durak may end the game first)


def opening(ui: GameUI) -> tuple[str, str | None]:
    """The group command that opens ``ui``'s game, and the chooser's button that picks it
    when that command asks which variant (``/preferans``), else None."""
    for choice, (game, _) in ui.choices.items():
        if game == ui.name:
            return f"/{ui.command}", f"pf:{choice}"
    if ui.command:
        return f"/{ui.command}", None
    for other in playable():  # a game opened from another's chooser only
        for choice, (game, _) in other.choices.items():
            if game == ui.name:
                return f"/{other.command}", f"pf:{choice}"
    return f"/{next(iter(ui.table_presets))}", None


async def lobby_press(bot, user, text: str) -> None:
    await bot.press(user, await bot.table_message(GROUP), lambda label: label.startswith(text))


# SQLite only: the storage is the same for every game, and each game's own e2e tests and
# tests/test_storage_pg.py run PostgreSQL
@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
@pytest.mark.parametrize("ui", playable(), ids=lambda ui: ui.name)
async def test_a_game_from_its_command_to_its_result_by_a_timer_forfeit(bot, fake_telegram, ui):
    fake, game, lang = fake_telegram, get_game(ui.name), "ru"
    anya = fake.user(1, "Аня <b>&", language_code=lang)
    await bot.send(anya, anya, "/start")
    command, choice = opening(ui)
    await bot.send(anya, GROUP, command)
    if choice:
        await bot.press(anya, await bot.last_post(GROUP), data=choice)
    table = await bot.table(GROUP)
    assert table.game == ui.name, (command, table.game)
    if ui.seat_names:  # a lobby of named seats: the person takes the first
        await lobby_press(bot, anya, t(lang, "lobby.btn.sit", seat=ui.seat_names[0]))
    low, _ = game.seat_range(game.Options(**table.options))
    for _ in range(max(low, ui.bench_players) - 1):
        await lobby_press(bot, anya, t(lang, "lobby.btn.cpu_add"))
    await lobby_press(bot, anya, "⏱")  # no timer -> a minute a move
    await lobby_press(bot, anya, t(lang, "lobby.btn.start"))
    table, state = await bot.state(table.id)
    assert table.status == "playing", fake.dump(GROUP)

    presses = await bot.play(table.id, [anya], choose=any_move, until=lambda: _played(bot, table.id, PRESSES))
    table, state = await bot.state(table.id)
    if table.status == "playing":
        seat = game.to_act(state)[0]
        await bot.tick(61)
        assert (await bot.actions(table.id))[-1] == f"forfeit {seat}"
        table, state = await bot.state(table.id)
        found = standings(ui.name, game.result(state), len(await bot.repo.get_seats(table.id)))
        if found is not None:
            assert max(found.ranks) == next(r for team, r in zip(found.teams, found.ranks) if seat in team)
    assert table.status == "between" and game.is_over(state), (presses, fake.dump(GROUP))
    assert any("<pre>" in m.raw_text for m in fake.messages(GROUP)), "the group saw no <pre> sheet"
    assert "Аня <b>&" in fake.last_message(GROUP).text, "the result does not name who ran out of time"
    await bot.send(anya, GROUP, "/history")
    listing = fake.last_message(GROUP).text
    assert t(lang, f"game.{ui.name}") in listing and "Аня <b>&" in listing, listing


async def _played(bot, table_id: int, presses: int) -> bool:
    """Whether the person pressed ``presses`` moves (the log holds the computers' too)."""
    seats = await bot.repo.get_seats(table_id)
    person = next(s.seat for s in seats if not s.is_computer)
    return sum(row.seat == person for row in await bot.repo.load_actions(table_id)) >= presses


SHEET_PRESSES = 120  # random presses on a score-only sheet: several deals, an undo or a cancel now and then


def score_sheets() -> list[GameUI]:
    return [ui for ui in all_uis() if ui.score_for]


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
@pytest.mark.parametrize("ui", score_sheets(), ids=lambda ui: ui.name)
async def test_a_score_sheet_from_its_command_through_random_presses(bot, fake_telegram, ui):
    """Every score-only sheet (``/score <game>``): the fewest people it takes open and
    start it, then any of them presses any button under the group message, chosen
    uniformly (knowing no game's words; ``any_move``'s leaning to the last button would
    mostly cancel). Every press is answered, the group sees a <pre> sheet; the sheet's <pre> posts fit a phone
    with the longest names; the state reloads from its dump and ``/cancel`` closes it."""
    import random

    from tests.test_phone_sheets import long_names

    fake, game, lang = fake_telegram, get_game(ui.name), "ru"
    low, _ = game.seat_range(game.Options())
    users = [fake.user(i + 1, name, language_code=lang) for i, name in enumerate(long_names(max(low, 3)))]
    await bot.send(users[0], GROUP, f"/score {ui.score_for}")
    table = await bot.table(GROUP)
    assert table.game == ui.name
    for user in users[1:]:
        if ui.seat_names:
            await lobby_press(bot, user, t(lang, "lobby.btn.sit", seat=ui.seat_names[users.index(user)]))
        else:
            await lobby_press(bot, user, t(lang, "lobby.btn.join"))
    if ui.seat_names:
        await lobby_press(bot, users[0], t(lang, "lobby.btn.sit", seat=ui.seat_names[0]))
    await lobby_press(bot, users[0], t(lang, "lobby.btn.start"))
    table, state = await bot.state(table.id)
    assert table.status == "playing", fake.dump(GROUP)
    rng = random.Random(len(ui.name))
    for _ in range(SHEET_PRESSES):
        table, state = await bot.state(table.id)
        if game.is_over(state):
            break
        msg = await bot.table_message(GROUP)
        answer = await bot.press(rng.choice(users), msg, data=rng.choice([data for _, data in fake.buttons(msg)]))
        assert answer is not None  # every press is answered (a toast, or an empty answer)
    table, state = await bot.state(table.id)
    assert game.dump(game.load(game.dump(state))) == game.dump(state)
    assert any("<pre>" in m.raw_text for m in fake.messages(GROUP)), "the group saw no <pre> sheet"
    for message in fake.messages(GROUP):
        for block in PRE.findall(message.raw_text):
            wide = [line for line in html.unescape(block).splitlines() if display_width(line) > PHONE_WIDTH]
            assert not wide, (ui.name, wide)
    if not game.is_over(state):
        await bot.send(users[0], GROUP, "/cancel")
        assert (await bot.repo.find_open_table(GROUP, 0)) is None or (await bot.table(GROUP)).status != "playing"
