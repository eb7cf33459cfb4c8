"""What follows from a move (bot.consequences), with no storage, no clock and no
Telegram: the game states come straight from the engine, the table and seats are
plain rows."""

from __future__ import annotations

import random

from bot.consequences import ACTIVE_PLAYER_WINDOW, REMIND_AT, consequences
from engine.base import get_game
from storage.models import BETWEEN, PLAYING, SeatRow, TableRow

NOW = 1000.0


def table_row(game: str, *, version: int = 1, timer: int = 0) -> TableRow:
    options = options_of(game).model_dump()
    return TableRow(7, -100, 0, game, options, PLAYING, 11, version, 1, None, "en", {"timer": timer})


def people(players: int, computers: tuple[int, ...] = ()) -> list[SeatRow]:
    return [
        SeatRow(7, i, -(i + 1) if i in computers else 11 + i, f"P{i}", is_computer=i in computers)
        for i in range(players)
    ]


def dealt(game: str, players: int, seed: int = 1):
    engine = get_game(game)
    options = options_of(game)
    deal = engine.new_deal(options, players, random.Random(seed), [])
    return engine.apply(engine.initial_state(options, players), None, deal)


def kinds(rows) -> list[tuple[str, int | None]]:
    return [(row.kind, row.target) for row in rows]


def options_of(game: str):
    """The games' default options; durak's throw-ins wait for a covered table here, so the
    defender is the one to act after an attack (the flow these tests pin)."""
    extra = {"throw_in": "all_covered"} if game == "durak" else {}
    return get_game(game).Options(**extra)


def test_a_durak_card_played_redraws_only_the_attacker_and_the_defender():
    """Seat 2 attacks seat 3 at a four-player table: seats 0 and 1 (not acting, not
    waiting, their cards unchanged) get nothing; the defender is pinged, the attacker's
    ping goes; the group message waits for a milestone."""
    game = get_game("durak")
    before, _ = dealt("durak", 4)
    assert game.to_act(before) == [2]
    action = game.legal_actions(before, 2)[0]
    after, events = game.apply(before, 2, action)
    assert game.to_act(after) == [3]
    step = consequences(
        table_row("durak", timer=60), people(4), before, after, [(2, action)], events,
        history=[], now=NOW, last_press={},
    )  # fmt: skip
    assert kinds(step.outbox()) == [("hand", 2), ("hand", 3), ("ping", 3), ("unping", 2)]
    assert {row.chat_id for row in step.outbox()} == {13, 14}  # each seat's own DM, nobody else's
    assert step.timer is not None and step.timer.version == 2
    assert (step.timer.remind_at, step.timer.expire_at) == (NOW + 60 * REMIND_AT, NOW + 60)
    assert step.result is None and step.snapshot is None and step.table_fields == {}
    assert step.pressed == {2} and step.version == 2


def test_no_ping_for_a_player_who_pressed_a_moment_ago():
    game = get_game("durak")
    before, _ = dealt("durak", 4)
    action = game.legal_actions(before, 2)[0]
    after, events = game.apply(before, 2, action)
    recently = {3: NOW - ACTIVE_PLAYER_WINDOW / 2}
    step = consequences(
        table_row("durak"), people(4), before, after, [(2, action)], events,
        history=[], now=NOW, last_press=recently,
    )  # fmt: skip
    assert ("ping", 3) not in kinds(step.outbox())
    assert step.timer is None  # the table has no turn timer


def test_computers_get_no_messages_and_no_timer_waits_for_them_alone():
    game = get_game("durak")
    before, _ = dealt("durak", 4)
    action = game.legal_actions(before, 2)[0]
    after, events = game.apply(before, 2, action)
    step = consequences(
        table_row("durak", timer=60), people(4, computers=(2, 3)), before, after, [(2, action)], events,
        history=[], now=NOW, last_press={},
    )  # fmt: skip
    assert step.outbox() == []  # the two people neither acted, nor wait, nor lost cards
    assert step.timer is None  # only a computer is to act


def test_a_new_game_draws_the_group_and_every_hand():
    game = get_game("durak")
    options = game.Options()
    deal = game.new_deal(options, 3, random.Random(2), [])
    after, events = game.apply(game.initial_state(options, 3), None, deal)
    step = consequences(
        table_row("durak", version=0), people(3, computers=(1,)), None, after, [(None, deal)], events,
        history=[], now=NOW, last_press={}, table_fields={"status": PLAYING, "game_no": 1}, snapshot=True,
    )  # fmt: skip
    rows = kinds(step.outbox())
    assert rows[0] == ("group", None)
    assert {("hand", 0), ("hand", 2)} <= set(rows) and ("hand", 1) not in rows
    assert step.snapshot == game.dump(after)
    assert step.pressed == {0, 1, 2}  # first hand messages notify: no ping on top of them
    assert not [r for r in rows if r[0] == "ping"]


def _play_until(game_name: str, players: int, stop, seed: int = 3):
    """Random legal moves (and the system's actions) until ``stop(consequences)``."""
    game = get_game(game_name)
    rng = random.Random(seed)
    state, _ = dealt(game_name, players, seed)
    table, seats = table_row(game_name), people(players)
    history: list[dict] = []
    for _ in range(5000):
        action = game.system_action(state, rng) if hasattr(game, "system_action") else None
        seat = None
        if action is None:
            seat = game.to_act(state)[0]
            action = rng.choice(game.legal_actions(state, seat))
        after, events = game.apply(state, seat, action)
        step = consequences(
            table, seats, state, after, [(seat, action)], events, history=history, now=NOW, last_press={}
        )
        table.version = step.version
        if stop(step):
            return step, after
        state = after
    raise AssertionError("the stop condition never came")


def test_a_deal_ends_with_its_score_sheet_and_the_table_follows_it():
    """Preferans: the deal's last card posts the sheet to the group; the next deal
    sends the table anew below it (restack) and redraws every hand."""
    ending, _ = _play_until("preferans", 3, lambda step: any(r.kind == "post" for r in step.outbox()))
    posts = [row for row in ending.outbox() if row.kind == "post"]
    assert all(row.chat_id == -100 and row.payload["game_over"] is False for row in posts)
    assert ending.needs_sheet_mode == (ending.picture is not None)
    following, _ = _play_until("preferans", 3, lambda step: bool(step.outbox()) and step.outbox()[0].kind == "restack")
    rows = kinds(following.outbox())
    assert rows[0] == ("restack", None)
    assert {("hand", 0), ("hand", 1), ("hand", 2)} <= set(rows)


def test_the_sheet_mode_decides_whether_the_picture_is_sent():
    step, _ = _play_until("preferans", 3, lambda step: step.picture is not None)
    as_text = [row.payload for row in step.outbox("text") if row.kind == "post"]
    as_picture = [row.payload for row in step.outbox("picture") if row.kind == "post"]
    assert not any("picture" in payload for payload in as_text)
    assert any("picture" in payload for payload in as_picture)


def test_game_over_gives_the_result_and_no_timer():
    step, after = _play_until("durak", 2, lambda step: step.result is not None)
    game = get_game("durak")
    assert step.result == game.result(after)
    assert step.timer is None
    assert step.table_fields["status"] == BETWEEN
    assert step.snapshot == game.dump(after)  # a finished game is always stored whole
    assert step.finished is not None and step.finished.game == "durak"
    assert step.rate is not None  # two people played: the game is rated
    posts = [row for row in step.outbox() if row.kind == "post"]
    assert posts and posts[-1].payload["game_over"] is True
    assert all(not row.payload["game_over"] for row in posts[:-1])
    assert {("hand", 0), ("hand", 1)} <= set(kinds(step.outbox()))  # the end is shown to everyone


def test_a_thousand_contract_redraws_the_declarer_only_and_a_trick_every_hand():
    """Тысяча: the declarer who sets the contract leads next, so the two waiting hands
    keep what they show (their "▶️" line still names the declarer, no card moved) and see
    the contract when their own turn redraws them; the group shows it at once. A trick's
    end still redraws every hand (the cards on the table)."""
    game = get_game("thousand")
    rng = random.Random(3)
    state, _ = dealt("thousand", 3, seed=3)
    table, seats = table_row("thousand"), people(3)
    contract = trick = None
    for _ in range(200):
        seat = game.to_act(state)[0]
        legal = [a for a in game.legal_actions(state, seat) if not a.startswith(("concede", "blind"))]
        action = rng.choice(legal)
        after, events = game.apply(state, seat, action)
        step = consequences(table, seats, state, after, [(seat, action)], events, history=[], now=NOW, last_press={})
        table.version = step.version
        types = {event["type"] for event in events}
        if "contract" in types:
            contract = (seat, game.to_act(after), kinds(step.outbox()))
        if "trick" in types:
            trick = kinds(step.outbox())
            break
        state = after
    assert contract is not None and trick is not None
    declarer, to_act, rows = contract
    assert to_act == [declarer]  # the declarer leads
    assert [row for row in rows if row[0] == "hand"] == [("hand", declarer)]
    assert ("group", None) in rows  # the group's table shows the contract at once
    assert {("hand", 0), ("hand", 1), ("hand", 2)} <= set(trick)
