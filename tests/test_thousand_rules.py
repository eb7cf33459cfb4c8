"""Тысяча's rules (docs/rules/thousand.md), each on a hand-made deal."""

from __future__ import annotations

import pytest

from engine.base import get_game
from engine.errors import EngineError
from engine.games.thousand.options import ThousandOptions
from engine.games.thousand.scoring import rounded, score_deal

G = get_game("thousand")

# dealt one at a time from the dealer's left: with dealer 0, card i goes to seat (1 + i % 3)
# seat 1: AH TH KH QH AS TS 9C; seat 2: KD QD AD TD JS 9S 9H; seat 0: AC TC KC QC JC JH JD
HANDS = {
    1: ["AH", "TH", "KH", "QH", "AS", "TS", "9C"],
    2: ["KD", "QD", "AD", "TD", "JS", "9S", "9H"],
    0: ["AC", "TC", "KC", "QC", "JC", "JH", "JD"],
}
TALON = ["KS", "QS", "9D"]


def deck(hands=HANDS, talon=TALON, order=(1, 2, 0)):
    return [hands[order[i % 3]][i // 3] for i in range(21)] + list(talon)


def dealt(options=None, players=3, dealer=0, cards=None):
    state = G.initial_state(options or {}, players)
    state, events = G.apply(state, None, f"deal dealer={dealer} " + " ".join(cards or deck()))
    return state


def run(state, *moves):
    for seat, action in moves:
        state, _ = G.apply(state, seat, action)
    return state


def test_the_deal_gives_seven_each_and_a_three_card_talon():  # §1.4
    s = dealt()
    assert [sorted(s.hands[p]) for p in (0, 1, 2)] == [sorted(HANDS[p]) for p in (0, 1, 2)]
    assert s.talon == TALON and s.active == [1, 2, 0] and G.to_act(s) == [1]


def test_four_players_the_dealer_sits_out():  # §1.3
    s = dealt(players=4, dealer=2, cards=deck({3: HANDS[1], 0: HANDS[2], 1: HANDS[0]}, order=(3, 0, 1)))
    assert s.active == [3, 0, 1] and s.hands[2] == [] and G.to_act(s) == [3]


def test_the_forehand_must_open_and_steps_are_five():  # §2.1, §2.2
    s = dealt()
    legal = G.legal_actions(s, 1)
    assert "pass" not in legal and legal[:3] == ["bid 100", "bid 105", "bid 110"]
    with pytest.raises(EngineError):
        G.apply(s, 1, "pass")
    with pytest.raises(EngineError):
        G.apply(s, 1, "bid 103")
    s10 = dealt({"bid_step": 10})
    assert G.legal_actions(s10, 1)[:2] == ["bid 100", "bid 110"]


def test_no_bid_over_120_without_a_marriage():  # §2.3
    s = run(dealt(), (1, "bid 100"))
    # seat 2 holds the diamond marriage, seat 0 the club marriage: both may go higher
    assert "bid 125" in G.legal_actions(s, 2)
    hands = {1: HANDS[1], 2: ["KD", "JD", "AD", "TD", "JS", "9S", "9H"], 0: ["AC", "TC", "KC", "QD", "JC", "JH", "QC"]}
    s = run(dealt(cards=deck(hands)), (1, "bid 100"))
    assert G.legal_actions(s, 2)[-2:] == ["bid 120", "pass"]
    with pytest.raises(EngineError):
        G.apply(s, 2, "bid 125")
    free = run(dealt({"cap_without_marriage": False}, cards=deck(hands)), (1, "bid 100"))
    assert "bid 400" in G.legal_actions(free, 2)


def auction_won_by_1():
    return run(dealt(), (1, "bid 100"), (2, "pass"), (0, "bid 105"), (1, "bid 110"), (0, "pass"))


def test_the_talon_is_shown_to_all_and_goes_to_the_declarer():  # §2.4
    s = dealt()
    assert G.view(s, None)["talon"] is None and G.view(s, 2)["talon"] is None
    s, events = G.apply(run(s, (1, "bid 100"), (2, "pass")), 0, "pass")
    assert events[-1] == {"type": "talon", "seat": 1, "cards": TALON, "amount": 100, "dark": False}
    assert G.view(s, None)["talon"] == TALON and len(s.hands[1]) == 10


def test_gifts_are_seen_by_giver_and_receiver_only():  # §2.5
    s = auction_won_by_1()
    s, events = G.apply(s, 1, "give 9D 2")
    assert events == [{"type": "give", "seat": 1, "to": 2}]
    with pytest.raises(EngineError):
        G.apply(s, 1, "give 9C 2")  # one card to each opponent
    s = run(s, (1, "give 9C 0"))
    assert G.view(s, 1)["gifts"] == [[2, "9D"], [0, "9C"]]
    assert G.view(s, 2)["gifts"] == [[2, "9D"]] and G.view(s, 0)["gifts"] == [[0, "9C"]]
    assert "9D" not in str(G.view(s, None)).replace("'talon': ['KS', 'QS', '9D']", "")
    assert s.phase == "raise" and [len(h) for h in s.hands] == [8, 8, 8]


def test_the_declarer_may_raise_but_not_lower():  # §2.6
    s = run(auction_won_by_1(), (1, "give 9D 2"), (1, "give 9C 0"))
    legal = G.legal_actions(s, 1)
    assert legal[0] == "contract 110" and "contract 105" not in legal and "contract 300" in legal
    s = run(s, (1, "contract 150"))
    assert s.high == 150 and s.phase == "play" and G.to_act(s) == [1]


def test_follow_suit_else_trump_else_any():  # §3.2
    s = run(auction_won_by_1(), (1, "give 9D 2"), (1, "give 9C 0"), (1, "contract 110"))
    s = run(s, (1, "play AH"))  # seat 2 has 9H: it must follow
    assert G.legal_actions(s, 2) == ["play 9H"]
    s = run(s, (2, "play 9H"))
    assert [a for a in G.legal_actions(s, 0) if a.startswith("play")] == ["play JH"]


def test_a_marriage_needs_a_trick_and_sets_trump():  # §4.2
    s = run(auction_won_by_1(), (1, "give 9D 2"), (1, "give 9C 0"), (1, "contract 110"))
    assert "marry KH" not in G.legal_actions(s, 1)  # no trick taken yet
    s = run(s, (1, "play AH"), (2, "play 9H"), (0, "play JH"))
    assert s.tricks[1] == 1 and "marry KH" in G.legal_actions(s, 1)
    s, events = G.apply(s, 1, "marry KH")
    assert s.trump == "H" and s.married[1] == 100
    assert events[0] == {"type": "trump", "seat": 1, "suit": "H", "points": 100}
    free = run(dealt({"marriage_after_trick": False}), (1, "bid 100"), (2, "pass"), (0, "pass"))
    free = run(free, (1, "give 9D 2"), (1, "give 9C 0"), (1, "contract 100"))
    assert "marry KH" in G.legal_actions(free, 1)


def test_scoring_the_worked_example():  # §5 worked example
    o = ThousandOptions()
    deal = {
        "declarer": 0,
        "contract": 120,
        "dark": False,
        "conceded": False,
        "active": [0, 1, 2],
        "taken": [95, 22, 3],
        "married": [80, 0, 0],
        "tricks": [6, 1, 1],
    }
    entry, totals, bolts, barrel = score_deal(o, [0, 0, 0], [0, 0, 0], [None] * 3, deal)
    assert entry["delta"] == [120, 20, 5] and entry["made"] and totals == [120, 20, 5]
    failed = {**deal, "taken": [30, 87, 3], "married": [0, 0, 0]}
    assert score_deal(o, [0, 0, 0], [0, 0, 0], [None] * 3, failed)[0]["delta"] == [-120, 85, 5]


def test_rounding_to_five_or_ten():  # §5.2
    assert [rounded(p, 5) for p in (0, 2, 3, 42, 43, 117)] == [0, 0, 5, 40, 45, 115]
    assert [rounded(p, 10) for p in (4, 5, 44, 45)] == [0, 10, 40, 50]


def base_deal(**kw):
    deal = {
        "declarer": 0,
        "contract": 100,
        "dark": False,
        "conceded": False,
        "active": [0, 1, 2],
        "taken": [100, 20, 0],
        "married": [0, 0, 0],
        "tricks": [6, 2, 0],
    }
    return {**deal, **kw}


def test_every_third_bolt_costs_120():  # §6.1
    o = ThousandOptions()
    entry, totals, bolts, _ = score_deal(o, [0, 0, 300], [0, 0, 2], [None] * 3, base_deal())
    assert bolts[2] == 3 and entry["delta"][2] == -120 and entry["marks"]["2"] == ["bolt", "bolt_penalty"]
    entry, _, bolts, _ = score_deal(ThousandOptions(bolts=False), [0, 0, 300], [0, 0, 2], [None] * 3, base_deal())
    assert bolts[2] == 2 and entry["delta"][2] == 0


def test_the_barrel():  # §6.2
    o = ThousandOptions()
    # an opponent stops at 880 and goes on the barrel
    entry, totals, _, barrel = score_deal(o, [0, 870, 0], [0] * 3, [None] * 3, base_deal())
    assert totals[1] == 880 and barrel[1] == 0 and "barrel_on" in entry["marks"]["1"]
    # on the barrel an opponent's points do not count; the third deal there drops it
    entry, totals, _, barrel = score_deal(o, [0, 880, 0], [0] * 3, [None, 2, None], base_deal())
    assert totals[1] == 760 and barrel[1] is None and entry["marks"]["1"] == ["barrel_idle", "barrel_fall"]
    # a contract won on the barrel ends the game
    entry, totals, _, barrel = score_deal(
        o, [880, 0, 0], [0] * 3, [0, None, None], base_deal(contract=120, taken=[120, 0, 0])
    )
    assert totals[0] == 1000


def test_samosval_555_falls_to_zero():  # §6.3
    entry, totals, _, _ = score_deal(ThousandOptions(), [455, 0, 0], [0] * 3, [None] * 3, base_deal())
    assert totals[0] == 0 and entry["marks"]["0"] == ["samosval"]
    _, totals, _, _ = score_deal(ThousandOptions(samosval=False), [455, 0, 0], [0] * 3, [None] * 3, base_deal())
    assert totals[0] == 555


def test_concede_costs_the_bid_and_gives_60_each():  # §6.4
    s = auction_won_by_1()
    assert "concede" in G.legal_actions(s, 1)
    s, events = G.apply(s, 1, "concede")
    assert s.entries[-1]["delta"] == [60, -110, 60] and s.phase == "deal"
    s = run(auction_won_by_1(), (1, "give 9D 2"))
    assert "concede" not in G.legal_actions(s, 1)


def test_dark_bid_hides_the_hand_and_counts_double():  # §6.5
    s = dealt({"dark": True})
    assert G.legal_actions(s, 1) == ["dark", "look"] and G.view(s, 1)["hand"] is None
    assert G.view(s, 2)["hand"] is not None
    s = run(s, (1, "dark"))
    assert G.view(s, 1)["hand"] is None and s.high == 100 and s.dark
    s = run(s, (2, "pass"), (0, "pass"))
    assert G.view(s, 1)["hand"] is not None and "concede" not in G.legal_actions(s, 1)
    s = run(s, (1, "give 9D 2"), (1, "give 9C 0"))
    assert s.phase == "play"  # no raise
    # outbid: the blind bid is gone and the forehand sees its cards
    s = run(dealt({"dark": True}), (1, "dark"), (2, "bid 105"))
    assert not s.dark and G.view(s, 1)["hand"] is not None
    looked = run(dealt({"dark": True}), (1, "look"))
    assert G.legal_actions(looked, 1)[0] == "bid 100"


def test_forfeit_ends_the_game_with_that_seat_last():
    s = auction_won_by_1()
    s, events = G.apply(s, None, "forfeit 2")
    assert s.phase == "over" and s.result["forfeit"] == 2
    st = G.standings(s.result, 3)
    assert st.ranks[2] == max(st.ranks)
    with pytest.raises(EngineError):
        G.apply(s, 1, "give 9D 2")


def test_the_game_ends_at_1000():  # §5.3
    s = dealt()
    s.totals = [990, 0, 0]
    s = run(s, (1, "bid 100"), (2, "pass"), (0, "pass"), (1, "concede"))
    assert s.phase == "over" and s.result["winner"] == 0 and s.result["totals"] == [1050, -100, 60]
