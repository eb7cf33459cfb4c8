"""Whole rubbers of bridge through the real Application and the fake Bot API, pressing
buttons as users do. Every settle() also runs the generic leak check of tests/e2e.py;
``watch_public`` adds the bridge rule after every move: dummy's cards are public only from
the opening lead on (and the declarer's only while shown for a claim); nothing else is."""

from __future__ import annotations


import pytest

from engine.base import get_game
from engine.games.bridge import pbn
from engine.games.bridge.rules import sort_cards
from engine.cards import label
from tests.e2e import CARD_LABEL, open_table

GROUP = -1001
GAME = get_game("bridge")


@pytest.fixture
async def bot(request, fake_telegram, start_bot):
    fake_telegram.group(GROUP, "Клуб", admins=[1], supergroup=True)
    return await start_bot(transport=getattr(request, "param", "inprocess"))


def is_card_button(text: str) -> bool:
    return bool(CARD_LABEL.fullmatch(text))


def passive(user, buttons, rng):
    """Pass in the auction, play the first card offered, accept claims."""
    texts = {text: data for text, data in buttons}
    for wanted in ("Пас", "Pass", "✅ Согласиться", "✅ Accept the claim"):
        if wanted in texts:
            return texts[wanted]
    cards = [d for text, d in buttons if is_card_button(text)]
    return cards[0] if cards else buttons[0][1]


def aggressive(bidder):
    """``bidder`` jumps to 3 NT (or the cheapest NT from the three level up) the first time
    the bidding box shows it and no bid of his is on the board yet; everyone else passes.
    In the play: the first card offered; as declarer, once a deal, he opens the claim
    keyboard at his first lead and claims all the rest (the defenders usually refuse)."""

    def choose(user, buttons, rng):
        texts = {text: data for text, data in buttons}
        if "Пас" in texts:
            choose.claim_tried = False
        if user.id == bidder.id and "Пас" in texts:
            nt = [d for text, d in buttons if text.endswith("БК") and text[0] in "34567"]
            if nt and not choose.bid_made:
                choose.bid_made = True
                return nt[0]
        if "Пас" in texts:
            return texts["Пас"]
        choose.bid_made = False
        if "✅ Согласиться" in texts:
            return texts["✅ Согласиться"]
        claim_all = [d for text, d in buttons if text.startswith("Заявить все")]
        if claim_all:
            choose.claims += 1
            choose.claim_tried = True
            return claim_all[0]
        cards = [d for text, d in buttons if is_card_button(text)]
        if "🏳 Заявить остаток…" in texts and not choose.claim_tried:
            return texts["🏳 Заявить остаток…"]  # the claim keyboard, then "Claim all"
        return cards[0] if cards else buttons[0][1]

    choose.bid_made = choose.claim_tried = False
    choose.claims = 0
    return choose


async def sit(bot, user, seat_name: str) -> None:
    """``user`` presses "Sit <seat>" in the lobby and holds that seat afterwards."""
    await bot.press(user, await bot.table_message(GROUP), f"Сесть: {seat_name}")
    table = await bot.table(GROUP)
    seats = await bot.repo.get_seats(table.id)
    assert any(s.user_id == user.id and s.seat == "NESW".index(seat_name) for s in seats)


async def watch_public(bot, table_id):
    """The bridge leak rule on the current state: the public view shows no hand before the
    opening lead; afterwards exactly dummy's remaining cards (+ the declarer's while a
    claim shows them); seat views show only their own hand besides that."""
    row, state = await bot.state(table_id)
    if state is None:
        return
    public = GAME.view(state, None)
    assert "hand" not in public
    if public["phase"] in ("play", "claim"):
        opened = bool(public["played"] or public["trick"])
        if opened:
            assert public["dummy_hand"] == sort_cards(state.hands[state.dummy])
        else:
            assert public["dummy_hand"] is None
        if public["declarer_hand"] is not None:
            assert state.claim_shown
    else:
        assert public.get("dummy_hand") is None
    for seat in range(4):
        v = GAME.view(state, seat)
        assert v["hand"] == sort_cards(state.hands[seat])


@pytest.mark.parametrize("bot", ["http"], indirect=True)
async def test_one_human_three_computers_full_rubber(bot, fake_telegram):
    fake = fake_telegram
    anya = fake.user(1, "Аня")
    table = await open_table(bot, GROUP, anya, [], computers=3, command="/bridge")
    lobby = await bot.table_message(GROUP)
    assert "N. ✅ Аня" in lobby.text and "🤖" in lobby.text
    await bot.press(anya, lobby, "Начать")
    hand = await bot.hand_message(table.id, anya)
    assert "Ваши карты" in hand.text

    leads = []
    explained = []  # the boards where she called after a bid

    async def check():
        await watch_public(bot, table.id)
        row, state = await bot.state(table.id)
        view = GAME.view(state, None)
        if view["phase"] == "auction" and 0 in view["to_act"] and any(c["call"] != "pass" for c in view["auction"]):
            # her turn to call after a bid: the computers are easy (the tests' default) and
            # bid by points, so the DM explains no call in the system (the strong ones':
            # test_the_bidding_box_meanings_with_computers)
            hand = await bot.hand_message(table.id, anya)
            assert "Что показывают заявки" not in hand.text and "система компьютеров" not in hand.text
            explained.append(view["board"])
        if view["phase"] == "play" and not view["played"] and not view["trick"]:
            # Аня makes the opening lead: nobody has seen dummy yet, in any chat
            leads.append(view["board"])
            group = await bot.table_message(GROUP)
            hand = await bot.hand_message(table.id, anya)
            assert "Болван" not in group.text and "Болван" not in hand.text
            dummy = {label(c) for c in state.hands[state.dummy]}
            assert not dummy & set(CARD_LABEL.findall(group.text + hand.text)) - {label(c) for c in state.hands[0]}
        return False

    await bot.play(table.id, [anya], choose=passive, until=check, max_moves=4000)
    assert explained
    row, state = await bot.state(table.id)
    assert row.status == "between"
    result = GAME.result(state)
    assert result["complete"] and max(result["games"].values()) == 2
    assert sum(result["amounts"]) == 0
    deals = len(state.boards)
    sheets = [m for m in fake.messages(GROUP) if "Над чертой" in m.text]
    assert len(sheets) == deals  # the sheet after every deal, passed-out ones included
    final = fake.last_message(GROUP)
    assert "Роббер окончен" in final.text and "Расчёт" in final.text

    # the PBN export of the rubber has one board per deal
    text = pbn.export(state, ["Аня", "🤖 1", "🤖 2", "🤖 3"])
    assert text.count("[Board ") == deals
    # ... and /export in the group sends it as a file
    await bot.send(anya, GROUP, "/export")
    sent = fake.last_message(GROUP)
    assert sent.document["file_name"].endswith(".pbn")
    exported = sent.document["content"].decode("utf-8")
    assert exported.count("[Board ") == deals and '[North "Аня"]' in exported
    assert bot.http.served["sendDocument"] == 1  # the upload went over HTTP, as to Telegram
    final = [m for m in fake.messages(GROUP) if "Роббер окончен" in m.text][-1]

    # a rematch is the next rubber: fresh sheet, nobody vulnerable, the deal rotates on
    await bot.press(anya, final, "🔁 Ещё партию")
    row, state = await bot.state(table.id)
    assert row.status == "playing" and row.game_no == 2
    assert state.dealer == result["next_dealer"] and state.board == result["next_board"]
    assert state.sheet.entries == [] and state.vul == {"NS": False, "EW": False}


async def test_human_declarer_plays_dummy_from_the_dm(bot, fake_telegram):
    """Аня (N) bids 3 NT at once and Борис (S, her partner) passes: Аня declares, Борис is
    dummy. On dummy's turn Аня's DM offers exactly dummy's playable cards and Борис's DM no
    button at all; before the opening lead nobody sees dummy."""
    fake = fake_telegram
    anya, boris = fake.user(1, "Аня"), fake.user(2, "Борис")
    for user in (anya, boris):
        await bot.send(user, user, "/start")
    await bot.send(anya, GROUP, "/bridge")
    await sit(bot, boris, "S")
    for _ in range(2):
        await bot.press(anya, await bot.table_message(GROUP), "+ Компьютер")
    lobby = await bot.table_message(GROUP)
    assert "N. ✅ Аня" in lobby.text and "S. ✅ Борис" in lobby.text
    await bot.press(anya, lobby, "Начать")
    table = await bot.table(GROUP)
    seen = {"dummy_turns": 0}

    async def watch():
        await watch_public(bot, table.id)
        row, state = await bot.state(table.id)
        view = GAME.view(state, None)
        if view["phase"] == "play" and view["declarer"] == 0:
            group = await bot.table_message(GROUP)
            if view["turn"] == 2 and view["to_act"] == [0]:
                seen["dummy_turns"] += 1
                assert "Болван S" in group.text
                hand = await bot.hand_message(table.id, anya)
                assert "Ход с болвана (S)" in hand.text
                buttons = [text for text, _ in fake.buttons(hand)]
                shown = [text for text in buttons if is_card_button(text)]
                legal = [a.split()[1] for a in GAME.legal_actions(state, 0) if a.startswith("play ")]
                if "↩ Назад" in buttons:  # the claim keyboard is open: claims only
                    assert not shown and buttons[0].startswith("Заявить все")
                else:
                    assert shown == [label(c) for c in legal]
                assert set(legal) <= set(view["dummy_hand"])
                dummy_dm = await bot.hand_message(table.id, boris)
                # dummy has no move to make; he may only look back at the tricks (bot.trick_view)
                assert [text for text, _ in fake.buttons(dummy_dm)] in ([], ["📜 Взятки"])
                assert "Вы — болван" in dummy_dm.text
        return any(b.get("declarer") == 0 for b in state.boards)

    chooser = aggressive(anya)
    await bot.play(table.id, [anya, boris], choose=chooser, until=watch, max_moves=3000)
    row, state = await bot.state(table.id)
    assert seen["dummy_turns"] >= 3
    board = next(b for b in state.boards if b.get("declarer") == 0)
    dummy_cards = set(board["hands"][2])
    played_from_dummy = [c for t in board["play"] for s, c in t["plays"] if s == 2]
    assert played_from_dummy and set(played_from_dummy) <= dummy_cards
    actions = await bot.repo.load_actions(table.id)
    # dummy's cards were played by the declarer's seat (0), never by dummy's (2)
    assert all(
        row.seat == 0
        for row in actions
        if row.action.split()[-1] in played_from_dummy and row.action.startswith("play")
    )
    assert any(r.action == "bid 3NT" and r.seat == 0 for r in actions)
    # the claim pressed on the claim keyboard reached the engine as "claim <all the rest>",
    # showed the declarer's hand (the leak check allowed it) and the defenders answered
    claims = [r for r in actions if r.action.startswith("claim")]
    assert chooser.claims == len(claims) >= 1 and all(r.seat == 0 for r in claims)
    answers = [r.action for r in actions if r.action in ("accept", "reject")]
    assert answers and all(r.seat in (1, 3) for r in actions if r.action in ("accept", "reject"))
    sheet = [m for m in fake.messages(GROUP) if "Над чертой" in m.text]
    assert sheet and "3 БК" in sheet[-1].text.replace("\u202f", " ")


EXAMPLE = [  # docs/rules/records.md §2, then a fifth deal that wins the rubber
    ("N", "2", "♥", "без контры", "10 (+2)", "онеров нет"),
    ("E", "4", "♠", "контра X", "8 (−2)", "онеров нет"),
    "passed_out",
    ("S", "6", "БК", "реконтра XX", "12 (=)", "Они: 4 туза"),
    ("N", "4", "♠", "без контры", "10 (=)", "онеров нет"),
]
EXAMPLE_RECORD = {
    "game": "bridge",
    "options": {"preset": "seed"},
    "deals": [
        {"declarer": "N", "contract": "2H", "tricks": 10},
        {"declarer": "E", "contract": "4SX", "tricks": 8},
        {"passed_out": True},
        {"declarer": "S", "contract": "6NTXX", "tricks": 12, "honours": {"side": "EW", "held": 4}},
        {"declarer": "N", "contract": "4S", "tricks": 10},
    ],
}


async def test_score_only_sheet_with_undo(bot, fake_telegram):
    """/score bridge: two people keep the sheet of a paper rubber with the buttons under
    the group message; a wrong deal is undone; the sheets match ``cardbot score``."""
    from engine.games.bridge import record as bridge_record
    from tests.fakebot import render

    fake = fake_telegram
    anya, boris, stranger = fake.user(1, "Аня"), fake.user(2, "Борис"), fake.user(3, "Гоша")
    await bot.send(anya, GROUP, "/score bridge")
    lobby = await bot.table_message(GROUP)
    assert "запись" in lobby.text
    await bot.press(boris, lobby, "Сесть за стол")
    await bot.press(anya, await bot.table_message(GROUP), "▶️ Начать")
    table = await bot.table(GROUP)
    assert (await bot.table_message(GROUP)).text.count("Кто разыгрывал") == 1

    async def press(user, text):
        answer = await bot.press(user, await bot.table_message(GROUP), text)
        assert answer is None or not answer.show_alert, answer

    # a stranger cannot write on the sheet
    answer = await bot.press(stranger, await bot.table_message(GROUP), "N")
    assert "не сидите" in answer.text

    async def enter(steps, users=(anya, boris)):
        if steps == "passed_out":
            await press(users[0], "Все пас")
        else:
            for i, text in enumerate(steps):
                await press(users[i % 2], text)
        await press(anya, "✅ Записать")

    for steps in EXAMPLE[:2]:
        await enter(steps)
    # a wrong deal (3 NT by W): entered, then undone
    await enter(("W", "3", "БК", "без контры", "9 (=)", "онеров нет"))
    assert "Сдача 3: 3\u202fБК, разыгрывал W" in (await bot.last_post(GROUP)).text
    await press(boris, "↩ Отменить последнюю")
    assert "Сдача 3 удалена" in (await bot.last_post(GROUP)).text
    await enter(EXAMPLE[2])
    # NT honours: only the four aces are offered
    for text in EXAMPLE[3][:5]:
        await press(anya, text)
    labels = [t for t, _ in fake.buttons(await bot.table_message(GROUP))]
    assert "Они: 4 туза" in labels and not any(t.endswith(": 5") for t in labels)
    await press(anya, "✖ Отмена")  # changed our mind: the whole entry again
    await enter(EXAMPLE[3])
    four = await bot.last_post(GROUP)
    assert "выиграли партию" in four.text
    # the post says what each summed cell of the sheet is made of (1010 = 60 + 300 + 650)
    assert (
        "Мы: под чертой 760; над чертой 50 (за реконтру) + 500 (малый шлем) + 100 (за партию).\n"
        "Они: над чертой 150 (онеры)."
    ) in four.text
    # the posted sheet is exactly cardbot score --text's sheet for the same deals
    rec = {**EXAMPLE_RECORD, "deals": EXAMPLE_RECORD["deals"][:4]}
    expected = bridge_record.text(rec, "ru").split("\n", 1)[1]
    shown = render(four.history[-1].text, "HTML")
    assert expected.split("\nРоббер не закончен")[0] in shown

    await enter(EXAMPLE[4])
    row, state = await bot.state(table.id)
    assert row.status == "between"
    final = fake.last_message(GROUP)
    summary = bridge_record.score(EXAMPLE_RECORD)["rubbers"][0]
    assert summary["complete"] and summary["games"] == {"NS": 2, "EW": 0}
    totals = summary["totals"]
    assert f"Итого: Мы {totals['NS']} — Они {totals['EW']}" in final.text
    assert f"в вистах (по 100 очков): {summary['settlement']['NS']}." in final.text
    assert "вист(ов)" not in final.text
    assert "Мы +" in final.text  # per player: We +k, They −k


async def set_computer_level(bot, host, wanted: str) -> None:
    """The host presses the lobby's 🤖 button until the computers are at ``wanted``."""
    for _ in range(3):
        if f"Компьютеры: {wanted}" in (await bot.table_message(GROUP)).text:
            return
        await bot.press(host, await bot.table_message(GROUP), lambda text: text.startswith("🤖 "))
    raise AssertionError(f"the lobby never showed the computers at {wanted}")


async def test_the_bidding_box_meanings_with_computers(bot, fake_telegram):
    """Аня with three normal computers (they bid by the system as the strong ones do,
    without the strong level's search, so the test stays quick): on each of her auction turns her DM says what every
    call she may make would show in the computers' system (no extra message: it is the hand
    message's text). She makes the first call it names at her first turn of a deal, and
    once made the computers' explanation of her call says what the preview said."""
    from bot.games.bridge.texts import box_label, preview_lines
    from engine.games.bridge.explain import preview, worth_listing

    fake = fake_telegram
    anya = fake.user(1, "Аня")
    table = await open_table(bot, GROUP, anya, [], computers=3, command="/bridge")
    await set_computer_level(bot, anya, "средние")  # they bid by the system (the tests' default is easy)
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    names = ["Аня", "🤖", "🤖", "🤖"]  # only "a computer sits here" matters to the lines
    plan: dict[int, tuple[str, str]] = {}  # board -> (her call's button, what it would show)
    seen = {"previews": 0, "agreed": 0, "play": 0}

    async def check():
        row, state = await bot.state(table.id)
        view = GAME.view(state, 0)
        hand = (await bot.hand_message(table.id, anya)).text
        if view["phase"] != "auction":
            assert "Что покажет ваша заявка" not in hand
            seen["play"] += view["phase"] == "play"
            return False
        # her turn (the loop asks only then): the bidding box's meanings, as the engine says
        lines = preview_lines(view, names, "ru")
        assert lines and "\n".join(lines) in hand, hand
        assert not CARD_LABEL.search("\n".join(lines))
        seen["previews"] += 1
        board, calls = view["board"], view["auction"]
        if board not in plan:
            listed, _ = worth_listing(preview(calls, view["dealer"]))
            first = next(p for p in listed if p.call != "P")
            line = next(x for x in lines if x.startswith(f"  {box_label(first.call, 'ru')}: "))
            plan[board] = (box_label(first.call, "ru"), line.split(": ", 1)[1])
        elif any(c["seat"] == 0 and c["call"] != "pass" for c in calls):
            # her call made: how the computers read it now is what the preview said
            assert f"  N (Аня): {plan[board][1]}" in hand, (plan[board], hand)
            seen["agreed"] += 1
        return seen["agreed"] >= 1 and seen["play"] >= 1

    def choose(user, buttons, rng):
        texts = {text: data for text, data in buttons}
        board = max(plan, default=None)  # check() has just planned the current deal
        if board is not None and plan[board][0] in texts and not choose.made.get(board):
            choose.made[board] = True
            return texts[plan[board][0]]
        return passive(user, buttons, rng)

    choose.made = {}
    await bot.play(table.id, [anya], choose=choose, until=check, max_moves=3000)
    assert seen["previews"] >= 2 and seen["agreed"] >= 1


async def test_no_meanings_where_the_computers_are_easy(bot, fake_telegram):
    """The easy computers bid by points alone, not by the system: at their table no version
    of Аня's DM says what the calls show or would show in it."""
    fake = fake_telegram
    anya = fake.user(1, "Аня")
    table = await open_table(bot, GROUP, anya, [], computers=3, command="/bridge")
    await set_computer_level(bot, anya, "лёгкие")
    await bot.press(anya, await bot.table_message(GROUP), "Начать")
    seen = {"turns": 0, "bids": 0}

    async def check():  # on each of her turns
        row, state = await bot.state(table.id)
        view = GAME.view(state, 0)
        if view["phase"] == "auction":
            seen["turns"] += 1
            seen["bids"] += any(c["call"] != "pass" for c in view["auction"])
        return seen["turns"] >= 3 and seen["bids"] >= 1

    await bot.play(table.id, [anya], choose=passive, until=check, max_moves=3000)
    dm = [version.text for message in fake.msgs[anya.id].values() for version in message.history]
    assert sum("👉 Ваша заявка." in text for text in dm) >= 3  # her turns to call were drawn
    assert not any("система компьютеров" in text for text in dm)


async def test_no_bidding_box_meanings_at_a_table_of_four_people(bot, fake_telegram):
    """Four people play their own system: no meanings of the computers' system in any DM."""
    fake = fake_telegram
    people = [fake.user(i, name) for i, name in enumerate(("Аня", "Борис", "Вера", "Гоша"), start=1)]
    for user in people:
        await bot.send(user, user, "/start")
    await bot.send(people[0], GROUP, "/bridge")
    for user, seat in zip(people[1:], "ESW"):
        await sit(bot, user, seat)
    await bot.press(people[0], await bot.table_message(GROUP), "Начать")
    table = await bot.table(GROUP)
    for user, call in zip(people, ("1\u202fБК", "Пас", "2\u202f♣")):
        hand = await bot.hand_message(table.id, user)
        assert fake.buttons(hand) and "👉 Ваша заявка." in hand.text  # N deals: each calls in turn
        assert "Что покажет ваша заявка" not in hand.text and "система компьютеров" not in hand.text
        await bot.press(user, hand, call)
    row, state = await bot.state(table.id)
    assert [c.get("level") for c in GAME.view(state, None)["auction"]] == [1, None, 2]
