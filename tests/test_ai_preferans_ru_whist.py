"""Russian preferans decisions after the auction, at every level: полвиста when it is open
and the computer would not whist (a half-whist is never worse than a pass), a contract
raised when the hand is clearly worth more. The no-whist rule against hopeless contracts:
tests/test_ai_preferans_ru_sure.py."""

from __future__ import annotations

import random

import pytest

from engine.base import get_game
from engine.games.preferans_ru import ai_decide

GAME = get_game("preferans_ru")
# declarer A: eight spades and the top clubs; B: all eight hearts; C: all eight diamonds
DEAL = "deal dealer=2 AS KS QS JS TS 9S 8S 7S AC KC AH KH QH JH TH 9H 8H 7H 7C 8C AD KD QD JD TD 9D 8D 7D 9C TC JC QC"


def whist_state(bid: str, contract: str):
    state = GAME.initial_state(GAME.Options(), 3)
    state, _ = GAME.apply(state, None, DEAL)
    for seat, action in [(0, f"bid {bid}"), (1, "pass"), (2, "pass"), (0, "discard JC"), (0, "discard QC")]:
        state, _ = GAME.apply(state, seat, action)
    state, _ = GAME.apply(state, 0, f"contract {contract}")
    return state


def second_defender_with_half(first: str = "pass"):
    """The 7♠ contract, the first defender passed: the second may whist, pass or half-whist."""
    state = whist_state("6S", "7S")
    state, _ = GAME.apply(state, 1, first)
    seat = GAME.to_act(state)[0]
    legal = GAME.legal_actions(state, seat)
    assert "half" in legal
    return GAME.view(state, seat), legal


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_half_whist_rather_than_pass_when_the_whist_is_not_worth_it(level, monkeypatch):
    """Whatever the expected value of a whist between the half-whist's and the whist's
    thresholds (where the computer used to pass), the answer is полвиста."""
    view, legal = second_defender_with_half()
    wv = ai_decide.VALUE[7]  # whist_factor 1
    half_value = ai_decide.QUOTA[7] / 2 * wv
    assert half_value < ai_decide.WHIST_EDGE  # the band exists
    middling = (half_value + ai_decide.WHIST_EDGE) / 2
    monkeypatch.setattr(ai_decide, "whist_value", lambda *args: middling)
    assert GAME.computer_action(view, legal, random.Random(1), level=level) == "half"


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_the_issue_hands_never_pass_with_half_open(level):
    view, legal = second_defender_with_half()
    assert GAME.computer_action(view, legal, random.Random(1), level=level) in ("half", "whist")


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_the_declarer_raises_a_contract_its_hand_counts_well_above(level):
    """Bid 6♠ with eight spades and the top clubs (ten tricks by the simple count, ten
    sure tricks): every level declares more than the six after the talon (the easy one
    by its count, the others by the sampled score), never more than ten."""
    state = GAME.initial_state(GAME.Options(), 3)
    state, _ = GAME.apply(state, None, DEAL)
    for seat, action in [(0, "bid 6S"), (1, "pass"), (2, "pass"), (0, "discard JC"), (0, "discard QC")]:
        state, _ = GAME.apply(state, seat, action)
    legal = GAME.legal_actions(state, 0)
    chosen = GAME.computer_action(GAME.view(state, 0), legal, random.Random(1), level=level)
    assert chosen.endswith("S") and chosen in legal
    assert 8 <= int(chosen.split()[1][:-1]) <= 10


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_the_declarer_keeps_a_contract_its_hand_barely_makes(level):
    """Bid 6♠ with a hand of about six or seven tricks: no raise."""
    deal = (
        "deal dealer=2 AS KS QS 7S 8S AC 7C 8D 9D 7H AH KH QH JH TH 9H 8H 9S 9C 8C AD KD QD JD TD JS TS 7D TC JC QC KC"
    )
    state = GAME.initial_state(GAME.Options(), 3)
    state, _ = GAME.apply(state, None, deal)
    for seat, action in [(0, "bid 6S"), (1, "pass"), (2, "pass")]:
        state, _ = GAME.apply(state, seat, action)
    hand = GAME.view(state, 0)["hand"]
    for card in sorted(hand, key=lambda c: "789TJQKA".index(c[0]))[:2]:
        state, _ = GAME.apply(state, 0, f"discard {card}")
    legal = GAME.legal_actions(state, 0)
    chosen = GAME.computer_action(GAME.view(state, 0), legal, random.Random(1), level=level)
    assert chosen in ("contract 6S", "contract 7S") or not chosen.endswith("S")


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_half_whist_rather_than_pass_against_a_hopeless_contract(level):
    """With полвиста allowed on tens (``half_whist`` option), the issue's ten: the first
    defender passes (no layout gives the defence a trick), and the second, for whom the
    half-whist is open and costs nothing (no play; were the first to whist after all, the
    half-whister counts as a passer), takes it rather than a pass."""
    state = GAME.initial_state(GAME.Options(half_whist=(6, 7, 10)), 3)
    state, _ = GAME.apply(state, None, DEAL)
    for seat, action in [(0, "bid 10S"), (1, "pass"), (2, "pass"), (0, "discard JC"), (0, "discard QC")]:
        state, _ = GAME.apply(state, seat, action)
    state, _ = GAME.apply(state, 0, "contract 10S")
    said = []
    while state.phase == "whist":
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, seat)
        choice = GAME.computer_action(GAME.view(state, seat), legal, random.Random(1), level=level)
        said.append((seat, choice, "half" in legal))
        state, _ = GAME.apply(state, seat, choice)
    # the first defender, asked again, lets the half-whist stand
    assert said == [(1, "pass", False), (2, "half", True), (1, "pass", False)]


def test_sure_tricks_count_only_what_runs_from_the_top():
    from engine.games.preferans_ru.ai_eval import estimate, sure_tricks

    solid = "AS KS QS JS TS 9S 8S 7S AC KC".split()
    assert sure_tricks(solid, "S") == 10
    # two trumps and a long side suit: the quick count says ten, the defenders ruff
    thin = "AS KS AD KD QD 9D 8D 7D AC KC".split()
    assert estimate(thin, "S") >= 9 and sure_tricks(thin, "S") == 2 + 1 + 1
    # trumps drawn by the top four, then six diamonds from the top
    assert sure_tricks("AS KS QS JS AD KD QD JD 9D 7D".split(), "S") == 10
    assert sure_tricks("AD KD QD JD TD AC KC QC AH KH".split(), None) == 10


def test_the_quick_defence_count_of_a_long_suit_headed_by_the_ace():
    """The easy whister's count (``defender_estimate``): against a trump a side ace is a
    trick in up to four cards, half in five or more (the declarer may be void and ruff
    it); without trumps nobody ruffs: the ace and the run under it, the whole suit once
    the run outlasts the others' cards of it (it counted half a trick for all eight)."""
    estimate = ai_decide.defender_estimate
    eight = "AH KH QH JH TH 9H 8H 7H 7C 8C".split()  # B's hand of the deal above
    assert estimate(eight, None) == 8.0  # all eight are winners once on lead
    # against a trump the declarer is surely void here, yet the half stays: it is what
    # makes the easy whister whist K♠ 7♠ with these hearts, whose guarded trump king the
    # count misses (test_ai_preferans_ru_sure.py: a trick against a ten)
    assert estimate(eight, "S") == 0.5
    seven = "AH QH JH TH 9H 8H 7H 7C 8C 7D".split()  # the king alone elsewhere: it falls
    assert estimate(seven, None) == 7.0 and estimate(seven, "S") == 0.5
    five = "AH KH 9H 8H 7H 7C 8C 9C 7D 8D".split()
    assert estimate(five, None) == 2.0 and estimate(five, "S") == 0.5
    four = "AH 9H 8H 7H 7C 8C 9C 7D 8D 9D".split()
    assert estimate(four, None) == 1.0 and estimate(four, "S") == 1.0
    assert estimate("AH KH 7H 7C 8C 9C 7D 8D 9D TD".split(), "S") == 1.7  # A-K-x: the king too
