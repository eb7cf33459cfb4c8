"""Durak throw-ins while the defender is still covering (docs/rules/durak.md §6,
``throw_in``): the windows, the cap inside them, the events, the old dumps, and the
computers playing whole games under the rule."""

from __future__ import annotations

import random

from engine.base import get_game
from engine.games.durak import ai
from engine.games.durak.ai_policy import covers_all
from engine.games.durak.state import State

from .test_durak_rules import mk, opts, play, rejects, types

G = get_game("durak")
ANY = opts(throw_in="any_time")
COVERED = opts(throw_in="all_covered")


def heads_up(o):
    """Seat 0 attacks seat 1; clubs are trumps and the stock is empty."""
    hands = [["7D", "7S", "8H", "QC"], ["8D", "TS", "JS", "KH", "AH"]]
    return mk(o, hands=hands, trump_card="6C", trump_in_stock=False)


def test_the_attacker_throws_in_on_a_cover_before_the_rest_is_covered():
    s, events = play(heads_up(ANY), (0, "attack 7D 7S"))
    assert G.to_act(s) == [1] and s.phase == "defend"  # M is not asked again after his own attack
    s, events = play(s, (1, "beat 7D 8D"))
    # 7S is still open, and the 8 of the cover is on the table: M may throw 8H now
    assert s.phase == "throw" and G.to_act(s) == [0]
    assert G.legal_actions(s, 0) == ["throw 8H", "pass"]
    rejects(s, 1, "beat 7S TS", "not_your_turn")  # D waits while the window is open
    s, events = play(s, (0, "throw 8H"))
    assert events == [{"type": "throw", "seat": 0, "cards": ["8H"], "while_covering": True}]
    assert s.phase == "defend" and [p[0] for p in s.table if p[2] is None] == ["7S", "8H"]
    # D covers both; M has nothing of 7, 8, T or K left: the window is skipped, then bito
    s, events = play(s, (1, "beat 7S TS"))
    assert s.phase == "defend" and G.to_act(s) == [1]
    s, events = play(s, (1, "beat 8H KH"))
    assert "bito" in types(events)


def test_with_all_covered_the_attacker_waits():
    s, _ = play(heads_up(COVERED), (0, "attack 7D 7S"), (1, "beat 7D 8D"))
    assert s.phase == "defend" and G.to_act(s) == [1] and G.legal_actions(s, 0) == []
    s, events = play(s, (1, "beat 7S TS"))
    assert s.phase == "throw" and G.legal_actions(s, 0) == ["throw 8H", "pass"]
    s, events = play(s, (0, "throw 8H"))
    assert events[0]["while_covering"] is False


def test_a_pass_in_the_window_lets_the_defender_go_on_not_bito():
    s, _ = play(heads_up(ANY), (0, "attack 7D 7S"), (1, "beat 7D 8D"))
    s, events = play(s, (0, "pass"))
    assert types(events) == ["pass"] and s.phase == "defend" and G.to_act(s) == [1]
    assert len(s.table) == 2 and s.table[1][2] is None
    # the next cover opens a new window; M holds 8H for the visible 8 again
    s, _ = play(s, (1, "beat 7S TS"))
    assert s.phase == "throw" and G.to_act(s) == [0]


def test_the_other_throwers_may_add_to_the_opening_attack():
    """Three players: seat 2 throws his 7 onto seat 0's opening before seat 1 covers."""
    hands = [["7D", "QS"], ["8D", "9D", "KH", "AH"], ["7H", "JS"]]
    s = mk(ANY, n=3, hands=hands, trump_card="6C", trump_in_stock=False)
    s, _ = play(s, (0, "attack 7D"))
    assert s.phase == "throw" and G.to_act(s) == [2]
    s, events = play(s, (2, "throw 7H"))
    assert events[0]["while_covering"] is True and G.to_act(s) == [1]
    assert [p[0] for p in s.table] == ["7D", "7H"]


def test_the_cap_holds_inside_a_window():
    """Unbeaten cards never outnumber the defender's hand: D holds one card with one
    open, so the window admits nothing and D goes on at once."""
    hands = [["7D", "7S", "8S"], ["8D", "9S"]]
    s = mk(ANY, hands=hands, trump_card="6C", trump_in_stock=False)
    s, _ = play(s, (0, "attack 7D 7S"), (1, "beat 7D 8D"))
    assert s.phase == "defend" and G.to_act(s) == [1]


def test_take_right_after_the_attack_is_a_final_round_as_before():
    s, events = play(heads_up(ANY), (0, "attack 7D 7S"), (1, "take"))
    # M holds no other 7: the final round is skipped, D picks up and M attacks again
    assert types(events)[1:3] == ["take", "pickup"] and s.attacker == 0 and s.phase == "open"


def test_a_dump_from_before_the_option_keeps_the_old_rule():
    """A saved game or record carries every option; one without throw_in was played with
    throw-ins after full covers. A partial dict gets the new default."""
    data = heads_up(ANY).dump()
    del data["options"]["throw_in"]
    assert State.load(data).options.throw_in == "all_covered"
    assert G.initial_state({}, 2).options.throw_in == "any_time"
    assert G.initial_state({"deck_size": 24, "trumps": True}, 2).options.throw_in == "any_time"


def test_covers_all_sees_one_trump_for_two_cards():
    legal = ["beat 7D AC", "beat 7S AC", "take"]
    assert not covers_all(["7D", "7S"], legal)
    assert covers_all(["7D", "7S"], ["beat 7D 8D", "beat 7D AC", "beat 7S AC", "take"])


def test_the_computer_takes_at_once_when_two_open_cards_need_one_trump():
    """Two open cards, one trump for both: beating one would only show more ranks."""
    hands = [["9H", "QS"], ["AC", "6H", "6D"]]
    table = [("7D", 0), ("7S", 0)]
    s = mk(
        ANY,
        hands=hands,
        table=table,
        phase="defend",
        trump_card="6C",
        trump_in_stock=False,
    )
    view = G.view(s, 1)
    for level in ("easy", "normal", "strong"):
        assert ai.computer_action(view, G.legal_actions(s, 1), random.Random(3), level=level) == "take"


def test_the_computer_throws_in_a_low_card_in_a_window():
    s, _ = play(heads_up(ANY), (0, "attack 7D 7S"), (1, "beat 7D 8D"))
    view = G.view(s, 0)
    assert ai.computer_action(view, G.legal_actions(s, 0), random.Random(1), level="normal") == "throw 8H"


def test_seeded_computer_games_finish_under_the_rule():
    windows = early = 0
    for players, level, seed, base in (
        (2, "strong", 4, "podkidnoy"),
        (3, "normal", 7, "podkidnoy"),
        (4, "easy", 2, "perevodnoy"),
    ):
        rng = random.Random(seed)
        o = opts(throw_in="any_time", base_game=base)
        s = G.initial_state(o, players)
        s, _ = G.apply(s, None, G.new_deal(o, players, rng, []))
        steps = 0
        while not G.is_over(s):
            seat = G.to_act(s)[0]
            legal = G.legal_actions(s, seat)
            if s.phase == "throw" and any(p[2] is None for p in s.table):
                windows += 1
            action = ai.computer_action(G.view(s, seat), legal, rng, level=level)
            assert action in legal
            s, events = G.apply(s, seat, action)
            early += sum(1 for e in events if e["type"] == "throw" and e["while_covering"])
            steps += 1
            assert steps < 3000
        assert G.result(s) is not None
    assert windows > 0 and early > 0  # the rule came up, and the computers used it


# ------------------------------------------------------------------------------ the texts
def test_the_dm_and_group_texts_show_the_throw_in_as_it_happens():
    """Seat 0 (Аня) attacks 7♦; the window is open while Борис has not covered: Вера's DM
    asks her to throw in now, the group and Борис see who may; after her 7♥ every card
    on the table says whose it is."""
    from bot.games.durak.ui import group_text, hand_text

    names = ["Аня", "Борис", "Вера"]
    hands = [["7D", "QS"], ["8D", "9D", "KH", "AH"], ["7H", "JS"]]
    s = mk(ANY, n=3, hands=hands, trump_card="6C", trump_in_stock=False)
    s, _ = play(s, (0, "attack 7D"))
    vera = hand_text(G.view(s, 2), names, "ru", "Дурак", G.legal_actions(s, 2))
    assert "👉 Борис ещё отбивается. Подкинете сейчас или пас?" in vera
    boris = hand_text(G.view(s, 1), names, "ru", "Дурак", G.legal_actions(s, 1))
    assert "Борис отбивается; подкинуть сначала может: Вера" in boris
    assert "Борис is covering; may throw in first: Вера" in group_text(G.view(s, None), names, "en", "Durak")
    s, _ = play(s, (2, "throw 7H"))
    boris = hand_text(G.view(s, 1), names, "ru", "Дурак", G.legal_actions(s, 1))
    assert "7♦ (Аня) ← … · 7♥ (Вера) ← …" in boris
    assert "  7♥ (Вера) ← …" in group_text(G.view(s, None), names, "ru", "Дурак")


def test_the_lobby_offers_the_throw_in_rule():
    from bot.games.durak.ui import next_option, option_rows, variant_text

    options = G.Options().model_dump()
    assert ("подкидывание: в любой момент, пока отбиваются", "throw_in") in option_rows(options, "ru")[-1]
    covered = next_option(options, "throw_in")
    assert covered["throw_in"] == "all_covered" and G.Options(**covered).throw_in == "all_covered"
    assert "throw-ins: only once every card is covered" in variant_text(covered, "en")
    assert "подкидывание" not in variant_text(options, "ru")  # the default goes unsaid
    assert next_option(covered, "throw_in")["throw_in"] == "any_time"
