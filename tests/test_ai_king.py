"""The strong (and normal) King computer: obvious decisions in set positions, legal
actions only over a few games, decisions from the view alone, and the public trick
history it reads from the view (``played``) holds no hidden card."""

from __future__ import annotations

import copy
import json
import random

import pytest

from engine.games.king import GAME as G
from engine.games.king import ai
from engine.games.king.ai_world import World
from engine.games.king.options import KingOptions

N, E, S, W = range(4)


def position(no: int, hands: list[list[str]], plays: list[str] = (), choose: str | None = None):
    """Deal ``no`` with these four 8-card hands, N leading (dealer W); then ``choose`` (a
    trump deal's choice) and ``plays`` (cards in turn order)."""
    s = G.initial_state(KingOptions(), 4)
    s.deal_no, s.dealer = no - 1, 2  # the deal then passes to W
    deck = [""] * 32
    for seat, hand in enumerate(hands):
        i = (seat - 3 - 1) % 4
        for slot, card in zip(
            list(range(3 * i, 3 * i + 3)) + list(range(12 + 3 * i, 15 + 3 * i)) + list(range(24 + 2 * i, 26 + 2 * i)),
            hand,
        ):
            deck[slot] = card
    s, _ = G.apply(s, None, f"deal {no} dealer=3 " + " ".join(deck))
    if choose:
        s, _ = G.apply(s, N, choose)
    for card in plays:
        s, _ = G.apply(s, G.to_act(s)[0], f"play {card}")
    return s


def decide(s, level: str = "strong", seed: int = 1) -> str:
    seat = G.to_act(s)[0]
    return ai.computer_action(G.view(s, seat), G.legal_actions(s, seat), random.Random(seed), level=level)


HANDS = [
    ["7S", "9S", "JS", "KS", "8D", "TD", "QD", "9C"],  # N
    ["AH", "KH", "QH", "7D", "8C", "TC", "QC", "7C"],  # E: no spades
    ["8S", "TS", "QS", "AS", "9D", "JD", "KD", "AD"],  # S
    ["7H", "8H", "9H", "TH", "JH", "JC", "KC", "AC"],  # W
]


def test_no_hearts_void_throws_a_top_heart():
    s = position(2, HANDS, ["7S"])
    assert decide(s) in ("play AH", "play KH")


def test_no_king_of_hearts_void_drops_the_king():
    s = position(6, HANDS, ["7S"])
    assert decide(s) == "play KH"


def test_no_king_of_hearts_ducks_under_a_heart_lead():
    hands = [
        ["9H", "TH", "JH", "7S", "8S", "9S", "TS", "JS"],
        ["KH", "7H", "7D", "8D", "9D", "7C", "8C", "9C"],
        ["AH", "8H", "QS", "KS", "TD", "JD", "QD", "KD"],
        ["QH", "AS", "AD", "TC", "JC", "QC", "KC", "AC"],
    ]
    s = position(6, hands, ["9H"])  # S's AH and W's QH are still out: KH could win
    assert decide(s) == "play 7H"


def test_no_king_of_hearts_ducks_when_the_king_was_thrown_in():
    hands = [
        ["9D", "TD", "7S", "8S", "9S", "TS", "JS", "QS"],
        ["AH", "KH", "QH", "7C", "8C", "9C", "TC", "JC"],  # no diamonds
        ["KD", "7D", "8H", "9H", "AS", "KS", "QC", "KC"],
        ["JD", "QD", "AD", "8D", "7H", "TH", "JH", "AC"],
    ]
    s = position(6, hands, ["9D", "KH"])
    assert decide(s) == "play 7D"  # KD would take the king


def test_trump_deal_takes_the_sure_trick_as_last_hand():
    s = position(9, HANDS, ["7S", "8C", "TS"], choose="name C")  # E is void in spades: ruffed
    # W plays last and must ruff: the cheapest club that overruffs E's 8C wins for sure
    assert G.to_act(s) == [W]
    assert decide(s) == "play JC"


def test_trump_choice_names_the_suit_of_three_top_cards():
    hands = [
        ["AS", "KS", "QS", "7D", "8D", "9D", "7C", "8C"],
        ["JS", "TS", "7H", "8H", "TD", "JD", "9C", "TC"],
        ["9S", "8S", "9H", "TH", "QD", "KD", "JC", "QC"],
        ["7S", "JH", "QH", "KH", "AH", "AD", "KC", "AC"],
    ]
    s = position(9, hands)
    assert s.phase == "choose" and sorted(G.view(s, N)["hand"]) == ["AS", "KS", "QS"]
    assert decide(s) == "name S"


def test_count_deal_does_not_cross_a_threshold_when_a_blank_is_safe():
    s = position(7, HANDS, ["KS", "KH", "AS", "7H"])  # 4 + 4 + 11 + 0 = 19; N to lay
    assert s.total == 19 and G.to_act(s) == [N]
    assert decide(s) not in ("play TD",)  # 29 would cross 25


OTHER_RULES = {
    "deal3_cards": "KJ",
    "deal3_per_card": -2,
    "deal6_no_heart_lead": True,
    "deal6_must_discard_kh": True,
    "deal7_stop_at_100": False,
    "deal8_free_pass": True,
    "trump_must_ruff": False,
    "stop_when_decided": False,
    "deal4_bachelor_rule": False,
}


@pytest.mark.parametrize("level, options", [("strong", {}), ("normal", {}), ("strong", OTHER_RULES)])
def test_only_legal_actions_in_a_seeded_game(level, options):
    """A whole game: the level under test in seat N, the easy player elsewhere."""
    rng = random.Random(3)
    opts = KingOptions(**options)
    s = G.initial_state(opts, 4)
    s, _ = G.apply(s, None, G.new_deal(opts, 4, rng, []))
    while not G.is_over(s):
        system = G.system_action(s, rng)
        if system:
            s, _ = G.apply(s, None, system)
            continue
        seat = G.to_act(s)[0]
        legal = G.legal_actions(s, seat)
        action = G.computer_action(G.view(s, seat), legal, rng, level=level if seat == N else "easy")
        assert action in legal
        s, _ = G.apply(s, seat, action)


def test_decides_from_the_view_alone_and_deterministically():
    s = position(1, HANDS, ["7S", "8C"])
    v = G.view(s, S)
    legal = G.legal_actions(s, S)
    # the same view with other hidden cards behind it: swap two cards between N and W
    t = s.clone()
    t.hands[N][t.hands[N].index("QD")], t.hands[W][t.hands[W].index("JC")] = "JC", "QD"
    assert G.view(t, S) == v
    a = ai.computer_action(json.loads(json.dumps(v)), legal, random.Random(5))
    b = ai.computer_action(G.view(t, S), legal, random.Random(5))
    c = ai.computer_action(copy.deepcopy(v), legal, random.Random(5))
    assert a == b == c and a in legal


def test_played_history_is_public_and_matches_the_tricks():
    s = position(1, HANDS, ["7S", "8C", "TS", "JH", "AS"])
    for seat in (None, N, E, S, W):
        v = G.view(s, seat)
        assert v["played"] == [{"leader": N, "winner": S, "plays": [[N, "7S"], [E, "8C"], [S, "TS"], [W, "JH"]]}]
        assert v["played"][-1]["plays"] == v["last_trick"]["plays"]
        in_hands = {c for h in s.hands for c in h}
        assert not {c for t in v["played"] for _, c in t["plays"]} & in_hands


def test_world_samples_agree_with_the_voids():
    s = position(1, HANDS, ["7S", "8C", "TS", "JH", "AS"])  # E and W showed no spades
    w = World(G.view(s, N))
    for k in range(20):
        hands = w.sample(random.Random(k))
        assert sorted(hands[N]) == sorted(s.hands[N])
        assert [len(h) for h in hands] == [len(h) for h in s.hands]
        assert not [c for c in hands[E] + hands[W] if c[1] == "S"]
        assert sorted(c for h in hands for c in h) == sorted(c for h in s.hands for c in h)
