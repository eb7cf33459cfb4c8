"""The fast costly cards (one DDS call for the whole play, ``engine.ddplay.review``) give
exactly what the plain method gives: before every card, solve the position for the
score of every legal card (``solver.solve``), and the played card costs the best score
minus its own. The plain method is kept here only, as the reference: it is one full
solve per card, several times slower."""

from __future__ import annotations

import pytest

from engine.analysis_core import deals_of
from engine.ddplay.review import SEATS, costly_cards
from engine.ddplay.solver import solve
from engine.tricks import winning_index
from tests.deal_records import play_record


def plain_costly(hands: list[list[str]], plays: list[tuple[int, str]], trump: str | None) -> list[dict]:
    """One ``solve`` of every position before a card: all legal cards' scores at once."""
    left = [list(h) for h in hands]
    leader = plays[0][0]
    trick: list[str] = []
    out = []
    for i, (seat, card) in enumerate(plays):
        scores = solve(left, leader, trump, trick)
        loss = max(scores.values()) - scores[card]
        if loss:
            out.append({"trick": i // 4 + 1, "seat": SEATS[seat], "card": card, "loss": loss})
        left[seat].remove(card)
        trick.append(card)
        if len(trick) == 4:
            leader = plays[i - 3 + winning_index(trick, trump)][0]
            trick = []
    return out


def played_deal(name: str, seed: int) -> tuple[list[list[str]], list[tuple[int, str]], str | None]:
    """The hands at the opening lead, the play and the trump of a random-play deal."""
    _, deals = deals_of(play_record(name, seed, 4))
    deal = deals[0]
    start = deal.first_play()
    assert start is not None
    if name == "bridge":
        hands = [list(h) for h in deal.dealt.dealt]
        strain = deal.final.contract.strain
        trump = None if strain == "NT" else strain
    else:
        hands = [list(h) for h in start.before.hands]
        trump = start.before.trump
    return hands, deal.plays(lambda state: state.hands), trump


@pytest.mark.parametrize(("name", "seed"), [("bridge", 3), ("bridge", 11), ("whist", 5), ("whist", 8)])
def test_fast_costly_cards_are_the_plain_method_s(name, seed):
    hands, plays, trump = played_deal(name, seed)
    assert len(plays) == 52
    fast = costly_cards(hands, plays, trump)
    assert fast == plain_costly(hands, plays, trump)
    assert fast  # random play: something to compare


@pytest.mark.parametrize("cut", [1, 2, 7, 16, 30, 48, 49])
def test_a_play_that_stopped_early_gives_the_plain_method_s_costly_cards(cut):
    """A claim or concession ends the play anywhere: after the lead, in a trick, at its end."""
    hands, plays, trump = played_deal("bridge", 11)
    assert costly_cards(hands, plays[:cut], trump) == plain_costly(hands, plays[:cut], trump)


def test_no_play_no_costly_cards():
    hands, _, trump = played_deal("whist", 5)
    assert costly_cards(hands, [], trump) == []
