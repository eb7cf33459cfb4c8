"""The strong bridge card player (engine/games/bridge/play_ai.py: double-dummy sampling).

Each position is built as a real engine state (the earlier tricks filled with cards of
one suit, or given explicitly when someone must have shown out), the expected card is
checked to be the only double-dummy best one with DDS on the true deal, and the player,
seeing only its seat's view, must find it."""

from __future__ import annotations

import random

import pytest

from engine.games.bridge import ai, ai_strong, play_ai, rules
from engine.games.bridge.scoring import Contract
from engine.cards import RANK_VALUE as RV, make_deck
from engine.games.bridge.inference import HandRange
from engine.ddplay.sampler import sample_fitting
from engine.ddplay.solver import BadPosition, solve
from engine.tricks import Trick

N, E, S, W = range(4)


def position(
    hands: dict[int, list[str]], declarer: int, strain: str, leader: int, trick: tuple = (), history: tuple = ()
) -> rules.State:
    """A play state with ``hands`` left and a trick led by ``leader`` (``trick`` on the
    table). ``history`` tricks come first (someone may show out in them); the other
    cards fill tricks of four cards of one suit, all won by ``leader``."""
    held = {c for h in hands.values() for c in h} | {c for _, c in trick}
    held |= {c for t in history for _, c in t}
    gone = [c for c in make_deck(52) if c not in held]
    dealt = {seat: list(h) + [c for p, c in trick if p == seat] for seat, h in hands.items()}
    tricks = []
    for t in history:
        tricks.append({"leader": t[0][0], "plays": list(t), "winner": leader})
        for seat, c in t:
            dealt[seat].append(c)
    lead = leader if history else (declarer + 1) % 4
    for suit in "SHDC":
        cards = sorted((c for c in gone if c[1] == suit), key=lambda c: RV[c[0]])
        assert len(cards) % 4 == 0, f"{len(cards)} {suit} to fill tricks with"
        for i in range(0, len(cards), 4):
            low, top = cards[i : i + 3], cards[i + 3]
            plays = []
            for seat in ((lead + k) % 4 for k in range(4)):
                plays.append((seat, top if seat == leader else low.pop(0)))
                dealt[seat].append(plays[-1][1])
            tricks.append({"leader": lead, "plays": plays, "winner": leader})
            lead = leader
    s = rules.initial_state({})
    s.hands = [list(hands[i]) for i in range(4)]
    s.dealt = [dealt[i] for i in range(4)]
    s.dealer, s.board, s.phase = declarer, 1, "play"
    s.calls = [f"1{strain}", "P", "P", "P"]
    s.contract, s.declarer = Contract(1, strain, 0), declarer
    s.trick = Trick(leader, list(trick))
    s.tricks = tricks
    s.won = {"NS": 0, "EW": 0}
    s.won["NS" if leader % 2 == 0 else "EW"] = len(tricks)
    s.dummy_open = True
    return s


def dd_best(s: rules.State) -> set[str]:
    """The cards of the hand on play that keep its side's double-dummy tricks."""
    scores = solve(s.hands, s.trick.leader, s.contract.trump, [c for _, c in s.trick.plays])
    top = max(scores.values())
    return {c for c, v in scores.items() if v == top}


def strong_choice(s: rules.State, seat: int, seed: int = 1) -> str:
    return ai.computer_action(rules.view(s, seat), rules.legal_actions(s, seat), random.Random(seed))


def test_declarer_cashes_dummys_winners():
    # 1NT by S, dummy N on lead with ♠AKQ; ♥2 would give E four hearts
    s = position(
        {
            N: ["AS", "KS", "QS", "2H"],
            E: ["AH", "KH", "QH", "JH"],
            S: ["3S", "4S", "2D", "3D"],
            W: ["4D", "5D", "6D", "2C"],
        },
        S,
        "NT",
        N,
    )
    assert dd_best(s) == {"AS", "KS", "QS"}
    for seed in range(3):
        assert strong_choice(s, S, seed) in ("play AS", "play KS", "play QS")


def third_hand_position() -> rules.State:
    """No trumps, S declares; W leads the ♠3, dummy plays the ♠2, E holds ♠AQ864."""
    return position(
        {
            N: ["2H", "3H", "2D", "3D"],
            E: ["AS", "QS", "8S", "6S", "4S"],
            S: ["KS", "AD", "KD", "QD", "2C"],
            W: ["TS", "AH", "KH", "QH"],
        },
        S,
        "NT",
        W,
        trick=((W, "3S"), (N, "2S")),
    )


def test_third_hand_plays_the_ace_not_the_four():
    # E with ♠AQ864 must not play the ♠4 (S's bare ♠K would win)
    s = third_hand_position()
    assert dd_best(s) == {"AS"}
    for seed in range(3):
        assert strong_choice(s, E, seed) == "play AS"


def test_defender_gives_no_ruff_and_discard():
    # hearts trumps; S showed out of clubs twice and dummy has none: W's ♣A would let
    # declarer ruff in one hand and throw the ♠2 from the other; a diamond is safe
    history = (((W, "9C"), (N, "5S"), (E, "8C"), (S, "6S")), ((W, "7C"), (N, "7S"), (E, "6C"), (S, "8S")))
    s = position(
        {
            N: ["2H", "3H", "AD", "KD"],
            E: ["5H", "QC", "JC", "TC"],
            S: ["4H", "7H", "QD", "2S"],
            W: ["AC", "KC", "2D", "3D"],
        },
        S,
        "H",
        W,
        history=history,
    )
    assert dd_best(s) == {"2D", "3D"}
    for seed in range(3):
        assert strong_choice(s, W, seed) in ("play 2D", "play 3D")


def test_the_player_reads_the_view_only():
    """The chooser gets a plain dict: the same view with every hidden hand's cards
    swapped around (same counts) must give the same card."""
    s = third_hand_position()
    view = rules.view(s, E)
    assert set(view) >= {"hand", "dummy_hand", "played", "trick", "hand_counts"}
    other = position(
        {
            N: ["2H", "3H", "2D", "3D"],
            E: ["AS", "QS", "8S", "6S", "4S"],
            S: ["AH", "KH", "QH", "2C", "TS"],
            W: ["KS", "AD", "KD", "QD"],
        },
        S,
        "NT",
        W,
        trick=((W, "3S"), (N, "2S")),
    )
    assert rules.view(other, E)["hand"] == view["hand"]
    legal = rules.legal_actions(s, E)
    a = ai.computer_action(view, legal, random.Random(4))
    b = ai.computer_action(rules.view(other, E), legal, random.Random(4))
    assert a == b


def _play_deal(seed: int, level: str) -> int:
    rng = random.Random(seed)
    s = rules.initial_state({})
    s, _ = rules.apply(s, None, rules.deal_action(seed % 4, 1, rng))
    cards = 0
    while s.phase in ("auction", "play", "claim"):
        seat = rules.to_act(s)[0]
        legal = rules.legal_actions(s, seat)
        action = ai.computer_action(rules.view(s, seat), legal, rng, level=level)
        assert action in legal
        s, _ = rules.apply(s, seat, action)
        cards += action.startswith("play ")
    return cards


@pytest.mark.parametrize("seed,level", [(3, "strong"), (4, "strong"), (5, "normal")])
def test_whole_deals_only_legal_actions(seed, level, monkeypatch):
    # a small budget keeps the test quick; the method is the same
    monkeypatch.setattr(ai_strong, "STRONG_BUDGET", ((44, 1), (0, 3)))
    _play_deal(seed, level)


def test_played_cards_get_their_seats_and_decisions_repeat_for_a_seed():
    s = third_hand_position()
    view = rules.view(s, N)  # any seat's view; the declarer plays dummy's card here
    assert play_ai.seats_of_played(view, None) == [tuple(p) for t in s.tricks for p in t["plays"]]
    legal = rules.legal_actions(s, E)
    picks = {ai.computer_action(rules.view(s, E), legal, random.Random(9)) for _ in range(3)}
    assert len(picks) == 1


def test_a_view_that_does_not_add_up_falls_back_to_the_easy_play():
    s = third_hand_position()
    view = rules.view(s, E)
    view["hand_counts"] = [13, 13, 13, 13]  # more hidden cards than unseen ones
    assert strong_choice_of(view, rules.legal_actions(s, E)) in rules.legal_actions(s, E)


def strong_choice_of(view: dict, legal: list[str]) -> str:
    return ai.computer_action(view, legal, random.Random(1))


def test_the_solver_refuses_a_bad_position_instead_of_dumping(tmp_path, monkeypatch):
    # DDS writes dump.txt into the working directory on a deal it rejects
    monkeypatch.chdir(tmp_path)
    hands = [["AS", "KS"], ["2S"], ["3S"], ["4S"]]
    with pytest.raises(BadPosition, match="cards"):
        solve(hands, 0, None)
    with pytest.raises(BadPosition, match="twice"):
        solve([["AS"], ["AS"], ["3S"], ["4S"]], 0, None)
    assert not (tmp_path / "dump.txt").exists()
    assert solve([["AS"], ["2S"], ["3S"], ["4S"]], 0, None) == {"AS": 1}


def test_the_sampler_deals_what_the_auction_showed():
    # W (seat 3) opened 1NT (15-17 balanced): nearly every sampled hand of W fits, while
    # about 6 % of random hands fit
    from engine.games.bridge.inference import auction_inferences

    shown = auction_inferences(["P", "P", "P", "1NT", "P", "P", "P"], 0)[W]
    hand = make_deck(52)[::4]
    pool = [c for c in make_deck(52) if c not in hand]
    need = {E: 13, S: 13, W: 13}
    fit = {W: shown.misfit}
    rng = random.Random(2)
    deals = [sample_fitting(pool, need, {E: {"S"}}, rng, fit, None, 400) for _ in range(20)]
    for d in deals:
        assert sorted(d[E] + d[S] + d[W]) == sorted(pool)
        assert not any(c[1] == "S" for c in d[E])  # a void is kept
    assert sum(shown.misfit(d[W]) == 0 for d in deals) >= 18
    # a promise no hand can keep bends the deal, never breaks it
    impossible = {W: HandRange((38, 40)).misfit}
    d = sample_fitting(pool, need, {}, rng, impossible, None, 50)
    assert sorted(d[E] + d[S] + d[W]) == sorted(pool) and len(d[W]) == 13


def test_extra_deals_stay_within_the_node_budget():
    from engine.ddplay.chooser import choose_card

    hands = {
        N: ["AS", "KS", "QS", "2H"],
        E: ["AH", "KH", "QH", "JH"],
        S: ["3S", "4S", "2D", "3D"],
        W: ["4D", "5D", "6D", "2C"],
    }
    dealt = []

    def sample(rng):  # the true hidden hands every time; counts the deals asked for
        dealt.append(1)
        return {E: hands[E], W: hands[W]}

    def deals_solved(nodes: int, most: int) -> int:
        dealt.clear()
        card = choose_card(hands[N], {N: hands[N], S: hands[S]}, sample, 3, N, None, [], random.Random(1), nodes, most)
        assert card in ("AS", "KS", "QS")
        return len(dealt)

    assert deals_solved(0, 50) == 3  # no budget: the position's deals only
    assert deals_solved(10**9, 50) == 50  # a large budget: up to ``most``
    assert 3 <= deals_solved(40, 50) < 50  # a 4-card deal costs some nodes each
