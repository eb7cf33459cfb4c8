"""The strong durak computer (engine/games/durak/ai_strong.py): seeded decisions with one
obviously right answer, legality over whole games, views only, determinism."""

from __future__ import annotations

import json
import random

from engine.base import get_game
from engine.games.durak import ai
from engine.games.durak.options import DurakOptions
from engine.games.durak.state import State

from .test_durak_rules import deal_action, mk

G = get_game("durak")
NON_TRUMP = ("7C", "8D", "9C", "TD", "JC")


def decide(s: State, seat: int, seed: int = 1, level: str = "strong") -> str:
    view = json.loads(json.dumps(G.view(s, seat)))  # a plain JSON view, nothing else
    return ai.computer_action(view, G.legal_actions(s, seat), random.Random(seed), level=level)


def opening(mine: list[str], theirs: list[str], attack: str) -> State:
    """A fresh 36-card game (trump card 9S): seat 0 holds ``theirs`` (and 6S, so it
    attacks first), seat 1 ``mine``; seat 0 opens with ``attack``."""
    d = deal_action(2, 1, [theirs, mine], trump_card="9S")
    s, _ = G.apply(G.initial_state({}, 2), None, d)
    assert s.attacker == 0
    s, _ = G.apply(s, 0, attack)
    return s


def test_covers_cheaply():
    s = opening(["7H", "AH", "KS", "8C", "9D", "TC"], ["6H", "6S", "7D", "8H", "JD", "QC"], "attack 6H")
    for seed in (1, 2, 3):
        assert decide(s, 1, seed) == "beat 6H 7H"


def test_takes_rather_than_spend_the_ace_of_trumps_early():
    s = opening(["AS", "7C", "8D", "9C", "TD", "JC"], ["6H", "6S", "7D", "8H", "JD", "QC"], "attack 6H")
    for seed in (1, 2, 3):
        assert decide(s, 1, seed) == "take"


def test_plays_the_winning_endgame_line():
    # stock gone, every card known: leading the trump ace first wins (the other takes
    # it, then cannot keep the pair of sixes from emptying my hand); the cheap-looking
    # pair of sixes first loses (both are beaten and the ace is left over)
    s = mk(hands=[["6C", "6D", "AS"], ["7C", "KS"]], trump_card="9S", trump_in_stock=False)
    assert G.view(s, 0)["stock"] == 0
    assert decide(s, 0) == "attack AS"
    s, _ = G.apply(s, 0, "attack AS")
    s, _ = G.apply(s, 1, "take")
    assert sorted(decide(s, 0).split()) == ["6C", "6D", "attack"]


def test_only_legal_actions_over_whole_games():
    for players, level, seed, deck in ((2, "strong", 1, 36), (3, "normal", 3, 24)):
        rng = random.Random(seed)
        s = G.initial_state({"deck_size": deck}, players)
        s, _ = G.apply(s, None, G.new_deal(s.options, players, rng, []))
        steps = 0
        while not G.is_over(s):
            seat = G.to_act(s)[0]
            legal = G.legal_actions(s, seat)
            action = ai.computer_action(G.view(s, seat), legal, rng, level=level)
            assert action in legal
            s, _ = G.apply(s, seat, action)
            steps += 1
            assert steps < 2000


def test_variants_stay_legal():
    o = DurakOptions(base_game="perevodnoy", blind_beating=True, deck_size=24)
    rng = random.Random(5)
    s = G.initial_state(o, 2)
    s, _ = G.apply(s, None, G.new_deal(o, 2, rng, []))
    while not G.is_over(s):
        seat = G.to_act(s)[0]
        legal = G.legal_actions(s, seat)
        assert ai.computer_action(G.view(s, seat), legal, rng, level="normal") in legal
        s, _ = G.apply(s, seat, ai.computer_action(G.view(s, seat), legal, rng, level="easy"))


def test_deterministic_for_a_seed():
    s = opening(["7H", "AH", "KS", "8C", "9D", "TC"], ["6H", "6S", "7D", "8H", "JD", "QC"], "attack 6H")
    assert len({decide(s, 1, seed=9) for _ in range(3)}) == 1


def test_view_memory_holds_public_cards_only():
    s = opening(["7H", "AH", "KS", "8C", "9D", "TC"], ["6H", "6S", "7D", "8H", "JD", "QC"], "attack 6H")
    s, _ = G.apply(s, 1, "take")
    s, _ = G.apply(s, 0, "pass")
    for seat in (None, 0, 1):
        v = G.view(s, seat)
        assert v["known"] == [[], ["6H"]] and v["gone"] == []
    v0 = G.view(s, 0)
    hidden = set(s.hands[1]) - {"6H"}
    assert not hidden & set(json.dumps(v0).replace('"', " ").split())
    # a card played from the hand is no longer counted there
    s, _ = G.apply(s, 0, "attack 7D")
    s, _ = G.apply(s, 1, "beat 7D 9D")
    if s.phase == "throw":
        s, _ = G.apply(s, 0, "pass")
    v = G.view(s, 0)
    assert v["gone"] == ["7D", "9D"] and v["known"] == [[], ["6H"]]
