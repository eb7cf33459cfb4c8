"""The strong whist computer (engine/games/whist/ai_strong.py: double-dummy sampling) and the
public information it reads: the whist view now carries this deal's played cards and the
must_trump rule — never a card hidden from that seat."""

from __future__ import annotations

import math
import random

import pytest

from engine.cards import RANK_VALUE as RV, make_deck
from engine.ddplay.solver import solve
from engine.games.whist import ai, ai_strong, rules
from engine.games.whist.state import State

N, E, S, W = range(4)


def position(
    hands: dict[int, list[str]],
    trump: str,
    leader: int,
    trick: tuple = (),
    history: tuple = (),
    must_trump: bool = True,
) -> State:
    """A play state with ``hands`` left and a trick led by ``leader``; ``history`` tricks
    first, then the other cards in tricks of one suit, all won by ``leader``."""
    held = {c for h in hands.values() for c in h} | {c for _, c in trick}
    held |= {c for t in history for _, c in t}
    gone = [c for c in make_deck(52) if c not in held]
    played = [[p, c] for t in history for p, c in t]
    for suit in "SHDC":
        cards = sorted((c for c in gone if c[1] == suit), key=lambda c: RV[c[0]])
        assert len(cards) % 4 == 0, f"{len(cards)} {suit} to fill tricks with"
        for i in range(0, len(cards), 4):
            low, top = cards[i : i + 3], cards[i + 3]
            for seat in ((leader + k) % 4 for k in range(4)):
                played.append([seat, top if seat == leader else low.pop(0)])
    s = rules.initial_state({"must_trump": must_trump}, 4)
    s.phase, s.deal_no, s.dealer, s.trump = "play", 1, W, trump
    s.hands = [list(hands[i]) for i in range(4)]
    s.leader, s.plays = leader, [tuple(p) for p in trick]
    s.played = played
    won = [c for _, c in played]
    s.won = [won, []] if leader % 2 == 0 else [[], won]
    s.dealer_played = True
    return s


def dd_best(s: State, seat: int) -> set[str]:
    scores = solve(s.hands, s.leader, s.trump, [c for _, c in s.plays])
    legal = [a.split()[1] for a in rules.legal_actions(s, seat)]
    top = max(scores[c] for c in legal)
    return {c for c in legal if scores[c] == top}


def choice(s: State, seat: int, seed: int = 1, level: str = "strong") -> str:
    return ai.computer_action(rules.view(s, seat), rules.legal_actions(s, seat), random.Random(seed), level=level)


def test_fourth_hand_wins_the_trick():
    # clubs trumps; E leads ♠K, S ♠5, W ♠6: N, last, takes it with the ♠A, not the ♠3
    s = position(
        {N: ["AS", "3S", "2D", "3D"], E: ["AH", "KH", "QH"], S: ["4D", "5D", "6D"], W: ["2H", "3H", "2C"]},
        "C",
        E,
        trick=((E, "KS"), (S, "5S"), (W, "6S")),
    )
    assert dd_best(s, N) == {"AS"}
    for seed in range(3):
        assert choice(s, N, seed) == "play AS"


def test_must_trump_is_kept_and_known_voids_follow_from_it():
    # hearts trumps, E void in spades must trump the ♠ lead: only trumps are offered
    s = position(
        {N: ["9S", "2D", "3D", "4D"], E: ["AH", "KH", "QH", "2C"], S: ["TS", "KS", "5D", "2H"], W: ["QS", "3H", "6D"]},
        "H",
        W,
        trick=((W, "JS"),),
    )
    assert rules.legal_actions(s, N) == ["play 9S"]
    assert choice(s, N) == "play 9S"
    s2 = position(
        {N: ["2D", "3D", "4D"], E: ["AH", "KH", "QH", "2C"], S: ["TS", "KS", "5D", "2H"], W: ["QS", "3H", "6D"]},
        "H",
        W,
        trick=((W, "JS"), (N, "9S")),
    )
    assert rules.legal_actions(s2, E) == ["play QH", "play KH", "play AH"]
    assert choice(s2, E) in rules.legal_actions(s2, E)
    # a player who showed out of spades with a club, under must_trump, has no trump either
    view = {
        "seat": N,
        "trump": "H",
        "must_trump": True,
        "trick": [],
        "played": [[W, "JS"], [N, "2S"], [E, "2C"], [S, "3S"]],
    }
    assert ai_strong.known_voids(view)[E] == {"S", "H"}
    view["must_trump"] = False
    assert ai_strong.known_voids(view)[E] == {"S"}


def test_view_shows_played_cards_and_no_hidden_card():
    rng = random.Random(3)
    s = rules.initial_state({}, 4)
    s, _ = rules.apply(s, None, rules.deal_action(0, rng))
    for _ in range(9):  # two tricks and a card
        seat = rules.to_act(s)[0]
        s, _ = rules.apply(s, seat, rules.legal_actions(s, seat)[0])
    public = rules.view(s, None)
    assert len(public["played"]) == 8
    for seat in range(4):
        v = rules.view(s, seat)
        assert v["played"] == public["played"] and v["must_trump"] is True
        others = {c for i, h in enumerate(s.hands) if i != seat for c in h}
        shown = {c for _, c in v["played"]} | {c for _, c in v["trick"]}
        assert not shown & others
    # an old snapshot without "played" still loads
    data = s.dump()
    del data["played"]
    assert State.load(data).played == []
    assert State.load(s.dump()).played == s.played


def test_the_player_reads_the_view_only():
    """Two deals that look the same from N's seat give N the same card."""
    a = position(
        {N: ["AS", "3S", "2D", "3D"], E: ["AH", "KH", "QH"], S: ["4D", "5D", "6D"], W: ["2H", "3H", "2C"]},
        "C",
        E,
        trick=((E, "KS"), (S, "5S"), (W, "6S")),
    )
    b = position(
        {N: ["AS", "3S", "2D", "3D"], E: ["4D", "KH", "2H"], S: ["AH", "5D", "2C"], W: ["6D", "3H", "QH"]},
        "C",
        E,
        trick=((E, "KS"), (S, "5S"), (W, "6S")),
    )
    assert rules.view(a, N)["hand"] == rules.view(b, N)["hand"]
    assert choice(a, N, 7) == choice(b, N, 7)


@pytest.mark.parametrize("seed,level", [(1, "strong"), (2, "normal")])
def test_whole_deal_only_legal_actions(seed, level, monkeypatch):
    monkeypatch.setattr(ai_strong, "STRONG_BUDGET", ((44, 1), (0, 3)))
    rng = random.Random(seed)
    s = rules.initial_state({"trump_method": "dealer_names"}, 4)
    s, _ = rules.apply(s, None, rules.deal_action(seed % 4, rng))
    cards = 0
    while s.phase in ("trump", "play"):
        seat = rules.to_act(s)[0]
        legal = rules.legal_actions(s, seat)
        action = ai.computer_action(rules.view(s, seat), legal, rng, level=level)
        assert action in legal
        s, _ = rules.apply(s, seat, action)
        cards += action.startswith("play ")
    assert cards == 52


def test_inferences_from_the_cards_followed():
    from engine.games.whist.ai_infer import follower_bans, inferred_bans

    # hearts trumps. W (4th) takes N's ♠9 with the ♠K: no ♠T, ♠J or ♠Q (the cheaper wins).
    # E (4th) follows under N's ♦Q with the ♦3: no ♦2 (his cheapest loser) and no ♦K or ♦A
    # (he would have won). E's ♣5 under N's ♣8: no lower club and, third hand high, no
    # higher one; S need not overtake N, but his ♣3 is his cheapest club.
    tricks = [
        [(N, "9S"), (E, "2S"), (S, "3S"), (W, "KS")],
        [(S, "4D"), (W, "6D"), (N, "QD"), (E, "3D")],
        [(W, "2C"), (N, "8C"), (E, "5C"), (S, "3C")],
    ]
    bans = follower_bans(tricks, "H")
    assert bans[W] == {"TS", "JS", "QS"}
    assert bans[E] == {"2D", "KD", "AD", "2C", "3C", "4C"} | {r + "C" for r in "9TJQKA"}
    assert bans[S] == {"2S", "2C"} and bans[N] == set()
    # the last hand's ruff is his cheapest trump; an underruff his cheapest too, and he
    # had no trump to overruff with
    ruffed = [[(N, "9S"), (E, "AS"), (S, "3S"), (W, "5H")], [(N, "9D"), (E, "2D"), (S, "7H"), (W, "4H")]]
    bans = follower_bans(ruffed, "H")
    assert bans[W] == {"2H", "3H", "4H"} | {"2H", "3H"} | {r + "H" for r in "89TJQKA"}
    assert bans[S] == {"2S"} and bans[E] == set()
    # third hand high: S's ♠4 under E's ♠J denies a higher spade
    assert follower_bans([[(N, "2S"), (E, "JS"), (S, "4S"), (W, "5S")]], "H")[S] == {"2S", "3S", "QS", "KS", "AS"}
    # with the cheaper-of-equals inference: N's ♣8 over the ♣2 denies the ♣7
    both = inferred_bans(tricks, "H")
    assert both[W] >= {"TS", "JS", "QS"} and "7C" in both[N]


def test_weighted_deals_are_uniform_over_the_consistent_deals():
    """E may not hold the ♥2 (void), S not the ♠2 (inferred): five deals fit. Drawn
    hand by hand, the one where E takes ♠3♠4 (leaving S no choice) comes up twice as
    often as each other; its weight is half theirs."""
    from collections import Counter

    from engine.games.whist.ai_sample import sample_weighted

    rng = random.Random(5)
    mass: Counter = Counter()
    for _ in range(3000):
        hands, log_weight = sample_weighted(["2S", "3S", "4S", "2H"], {E: 2, S: 1, W: 1}, {E: {"H"}}, {S: {"2S"}}, rng)
        assert "2H" not in hands[E] and "2S" not in hands[S]
        mass[tuple(sorted(hands[E])), hands[S][0]] += math.exp(log_weight)
    assert len(mass) == 5
    total = sum(mass.values())
    assert all(abs(m / total - 0.2) < 0.03 for m in mass.values())
