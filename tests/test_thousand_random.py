"""Seeded random Тысяча games (docs/rules/thousand.md §8): every deal holds the 24 cards,
tricks hold 120 points, totals add up the sheet, a dump reloads the same state, and no
view shows a card its seat may not see."""

from __future__ import annotations

import random

import pytest

from engine.deadline import AfterChecks
from engine.base import get_game
from engine.games.thousand import cards as C

G = get_game("thousand")


def cards_in(view: dict) -> set[str]:
    """Every card a view shows that is not public: the hand and the gifts."""
    return set(view.get("hand") or []) | {c for _, c in view.get("gifts") or []}


def check(state, seen_gifts: dict) -> None:
    if state.phase in ("bid", "give", "raise", "play"):
        in_hands = [c for h in state.hands for c in h]
        table = [c for _, c in state.plays] + [c for _, c in state.played]
        talon = state.talon if state.phase == "bid" else []
        assert sorted(in_hands + table + talon) == sorted(C.DECK)
    group = G.view(state, None)
    assert "hand" not in group and "gifts" not in group
    for seat in range(state.players):
        view = G.view(state, seat)
        own = set(state.hands[seat]) if state.hands else set()
        public = {c for _, c in state.plays} | {c for _, c in state.played} | set(group["talon"] or [])
        # a seat sees its own cards and the gifts it gave or got, nothing else of the others
        allowed = own | public | {c for to, c in state.gifts if seat in (to, state.declarer)}
        assert cards_in(view) <= allowed
        for to, card in state.gifts:
            if seat not in (to, state.declarer) and card not in public:
                assert card not in str(view["gifts"]) and card not in (view["hand"] or [])
    assert sum(e["delta"][s] for e in state.entries for s in range(state.players)) == sum(state.totals)
    for entry in state.entries:
        if not entry["conceded"]:
            assert sum(entry["raw"]) == 120 + sum(C.MARRIAGE[s] for _, s in entry["marriages"])


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_random_games_keep_the_invariants(players, seed):
    rng = random.Random(seed * 10 + players)
    options = {"dark": seed % 2 == 0, "bid_step": 10 if seed % 3 == 0 else 5, "rounding": 10 if seed == 3 else 5}
    options |= {"target": 500, "barrel_at": 400}  # shorter games that still reach the бочка
    state = G.initial_state(options, players)
    state, _ = G.apply(state, None, G.new_deal(G.Options(**options), players, rng, []))
    steps = 0
    while not G.is_over(state) and steps < 20000:
        action = G.system_action(state, rng)
        if action:
            state, _ = G.apply(state, None, action)
            continue
        (seat,) = G.to_act(state)
        legal = G.legal_actions(state, seat)
        assert legal and all(G.legal_actions(state, s) == [] for s in range(players) if s != seat)
        # mostly the easy player (games end), now and then any legal move
        choice = rng.choice(legal) if rng.random() < 0.1 else G.computer_action(G.view(state, seat), legal, rng, "easy")
        state, events = G.apply(state, seat, choice)
        steps += 1
        if rng.random() < 0.1:  # at random points: both checks read the whole game so far
            check(state, {})
            assert G.dump(G.load(G.dump(state))) == G.dump(state)
    check(state, {})
    assert G.is_over(state) and max(state.totals) >= 500
    assert state.result["winner"] == max(range(players), key=lambda s: state.totals[s])


def test_strong_plays_legal_moves_from_its_view():
    rng = random.Random(3)
    state = G.initial_state({"dark": True}, 3)
    state, _ = G.apply(state, None, G.new_deal(G.Options(), 3, rng, []))
    for _ in range(120):
        if G.is_over(state):
            break
        action = G.system_action(state, rng)
        if action:
            state, _ = G.apply(state, None, action)
            continue
        (seat,) = G.to_act(state)
        legal = G.legal_actions(state, seat)
        # a deadline that cuts each search after a few samples: the choice stays legal
        level = "strong" if seat == 0 else "normal"
        choice = G.computer_action(G.view(state, seat), legal, rng, level, deadline=AfterChecks(30))
        assert choice in legal
        state, _ = G.apply(state, seat, choice)
