"""The preferans family (engine/preferans_family): the pieces the Balkan and the Russian
game share, each on its own, and that both variants really play through them."""

from __future__ import annotations

import pytest

from engine.base import games, get_game
from engine.errors import EngineError
from engine.games.preferans import errors as balkan_errors
from engine.games.preferans import rules as balkan
from engine.preferans_family.deal import DECK, check_deck, one_card, sort_hand, split_deal
from engine.preferans_family.errors import FAMILY_ERRORS
from engine.preferans_family.play import check_card, close_trick, lay_card, legal_cards
from engine.games.preferans_ru import errors as russian_errors
from engine.games.preferans_ru import rules as russian


def code_of(call, *args):
    with pytest.raises(EngineError) as caught:
        call(*args)
    return caught.value.code


# ------------------------------------------------------------------------------ the deal
def test_split_deal_five_talon_five_and_ten_then_talon():
    deck = list(DECK)
    hands, talon = split_deal(deck, [1, 2, 0], first_packet=5)
    assert hands[1] == deck[0:5] + deck[17:22] and hands[2] == deck[5:10] + deck[22:27]
    assert hands[0] == deck[10:15] + deck[27:32] and talon == deck[15:17]
    hands, talon = split_deal(deck, [3, 1, 2], first_packet=10)  # four players, the dealer 0 sits out
    assert hands == {3: deck[0:10], 1: deck[10:20], 2: deck[20:30]} and talon == deck[30:32]


def test_both_variants_deal_ten_each_and_a_talon_of_two_from_one_deck():
    assert balkan.DECK is DECK and russian.DECK is DECK
    for rules, players in ((balkan, 3), (russian, 3), (russian, 4)):
        s = rules.initial_state({}, players)
        s, _ = rules.apply(s, None, "deal dealer=0 " + " ".join(DECK))
        dealt = [c for h in s.hands for c in h] + s.talon
        assert sorted(dealt) == sorted(DECK) and len(s.talon) == 2
        assert sorted(len(h) for h in s.hands) == [0] * (players - 3) + [10, 10, 10]


def test_a_deal_action_must_hold_the_32_cards_once_each():
    check_deck(list(reversed(DECK)))
    assert code_of(check_deck, DECK[:-1] + DECK[:1]) == "bad_deal"
    assert code_of(check_deck, DECK[:-1]) == "bad_deal"
    assert one_card("play 7S", ["7S"]) == ["7S"]
    assert code_of(one_card, "play 1S", ["1S"]) == "bad_syntax"
    assert code_of(one_card, "play", []) == "bad_syntax"


def test_a_hand_sorts_by_the_suit_order_with_the_trumps_first_or_last():
    cards = ["7H", "AS", "KC", "TD", "8S"]
    assert sort_hand(cards, "H", "SDHC", trumps_first=False) == ["AS", "8S", "TD", "KC", "7H"]
    assert sort_hand(cards, "H", "SCDH", trumps_first=True) == ["7H", "AS", "8S", "KC", "TD"]
    assert balkan.sort_cards(cards, None) == ["AS", "8S", "TD", "7H", "KC"]
    assert russian.sort_cards(cards, None) == ["AS", "8S", "KC", "TD", "7H"]


# ------------------------------------------------------------------------------ trick play
def test_follow_suit_else_trump_else_anything():
    hand = ["AS", "7H", "9D"]
    assert legal_cards(hand, "S", "H") == ["AS"]
    assert sorted(legal_cards(hand, "C", "H")) == ["7H"]  # void in the led suit: must trump
    assert sorted(legal_cards(hand, "C", None)) == sorted(hand)
    assert sorted(legal_cards(hand, None, "H")) == sorted(hand)  # a lead
    check_card(hand, "7H", "C", "H")
    assert code_of(check_card, hand, "9D", "C", "H") == "must_follow"
    assert code_of(check_card, hand, "KS", "S", "H") == "not_in_hand"


class _Table:
    def __init__(self) -> None:
        self.hands = [["AS", "7S"], ["KS"], ["QS"]]
        self.trick_leader: int | None = 0
        self.trick: list[list[object]] = []
        self.won = [0, 0, 0]
        self.tricks_played = 0
        self.played: list[list[list[object]]] = []


def test_a_trick_is_laid_card_by_card_and_closed_to_its_winner():
    t = _Table()
    for seat, card in ((0, "AS"), (1, "KS"), (2, "QS")):
        lay_card(t, seat, card)
    assert t.hands == [["7S"], [], []] and t.trick == [[0, "AS"], [1, "KS"], [2, "QS"]]
    events: list[dict[str, object]] = []
    finished = close_trick(t, 0, events)
    assert finished == [[0, "AS"], [1, "KS"], [2, "QS"]] and t.played == [finished] and t.trick == []
    assert t.won == [1, 0, 0] and t.tricks_played == 1
    assert events == [{"type": "trick", "winner": 0, "cards": ["AS", "KS", "QS"], "won": [1, 0, 0]}]


# ------------------------------------------------------------------------------ errors, facades
def test_both_variants_word_the_family_rejections_the_same():
    for code, (_, template) in FAMILY_ERRORS.items():
        assert balkan_errors.ERROR_CODES[code] == template == russian_errors.ERROR_CODES[code]


def test_the_family_registers_no_game_and_the_variants_keep_their_names():
    names = {g.name for g in games()}
    assert {"preferans", "preferans_score", "preferans_ru", "preferans_ru_score"} <= names
    assert not any("family" in name for name in names)
    assert get_game("preferans").seat_range({}) == (3, 3) and get_game("preferans_ru").seat_range({}) == (3, 4)


@pytest.mark.parametrize(
    ("name", "players"), [("preferans_score", 3), ("preferans_ru_score", 3), ("preferans_ru_score", 4)]
)
def test_a_sheet_is_forfeited_only_by_a_seat_at_the_table(name, players):
    g = get_game(name)
    s, _ = g.apply(g.initial_state({}, players), None, "start")
    for bad in ("forfeit", f"forfeit {players}", "forfeit 01", "forfeit -1", "forfeit 1 2"):
        with pytest.raises(EngineError) as caught:
            g.apply(s, None, bad)
        assert caught.value.code == "bad_syntax"
        assert f"forfeit <seat 0-{players - 1}>" in str(caught.value)
    assert code_of(g.apply, s, 0, "forfeit 1") == "system_only"
    t, events = g.apply(s, None, f"forfeit {players - 1}")
    assert g.is_over(t) and events[-1]["type"] == "game_over" and events[-1]["result"]["forfeit"] == players - 1
    assert g.legal_actions(t, 0) == [] and g.to_act(t) == []
