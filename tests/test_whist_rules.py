"""Whist rules (docs/rules/whist.md) on stacked decks: the deal, the turned-up trump,
the trump declaration, following suit and the must-trump option, errors that change
nothing, forfeit, the after-rubber vote and the deal rotation."""

from __future__ import annotations

import random

import pytest

from engine.base import get_game
from engine.cards import make_deck
from engine.errors import BadSyntax, GameOver, IllegalAction, NotYourTurn
from engine.games.whist.rules import deal_action

G = get_game("whist")
N, E, S, W = range(4)


def stacked(hands: dict[int, list[str]], dealer: int) -> str:
    """The deal action giving these hands: card i goes to the (i+1)-th seat after the dealer."""
    deck = []
    for r in range(13):
        for k in range(4):
            deck.append(hands[(dealer + 1 + k) % 4][r])
    return f"deal dealer={'NESW'[dealer]} " + " ".join(deck)


def suit_hands() -> dict[int, list[str]]:
    ranks = "23456789TJQKA"
    return {
        N: [r + "C" for r in ranks],
        E: [r + "D" for r in ranks],
        S: [r + "H" for r in ranks],
        W: [r + "S" for r in ranks],
    }


def start(action: str, **options):
    state = G.initial_state(G.Options(**options), 4)
    return G.apply(state, None, action)


def unchanged(state, seat, action, exc):
    before = G.dump(state)
    with pytest.raises(exc) as info:
        G.apply(state, seat, action)
    assert G.dump(state) == before
    return info.value


def test_the_deal_one_card_at_a_time_dealer_gets_the_52nd_and_turns_it_up():
    deck = make_deck(52)
    state, events = G.apply(G.initial_state(G.Options(), 4), None, "deal dealer=E " + " ".join(deck))
    assert state.hands[S][0] == deck[0] and state.hands[W][0] == deck[1]
    assert state.hands[N][0] == deck[2] and state.hands[E][0] == deck[3]
    assert all(len(h) == 13 for h in state.hands)
    assert deck[51] in state.hands[E] and state.turn_up == deck[51] and state.trump == deck[51][1]
    assert G.to_act(state) == [S]  # the dealer's left neighbour leads
    assert events[1] == {"type": "trump", "suit": deck[51][1], "turn_up": deck[51], "seat": E}
    # everybody sees the turned-up card; nobody sees another card of the dealer
    for seat in (None, N, S, W):
        view = G.view(state, seat)
        assert view["turn_up"] == deck[51]
        assert "hand" not in view if seat is None else set(view["hand"]) == set(state.hands[seat])


def test_the_turned_up_card_is_public_only_until_the_dealers_first_play():
    state, _ = start(stacked(suit_hands(), W))  # W deals; his last card AS is trump
    assert state.trump == "S" and state.turn_up == "AS"
    state, _ = G.apply(state, N, "play 2C")
    state, _ = G.apply(state, E, "play 2D")
    state, _ = G.apply(state, S, "play 2H")
    assert G.view(state, None)["turn_up"] == "AS"
    state, _ = G.apply(state, W, "play 2S")  # keeps the ace: now a hidden card of his hand
    assert G.view(state, None)["turn_up"] is None and G.view(state, N)["turn_up"] is None
    assert "AS" in state.hands[W]
    public = repr(G.view(state, None))
    assert "'AS'" not in public
    assert state.last_trick == {"leader": N, "plays": [[0, "2C"], [1, "2D"], [2, "2H"], [3, "2S"]], "winner": W}


def test_must_trump_and_free_discard():
    state, _ = start(stacked(suit_hands(), W))
    state, _ = G.apply(state, N, "play 5C")
    # E has neither clubs nor spades: anything
    assert len(G.legal_actions(state, E)) == 13
    state, _ = G.apply(state, E, "play 9D")
    state, _ = G.apply(state, S, "play 3H")
    # W is void in clubs and holds trumps: must trump
    assert G.legal_actions(state, W) == ["play " + r + "S" for r in "23456789TJQKA"]
    err = unchanged(state, W, "play 2C", IllegalAction)
    assert err.code == "not_in_hand"
    # classical: the trump duty is dropped
    free, _ = start(
        stacked(
            {
                N: suit_hands()[N],
                E: suit_hands()[E],
                S: [r + "S" for r in "23456"] + [r + "H" for r in "789TJQKA"],
                W: [r + "S" for r in "789TJQKA"] + [r + "H" for r in "23456"],
            },
            W,
        ),
        preset="classical_long",
    )
    assert free.trump == "H"  # W's 13th card, 6H
    free, _ = G.apply(free, N, "play 5C")
    free, _ = G.apply(free, E, "play 9D")
    assert len(G.legal_actions(free, S)) == 13
    must, _ = start(
        stacked(
            {
                N: suit_hands()[N],
                E: suit_hands()[E],
                S: [r + "S" for r in "23456"] + [r + "H" for r in "789TJQKA"],
                W: [r + "S" for r in "789TJQKA"] + [r + "H" for r in "23456"],
            },
            W,
        )
    )
    must, _ = G.apply(must, N, "play 5C")
    must, _ = G.apply(must, E, "play 9D")
    assert all(a.endswith("H") for a in G.legal_actions(must, S))
    err = unchanged(must, S, "play 2S", IllegalAction)
    assert err.code == "must_trump"


def test_follow_suit_when_able():
    rng = random.Random(5)
    state, _ = start(deal_action(N, rng))
    leader = G.to_act(state)[0]
    card = G.legal_actions(state, leader)[0].split()[1]
    state, _ = G.apply(state, leader, "play " + card)
    for _ in range(3):
        seat = G.to_act(state)[0]
        legal = G.legal_actions(state, seat)
        hand = state.hands[seat]
        if any(c[1] == card[1] for c in hand):
            assert all(a[-1] == card[1] for a in legal)
            other = next((c for c in hand if c[1] != card[1]), None)
            if other:
                assert unchanged(state, seat, "play " + other, IllegalAction).code == "must_follow"
        state, _ = G.apply(state, seat, legal[0])


def test_errors_change_nothing():
    state, _ = start(stacked(suit_hands(), W))
    assert unchanged(state, E, "play 2D", NotYourTurn).code == "not_your_turn"
    assert unchanged(state, N, "play 2D", IllegalAction).code == "not_in_hand"
    assert unchanged(state, N, "play XX", BadSyntax).code == "bad_syntax"
    assert unchanged(state, N, "jump", BadSyntax).code == "bad_syntax"
    assert unchanged(state, N, "trump S", IllegalAction).code == "wrong_phase"
    assert unchanged(state, N, "deal dealer=N", IllegalAction).code == "system_only"
    assert unchanged(state, None, "play 2C", IllegalAction).code == "players_only"
    assert unchanged(state, None, deal_action(N, random.Random(1)), IllegalAction).code == "wrong_phase"
    fresh = G.initial_state(G.Options(), 4)
    assert unchanged(fresh, None, "deal dealer=N 2S 3S", IllegalAction).code == "bad_deal"
    assert unchanged(fresh, None, "deal N", BadSyntax).code == "bad_syntax"
    with pytest.raises(Exception):
        G.initial_state(G.Options(), 3)


def test_dealer_names_the_trump_or_delegates_once():
    state, _ = start(stacked(suit_hands(), S), trump_method="dealer_names")
    assert state.phase == "trump" and G.to_act(state) == [S]
    assert G.view(state, None)["turn_up"] is None and G.view(state, None)["trump"] is None
    assert G.legal_actions(state, S) == ["trump S", "trump H", "trump D", "trump C", "delegate"]
    assert G.legal_actions(state, W) == []
    assert unchanged(state, W, "trump S", NotYourTurn).code == "not_your_turn"
    named, events = G.apply(state, S, "trump D")
    assert named.trump == "D" and named.phase == "play" and G.to_act(named) == [W]
    passed, _ = G.apply(state, S, "delegate")
    assert G.to_act(passed) == [N]
    assert G.legal_actions(passed, N) == ["trump S", "trump H", "trump D", "trump C"]
    assert unchanged(passed, N, "delegate", IllegalAction).code == "no_delegation"
    named, _ = G.apply(passed, N, "trump C")
    assert named.trump == "C" and G.to_act(named) == [W]


def test_a_whole_deal_scores_tricks_and_honours_in_tricks():
    # W deals, spades trump; W takes every trick in which he trumps
    state, _ = start(stacked(suit_hands(), W))
    events = []
    while state.phase == "play":
        seat = G.to_act(state)[0]
        state, ev = G.apply(state, seat, G.legal_actions(state, seat)[-1])
        events += ev
    scored = next(e for e in events if e["type"] == "deal_scored")
    assert scored["entry"] == {"tricks": {"NS": 0, "EW": 13}, "honours": {"NS": 0, "EW": 5}}
    assert scored["written"] == {"NS": 0, "EW": 14 + 6}
    assert scored["game_won"]["value"] == 3
    assert state.phase == "deal" and state.next_dealer == N
    # the system deals the next one; the dealer has to be N now
    assert G.system_action(state, random.Random(1)).startswith("deal dealer=N ")
    assert unchanged(state, None, deal_action(E, random.Random(1)), IllegalAction).code == "bad_deal"


def test_forfeit_ends_the_match_and_the_idle_side_loses():
    state, _ = start(deal_action(N, random.Random(2)))
    over, events = G.apply(state, None, "forfeit 1")
    assert G.is_over(over) and events[-1]["type"] == "game_over"
    result = G.result(over)
    assert result["forfeit"] == 1 and result["winner"] == "NS"
    assert sum(result["players"]) == 0 and result["unfinished_rubber"] is False
    assert unchanged(over, N, "play 2C", GameOver).code == "game_over"
    assert unchanged(state, None, "forfeit 7", BadSyntax).code == "bad_syntax"


def play_until(state, rng, stop):
    while not stop(state):
        action = G.system_action(state, rng)
        if action:
            state, _ = G.apply(state, None, action)
            continue
        seat = G.to_act(state)[0]
        state, _ = G.apply(
            state, seat, G.computer_action(G.view(state, seat), G.legal_actions(state, seat), rng, level="easy")
        )
    return state


def test_no_rubber_limit_asks_everyone_after_a_rubber():
    rng = random.Random(3)
    state, _ = start(deal_action(N, rng), match_rubbers_to_win=None)
    state = play_until(state, rng, lambda s: s.phase == "vote")
    assert sorted(G.to_act(state)) == [0, 1, 2, 3]
    assert G.legal_actions(state, E) == ["next", "stop"]
    assert G.system_action(state, rng) is None
    # everybody goes on: the next deal comes
    going = state
    for seat in range(4):
        going, _ = G.apply(going, seat, "next")
        if seat == 0:
            assert unchanged(going, 0, "next", IllegalAction).code == "already_voted"
    assert going.phase == "deal" and G.system_action(going, rng).startswith("deal ")
    # one "stop" ends the match; the finished rubber counts
    stopped, _ = G.apply(state, S, "stop")
    result = G.result(stopped)
    assert G.is_over(stopped) and result["stopped_by"] == S
    assert result["winner"] in ("NS", "EW") and result["balance"][result["winner"]] > 0


def test_the_deal_rotates_and_a_rematch_goes_on_rotating():
    rng = random.Random(4)
    state, _ = start(G.new_deal(G.Options(), 4, rng, []))
    dealers = [state.dealer]
    for _ in range(5):
        state = play_until(state, rng, lambda s: s.phase == "deal")
        state, _ = G.apply(state, None, G.system_action(state, rng))
        dealers.append(state.dealer)
    assert dealers == [0, 1, 2, 3, 0, 1]
    assert G.new_deal(G.Options(), 4, rng, [{"next_dealer": 2}]).startswith("deal dealer=S ")
    assert G.new_deal(G.Options(first_dealer="W"), 4, rng, []).startswith("deal dealer=W ")


def test_options_presets_and_overrides():
    o = G.Options(preset="classical_short")
    assert (o.game_target, o.points_per_odd_trick, o.honours_mode, o.must_trump) == (5, 1, "held", False)
    o = G.Options(preset="classical_short", must_trump=True)
    assert o.must_trump and o.game_target == 5
    assert G.Options.model_validate(o.model_dump()) == o
    assert G.Options.model_validate(o.dump()) == o
    with pytest.raises(Exception):
        G.Options(colour="red")
    with pytest.raises(Exception):
        G.Options(honours_points={2: 1})
    assert G.seat_range(G.Options()) == (4, 4)
