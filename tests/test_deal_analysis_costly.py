"""The fast costly cards give exactly what the plain method gives: before every card,
the score of every legal card, and the played card costs the best score minus its own.

Bridge and whist (``engine.ddplay.review``): one DDS call for the whole play against
one full ``solver.solve`` per card. Russian preferans (``engine.games.preferans_ru.analysis``):
one value a card (the card played) against the value of every legal card. The plain
methods are kept here only, as the references."""

from __future__ import annotations

import pytest

from engine.analysis_core import deals_of, side_costs
from engine.ddplay.review import SEATS, costly_cards
from engine.ddplay.solver import solve
from engine.games.preferans_ru import analysis as russian
from engine.games.preferans_ru.ai_dd import Position
from engine.games.preferans_ru.rules import is_misere, strain_of
from engine.games.preferans_ru.state import SEAT_NAMES as RU_SEATS
from engine.tricks import playable, winning_index
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


def plain_russian_costly(hands: list[list[str]], seats: list[int], deal: dict) -> list[dict]:
    """Every legal card's value before each card (``Position.card_values``), then
    ``side_costs``: the declarer wants tricks (on a мизер none), the others not.
    ``hands``: at the opening lead, by seat; ``deal``: the analysis of the deal."""
    left = {seat: list(hands[seat]) for seat in seats}
    declarer = RU_SEATS.index(deal["declarer"])
    contract = deal["contract"]
    misere = is_misere(contract)
    strain = None if misere else strain_of(contract)
    trump = None if strain in (None, "NT") else strain
    position = Position(seats, declarer, trump, avoid=misere)
    values, plays = [], []
    for trick in deal["tricks"]:
        done: list[tuple[int, str]] = []
        for name, card in trick["cards"]:
            seat = RU_SEATS.index(name)
            led = done[0][1][1] if done else None
            legal = playable(left[seat], led, trump, True)
            values.append(position.card_values(left, seat, done, legal))
            plays.append((seat, card))
            done.append((seat, card))
            left[seat].remove(card)
    costs = side_costs(values, plays, wants_high=lambda seat: (seat == declarer) != misere)
    trick_of = [k + 1 for k, t in enumerate(deal["tricks"]) for _ in t["cards"]]
    return [
        {"trick": trick_of[i], "seat": RU_SEATS[plays[i][0]], "card": plays[i][1], "loss": loss} for i, loss in costs
    ]


def test_russian_preferans_costly_cards_are_the_plain_method_s():
    compared, costly = 0, 0
    for seed in range(1, 9):
        _, logs = deals_of(play_record("preferans_ru", seed, 3))
        for log in logs:
            deal = russian.analyse_deal(log)
            start = log.first_play()
            if deal["declarer"] is None or start is None:
                continue
            assert deal["costly"] == plain_russian_costly(start.before.hands, list(log.final.active), deal)
            compared += 1
            costly += bool(deal["costly"])
    assert compared >= 3 and costly  # random play: something to compare
