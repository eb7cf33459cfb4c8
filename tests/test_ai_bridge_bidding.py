"""The strong computer's bidding (engine/games/bridge/bidding/) and the auction inference
(engine/games/bridge/inference.py): seeded decisions, readings of partner's calls, legality over
random deals, and that it decides from the seat's view alone."""

from __future__ import annotations

import random

from engine.base import get_game
from engine.games.bridge import ai
from engine.games.bridge import auction as A
from engine.games.bridge.bidding import choose_call, decide
from engine.games.bridge.bidding.hand import Hand
from engine.games.bridge.inference import HandRange, auction_inferences
from engine.games.bridge.rules import call_view
from tests.test_bridge_rules import deal_of

G = get_game("bridge")
N, E, S, W = range(4)


def cards(pbn: str) -> list[str]:
    """'AKQ2.K32.A32.432' (spades.hearts.diamonds.clubs) -> ['AS', 'KS', ...]."""
    out = []
    for suit, ranks in zip("SHDC", pbn.split(".")):
        out += [r + suit for r in ranks]
    assert len(out) == 13, pbn
    return out


def bid_out(north: str, south: str, seed: int = 2, dealer: int = N) -> tuple[list[str], object]:
    """Four strong computers bid: N and S hold these hands, E and W share the rest (seeded)."""
    ns = cards(north) + cards(south)
    assert len(set(ns)) == 26
    rest = [r + s for s in "SHDC" for r in "23456789TJQKA" if r + s not in ns]
    random.Random(seed).shuffle(rest)
    hands = [cards(north), rest[:13], cards(south), rest[13:]]
    state, _ = G.apply(G.initial_state(G.Options(), 4), None, deal_of(hands, dealer))
    rng = random.Random(1)
    while state.phase == "auction":
        seat = G.to_act(state)[0]
        action = G.computer_action(G.view(state, seat), G.legal_actions(state, seat), rng)
        state, _ = G.apply(state, seat, action)
    return state.calls, state.contract


def call(pbn: str, calls: list[str], dealer: int = N) -> str:
    """The strong player's call with this hand after ``calls``."""
    seat = (dealer + len(calls)) % 4
    view = {
        "seat": seat,
        "phase": "auction",
        "dealer": dealer,
        "hand": cards(pbn),
        "auction": [{"seat": (dealer + i) % 4, **call_view(c)} for i, c in enumerate(calls)],
    }
    legal = [{"P": "pass", "X": "double", "XX": "redouble"}.get(c) or "bid " + c for c in A.legal_calls(calls, dealer)]
    action = choose_call(view, legal)
    assert action in legal
    return {"pass": "P", "double": "X", "redouble": "XX"}.get(action, action[4:])


# --------------------------------------------------------------- seeded decisions
def test_opens_1nt_with_15_to_17_balanced():
    assert call("AQ2.KJ3.Q432.K32", []) == "1NT"  # 15, 3-3-4-3
    assert call("AQ2.KJ3.KJ43.K32", []) == "1NT"  # 17
    assert call("AQ2.KJ3.KQ43.A32", []) == "1D"  # 19: too strong
    assert call("AQ.KJ3.KQ4.AJ532", []) == "2NT"  # 20 balanced


def test_stayman_and_transfers_over_1nt():
    assert call("KJ52.Q843.Q32.42", ["1NT", "P"]) == "2C"  # 8 and both majors: Stayman
    assert call("J9752.Q4.832.942", ["1NT", "P"]) == "2H"  # five spades: transfer
    assert call("42.KJ9752.832.94", ["1NT", "P"]) == "2D"  # six hearts: transfer, even weak
    assert call("42.Q94.8532.9432", ["1NT", "P"]) == "P"  # nothing to say
    # opener answers: hearts first, completes the transfer
    assert call("AQ2.KJ43.Q43.K32", ["1NT", "P", "2C", "P"]) == "2H"
    assert call("AQ2.KJ3.Q432.K32", ["1NT", "P", "2C", "P"]) == "2D"
    assert call("AQ2.KJ3.Q432.K32", ["1NT", "P", "2D", "P"]) == "2H"
    # responder with game values and a four-card fit raises to game
    assert call("KJ52.Q843.J32.A2", ["1NT", "P", "2C", "P", "2H", "P"]) == "4H"


def test_partner_2nt_with_nine_is_read_as_nine():
    inf = auction_inferences(["1NT", "P", "2NT", "P"], N)
    lo, hi = inf[S].hcp
    assert lo <= 9 <= hi and lo >= 8
    # responder's 2NT over one of a suit is invitational 11-12
    lo, hi = auction_inferences(["1H", "P", "2NT"], N)[S].hcp
    assert lo <= 11 and hi >= 12 and lo >= 10
    # opener with a maximum accepts the 2NT invitation
    assert call("AQ2.KJ3.KQ43.J32", ["1NT", "P", "2NT", "P"]) == "3NT"
    assert call("AQ2.KJ3.Q432.K32", ["1NT", "P", "2NT", "P"]) == "P"


def test_reaches_4h_with_a_nine_card_fit_and_26_points():
    calls, contract = bid_out(
        "A2.KQ952.K43.Q32",  # N 14, five hearts
        "K54.AJ74.Q52.K54",
    )  # S 13, four: 27 and nine trumps
    assert (contract.level, contract.strain) == (4, "H"), calls


def test_stops_in_five_missing_two_aces():
    calls, contract = bid_out(
        "KQ2.KQJ532.KQ3.K",  # N 19, no ace
        "J43.AT98.J54.A43",
    )  # S 10, aces of hearts and clubs
    assert contract.strain == "H" and contract.level == 5, calls
    assert "4NT" in calls


def test_bids_slam_with_the_aces():
    calls, contract = bid_out(
        "AQ2.KQJ52.KQ3.Q2",  # N 19, one ace
        "J43.AT98.A54.A43",
    )  # S 13, three aces
    assert contract.strain == "H" and contract.level >= 6, calls


def test_overcall_and_takeout_double():
    assert call("AQJ72.K3.843.J32", ["1D"], dealer=E) == "1S"
    assert call("AQ72.K432.3.AJ32", ["1D"], dealer=E) == "X"
    # partner doubled, I have a five-card major and a few points: bid it
    assert call("Q8742.J32.843.32", ["1D", "X", "P"], dealer=E) == "1S"


# --------------------------------------------------------------- inference
def test_inference_reads_a_humans_natural_bids():
    inf = auction_inferences(["1H", "P", "1S", "P", "2C"], N)
    assert inf[N].length["H"][0] >= 5 and inf[N].hcp[0] >= 10
    assert inf[S].length["S"][0] >= 4 and inf[S].hcp[0] >= 6
    assert inf[N].length["C"][0] >= 4
    # calls the table has no entry for are read loosely, never crash
    inf = auction_inferences(["1S", "P", "3C", "P", "5D", "X", "XX", "P", "P", "7NT"], N)
    assert inf[S].length["C"][0] >= 4 and isinstance(inf[E], HandRange)
    # the view's own forms of a call are accepted too
    inf = auction_inferences([{"seat": 0, "call": "bid", "level": 1, "strain": "NT"}, {"seat": 1, "call": "pass"}], N)
    assert inf[N].hcp == (15, 17)
    assert auction_inferences(["bid 1NT", "pass"], N)[N].hcp == (15, 17)


def random_auction(rng: random.Random, dealer: int, pick) -> list[str]:
    """A legal auction of at most 30 calls: ``pick(legal calls, rng)`` makes each call."""
    calls: list[str] = []
    while not A.finished(calls) and len(calls) < 30:
        calls.append(pick(A.legal_calls(calls, dealer), rng))
    return calls


def test_inference_never_crashes_on_random_auctions():
    rng = random.Random(5)
    for _ in range(200):
        dealer = rng.randrange(4)
        calls = random_auction(rng, dealer, lambda legal, r: r.choice(legal[:8]) if r.random() < 0.6 else "P")
        inf = auction_inferences(calls, dealer)
        for r in inf.values():
            assert 0 <= r.hcp[0] <= r.hcp[1] <= 37
            assert all(0 <= lo <= hi <= 13 for lo, hi in r.length.values())


# --------------------------------------------------------------- legality, views only
def test_strong_player_returns_legal_actions_over_random_deals():
    """Whole auctions of four strong computers, their placing calls simulated (the card
    play and the simulation have their own tests)."""
    rng = random.Random(3)
    for _ in range(6):
        state = G.initial_state(G.Options(), 4)
        state, _ = G.apply(state, None, G.new_deal(G.Options(), 4, rng, []))
        while state.phase == "auction":
            seat = G.to_act(state)[0]
            legal = G.legal_actions(state, seat)
            action = ai.computer_action(G.view(state, seat), legal, rng, level="strong")
            assert action in legal
            state, _ = G.apply(state, seat, action)


def test_decides_from_the_view_alone_and_deterministically():
    # a bare view (the seat's hand and the public auction) is enough
    view = {
        "seat": S,
        "phase": "auction",
        "dealer": N,
        "hand": cards("KJ52.Q843.Q32.42"),
        "auction": [{"seat": N, "call": "bid", "level": 1, "strain": "NT"}, {"seat": E, "call": "pass"}],
    }
    legal = ["pass", "double"][:1] + [f"bid {b}" for b in A.BIDS[A.BID_RANK["1NT"] + 1 :]]
    first = ai.computer_action(view, legal, random.Random(1), level="strong")
    assert first == "bid 2C"
    assert all(ai.computer_action(view, legal, random.Random(k), level="strong") == first for k in range(5))
    # the engine's view of a seat carries no other seat's card
    state, _ = G.apply(G.initial_state(G.Options(), 4), None, G.new_deal(G.Options(), 4, random.Random(2), []))
    for seat in range(4):
        v = G.view(state, seat)
        others = {c for s in range(4) if s != seat for c in state.hands[s]}
        assert not others & set(v["hand"])


def test_normal_level_is_between_and_legal():
    rng = random.Random(9)
    view = {
        "seat": S,
        "phase": "auction",
        "dealer": N,
        "hand": cards("KJ52.Q843.Q32.42"),
        "auction": [{"seat": N, "call": "bid", "level": 1, "strain": "NT"}, {"seat": E, "call": "pass"}],
    }
    legal = ["pass"] + [f"bid {b}" for b in A.BIDS[A.BID_RANK["1NT"] + 1 :]]
    for _ in range(20):
        assert ai.computer_action(view, legal, rng, level="normal") in legal


def test_hand_evaluation():
    h = Hand(cards("AKQ2.K32.A32.432"))
    assert h.hcp == 16 and h.balanced and h.aces == 2
    assert decide(h, [], N, N, set(A.legal_calls([], N))) == "1NT"


# --------------------------------------------------------------- double-dummy helper
def test_an_inconsistent_deal_is_refused_before_dds_and_leaves_no_dump(tmp_path, monkeypatch):
    """The deal of the dump.txt once committed (West 14 cards, South 12): DDS wrote its
    dump into the working directory; the auction bench's solver now refuses it first."""
    import pytest

    from bench.strength.bridge_auction import dd, deal
    from engine.games.bridge.bidding.dd import check_deal

    monkeypatch.chdir(tmp_path)
    hands = [
        cards("AKQ2.K32.A32.432"),
        cards("J43.QJ4.KQJ4.AK5"),
        [r + "S" for r in "T98"] + [r + "H" for r in "A9876"] + ["9D"] + [r + "C" for r in "QJ9"],
        [r + "S" for r in "765"] + [r + "H" for r in "T5"] + [r + "D" for r in "T8765"] + [r + "C" for r in "T876"],
    ]
    with pytest.raises(ValueError, match="holds 12 cards"):
        dd(hands, N, "-")
    assert not list(tmp_path.iterdir())
    with pytest.raises(ValueError, match="twice"):
        check_deal([hands[0], hands[0], hands[1], hands[1]])
    check_deal(deal(random.Random(1)))  # a real deal passes


def test_no_blackwood_where_partner_reads_4nt_as_quantitative():
    # over partner's 1NT a 4NT is the quantitative raise (partner passes it with a
    # minimum), so a slam-going hand with a long suit starts with the transfer instead
    assert call("AKQJ73.A2.K2.K32", ["1NT", "P"]) == "2H"


def test_reopens_over_a_pre_empt_in_the_pass_out_seat():
    # 3D on the left, two passes: as in the direct seat, a takeout double with 17
    assert call("AKQJ2.K76.A.8642", ["3D", "P", "P"], dealer=W) == "X"


def test_raises_partners_pre_empt_to_game_with_the_tricks():
    assert call("AKJ94.J95.A5.AT7", ["3D", "P"]) == "5D"
    assert call("AK94.KJ5.Q5.AQ74", ["3H", "P"]) == "4H"
    assert call("8642.J5.Q5.Q9742", ["3H", "P"]) == "P"


def test_accepts_a_limit_raise_with_thirteen():
    assert call("AQJ73.Q52.K52.32", ["1S", "P", "3S", "P"]) == "4S"  # 12 HCP + a fifth spade
    assert call("AQJ73.J52.K52.32", ["1S", "P", "3S", "P"]) == "P"


def test_an_open_ended_range_is_read_near_its_low_end():
    # a takeout double shows 12 or more: most such hands have 12-14, not 16
    assert HandRange((12, 37)).est() == 13
    assert HandRange((15, 17)).est() == 16
    # so with 7 points the advancer does not bid game over the raise
    assert call("73.K53.T9876.A87", ["P", "P", "1S", "X", "2S"], dealer=E) in ("P", "3D")


def test_leaves_partners_3nt_rather_than_five_of_a_minor():
    # 1S-2C-3NT: with six clubs and no slam, nine tricks in notrump beat eleven in clubs
    # (not 4C, which partner would pass)
    assert call("T7.A74.84.AKT732", ["1S", "P", "2C", "P", "3NT", "P"], dealer=W) == "P"
    # with slam values it asks for aces instead, never four or five clubs
    assert call("T7.A74.K4.AKT732", ["1S", "P", "2C", "P", "3NT", "P"], dealer=W) not in ("4C", "5C")


def test_quantitative_4nt_after_stayman_finds_no_fit():
    # 1NT-2C-2D: no major fit, 16 HCP opposite 15-17 invites 6NT with 4NT
    assert call("QJ.AT97.K98.AQ62", ["1NT", "P", "2C", "P", "2D", "P"]) == "4NT"
    # and that 4NT is not Blackwood: opener bids 6NT with a maximum, passes a minimum
    after = ["1NT", "P", "2C", "P", "2D", "P", "4NT", "P"]
    assert call("AK5.64.AQT54.K87", after) == "6NT"
    assert call("AK5.K4.QT54.K876", after) == "P"


def test_no_notrump_with_their_suit_unstopped_and_a_long_suit():
    from engine.games.bridge.bidding.placement import choose_strain

    # they bid spades, I have a singleton there and five diamonds: diamonds, not notrump
    hand = Hand(cards("2.KQ4.A8732.KT98"))
    assert choose_strain(hand, HandRange((12, 21)), theirs="S") == ("D", 5)
    # with spades stopped, notrump stays possible (partner's shape unknown, I am short)
    assert choose_strain(Hand(cards("A2.KQ4.A873.KT98")), HandRange((12, 21)), theirs="S")[0] == "NT"


def test_opener_raises_a_major_response_with_three_trumps_and_a_singleton():
    # 1D-1H: three hearts and a singleton spade are worth a raise (the ruff), by strength
    assert call("9.AQ5.AQT75.K987", ["1D", "P", "1H", "P"]) == "3H"
    assert call("9.Q75.AQT75.K987", ["1D", "P", "1H", "P"]) == "2H"
    # balanced with three hearts: no raise, 1NT
    assert call("92.Q75.AQT7.K987", ["1D", "P", "1H", "P"]) == "1NT"


def test_overcalls_a_five_card_major_rather_than_doubling():
    # over 1D: five spades and 14 HCP overcall 1S (a double would lose the fifth spade)
    assert call("AT852.JT73.A.AJT", ["1D"], dealer=E) == "1S"
    # four-four in the majors: the takeout double; 17+ doubles anyway
    assert call("AT85.JT73.A.AJT5", ["1D"], dealer=E) == "X"
    assert call("AKT85.KJ73.A.AJ5", ["1D"], dealer=E) == "X"


def test_balances_at_the_one_level_with_a_five_card_suit_and_eight():
    # 1D, two passes: partner has values he could not show; 1S with 8 HCP and five spades
    assert call("KJ983.T5.Q72.Q85", ["1D", "P", "P"], dealer=E) == "1S"
    # (as it would overcall in the direct seat); with 6 HCP it passes
    assert call("KJ983.T5.J72.J85", ["1D", "P", "P"], dealer=E) == "P"


def test_invites_game_when_it_needs_partner_above_his_minimum():
    # 1D-1H-1NT (12-14): with 11 HCP game needs a 13-14 opener, so 2NT invites
    assert call("K32.AJ54.Q32.J32", ["1D", "P", "1H", "P", "1NT", "P"]) == "2NT"
    assert call("K32.AJ54.Q32.K32", ["1D", "P", "1H", "P", "1NT", "P"]) == "3NT"  # 13: game
    # opener accepts with 13, declines with 12 (and never invites back)
    after = ["1D", "P", "1H", "P", "1NT", "P", "2NT", "P"]
    assert call("AQ3.K85.J432.K32", after) == "3NT"
    assert call("Q53.K85.A432.K32", after) == "P"


def test_a_seven_card_suit_is_not_notrump_shape():
    assert Hand(cards("53.T9.QT96542.A6")).semi_balanced is False
    assert Hand(cards("53.T92.QT9654.A6")).semi_balanced  # 6-3-2-2 still is
    # 1NT by partner, their 2C balance: with seven diamonds and 6 points, compete in
    # diamonds (2NT here went to 3NT, one down; 3D makes)
    assert call("53.T9.QT96542.A6", ["1NT", "P", "P", "2C", "P", "P"], dealer=S) == "2D"


def test_a_blackwood_answer_shows_aces_not_a_suit():
    calls = ["1C", "P", "1H", "P", "1NT", "P", "4NT", "P", "5S", "P"]  # W deals: W 1C, E 1H
    assert auction_inferences(calls, W)[W].length["S"] == (2, 4)  # from his 1NT, not "5S"
    # the asker plays the slam in the suit the hands fit, hearts, not the answer's spades
    assert call("KJ42.KQJ972.K4.K", calls, dealer=W) == "6H"


def test_two_over_one_shows_the_longest_suit_first():
    # over 1S: five hearts and four diamonds bid 2H (2D first left hearts unshown)
    assert call("62.AQJ76.T874.A8", ["1S", "P"]) == "2H"
    assert call("62.AQJ76.AT874.8", ["1S", "P"]) == "2H"  # five-five: the higher
    assert call("62.AQJ7.AT874.K8", ["1S", "P"]) == "2D"  # four hearts are not shown at two
    assert call("6.AQJ76.AT8742.8", ["1S", "P"]) == "2D"  # six diamonds first


def test_opener_with_19_and_a_six_card_suit_bids_game():
    # 1C-1S: 19 points and six clubs are too much for 2C (12-15) or 3C (16-18)
    assert call("A63.AK.A6.A65432", ["1C", "P", "1S", "P"]) == "3NT"
    assert call("A3.AKQ986.A6.K32", ["1H", "P", "1S", "P"]) == "4H"
    assert call("AK7.K.AK4.AT9874", ["1C", "P", "1S", "P"]) == "3NT"  # a singleton too


def test_doubles_a_weak_two_with_17_or_more_whatever_the_shape():
    # 20 points and four of their hearts: no overcall, no notrump fits; pass lost a slam
    assert call("AKJ3.AJ75.3.AKT3", ["P", "2H"]) == "X"
    assert call("AKJ3.AJ75.3.QT83", ["P", "2H"]) == "P"  # 14 with their suit: pass


def test_opener_rebids_after_a_two_over_one():
    # 1S-2D: the table had no rebids here, and 5-5 in the majors bid 3NT
    assert call("AKJ72.AQT84.T.J4", ["1S", "P", "2D", "P"]) == "2H"
    assert call("AKJ762.AQ4.T4.J4", ["1S", "P", "2D", "P"]) == "2S"  # six spades
    assert call("AKJ72.AQ4.T4.J42", ["1S", "P", "2D", "P"]) == "3NT"  # 15-19 balanced
    assert call("AKJ72.Q4.KT74.42", ["1S", "P", "2D", "P"]) == "3D"  # four-card support
    assert call("A3.K4.AQJ876.952", ["1D", "P", "2C", "P"]) == "2D"  # six diamonds, no jump


def test_raises_partners_minor_with_four_over_an_overcall():
    # 1D (1S): nine points and four diamonds compete (pass let them play 1S with slam on)
    assert call("J3.T64.KJ42.AT52", ["1D", "1S"]) == "3D"  # 10 support points: limit raise
    assert call("J3.T64.Q842.AT52", ["1D", "1S"]) == "2D"


def test_takes_partners_double_out_when_short_in_their_suit():
    # 1S (3H) P P X P: partner's reopening double with a weak hand, two hearts and six
    # clubs: 4C, not a pass that plays 3H doubled on partner's values alone
    assert call("652.J4.97.T98742", ["1S", "3H", "P", "P", "X", "P"]) == "4C"
    assert call("652.KQ94.97.T987", ["1S", "3H", "P", "P", "X", "P"]) == "P"  # their trumps


def test_prefers_3nt_to_five_of_a_minor():
    # 1C-1S-2C: game values and six diamonds; 5D skipped 3NT (which made, 5D did not)
    assert call("KQJ6.KJ8.KT9754.", ["1C", "P", "1S", "P", "2C", "P"]) == "3NT"


def test_competes_at_the_three_level_only_with_nine_trumps_or_the_points():
    # 1H (2H) by the opponents' easy overcaller: three hearts and 6 points opposite an
    # opening is eight trumps and about 22 points; 3H was doubled and went three down
    assert call("Q.Q93.J65.JT9872", ["1H", "2H"], dealer=S) == "P"


def test_game_in_my_own_suit_without_a_fit_only_when_it_plays_alone():
    # 1H P 1S (2D) 2H P: six spades to the king opposite a heart rebid invites (4S was
    # doubled and went four down); a suit with the top honours bids game
    assert call("KT7542.A7.A7532.", ["1H", "P", "1S", "2D", "2H", "P"]) == "3S"
    assert call("AKT742.A7.A753.2", ["1H", "P", "1S", "2D", "2H", "P"]) == "4S"


def test_no_natural_notrump_over_their_1nt():
    # (1NT) P (P): 14 balanced points are no 2NT over a 15-17 opening (doubled, -500)
    assert call("AJ84.KJ82.Q7.KT4", ["1NT", "P", "P"], dealer=W) == "P"
