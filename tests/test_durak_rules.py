"""Targeted tests for every durak rule (docs/rules/durak.md)."""

from __future__ import annotations

import json
import random

import pytest

from engine.base import get_game
from engine.cards import make_deck
from engine.games.durak import ERROR_CODES, DurakOptions, beats, tally
from engine.games.durak.state import State
from engine.errors import BadOptions, BadSyntax, EngineError, IllegalAction, NotYourTurn
from tests.test_durak_random import VIEW_KEYS  # the public view's keys

G = get_game("durak")


# ---------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------


def opts(**kw) -> DurakOptions:
    """The table's options; throw-ins wait for a fully covered table unless a test says
    otherwise (most tests here pin the rounds of §6; the throw-in tests set ``throw_in``)."""
    return DurakOptions(**{"throw_in": "all_covered", **kw})


def mk(
    o=None,
    n=2,
    hands=(),
    *,
    stock=(),
    trump_card="6H",
    trump_in_stock=True,
    table=(),
    attacker=0,
    defender=1,
    phase="open",
    bout=2,
    dealer=0,
    finished=None,
    taking=False,
    cands=(),
    ci=0,
    verdict=None,
    decider=None,
) -> State:
    """A mid-game state; every card not placed goes to the discard pile."""
    o = o or opts()
    copies = 2 if o.two_decks else 1
    hands = [list(h) for h in hands] + [[] for _ in range(n - len(hands))]
    stock = list(stock)
    trump = None
    if o.trumps and trump_card:
        trump = trump_card[1]
        if trump_in_stock:
            stock.append(trump_card)
    else:
        trump_card = None
    table = [list(p) + [None] * (5 - len(p)) if len(p) < 5 else list(p) for p in table]
    for p in table:
        if p[3] is None:
            p[3] = False
    used = [c for h in hands for c in h] + stock + [p[0] for p in table] + [p[2] for p in table if p[2]]
    assert len(used) == len(set(used)), "a card placed twice"
    discard = [c for c in make_deck(o.deck_size, copies) if c not in set(used)]
    data = {
        "options": o.model_dump(),
        "players": n,
        "phase": phase,
        "dealer": dealer,
        "lead": "rule",
        "trump": trump,
        "trump_card": trump_card,
        "stock": stock,
        "discard": discard,
        "hands": hands,
        "table": table,
        "attacker": attacker,
        "defender": defender,
        "bout": bout,
        "cands": list(cands),
        "ci": ci,
        "taking": taking,
        "verdict": verdict,
        "decider": decider,
        "finished": finished or [False] * n,
        "result": None,
    }
    return State.load(data)


def deal_action(n, dealer, hands, *, trump_card=None, stock=(), deck_size=36, copies=1, lead="rule"):
    """A deal action that gives each seat ``hands[seat]`` (6 cards each)."""
    deck = make_deck(deck_size, copies)
    order = [None] * (6 * n)
    for seat, cards in enumerate(hands):
        assert len(cards) == 6
        for j, c in enumerate(cards):
            order[j * n + (seat - dealer - 1) % n] = c
    rest = [c for c in deck if c not in set(order) and c != trump_card and c not in stock]
    tail = ([trump_card] if trump_card else []) + list(stock) + rest
    return f"deal dealer={dealer} lead={lead} " + " ".join(order + tail)


def play(s, *moves):
    """Apply ``(seat, action)`` moves; returns the state and all events."""
    events = []
    for seat, action in moves:
        s, ev = G.apply(s, seat, action)
        events += ev
    return s, events


def rejects(s, seat, action, code):
    before = json.dumps(s.dump(), sort_keys=True)
    with pytest.raises(EngineError) as info:
        G.apply(s, seat, action)
    assert info.value.code == code, info.value.reason
    assert info.value.code in ERROR_CODES
    assert info.value.reason and "{" not in info.value.reason
    assert json.dumps(s.dump(), sort_keys=True) == before  # nothing changed
    return info.value


def types(events):
    return [e["type"] for e in events]


def conserved(s):
    cards = list(s.stock) + list(s.discard) + [c for h in s.hands for c in h]
    cards += [p[0] for p in s.table] + [p[2] for p in s.table if p[2]]
    return sorted(cards) == sorted(make_deck(s.options.deck_size, 2 if s.options.two_decks else 1))


# ---------------------------------------------------------------------------------
# §2 beating
# ---------------------------------------------------------------------------------


def test_beats():
    assert beats("9S", "7S", "H")
    assert not beats("7S", "9S", "H")
    assert not beats("9D", "7S", "H")  # another plain suit never beats
    assert beats("6H", "AS", "H")  # any trump beats a plain card
    assert beats("7H", "6H", "H") and not beats("6H", "7H", "H")  # trumps by rank
    assert not beats("AS", "6H", "H")  # a plain card never beats a trump
    assert not beats("6H", "AS", None)  # no trumps: only the suit counts
    assert beats("KS", "QS", None)


def test_identical_cards_never_beat_two_decks():
    assert not beats("7S#1", "7S#2", "H")
    assert not beats("7S#2", "7S#1", "H")
    assert not beats("7H#1", "7H#2", "H")  # not even a trump its twin
    s = mk(
        opts(two_decks=True),
        hands=[["8S#1", "9D#1"], ["7S#2", "KD#1"]],
        trump_card="6H#1",
        phase="defend",
        table=[("7S#1", 0)],
    )
    rejects(s, 1, "beat 7S#1 7S#2", "does_not_beat")
    assert "beat 7S#1 7S#2" not in G.legal_actions(s, 1)


# ---------------------------------------------------------------------------------
# §3 deal
# ---------------------------------------------------------------------------------


def test_deal_one_at_a_time_from_dealers_left_and_trump_under_stock():
    deck = make_deck(36)
    s = G.initial_state(opts(), 3)
    action = "deal dealer=1 lead=rule " + " ".join(deck)
    s, ev = G.apply(s, None, action)
    assert s.hands[2] == deck[0:18:3]  # the dealer's left neighbour first
    assert s.hands[0] == deck[1:18:3]
    assert s.hands[1] == deck[2:18:3]  # the dealer last
    assert s.trump_card == deck[18] and s.trump == deck[18][1]
    assert s.stock[-1] == deck[18]  # the turned card is drawn last
    assert s.stock[0] == deck[19]  # drawing takes the top
    assert len(s.stock) == 18
    v = G.view(s, None)
    assert v["trump_card"] == deck[18] and v["trump_in_stock"] and v["stock"] == 18
    assert ev[0]["type"] == "deal" and ev[0]["trump_card"] == deck[18]
    assert conserved(s)


@pytest.mark.parametrize("n,size", [(6, 36), (4, 24)])
def test_no_stock_dealers_last_card_shows_trump(n, size):
    deck = make_deck(size)
    rng = random.Random(n)
    rng.shuffle(deck)
    s = G.initial_state(opts(deck_size=size), n)
    s, ev = G.apply(s, None, "deal dealer=2 lead=rule " + " ".join(deck))
    assert s.stock == []
    assert s.trump_card == deck[-1] and s.trump == deck[-1][1]
    assert deck[-1] in s.hands[2]  # stays in the dealer's hand
    v = G.view(s, 0)
    assert v["trump_card"] == deck[-1] and not v["trump_in_stock"] and v["stock"] == 0
    assert all(len(h) == 6 for h in s.hands)


def test_no_trump_deal_turns_no_card():
    deck = make_deck(36)
    s = G.initial_state(opts(trumps=False), 2)
    s, _ = G.apply(s, None, "deal dealer=0 lead=rule " + " ".join(deck))
    assert s.trump is None and s.trump_card is None
    assert s.stock == deck[12:]
    assert not G.view(s, None)["trump_in_stock"]


def test_bad_deals_are_rejected():
    s = G.initial_state(opts(), 2)
    deck = make_deck(36)
    rejects(s, None, "deal dealer=0 lead=rule " + " ".join(deck[:-1]), "bad_deal")
    rejects(s, None, "deal dealer=0 lead=rule " + " ".join(deck + deck[:1]), "bad_deal")
    rejects(s, None, "deal dealer=5 lead=rule " + " ".join(deck), "bad_deal")
    rejects(s, None, "deal dealer=0 lead=left " + " ".join(deck), "bad_deal")  # trump_rule
    rejects(s, None, "deal 0 " + " ".join(deck), "bad_syntax")
    rejects(s, None, "deal dealer=0 lead=rule 1X " + " ".join(deck), "bad_syntax")
    rejects(s, 0, "deal dealer=0 lead=rule " + " ".join(deck), "system_only")
    rejects(s, 0, "attack 7S", "not_your_turn")
    t, _ = G.apply(s, None, "deal dealer=0 lead=rule " + " ".join(deck))
    rejects(t, None, "deal dealer=0 lead=rule " + " ".join(deck), "wrong_phase")


def test_new_deal_dealer_rules():
    o = opts()
    rng = random.Random(3)
    first = G.new_deal(o, 4, rng, [])
    d0 = int(first.split()[1].split("=")[1])
    assert 0 <= d0 < 4 and " lead=rule " in first
    cards = first.split()[3:]
    assert sorted(cards) == sorted(make_deck(36))
    # later games: the durak deals; after a draw the same dealer again
    assert G.new_deal(o, 4, rng, [{"durak": 2, "by_52": False, "dealer": 0}]).startswith("deal dealer=2 lead=rule ")
    assert G.new_deal(o, 4, rng, [{"draw": True, "dealer": 3}]).startswith("deal dealer=3 ")
    assert G.new_deal(o, 4, rng, [{"game_no": 1, "dealer": 1, "result": {"draw": True}}]).startswith("deal dealer=1 ")
    # dealer_left: the left neighbour of the new dealer leads, except after a draw
    left = opts(next_game_leader="dealer_left")
    assert G.new_deal(left, 4, rng, []).split()[2] == "lead=rule"
    assert G.new_deal(left, 4, rng, [{"durak": 2, "by_52": False}]).startswith("deal dealer=2 lead=left ")
    assert G.new_deal(left, 4, rng, [{"draw": True, "dealer": 3}]).startswith("deal dealer=3 lead=rule ")
    # deterministic for a seed
    assert G.new_deal(o, 3, random.Random(9), []) == G.new_deal(o, 3, random.Random(9), [])


# ---------------------------------------------------------------------------------
# §4 first attacker
# ---------------------------------------------------------------------------------

FILL = {  # six-card hands without hearts for 3 players (36 cards, trump hearts)
    0: ["6S", "7S", "8S", "6D", "7D", "8D"],
    1: ["9S", "TS", "JS", "9D", "TD", "JD"],
    2: ["QS", "KS", "6C", "QD", "KD", "7C"],
}


def first(hands, trump_card, n=3, dealer=0, **o):
    o = opts(**o)
    s = G.initial_state(o, n)
    s, ev = G.apply(
        s,
        None,
        deal_action(n, dealer, hands, trump_card=trump_card, deck_size=o.deck_size, copies=2 if o.two_decks else 1),
    )
    return s.attacker, s.defender, ev[0]["first_by"]


def test_lowest_trump_leads_when_trump_card_below_queen():
    hands = [FILL[0][:5] + ["9H"], FILL[1][:5] + ["7H"], FILL[2][:5] + ["AH"]]
    assert first(hands, "JH") == (1, 2, "lowest_trump")


def test_highest_trump_leads_from_queen():
    hands = [FILL[0][:5] + ["9H"], FILL[1][:5] + ["7H"], FILL[2][:5] + ["KH"]]
    assert first(hands, "QH") == (2, 0, "highest_trump")
    # high_trump_from moves the boundary: J is "high" with high_trump_from=J
    hands = [FILL[0][:5] + ["9H"], FILL[1][:5] + ["7H"], FILL[2][:5] + ["KH"]]
    assert first(hands, "JH", high_trump_from="J") == (2, 0, "highest_trump")
    assert first(hands, "QH", high_trump_from="K") == (1, 2, "lowest_trump")


def test_nobody_holds_a_trump_highest_card_leads_ties_clockwise_from_dealers_left():
    hands = [FILL[0][:5] + ["AS"], FILL[1][:5] + ["AD"], FILL[2][:5] + ["AC"]]
    # every hand holds an ace; dealer 1 -> seat 2 is first clockwise from his left
    assert first(hands, "6H", dealer=1) == (2, 0, "highest_card")
    assert first(hands, "6H", dealer=2) == (0, 1, "highest_card")
    hands = [FILL[0][:5] + ["KC"], FILL[1][:5] + ["AD"], FILL[2][:5] + ["8C"]]
    assert first(hands, "6H", dealer=1)[0] == 1


def test_identical_trumps_two_decks_tie_goes_clockwise_from_dealers_left():
    hands = [
        ["6S#1", "7S#1", "8S#1", "6D#1", "7D#1", "7H#1"],
        ["9S#1", "TS#1", "JS#1", "9D#1", "TD#1", "7H#2"],
        ["QS#1", "KS#1", "6C#1", "QD#1", "KD#1", "8H#1"],
    ]
    assert first(hands, "9H#1", dealer=0, two_decks=True)[0] == 1
    assert first(hands, "9H#1", dealer=1, two_decks=True)[0] == 0
    assert first(hands, "9H#1", dealer=2, two_decks=True)[0] == 0


def test_no_trump_variant_highest_card_leads():
    hands = [FILL[0][:5] + ["AH"], FILL[1][:5] + ["KH"], FILL[2][:5] + ["6H"]]
    assert first(hands, None, trumps=False) == (0, 1, "highest_card")


def test_six_players_shown_trump_counts_as_dealers():
    hands = [
        ["7S", "8S", "6H", "7H", "8H", "9H"],
        ["9S", "TS", "TH", "JH", "QH", "KH"],
        ["JS", "QS", "AH", "6D", "7D", "8D"],
        ["KS", "AS", "9D", "TD", "JD", "QD"],
        ["KD", "AD", "6C", "7C", "8C", "9C"],
        ["TC", "JC", "QC", "KC", "AC", "6S"],
    ]
    s = G.initial_state(opts(), 6)
    s, ev = G.apply(s, None, deal_action(6, 5, hands))  # the dealer (5) gets 6S last
    assert s.trump_card == "6S" and "6S" in s.hands[5] and s.stock == []
    assert (s.attacker, ev[0]["first_by"]) == (5, "lowest_trump")


def test_dealer_left_leads_games_after_the_first():
    o = opts(next_game_leader="dealer_left")
    hands = [FILL[0][:5] + ["9H"], FILL[1][:5] + ["7H"], FILL[2][:5] + ["AH"]]
    s = G.initial_state(o, 3)
    s, ev = G.apply(s, None, deal_action(3, 2, hands, trump_card="JH", lead="left"))
    assert (s.attacker, s.defender, ev[0]["first_by"]) == (0, 1, "dealer_left")
    s = G.initial_state(o, 3)
    s, ev = G.apply(s, None, deal_action(3, 2, hands, trump_card="JH", lead="rule"))
    assert s.attacker == 1


def test_first_attacker_may_lead_any_card():
    hands = [FILL[0][:5] + ["9H"], FILL[1][:5] + ["7H"], FILL[2][:5] + ["AH"]]
    s = G.initial_state(opts(), 3)
    s, _ = G.apply(s, None, deal_action(3, 0, hands, trump_card="JH"))
    assert s.attacker == 1
    s, ev = G.apply(s, 1, "attack TD")
    assert ev == [{"type": "attack", "seat": 1, "cards": ["TD"]}]


# ---------------------------------------------------------------------------------
# §5 cap, first_bout_five, legal action order
# ---------------------------------------------------------------------------------


def test_cap_b_defenders_hand():
    s = mk(hands=[["7S", "7H", "7D", "AC"], ["8C", "9C"]])
    rejects(s, 0, "attack 7S 7H 7D", "too_many_cards")
    assert G.legal_actions(s, 0) == ["attack 7S", "attack 7H", "attack 7D", "attack AC", "attack 7S 7H"]
    # any legal subset is accepted, not only the offered group
    t, _ = G.apply(s, 0, "attack 7D 7H")
    assert [p[0] for p in t.table] == ["7D", "7H"]


def test_cap_a_max_attack_cards_ends_round_at_once():
    o = opts(max_attack_cards=2)
    s = mk(o, hands=[["7S", "7H", "7D", "AC"], ["8S", "8H", "KD", "QC", "JC", "TC"]])
    rejects(s, 0, "attack 7S 7H 7D", "too_many_cards")
    s, ev = play(s, (0, "attack 7S 7H"), (1, "beat 7S 8S"), (1, "beat 7H 8H"))
    assert "bito" in types(ev)  # M holds 7D, but L = 2 cards are down
    assert s.phase == "open" and s.attacker == 1


def test_cap_without_transfers_is_d_hand_at_bout_start():
    # D holds 2: after beating one card he holds 1 and one more may come (2 in all)
    s = mk(n=3, hands=[["7S", "AD"], ["8S", "KC"], ["7H", "7D"]], trump_card="6H", trump_in_stock=False)
    s, _ = play(s, (0, "attack 7S"), (1, "beat 7S 8S"))
    assert G.to_act(s) == [2]  # M holds no 7 or 8: auto-passed
    assert G.legal_actions(s, 2) == ["throw 7H", "throw 7D", "pass"]
    rejects(s, 2, "throw 7H 7D", "too_many_cards")
    s, ev = G.apply(s, 2, "throw 7H")
    assert len(s.table) == 2


def test_first_bout_five():
    o = opts(two_decks=True, first_bout_five=True)
    sevens = ["7S#1", "7S#2", "7H#1", "7H#2", "7D#1", "7D#2"]
    dh = ["8S#1", "8H#1", "8D#1", "9S#1", "9H#1", "9D#1"]
    s = mk(o, hands=[sevens, dh], trump_card="6C#1", bout=1)
    rejects(s, 0, "attack " + " ".join(sevens), "too_many_cards")
    groups = [a for a in G.legal_actions(s, 0) if len(a.split()) > 2]
    assert len(groups) == 1 and len(groups[0].split()) == 6  # verb + 5 cards
    s2 = mk(o, hands=[sevens, dh], trump_card="6C#1", bout=2)
    t, _ = G.apply(s2, 0, "attack " + " ".join(sevens))
    assert len(t.table) == 6
    # off: six in the first bout too
    s3 = mk(opts(two_decks=True), hands=[sevens, dh], trump_card="6C#1", bout=1)
    G.apply(s3, 0, "attack " + " ".join(sevens))


def test_legal_action_order():
    s = mk(hands=[["AC", "7H", "6C", "7S", "6D", "7C"], ["8D", "9D", "TD", "JD", "QD", "KD"]], trump_card="6H")
    assert G.legal_actions(s, 0) == [  # rank first, then suit S H D C; groups
        "attack 6D",
        "attack 6C",
        "attack 7S",
        "attack 7H",
        "attack 7C",
        "attack AC",
        "attack 6D 6C",
        "attack 7S 7H 7C",
    ]
    assert G.legal_actions(s, 1) == []
    s, _ = G.apply(s, 0, "attack 6D")
    assert G.legal_actions(s, 1) == [
        "beat 6D 8D",
        "beat 6D 9D",
        "beat 6D TD",
        "beat 6D JD",
        "beat 6D QD",
        "beat 6D KD",
        "take",
    ]


# ---------------------------------------------------------------------------------
# §6 throw-ins
# ---------------------------------------------------------------------------------


def test_throw_in_visible_ranks_and_candidate_order():
    # 4 players; M = 2, D = 3: candidates are 2, then 0, then 1 (clockwise from D's left)
    hands = [["9H", "KC"], ["9D", "AD"], ["7S", "7D", "QC"], ["9S", "TS", "JS", "JD"]]
    s = mk(n=4, hands=hands, attacker=2, defender=3, trump_card="6H", trump_in_stock=False)
    s, _ = play(s, (2, "attack 7S"), (3, "beat 7S 9S"))
    assert s.phase == "throw" and G.to_act(s) == [2]  # M first
    assert G.legal_actions(s, 2) == ["throw 7D", "pass"]
    rejects(s, 2, "throw QC", "rank_not_on_table")
    rejects(s, 0, "throw 9H", "not_your_turn")
    s, ev = G.apply(s, 2, "pass")
    assert G.to_act(s) == [0]  # then D's left neighbour
    rejects(s, 0, "throw KC", "rank_not_on_table")
    s, ev = G.apply(s, 0, "throw 9H")  # a cover's rank is visible
    assert s.phase == "defend" and G.to_act(s) == [3]
    rejects(s, 3, "beat 9H JD", "does_not_beat")
    s, ev = G.apply(s, 3, "take")
    assert s.phase == "final" and G.to_act(s) == [2]  # FINAL: M first again
    s, ev = G.apply(s, 2, "throw 7D")
    assert G.to_act(s) == [1]  # 0 has nothing: auto-pass
    s, ev = G.apply(s, 1, "throw 9D")
    assert "pickup" in types(ev)
    assert ev[types(ev).index("pickup")] == {"type": "pickup", "seat": 3, "count": 5}
    assert s.attacker == 0 and s.defender == 1  # D loses his turn


def test_new_throw_round_starts_from_m_again():
    hands = [["7D", "KD"], ["8D", "KH", "KS"], ["7H", "AS"]]
    s = mk(n=3, hands=hands, trump_card="6C", trump_in_stock=False)
    s, _ = play(s, (0, "attack 7D"), (1, "beat 7D 8D"))
    assert G.to_act(s) == [2]  # M holds no 7/8: skipped
    s, _ = G.apply(s, 2, "throw 7H")
    assert G.to_act(s) == [1]
    rejects(s, 1, "beat 7H KS", "does_not_beat")
    s, _ = G.apply(s, 1, "beat 7H KH")
    assert s.phase == "throw" and G.to_act(s) == [0]  # a new round: M first again
    assert G.legal_actions(s, 0) == ["throw KD", "pass"]


def test_prostoy_only_m_throws():
    o = opts(base_game="prostoy")
    hands = [["7D", "KC", "AH"], ["9D", "TS", "JS"], ["7H", "9S"]]
    s = mk(o, n=3, hands=hands, trump_card="6H", trump_in_stock=False)
    s, ev = play(s, (0, "attack 7D"), (1, "beat 7D 9D"))
    # seat 2 holds 7H and 9S of visible ranks but is no thrower; M has none: bito
    assert "bito" in types(ev)
    assert s.attacker == 1 and s.defender == 2


def test_fully_beaten_table_cannot_be_taken_and_d_may_not_pass():
    s = mk(n=3, hands=[["7D", "7H"], ["9D", "TS", "JS"], ["QC"]], trump_card="6H", trump_in_stock=False)
    s, _ = play(s, (0, "attack 7D"), (1, "beat 7D 9D"))
    assert G.to_act(s) == [0]
    rejects(s, 1, "take", "not_your_turn")
    s2 = mk(hands=[["7S"], ["8S", "9S"]], phase="defend", table=[("7D", 0)], trump_card="6H", trump_in_stock=False)
    rejects(s2, 1, "pass", "wrong_phase")


# ---------------------------------------------------------------------------------
# §7 end of a bout, refill, finished players, draw
# ---------------------------------------------------------------------------------


def test_bito_refill_order_and_next_attacker():
    # 4 players, M = 2, D = 3; stock: 4C, 4D? (36 cards: use 8C, KS) then the trump card
    hands = [
        ["9D", "AC", "AS", "QS", "7D", "8H"],
        ["6S", "6D", "6C", "7C", "8D", "QC"],
        ["9C", "KC", "KD", "KH", "AD", "AH"],
        ["TC", "JD", "7S", "8S", "9S", "TS"],
    ]
    s = mk(n=4, hands=hands, attacker=2, defender=3, stock=["8C", "JS"], trump_card="6H")
    s, ev = play(s, (2, "attack 9C"), (3, "beat 9C TC"))
    assert G.to_act(s) == [0]  # M holds no 9/T: auto-pass; 0 holds 9D
    s, ev = play(s, (0, "throw 9D"), (3, "beat 9D JD"))
    assert "bito" in types(ev)
    draws = [(e["seat"], e["count"]) for e in ev if e["type"] == "draw_cards"]
    assert draws == [(2, 1), (0, 1), (3, 1)]  # M, then clockwise from D's left, D last
    assert "8C" in s.hands[2] and "JS" in s.hands[0] and "6H" in s.hands[3]
    assert s.stock == [] and len(s.hands[3]) == 5
    assert (s.attacker, s.defender) == (3, 0)  # bito: D attacks next
    assert ev[-1] == {"type": "bout", "bout": 3, "attacker": 3, "defender": 0}
    assert len(s.discard) == len(mk(n=4, hands=hands, stock=["8C", "JS"]).discard) + 4


def test_finished_player_is_skipped_and_d_finished_passes_lead_on():
    # stock empty; seat 0 attacks with his last card: he is finished after the bout
    s = mk(n=3, hands=[["7S"], ["9S", "KD", "QD"], ["8D", "AC"]], trump_card="6H", trump_in_stock=False)
    s, ev = play(s, (0, "attack 7S"), (1, "beat 7S 9S"))
    assert {"type": "finished", "seat": 0} in ev
    assert s.finished == [True, False, False]
    assert (s.attacker, s.defender) == (1, 2)
    s, ev = play(s, (1, "attack KD"), (2, "take"))
    # next active after D=2 skips finished seat 0
    assert (s.attacker, s.defender) == (1, 2)
    assert G.view(s, None)["finished"] == [True, False, False]
    # bito where D beat with his last card: the next active player after D leads
    s = mk(n=3, hands=[["7S", "QD"], ["9S"], ["8D", "AC"]], trump_card="6H", trump_in_stock=False)
    s, ev = play(s, (0, "attack 7S"), (1, "beat 7S 9S"))
    assert "bito" in types(ev) and s.finished[1]
    assert (s.attacker, s.defender) == (2, 0)


def test_durak_and_draw():
    s = mk(hands=[["7S"], ["9S"]], trump_card="6H", trump_in_stock=False, dealer=1)
    s, ev = play(s, (0, "attack 7S"), (1, "beat 7S 9S"))
    # both went out on the last beat: one group of the order they went out
    assert G.is_over(s) and G.result(s) == {"draw": True, "dealer": 1, "out": [[0, 1]]}
    assert ev[-1] == {"type": "game_over", "result": {"draw": True, "dealer": 1, "out": [[0, 1]]}}
    assert G.view(s, None)["phase"] == "over" and G.to_act(s) == []
    s = mk(hands=[["7S"], ["6S", "8H"]], trump_card="6H", trump_in_stock=False)
    s, ev = play(s, (0, "attack 7S"), (1, "take"))
    assert G.result(s) == {"durak": 1, "by_52": False, "dealer": 0, "out": [[0]]}
    rejects(s, 1, "attack 7S", "game_over")
    assert G.legal_actions(s, 1) == []


def test_pickup_takes_covers_and_face_down_cards_too():
    o = opts(blind_beating=True)
    s = mk(o, n=3, hands=[["7S", "7D", "QC"], ["9S", "KD", "8C", "JD"], ["AC"]], trump_card="6H", trump_in_stock=False)
    s, _ = play(s, (0, "attack 7S 7D"), (1, "blind 7D 8C"), (0, "accept"))
    assert s.phase == "defend"
    s, ev = G.apply(s, 1, "take")
    assert {"type": "pickup", "seat": 1, "count": 3} in ev
    assert "8C" in s.hands[1] and "8C" not in json.dumps(ev)


# ---------------------------------------------------------------------------------
# §8 transfer
# ---------------------------------------------------------------------------------


def test_transfer_example_1():
    o = opts(base_game="perevodnoy")
    s = mk(o, n=3, hands=[["8S", "AC"], ["8D", "KC", "KD"], ["6C", "6D", "7C"]], trump_card="6H", trump_in_stock=False)
    s, _ = G.apply(s, 0, "attack 8S")
    assert "transfer 8D" in G.legal_actions(s, 1)
    s, ev = G.apply(s, 1, "transfer 8D")
    assert ev == [{"type": "transfer", "seat": 1, "card": "8D", "to": 2}]
    assert (s.attacker, s.defender) == (1, 2) and s.phase == "defend"
    assert [(p[0], p[1]) for p in s.table] == [("8S", 0), ("8D", 1)]
    s, ev = G.apply(s, 2, "take")  # nobody holds an 8: picked up at once
    assert {"type": "pickup", "seat": 2, "count": 2} in ev
    assert (s.attacker, s.defender) == (0, 1)


def test_transfer_only_before_beating_in_perevodnoy():
    hands = [["8S", "8C", "AC"], ["9S", "8D", "KC", "KD"], ["6C", "6D", "7C", "QS"]]
    s = mk(opts(base_game="perevodnoy"), n=3, hands=hands, trump_card="6H", trump_in_stock=False)
    s, _ = play(s, (0, "attack 8S 8C"), (1, "beat 8S 9S"))
    rejects(s, 1, "transfer 8D", "transfer_after_beat")
    assert not any(a.startswith("transfer") for a in G.legal_actions(s, 1))
    s = mk(opts(base_game="perevodnoy_after_beating"), n=3, hands=hands, trump_card="6H", trump_in_stock=False)
    s, _ = play(s, (0, "attack 8S 8C"), (1, "beat 8S 9S"))
    s, _ = G.apply(s, 1, "transfer 8D")
    assert (s.attacker, s.defender) == (1, 2)
    assert [p[:3] for p in s.table] == [("8S", 0, "9S"), ("8C", 0, None), ("8D", 1, None)]


def test_transfer_example_2_after_beating():
    o = opts(base_game="perevodnoy_after_beating")
    hands = [["7C", "9H", "AD"], ["9C", "9S", "KD", "QD"], ["6C", "6D", "AH"]]
    s = mk(o, n=3, hands=hands, trump_card="6H", trump_in_stock=False)
    s, _ = play(s, (0, "attack 7C"), (1, "beat 7C 9C"), (0, "throw 9H"), (1, "transfer 9S"))
    assert (s.attacker, s.defender) == (1, 2)
    assert [p[:3] for p in s.table] == [("7C", 0, "9C"), ("9H", 0, None), ("9S", 1, None)]
    # P3 must beat 9H and 9S; the M now is P2 and throws first
    s, _ = play(s, (2, "beat 9H AH"))
    rejects(s, 2, "beat 9S 6D", "does_not_beat")


def test_two_player_transfer_back_and_round_the_table():
    o = opts(base_game="perevodnoy", blind_beating=True)
    s = mk(o, hands=[["8S", "8H", "AC"], ["8D", "KC", "KD", "QD"]], trump_card="6H", trump_in_stock=False)
    s, _ = play(s, (0, "attack 8S"), (1, "transfer 8D"))
    assert (s.attacker, s.defender) == (1, 0)  # back to its author
    s, _ = G.apply(s, 0, "transfer 8H")
    assert (s.attacker, s.defender) == (0, 1)
    assert [p[1] for p in s.table] == [0, 1, 0]


def test_transfer_limits():
    o = opts(base_game="perevodnoy")
    # N holds one card: two unbeaten cards would not fit
    s = mk(o, n=3, hands=[["8S", "AC"], ["8D", "KC"], ["6C"]], trump_card="6H", trump_in_stock=False)
    s, _ = G.apply(s, 0, "attack 8S")
    e = rejects(s, 1, "transfer 8D", "too_many_cards")
    assert e.params == {"limit": 0}
    assert G.legal_actions(s, 1) == ["take"]
    # L counts every attack card on the table
    o1 = opts(base_game="perevodnoy", max_attack_cards=1)
    s = mk(o1, n=3, hands=[["8S", "AC"], ["8D", "KC"], ["6C", "7C"]], trump_card="6H", trump_in_stock=False)
    s, _ = G.apply(s, 0, "attack 8S")
    rejects(s, 1, "transfer 8D", "too_many_cards")
    # the rank must match; the game must be a transfer game
    s = mk(o, n=3, hands=[["8S", "AC"], ["8D", "9D"], ["6C", "7C"]], trump_card="6H", trump_in_stock=False)
    s, _ = G.apply(s, 0, "attack 8S")
    rejects(s, 1, "transfer 9D", "transfer_rank")
    rejects(s, 1, "transfer 8C", "not_in_hand")
    s = mk(opts(), n=3, hands=[["8S", "AC"], ["8D", "9D"], ["6C", "7C"]], trump_card="6H", trump_in_stock=False)
    s, _ = G.apply(s, 0, "attack 8S")
    rejects(s, 1, "transfer 8D", "no_transfer")


def test_transfer_skips_finished_players_and_m_draws_first():
    o = opts(base_game="perevodnoy")
    # seat 2 is finished (stock empty, no cards): the transfer goes to seat 3
    s = mk(
        o,
        n=4,
        hands=[["8S", "AC"], ["8D", "KC"], [], ["6C", "7C"]],
        trump_card="6H",
        trump_in_stock=False,
        finished=[False, False, True, False],
    )
    s, _ = play(s, (0, "attack 8S"), (1, "transfer 8D"))
    assert (s.attacker, s.defender) == (1, 3)


# ---------------------------------------------------------------------------------
# §9 blind beating
# ---------------------------------------------------------------------------------


def blind_state(n=3, **kw):
    o = opts(blind_beating=True, **kw)
    hands = [["7S", "KH", "QS"], ["9S", "KD", "8C", "JD"], ["AC", "7D", "KC"]][:n]
    return mk(o, n=n, hands=hands, trump_card="6H", trump_in_stock=False)


def test_blind_accept_hides_the_card_for_good():
    s = blind_state()
    s, ev = play(s, (0, "attack 7S"))
    assert "blind 7S KD" in G.legal_actions(s, 1)
    s, ev = G.apply(s, 1, "blind 7S KD")  # KD does not beat 7S: a bluff
    assert ev == [{"type": "blind", "seat": 1, "attack": "7S"}]
    assert s.phase == "verdict" and G.to_act(s) == [0]
    assert G.legal_actions(s, 0) == ["accept", "challenge"]
    for seat in (None, 0, 2):
        v = G.view(s, seat)
        assert v["table"] == [{"attack": "7S", "by": 0, "cover": None, "hidden": True}]
        assert "KD" not in json.dumps(v)
    assert G.view(s, 1)["table"][0]["cover"] == "KD"
    s, ev = G.apply(s, 0, "accept")
    assert ev[0] == {"type": "accept", "seat": 0, "attack": "7S", "auto": False}
    # the face-down card shows no rank: KH/KC cannot be thrown in on it
    assert s.phase == "throw" and G.to_act(s) == [2]  # 2 holds 7D (rank 7)
    assert "throw KC" not in G.legal_actions(s, 2)
    rejects(s, 2, "throw KC", "rank_not_on_table")
    s, ev = G.apply(s, 2, "pass")
    assert "bito" in types(ev) and "KD" not in json.dumps(ev)
    assert "KD" in s.discard
    assert (s.attacker, s.defender) == (1, 2)


def test_blind_challenge_legal_challenger_picks_up_d_leads():
    s = blind_state()
    s, _ = play(s, (0, "attack 7S"), (1, "blind 7S 9S"))
    s, ev = G.apply(s, 0, "challenge")
    assert ev[0] == {"type": "challenge", "seat": 0, "attack": "7S", "card": "9S", "legal": True}
    assert ev[1] == {"type": "pickup", "seat": 0, "count": 2}
    assert "9S" in s.hands[0] and "7S" in s.hands[0]
    assert (s.attacker, s.defender) == (1, 2)


def test_blind_challenge_illegal_d_picks_up_next_leads():
    s = blind_state()
    s, _ = play(s, (0, "attack 7S"), (1, "blind 7S KD"))
    s, ev = G.apply(s, 0, "challenge")
    assert ev[0]["legal"] is False and ev[0]["card"] == "KD"
    assert ev[1] == {"type": "pickup", "seat": 1, "count": 2}
    assert (s.attacker, s.defender) == (2, 0)


def test_blind_verdict_by_owner_of_the_attack_card():
    s = blind_state()
    s, _ = play(s, (0, "attack 7S"), (1, "beat 7S 9S"))
    assert G.to_act(s) == [2]
    s, _ = play(s, (2, "throw 7D"), (1, "blind 7D 8C"))
    assert G.to_act(s) == [2]  # the thrower of 7D decides, not M
    s, ev = G.apply(s, 2, "challenge")
    assert ev[0]["legal"] is False
    assert [e for e in ev if e["type"] == "pickup"] == [{"type": "pickup", "seat": 1, "count": 4}]


def test_blind_on_ds_own_card_m_decides():
    o = opts(base_game="perevodnoy", blind_beating=True)
    s = mk(o, hands=[["8S", "KH", "AC"], ["8D", "KC", "KD"]], trump_card="6H", trump_in_stock=False)
    s, _ = play(s, (0, "attack 8S"), (1, "transfer 8D"))
    s, _ = G.apply(s, 0, "blind 8S KH")  # 8S is D's own card (it came round)
    assert G.to_act(s) == [1]  # so M decides


def test_finished_decider_accepts_automatically():
    o = opts(blind_beating=True)
    s = mk(o, n=3, hands=[["7S", "QS"], ["9S", "KD", "8C"], ["7D"]], trump_card="6H", trump_in_stock=False)
    s, _ = play(s, (0, "attack 7S"), (1, "beat 7S 9S"))
    s, ev = play(s, (2, "throw 7D"))  # 2 throws his last card: finished
    s, ev = G.apply(s, 1, "blind 7D 8C")
    assert ev[1] == {"type": "accept", "seat": 2, "attack": "7D", "auto": True}
    assert s.phase != "verdict"


def test_blind_not_offered_without_option():
    s = mk(hands=[["QS"], ["9S", "KD"]], phase="defend", table=[("7S", 0)], trump_card="6H", trump_in_stock=False)
    assert not any(a.startswith("blind") for a in G.legal_actions(s, 1))
    rejects(s, 1, "blind 7S KD", "wrong_phase")


# ---------------------------------------------------------------------------------
# §10 two decks: 52 cards lose at once
# ---------------------------------------------------------------------------------


def test_two_decks_52_cards_lose_at_once_even_with_stock():
    o = opts(two_decks=True)
    deck = make_deck(36, 2)
    attack = ["7S#1", "7S#2", "7H#1", "7H#2", "7D#1"]
    plain = [c for c in deck if c[0] != "7" and c != "6C#2"]
    d_hand = plain[:47]
    m_hand = attack + ["AC#1"] if "AC#1" not in d_hand else attack
    stock = [c for c in plain[47:] if c not in m_hand][:10]
    s = mk(o, hands=[m_hand, d_hand], stock=stock, trump_card="6C#2")
    s, ev = play(s, (0, "attack " + " ".join(attack)), (1, "take"))
    assert {"type": "pickup", "seat": 1, "count": 5} in ev
    assert G.result(s) == {"durak": 1, "by_52": True, "dealer": 0, "out": []}
    assert len(s.stock) == 11  # the stock was not empty
    assert "draw_cards" not in types(ev)


def test_two_deck_loss_at_option():
    o = opts(two_decks=True, two_deck_loss_at=8)
    s = mk(
        o,
        hands=[["7S#1", "7S#2", "AC#1"], ["8D#1", "8D#2", "9D#1", "9D#2", "TD#1", "TD#2"]],
        stock=["KS#1"],
        trump_card="6H#1",
    )
    s, ev = play(s, (0, "attack 7S#1 7S#2"), (1, "take"))
    assert G.result(s)["by_52"] is True and G.result(s)["durak"] == 1


# ---------------------------------------------------------------------------------
# forfeit, errors, views, dump/load, options, tally
# ---------------------------------------------------------------------------------


def test_forfeit():
    s = mk(n=3, hands=[["7S"], ["9S", "KD"], ["8D"]], trump_card="6H", trump_in_stock=False)
    rejects(s, 0, "forfeit 1", "system_only")
    rejects(s, None, "forfeit 9", "bad_seat")
    rejects(s, None, "forfeit", "bad_syntax")
    t, ev = G.apply(s, None, "forfeit 2")
    assert G.result(t) == {"durak": 2, "by_52": False, "forfeit": True, "dealer": 0, "out": []}
    assert types(ev) == ["forfeit", "game_over"]
    rejects(t, None, "forfeit 1", "game_over")
    f = mk(n=3, hands=[["7S"], ["9S", "KD"], []], trump_card="6H", trump_in_stock=False, finished=[False, False, True])
    rejects(f, None, "forfeit 2", "bad_seat")
    rejects(G.initial_state(opts(), 2), None, "forfeit 1", "wrong_phase")


def test_errors_are_typed_readable_and_change_nothing():
    s = mk(hands=[["7S", "7H", "8D"], ["9S", "KD"]], trump_card="6H")
    for action, cls, code in [
        ("fly 7S", BadSyntax, "bad_syntax"),
        ("attack", BadSyntax, "bad_syntax"),
        ("attack 1S", BadSyntax, "bad_syntax"),
        ("attack 7S 7S", BadSyntax, "bad_syntax"),
        ("take 7S", BadSyntax, "bad_syntax"),
        ("", BadSyntax, "bad_syntax"),
        ("attack AS", IllegalAction, "not_in_hand"),
        ("attack 7S 8D", IllegalAction, "mixed_ranks"),
        ("take", IllegalAction, "wrong_phase"),
        ("beat 7S 9S", IllegalAction, "wrong_phase"),
    ]:
        e = rejects(s, 0, action, code)
        assert isinstance(e, cls)
    e = rejects(s, 1, "take", "not_your_turn")
    assert isinstance(e, NotYourTurn) and "seat 0" in e.reason
    rejects(s, None, "take", "not_your_turn")
    s, _ = G.apply(s, 0, "attack 7S")
    rejects(s, 1, "beat 7H 9S", "not_on_table")
    e = rejects(s, 1, "beat 7S KD", "does_not_beat")
    assert e.reason == "KD does not beat 7S." and e.params == {"cover": "KD", "attack": "7S"}
    with pytest.raises(BadSyntax):
        G.apply(s, 1, None)


def test_error_codes_table():
    assert set(ERROR_CODES) >= {
        "bad_syntax",
        "not_your_turn",
        "game_over",
        "wrong_phase",
        "not_in_hand",
        "does_not_beat",
        "too_many_cards",
    }
    for code, template in ERROR_CODES.items():
        assert code == code.lower() and " " not in code and template


def test_views():
    s = mk(n=3, hands=[["7S", "AD"], ["9S", "KD"], ["7D", "QC"]], trump_card="6H", stock=["TC", "TD"], dealer=2)
    pub = G.view(s, None)
    assert set(pub) == VIEW_KEYS
    assert pub["seat"] is None and pub["stock"] == 3 and pub["trump_in_stock"]
    assert pub["hand_counts"] == [2, 2, 2] and pub["dealer"] == 2
    me = G.view(s, 1)
    assert set(me) == set(pub) | {"hand"} and me["hand"] == ["9S", "KD"]
    text = json.dumps(me)
    for c in ["7S", "AD", "7D", "QC", "TC", "TD"]:
        assert c not in text
    s, _ = play(s, (0, "attack 7S"), (1, "take"))
    assert G.view(s, None)["taking"] is True
    assert G.view(s, None)["table"] == [{"attack": "7S", "by": 0, "cover": None, "hidden": False}]
    assert G.view(G.initial_state(opts(), 2), None)["phase"] == "deal"
    assert G.view(G.initial_state(opts(), 2), None)["to_act"] == []
    assert G.legal_actions(G.initial_state(opts(), 2), None) == []
    assert G.legal_actions(G.initial_state(opts(), 2), 0) == []
    # the hand is sorted: by suit, trumps last, then by rank
    s = mk(hands=[["6H", "AS", "7S", "KD"], ["9S"]], trump_card="QH", stock=["8C"])
    assert G.view(s, 0)["hand"] == ["7S", "AS", "KD", "6H"]


def test_dump_load_round_trip_and_apply_does_not_mutate():
    s = G.initial_state(opts(blind_beating=True, base_game="perevodnoy"), 3)
    s, _ = G.apply(s, None, G.new_deal(s.options, 3, random.Random(1), []))
    rng = random.Random(2)
    while not G.is_over(s):
        seat = G.to_act(s)[0]
        before = json.dumps(G.dump(s))
        a = rng.choice(G.legal_actions(s, seat))
        t, _ = G.apply(s, seat, a)
        assert json.dumps(G.dump(s)) == before  # input untouched
        data = json.loads(json.dumps(G.dump(t)))
        assert G.dump(G.load(data)) == G.dump(t)
        s = t


def test_options_and_seat_range():
    assert G.name == "durak" and G.rules_version == 1 and G.Options is DurakOptions
    assert set(DurakOptions.model_fields) == {
        "deck_size",
        "base_game",
        "trumps",
        "two_decks",
        "two_deck_loss_at",
        "blind_beating",
        "max_attack_cards",
        "first_bout_five",
        "high_trump_from",
        "next_game_leader",
        "throw_in",
    }
    d = DurakOptions()
    assert d.throw_in == "any_time"
    assert (
        d.deck_size,
        d.base_game,
        d.trumps,
        d.two_decks,
        d.two_deck_loss_at,
        d.blind_beating,
        d.max_attack_cards,
        d.first_bout_five,
        d.high_trump_from,
        d.next_game_leader,
    ) == (36, "podkidnoy", True, False, 52, False, 6, False, "Q", "trump_rule")
    assert G.seat_range(opts()) == (2, 6)
    assert G.seat_range(opts(deck_size=24)) == (2, 4)
    assert G.seat_range(opts(deck_size=24, two_decks=True)) == (2, 6)
    assert G.seat_range({"deck_size": 52}) == (2, 6)
    with pytest.raises(BadOptions):
        G.initial_state(opts(deck_size=24), 5)
    with pytest.raises(BadOptions):
        G.initial_state({"colour": "red"}, 2)
    with pytest.raises(BadOptions):
        G.initial_state({"deck_size": 40}, 2)
    with pytest.raises(BadOptions):
        G.initial_state(opts(), 1)


def test_tally():
    results = [
        {"durak": 1, "by_52": False},
        {"draw": True},
        {"durak": 1, "by_52": True},
        {"game_no": 4, "dealer": 1, "result": {"durak": 0, "by_52": False}},
    ]
    t = tally(results, 3)
    assert t["fools"] == [1, 2, 0] and t["draws"] == 1 and t["games"] == 4
    assert sum(t["fools"]) + t["draws"] == t["games"]
    with pytest.raises(ValueError):
        tally([{"durak": 5}], 3)


def test_series_dealer_is_last_durak():
    o = opts()
    rng = random.Random(11)
    history = []
    for _ in range(6):
        s = G.initial_state(o, 3)
        deal = G.new_deal(o, 3, rng, history)
        s, _ = G.apply(s, None, deal)
        if history:
            last = history[-1]
            want = last["durak"] if "durak" in last else last["dealer"]
            assert s.dealer == want
        while not G.is_over(s):
            seat = G.to_act(s)[0]
            s, _ = G.apply(s, seat, G.computer_action(G.view(s, seat), G.legal_actions(s, seat), rng, level="easy"))
        history.append(G.result(s))
    t = tally(history, 3)
    assert sum(t["fools"]) + t["draws"] == 6
