""" "📜 Tricks" in a player's hand message, through the real Application and the fake Bot
API, for every game played in tricks: once a trick of the deal is complete the hand
message offers it; a press edits that same message into the deal's tricks so far (as
the log has them: who played which card, who won), with no card the player cannot see;
"↩ Back" brings the hand back, and so does a move. Someone not seated, a press in
another chat, a spectator, a forged or outdated button: refused, nothing changes."""

from __future__ import annotations

import importlib
import re

import pytest

from bot.game_registry import ui_for
from bot.render.common import display_name
from bot.screens import move_key
from engine.analysis_core import deals_of
from engine.base import get_game
from engine.cards import label
from engine.records import make_record
from tests.e2e import CARD_LABEL, open_table
from tests.test_e2e_deal_view import quiet

GROUP = -1001
TRICKS, BACK = "📜 Взятки", "↩ Назад к картам"

GAMES = [  # (game, command, computers, the seat letters of the game's analysis)
    ("bridge", "/bridge", 3, "NESW"),
    ("whist", "/whist", 3, "NESW"),
    ("king", "/king", 3, None),
    ("preferans", "/preferans balkan", 2, "ABC"),
    ("preferans_ru", "/sochi", 2, "ABCD"),
]


async def the_deal_so_far(bot, table_id: int) -> dict:
    """The current deal as the engine's own deal analysis reads it from the table's log
    (``engine.games.<game>.analysis``): an account of the tricks independent of the views."""
    table = await bot.repo.get_table(table_id)
    actions = [a for a in await bot.repo.load_actions(table_id) if a.game_no == table.game_no]
    players = len(await bot.repo.get_seats(table_id))
    record = make_record(table.game, players, table.options, [(a.seat, a.action) for a in actions])
    _, deals = deals_of(record)
    return importlib.import_module(f"engine.games.{table.game}.analysis").analyse_deal(deals[-1])


def expected_lines(deal: dict, letters: str | None, label_of) -> list[str]:
    """The trick lines the screen must show: ``"2. Аня 10♥ · … → Боря"``."""
    seat = (lambda s: letters.index(s)) if letters else (lambda s: int(s))
    lines = []
    for k, trick in enumerate(deal["tricks"], start=1):
        cards = " · ".join(f"{label_of(seat(s))} {label(c)}" for s, c in trick["cards"])
        tail = f" → {label_of(seat(trick['winner']))}" if trick["winner"] is not None else " (на столе)"
        lines.append(f"{k}. {cards}{tail}")
    return lines


def shown_lines(text: str) -> list[str]:
    """The numbered trick lines of the screen, распасы's turned talon card left out (the
    log's account has only the players' cards)."""
    out = []
    for line in text.split("\n"):
        number, dot, rest = line.partition(". ")
        if not (number.isdigit() and dot):
            continue
        rest = re.sub(r"^Прикуп \S+( · | \(на столе\)$)", "", rest)
        if rest:  # (a trick with only the talon card on the table: no player's card yet)
            out.append(f"{number}. {rest}")
    return out


def hidden_from(state, seat: int) -> set[str]:
    """Labels of the cards the seat cannot see now: the other hands, the discards, a talon
    not turned face up (распасы's turned cards are public)."""
    hidden = {c for s, hand in enumerate(state.hands) if s != seat for c in hand}
    if getattr(state, "discards", None) and seat != getattr(state, "declarer", None):
        hidden |= set(state.discards)
    if getattr(state, "talon", None) and not getattr(state, "talon_public", False):
        hidden |= set(state.talon) - set(getattr(state, "turned", []))
    return {label(c) for c in hidden}


@pytest.mark.parametrize("game,command,computers,letters", GAMES)
async def test_tricks_of_the_deal_in_the_hand_message(bot, fake_telegram, game, command, computers, letters):
    fake = fake_telegram
    anya, stranger = fake.user(1, "Аня"), fake.user(5, "Гоша")
    await bot.send(stranger, stranger, "/start")
    table = await open_table(bot, GROUP, anya, [], computers=computers, command=command)
    assert table.game == game
    await bot.press(anya, await bot.table_message(GROUP), lambda text: text in ("Начать", "▶️ Начать"))
    seats = sorted(await bot.repo.get_seats(table.id), key=lambda s: s.seat)
    mine = next(s.seat for s in seats if s.user_id == anya.id)
    ui = ui_for(game)

    # no trick complete yet: no button, and a forged one is refused
    hand = await bot.hand_message(table.id, anya)
    assert TRICKS not in [text for text, _ in fake.buttons(hand)]
    table = await bot.repo.get_table(table.id)
    answer = await bot.press_raw(anya, anya.id, hand.message_id, f"u:{table.id}:{table.version}:tricks")
    assert (
        answer.text == "В этой сдаче ещё нет ни одной взятки."
        and (await bot.hand_message(table.id, anya)).text == hand.text
    )

    async def two_tricks_done() -> bool:
        _, state = await bot.state(table.id)
        view = get_game(game).view(state, mine)
        return sum(t["winner"] is not None for t in ui.tricks_so_far(view)) >= 2

    await bot.play(table.id, [anya], choose=quiet, until=two_tricks_done, max_moves=800)
    table, state = await bot.state(table.id)
    assert table.status == "playing"
    hand = await bot.hand_message(table.id, anya)
    assert TRICKS in [text for text, _ in fake.buttons(hand)]
    as_hand, edits = hand.text, len(hand.history)
    group_versions = {m.message_id: len(m.history) for m in fake.messages(GROUP)}

    # the press: one edit of the same message, into the tricks so far
    answer = await bot.press(anya, hand, TRICKS)
    assert answer is None or not answer.text
    shown = await bot.hand_message(table.id, anya)
    assert shown.message_id == hand.message_id and len(shown.history) == edits + 1
    assert {m.message_id: len(m.history) for m in fake.messages(GROUP)} == group_versions  # nothing in the group
    assert "📜 Взятки этой сдачи" in shown.text
    assert [text for text, _ in fake.buttons(shown)] == [BACK]

    names = [s.name for s in seats]
    if ui.seat_names:
        label_of = lambda s: ui.seat_names[s]  # noqa: E731
        assert " · ".join(f"{x} {display_name(n, 12)}" for x, n in zip(ui.seat_names, names)) in shown.text
    else:
        label_of = lambda s: display_name(names[s], 12)  # noqa: E731
    deal = await the_deal_so_far(bot, table.id)
    assert shown_lines(shown.text) == expected_lines(deal, letters, label_of)
    assert sum(t["winner"] is not None for t in deal["tricks"]) >= 2
    # nothing the player cannot see: no other hand, no discard, no talon still face down
    cards = set(CARD_LABEL.findall(shown.text))
    assert cards and not cards & hidden_from(state, mine)

    # "↩ Back": the hand as it was, its buttons again
    await bot.press(anya, shown, BACK)
    back = await bot.hand_message(table.id, anya)
    assert back.text == as_hand and TRICKS in [text for text, _ in fake.buttons(back)]
    assert {m.message_id: len(m.history) for m in fake.messages(GROUP)} == group_versions

    # refused, and nothing changes: someone not seated (in his own chat), the player in the
    # group, forged data; a spectator watching the table gets no such button
    tricks_data = next(data for text, data in fake.buttons(back) if text == TRICKS)
    refusals = [
        (stranger, stranger.id, tricks_data, "Вы не сидите за этим столом."),
        (anya, GROUP, tricks_data, "Эта кнопка — от стола в другом чате."),
        (anya, anya.id, f"u:{table.id}:{table.version}:tr!cks", "Неизвестная кнопка."),
        (anya, anya.id, f"u:{table.id + 99}:{table.version}:tricks", "Этого стола уже нет."),
    ]
    await bot.press(stranger, await bot.table_message(GROUP), "👁 Смотреть")
    spectator_dm = fake.last_message(stranger.id)
    assert TRICKS not in [text for text, _ in fake.buttons(spectator_dm)]
    for user, chat, data, refusal in refusals:
        where = back.message_id if chat == anya.id else fake.last_message(chat).message_id
        answer = await bot.press_raw(user, chat, where, data)
        assert answer.text == refusal, (data, answer)
        assert (await bot.hand_message(table.id, anya)).text == as_hand
        assert not any("📜" in m.text for m in fake.messages(stranger.id))

    # a move meanwhile (made here without the DM's buttons, as a timeout's "a computer moves
    # for them" would be): the hand message is the hand again; a 📜 drawn before the move
    # still shows the tricks (issue 45: it works at any moment of the deal, also while the
    # computers play on under a hand message that was not redrawn)
    await bot.press(anya, back, TRICKS)
    assert "📜 Взятки этой сдачи" in (await bot.hand_message(table.id, anya)).text
    table, state = await bot.state(table.id)
    move = get_game(game).legal_actions(state, mine)[0]
    await bot.service.play.act(table.id, table.version, anya.id, move_key(move), None)
    await bot.settle()
    assert "📜 Взятки этой сдачи" not in (await bot.hand_message(table.id, anya)).text
    answer = await bot.press_raw(anya, anya.id, back.message_id, tricks_data)
    assert answer is None or not answer.text, answer
    now_shown = await bot.hand_message(table.id, anya)
    assert "📜 Взятки этой сдачи" in now_shown.text
    deal = await the_deal_so_far(bot, table.id)
    assert shown_lines(now_shown.text) == expected_lines(deal, letters, label_of)
    # and "↩ Back" brings the hand, with buttons of the table's version
    await bot.press(anya, now_shown, BACK)
    table = await bot.repo.get_table(table.id)
    again = await bot.hand_message(table.id, anya)
    assert "📜 Взятки этой сдачи" not in again.text
    assert all(f":{table.version}:" in data for _, data in fake.buttons(again) if data.startswith(("a:", "u:")))
