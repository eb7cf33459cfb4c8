"""The bridge renderers: bids never read like cards, keyboards stay small, the HTML is
valid with any names, dummy shows only from the opening lead, the sheet post."""
from __future__ import annotations


import pytest

from bot.games.bridge import BridgeUI, action_rows, bid_text, call_text, contract_text
from bot.games.bridge_score import BridgeScoreUI
from engine.base import get_game
from engine.bridge.auction import BIDS
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
            assert not CARD_LABEL.search(contract_text({"level": level, "strain": strain,
                                                         "doubling": doubling}, lang, " "))
        assert not CARD_LABEL.search(call_text({"call": "bid", "level": level, "strain": strain}, lang))
    assert bid_text(4, "S", "en") == "4\u202f♠" and bid_text(3, "NT", "ru") == "3\u202fБК"


def test_bidding_box_and_card_rows():
    state = start()
    legal = G.legal_actions(state, 0)
    rows, switches = action_rows(legal, G.view(state, 0), "ru", "normal")
    labels = [label for row in rows for label, _ in row]
    assert len(labels) == len(legal) == 36 and switches == []
    assert rows[0] == [("Пас", 0)] and [label for label, _ in rows[1]] == [bid_text(1, s, "ru") for s in "CDHS"] + \
        [bid_text(1, "NT", "ru")]
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
    assert rows[0] == [("Claim all 12", legal.index("claim 12"))]
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
    state, events = run(state, (1, "pass"), (2, "bid 7NT"), (3, "pass"), (0, "pass"), (1, "pass"),
                        (3, "concede"))
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
    for key in ("preset", "first_dealer", "rounding", "score_honours"):
        G.Options(**UI.next_option(options, key))
    rows = UI.option_rows(options, "ru")
    assert sum(len(r) for r in rows) == 4
