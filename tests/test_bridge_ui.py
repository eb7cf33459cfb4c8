"""The bridge renderers: bids never read like cards, keyboards stay small, the HTML is
valid with any names, dummy shows only from the opening lead, the sheet post."""

from __future__ import annotations


import pytest

from bot.games.bridge.texts import bid_text, call_text, contract_text
from bot.games.bridge.ui import BridgeUI, action_rows
from bot.games.bridge.score import BridgeScoreUI
from engine.base import get_game
from engine.games.bridge.auction import BIDS
from engine.cards import label
from tests.e2e import CARD_LABEL
from tests.fakebot import render
from tests.test_bridge_rules import deal_of, hearts_deal, run, start

G = get_game("bridge")
UI = BridgeUI()
NAMES = ["<Аня & Co>", "Борис", "Вера", "Гоша"]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_bids_never_read_like_cards(lang):
    for bid in BIDS:
        level, strain = int(bid[0]), bid[1:]
        for doubling in range(3):
            text = contract_text({"level": level, "strain": strain, "doubling": doubling}, lang)
            assert not CARD_LABEL.search(text), text
            assert not CARD_LABEL.search(
                contract_text({"level": level, "strain": strain, "doubling": doubling}, lang, " ")
            )
        assert not CARD_LABEL.search(call_text({"call": "bid", "level": level, "strain": strain}, lang))
    assert bid_text(4, "S", "en") == "4\u202f♠" and bid_text(3, "NT", "ru") == "3\u202fБК"


def test_bidding_box_and_card_rows():
    state = start()
    legal = G.legal_actions(state, 0)
    rows, switches = action_rows(legal, G.view(state, 0), "ru", "normal")
    labels = [label for row in rows for label, _ in row]
    assert len(labels) == len(legal) == 36 and switches == []
    assert rows[0] == [("Пас", 0)] and [label for label, _ in rows[1]] == [bid_text(1, s, "ru") for s in "CDHS"] + [
        bid_text(1, "NT", "ru")
    ]
    assert sorted(i for row in rows for _, i in row) == list(range(len(legal)))


def test_claim_and_concede_keyboards():
    state = start(hearts_deal())
    state, _ = run(state, (0, "bid 1S"), (1, "pass"), (2, "pass"), (3, "pass"), (1, "play AH"))
    defender = G.legal_actions(state, 3)
    assert defender == []
    state, _ = run(state, (0, "play 2D"))
    legal = G.legal_actions(state, 3)
    rows, switches = action_rows(legal, G.view(state, 3), "en", "normal")
    assert [m for _, m in switches] == ["concede"]
    rows, switches = action_rows(legal, G.view(state, 3), "en", "concede")
    assert rows == [[("Give the declarer the remaining 13", legal.index("concede"))]]
    state, _ = run(state, (3, "play 2C"), (0, "play 2S"))
    legal = G.legal_actions(state, 0)
    rows, switches = action_rows(legal, G.view(state, 0), "en", "normal")
    assert [m for _, m in switches] == ["claim"]
    assert all(CARD_LABEL.fullmatch(label) for row in rows for label, _ in row)
    rows, switches = action_rows(legal, G.view(state, 0), "en", "claim")
    assert rows[0] == [("Claim all the rest (12)", legal.index("claim 12"))]
    assert switches == [("↩ Back", "normal")]
    assert sum(len(r) for r in rows) == 13


def test_group_and_hand_texts_are_valid_html_and_show_dummy_after_the_lead():
    state = start(hearts_deal())
    state, _ = run(state, (0, "bid 1S"), (1, "pass"), (2, "pass"), (3, "pass"))
    header = "Бридж <test>"
    text = UI.group_text(G.view(state, None), NAMES, "ru", header)
    shown = render(text, "HTML")
    assert "&lt;Аня" not in shown and "<Аня & Co>" in shown
    assert "Болван" not in shown and not CARD_LABEL.search(shown)
    for seat in range(4):
        view = G.view(state, seat)
        hand = render(UI.hand_text(view, NAMES, "ru", header, G.legal_actions(state, seat)), "HTML")
        assert set(CARD_LABEL.findall(hand)) == {label(c) for c in view["hand"]}
    state, _ = run(state, (1, "play AH"))
    shown = render(UI.group_text(G.view(state, None), NAMES, "ru", header), "HTML")
    assert "Болван S (Вера)" in shown and "2♦" in shown and "A♥" in shown
    dummy_dm = render(UI.hand_text(G.view(state, 2), NAMES, "ru", header, []), "HTML")
    assert "Вы — болван" in dummy_dm
    declarer_dm = render(UI.hand_text(G.view(state, 0), NAMES, "ru", header, G.legal_actions(state, 0)), "HTML")
    assert "Ход с болвана (S)" in declarer_dm


def test_posts_after_a_deal_and_at_the_end():
    state = start(hearts_deal())
    state, events = run(state, (0, "bid 7NT"), (1, "pass"), (2, "pass"), (3, "pass"), (1, "concede"))
    posts = UI.posts(events, G.view(state, None), NAMES, "en", [])
    assert len(posts) == 1
    shown = render(posts[0], "HTML")
    assert "Board 1: 7\u202fNT by N (<Аня & Co>), 13 tricks — made. (the defenders conceded)" in shown
    assert "We win a game" in shown and "Total" in shown
    state, _ = G.apply(state, None, deal_of(hearts_deal(), dealer=1, board=2))
    state, events = run(state, (1, "pass"), (2, "bid 7NT"), (3, "pass"), (0, "pass"), (1, "pass"), (3, "concede"))
    posts = UI.posts(events, G.view(state, None), NAMES, "en", [G.result(state)])
    assert len(posts) == 2
    final = render(posts[1], "HTML")
    assert "The rubber is over" in final and "We win the rubber 2:0" in final
    k = G.result(state)["units"]["NS"]
    assert f"<Аня & Co> +{k}, Вера +{k}, Борис −{k}, Гоша −{k}" in final


def test_lobby_options_cycle():
    options = G.Options().model_dump()
    assert UI.next_option(options, "preset")["preset"] == "acbl"
    assert UI.next_option(options, "first_dealer")["first_dealer"] == "E"
    assert UI.next_option(options, "rounding")["rounding"] == "down"
    assert UI.next_option(options, "score_honours")["score_honours"] is False
    with pytest.raises(KeyError):
        UI.next_option(options, "unfinished_rubber_bonus")
    assert BridgeScoreUI().next_option(options, "unfinished_rubber_bonus")["unfinished_rubber_bonus"]
    assert UI.next_option(options, "scoring")["scoring"] == "chicago"
    for key in ("preset", "first_dealer", "rounding", "score_honours", "scoring"):
        G.Options(**UI.next_option(options, key))
    rows = UI.option_rows(options, "ru")
    assert sum(len(r) for r in rows) == 5
    # the paper sheet's unfinished-rubber switch only where a rubber can be left unfinished
    paper = BridgeScoreUI()
    assert any(key == "unfinished_rubber_bonus" for row in paper.option_rows(options, "ru") for _, key in row)
    chicago = {**options, "scoring": "chicago"}
    assert not any(key == "unfinished_rubber_bonus" for row in paper.option_rows(chicago, "ru") for _, key in row)


def test_deal_post_says_what_each_summed_cell_is_made_of():
    """A cell above the line adds several premiums up (830 = 30 + 100 + 700); the post
    names them, per side, in the players' words — honours too, whoever holds them."""
    state = start(hearts_deal())
    # N bids 1♠ doubled and redoubled and makes 13 tricks; N holds all five spade honours
    state, events = run(
        state, (0, "bid 1S"), (1, "double"), (2, "redouble"), (3, "pass"), (0, "pass"), (1, "pass"), (1, "concede")
    )
    ru = render(UI.posts(events, G.view(state, None), NAMES, "ru", [])[0], "HTML")
    assert ("Мы: под чертой 120; над чертой 1200 (переборы) + 50 (за реконтру) + 150 (онеры) + 100 (за партию).") in ru
    assert "Они:" not in ru
    en = render(UI.posts(events, G.view(state, None), NAMES, "en", [])[0], "HTML")
    assert (
        "We: below the line 120; above the line 1200 (overtricks) + 50 (for the redouble) + 150 (honours) + 100 (game)."
    ) in en
    # a defeated doubled contract: the defenders' undertricks, the declarer's side's honours
    from bot.games.bridge.sheet_posts import written_lines

    lines = written_lines(
        [
            {"side": "EW", "line": "above", "kind": "undertricks", "points": 500},
            {"side": "NS", "line": "above", "kind": "honours", "points": 150},
        ],
        "ru",
        1,
    )
    assert lines == ["Мы: над чертой 150 (онеры).", "Они: над чертой 500 (недоборы)."]
    assert written_lines([{"side": "NS", "line": "above", "kind": "insult", "points": 50}], "ru", 1) == [
        "Мы: над чертой 50 (за контру)."
    ]


def test_settlement_words_and_a_stopped_paper_rubber():
    """No "вист(ов)"; a rubber stopped early says so once and shows the §7.6 premiums it
    wrote (they are in the totals but on no deal's post)."""
    S = get_game("bridge_score")
    UIS = BridgeScoreUI()
    state = S.initial_state(S.Options(unfinished_rubber_bonus=True), 1)
    state, _ = S.apply(state, None, "deal dealer=N")
    events = []
    for action in (
        "declarer N",
        "level 4",
        "strain S",
        "doubling none",
        "tricks 10",
        "honours none",
        "confirm",
        "declarer E",
        "level 2",
        "strain C",
        "doubling none",
        "tricks 8",
        "honours none",
        "confirm",
        "stop",
        "confirm",
    ):
        state, ev = S.apply(state, 0, action)
        events += ev
    final = render(
        UIS.posts([e for e in events if e["type"] == "game_over"], S.view(state, None), [], "ru", [])[0], "HTML"
    )
    assert final.count("🏁") == 1 and "Роббер остановлен до конца" in final and "окончен" not in final
    assert "Мы: над чертой 300 (партия в незаконченном роббере)." in final
    assert "Они: над чертой 100 (частичная запись в незаконченном роббере)." in final
    # 120 + 100 (game) + 300 = 520 against 40 + 100 = 140: 380 points, 4 units
    assert "Итого: Мы 520 — Они 140" in final
    assert "«Мы» впереди на 380 очков; в вистах (по 100 очков): 4." in final and "(ов)" not in final
    en = render(
        UIS.posts([e for e in events if e["type"] == "game_over"], S.view(state, None), [], "en", [])[0], "HTML"
    )
    assert "We are ahead by 380 points; in units of 100: 4." in en


def test_claim_texts_read_well_with_one_trick_left():
    """ "из оставшихся 1 взяток" was wrong Russian: the numbers now stand in brackets."""
    state = start(hearts_deal())
    state, _ = run(state, (0, "bid 1S"), (1, "pass"), (2, "pass"), (3, "pass"))
    while G.view(state, None)["tricks_played"] < 12:
        seat = G.to_act(state)[0]
        state, _ = G.apply(state, seat, next(a for a in G.legal_actions(state, seat) if a.startswith("play")))
    assert G.to_act(state) == [0]  # N leads to the last trick: he may claim it
    rows, _ = action_rows(G.legal_actions(state, 0), G.view(state, 0), "ru", "claim")
    assert rows[0] == [("Заявить все оставшиеся (1)", 1)]
    claimed, _ = G.apply(state, 0, "claim 1")
    text = render(UI.group_text(G.view(claimed, None), NAMES, "ru", "Бридж"), "HTML")
    assert "N (<Аня & Co>) заявляет взяток: 1 (всего осталось 1) — отвечают защитники." in text
    state, _ = G.apply(state, 0, "play 2S")
    legal = G.legal_actions(state, 1)
    rows, _ = action_rows(legal, G.view(state, 1), "ru", "concede")
    assert rows == [[("Отдать разыгрывающему все оставшиеся взятки (1)", legal.index("concede"))]]
    assert UI.variant_text(G.Options().model_dump(), "ru") == "подсчёт: по книге, +100 за партию"


def test_a_forfeit_post_shows_the_rubber_bonus_it_wrote():
    state = start(hearts_deal())
    state, events = G.apply(state, None, "forfeit 1")  # E's timer ran out: N–S get 700
    final = render(UI.posts(events, G.view(state, None), NAMES, "ru", [])[-1], "HTML")
    assert "Борис: вышло время — роббер за парой «Мы»." in final  # no "У Борис"
    assert "Мы: над чертой 700 (за роббер)." in final and "Итого: Мы 700 — Они 0" in final
    assert "«Мы» впереди на 700 очков; в вистах (по 100 очков): 7." in final


def test_the_computers_calls_are_explained_in_the_dm_with_computers_only():
    """A person sitting with computers sees what every call shows in their system (the
    robots' explanations of online bridge); at a table of people it is not shown."""
    from bot.games.bridge.texts import explanation_lines
    from engine.games.bridge.explain import explain

    bid = lambda level, strain: {"call": "bid", "level": level, "strain": strain}  # noqa: E731
    auction = [bid(1, "NT"), {"call": "pass"}, bid(2, "D"), bid(2, "S")]
    shown = {s.seat: s for s in explain(auction, 0)}
    assert set(shown) == {0, 2, 3}  # E only passed
    assert shown[0].hcp == (15, 17) and shown[0].balanced and not shown[0].note
    assert shown[2].note == "transfer to hearts" and shown[2].forcing and shown[2].suits == (("H", 5, 13),)
    assert explain([{"call": "pass"}] * 3, 0) == []

    view = {"phase": "auction", "auction": auction, "dealer": 0}
    ru = explanation_lines(view, ["🤖 1", "Аня", "🤖 2", "Гоша"], "ru")
    assert ru[0].startswith("Что показывают заявки")
    assert "N (🤖 1): 15–17 очков, равномерная" in ru[1]
    assert ru[2] == "  S (🤖 2): 5+\u202f♥ · трансфер в черви, форсинг"
    assert "W (Гоша)" in ru[3]
    en = explanation_lines(view, ["🤖 1", "Ann", "🤖 2", "Bob"], "en")
    assert en[2].endswith("5+\u202f♥ · transfer to hearts, forcing")
    assert not any(CARD_LABEL.search(line) for line in ru + en)
    assert explanation_lines(view, NAMES, "ru") == []  # four people: their system, not ours
    assert explanation_lines({**view, "phase": "play"}, ["🤖 1", "Ann", "🤖 2", "Bob"], "en") == []


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_named_call_of_the_system_has_its_words(lang):
    from bot.games.bridge.texts import note_key
    from bot.i18n import catalog
    from engine.games.bridge.bidding.system import TABLE

    from engine.games.bridge.explain import BLACKWOOD_ANSWERS

    notes = {m.note for entries in TABLE.values() for m in entries if m.note}
    assert len(notes) > 20
    notes |= {"Blackwood", *BLACKWOOD_ANSWERS.values()}
    missing = [n for n in notes if note_key(n) not in catalog(lang)]
    assert not missing


def test_blackwood_is_named_and_its_answer_shows_no_suit():
    from engine.games.bridge.explain import explain

    calls = ["1C", "P", "1H", "P", "1NT", "P", "4NT", "P", "5S", "P"]  # W deals
    shown = {s.seat: s for s in explain(calls, 3)}
    assert shown[1].note == "Blackwood" and shown[1].forcing
    assert shown[3].note == "3 aces" and not any(suit == "S" for suit, _, _ in shown[3].suits)


def test_any_auction_is_explained_without_error():
    """Random legal auctions, weighted towards bids and doubles (a person may call anything):
    the explanation never fails (it is part of every DM during the auction) and only
    names what it may."""
    import random

    from bot.games.bridge.texts import explanation_lines, preview_lines
    from engine.games.bridge.auction import finished
    from engine.games.bridge.explain import explain
    from tests.test_ai_bridge_bidding import random_auction

    def pick(legal: list[str], r: random.Random) -> str:
        bids = [c for c in legal if c != "P"]
        return r.choice(bids[:6]) if bids and r.random() < 0.6 else "P"

    rng = random.Random(7)
    for _ in range(400):
        dealer = rng.randrange(4)
        calls = random_auction(rng, dealer, pick)
        for k in range(1, len(calls) + 1):  # every stage of the auction, as the DM shows it
            for s in explain(calls[:k], dealer):
                assert s.hcp is None or 0 <= s.hcp[0] <= s.hcp[1]
                assert all(0 <= lo <= hi <= 13 and (lo >= 3 or hi <= 2) for _, lo, hi in s.suits)
        view = {"phase": "auction", "auction": calls, "dealer": dealer}
        lines = explanation_lines(view, ["🤖 1", "Ann", "🤖 2", "Bob"], "en")
        if not finished(calls):  # someone is to call: the bidding box's meanings too
            lines += preview_lines(view, ["🤖 1", "Ann", "🤖 2", "Bob"], "en")
        assert not any(CARD_LABEL.search(line) for line in lines)


WITH_COMPUTERS = ["Аня", "🤖 Ada", "🤖 Alan", "🤖 Grace"]


def to_act(state) -> int:
    return next(seat for seat in range(4) if G.legal_actions(state, seat))


def test_the_bidding_box_says_what_each_call_would_show_with_computers_only():
    """On her turn to call at a table with computers a person's DM says what each call
    would show in their system (BBO's bidding box); the others' DMs and a table of four
    people do not; the lines depend on the calls alone, never on the hand."""
    state, _ = run(start(), (0, "bid 1NT"), (1, "pass"))
    assert to_act(state) == 2
    view = G.view(state, 2)
    en = render(UI.hand_text(view, WITH_COMPUTERS, "en", "Bridge", G.legal_actions(state, 2)), "HTML")
    box = en.split("What your call would show (the computers' system):\n")[1].split("\nYour hand:")[0]
    assert box.splitlines() == [
        "  Pass: 0–7 points",
        "  2\u202f♣: 8+ points · Stayman: asks for a four-card major, forcing",
        "  2\u202f♦: 5+\u202f♥ · transfer to hearts, forcing",
        "  2\u202f♥: 5+\u202f♠ · transfer to spades, forcing",
        "  2\u202fNT: 8–9 points · invitational",
        "  3\u202fNT: 10–15 points",
        "  4\u202fNT: 16–17 points · quantitative: 6NT with a maximum",
        "  6\u202fNT: 18–21 points",
        "  7\u202fNT: 22+ points",
        "  Other calls: natural — a suit shows 4+ cards, the level shows the points.",
    ]
    assert not CARD_LABEL.search(box)
    ru = render(UI.hand_text(view, WITH_COMPUTERS, "ru", "Бридж", G.legal_actions(state, 2)), "HTML")
    assert "Что покажет ваша заявка (система компьютеров):\n  Пас: 0–7 очков\n" in ru
    assert "  2\u202f♣: от 8 очков · Стейман: спрашивает четвёрку в мажоре, форсинг\n" in ru
    assert ru.index("Что покажет ваша заявка") < ru.index("Ваши карты:")  # the hand stays by the buttons
    # not her turn: no preview; four people at the table: none either
    for seat in (0, 1, 3):
        other = render(UI.hand_text(G.view(state, seat), WITH_COMPUTERS, "en", "Bridge", []), "HTML")
        assert "What your call would show" not in other
    people = render(UI.hand_text(view, NAMES, "en", "Bridge", G.legal_actions(state, 2)), "HTML")
    assert "What your call would show" not in people and "What the calls show" not in people
    # another deal, the same calls: the same lines
    other_deal, _ = run(start(hearts_deal()), (0, "bid 1NT"), (1, "pass"))
    again = render(UI.hand_text(G.view(other_deal, 2), WITH_COMPUTERS, "en", "Bridge", ["pass"]), "HTML")
    assert box in again


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_the_meanings_only_where_the_computers_bid_by_the_system(level):
    """The table's level rides in the view (bot.screens.hand): the easy computers bid by
    points alone, so their table shows neither what the calls show nor what hers would."""
    state, _ = run(start(), (0, "bid 1NT"), (1, "pass"))
    view = {**G.view(state, 2), "computer_level": level}
    text = render(UI.hand_text(view, WITH_COMPUTERS, "en", "Bridge", G.legal_actions(state, 2)), "HTML")
    shown = level != "easy"
    assert ("What the calls show (the computers' system):" in text) is shown
    assert ("What your call would show (the computers' system):" in text) is shown
    assert "Your hand:" in text


def test_the_bidding_box_over_an_opening_and_after_blackwood():
    from bot.games.bridge.texts import preview_lines

    bid = lambda call: {"call": "pass"} if call == "P" else {"call": "bid", "level": int(call[0]), "strain": call[1:]}  # noqa: E731
    view = {"phase": "auction", "auction": [bid("1D")], "dealer": 0}
    lines = preview_lines(view, WITH_COMPUTERS, "en")
    assert "  Pass: —" in lines and "  Double (X): 12+ points, ≤2\u202f♦ · takeout double" in lines
    assert "  1\u202f♥: 8–17 points, 5+\u202f♥" in lines
    asked = {"phase": "auction", "auction": [bid(c) for c in ("1H", "P", "3H", "P", "4NT", "P")], "dealer": 0}
    lines = preview_lines(asked, WITH_COMPUTERS, "ru")
    assert "  5\u202f♦: ответ на Блэквуд: 1 туз" in lines and "  5\u202f♠: ответ на Блэквуд: 3 туза" in lines
    assert preview_lines({**view, "phase": "play"}, WITH_COMPUTERS, "en") == []


def test_the_dm_stays_short_on_the_longest_auction():
    """Every call of the longest possible auction (each bid doubled and redoubled, 7 NT
    at the end): the DM of the person to call, with the grid, the explanations and the
    bidding box's meanings, stays far under Telegram's 4096 characters."""
    state = start()
    calls = []
    for bid in BIDS:
        calls += [f"bid {bid}", "double", "redouble"]
    longest = 0
    for action in calls + ["pass", "pass", "pass"]:
        seat = to_act(state)
        for lang in ("ru", "en"):
            text = UI.hand_text(
                G.view(state, seat), WITH_COMPUTERS, lang, "Бридж · стол 12", G.legal_actions(state, seat)
            )
            assert "(система компьютеров)" in text or "(the computers' system)" in text
            longest = max(longest, len(render(text, "HTML")))
        state, _ = G.apply(state, seat, action)
    assert G.view(state, None)["phase"] == "play"
    assert longest < 2000, longest
