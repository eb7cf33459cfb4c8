"""The strong preferans computer: seeded positions with one obviously right
action, legal actions only over a few hands, and nothing read beyond the seat's view."""

from __future__ import annotations

import copy
import json
import random

import pytest

from engine.base import get_game
from engine.games.preferans import ai
from engine.preferans_family.dd import Solver, mask_of
from tests.test_preferans_rules import A, B, C, run, start

G = get_game("preferans")


def strong(view, legal, seed=1):
    return ai.computer_action(view, legal, random.Random(seed), level="strong")


def tricks(*rows: str) -> list[list]:
    """Finished tricks from 'seat:card seat:card seat:card' strings."""
    out = []
    for row in rows:
        out.append([[int(p.split(":")[0]), p.split(":")[1]] for p in row.split()])
    return out


def play_view(seat, hand, declarer, number, trump, played, trick, won, counts, **extra):
    """A seat's view in the middle of the play, with the keys the engine's view has."""
    v = {
        "game": "preferans",
        "seat": seat,
        "phase": "play",
        "hand": hand,
        "declarer": declarer,
        "number": number,
        "trump": trump,
        "igra": False,
        "bid": 2,
        "first_hand": 1,
        "participants": [0, 1, 2],
        "defence": {},
        "played": played,
        "trick": trick,
        "won": won,
        "hand_counts": counts,
        "tricks_played": sum(won),
        "talon": None,
        "options": {},
        "sheet": {"refe": [0, 0, 0]},
    }
    v.update(extra)
    return v


# ------------------------------------------------------------------ the solver itself
def test_solver_counts_tricks_of_a_simple_ending():
    # sans, A leads: A's two aces are two tricks, the third goes to the defenders
    hands = {A: mask_of(["AS", "AD", "7H"]), B: mask_of(["KS", "KD", "8H"]), C: mask_of(["QS", "QD", "AH"])}
    assert Solver(A, [A, B, C], None).tricks(hands, A) == 2
    # with hearts trumps A's 7H ruffs nothing, C's AH is still one trick
    assert Solver(A, [A, B, C], "H").tricks(hands, A) == 2
    # Bettel: A must take a trick if he leads an ace
    assert Solver(A, [A, B, C], None, bettel=True).tricks(hands, A) >= 1


# ------------------------------------------------------------------ seeded positions
PLAYED_SANS = tricks(
    "0:KS 1:QS 2:JS",
    "0:TS 1:9S 2:8S",
    "0:7S 1:AH 2:KH",
    "0:AD 1:KD 2:QD",
    "0:QH 1:JH 2:TH",
    "0:9H 1:8H 2:7H",
    "0:AC 1:KC 2:QC",
    "0:JC 1:TC 2:9C",
)


def test_declarer_cashes_the_sure_trick_that_makes_the_contract():
    # Sans, A has 5 tricks: the ace of spades (nobody else has a spade) is the sixth;
    # leading the 7D lets a defender in, and A's ace goes on a diamond
    view = play_view(
        A, ["AS", "7D"], A, 7, None, PLAYED_SANS, [], [5, 2, 1], [2, 2, 2], my_discards=["7C", "8C"], talon=["7C", "8C"]
    )
    for seed in (1, 2, 3):
        assert strong(view, ["play AS", "play 7D"], seed) == "play AS"


def test_defender_does_not_overtake_partners_winning_card():
    # hearts, A has 5 tricks; A led 7D and B's KD wins: C keeps his AD over A's QD
    played = tricks(
        "0:AS 1:KS 2:QS",
        "0:JS 1:TS 2:9S",
        "1:7S 2:AH 0:KH",
        "0:JD 1:TD 2:9D",
        "0:QH 1:JH 2:TH",
        "0:9H 1:8H 2:7H",
        "0:AC 1:KC 2:QC",
        "0:JC 1:TC 2:9C",
    )
    view = play_view(C, ["AD", "8D"], A, 4, "H", played, [[0, "7D"], [1, "KD"]], [5, 2, 1], [1, 1, 2])
    for seed in (1, 2, 3):
        assert strong(view, ["play 8D", "play AD"], seed) == "play 8D"


def test_declarer_with_a_cold_contract_bids_it():
    s = start(
        dealer=C,
        hands={
            A: ["AS", "KS", "QS", "JS", "TS", "9S", "AD", "AH", "AC", "KC"],
            B: ["8S", "7S", "KD", "QD", "JD", "TD", "KH", "QH", "JH", "QC"],
            C: ["9D", "8D", "7D", "TH", "9H", "8H", "7H", "JC", "TC", "9C"],
        },
        talon=["8C", "7C"],
    )
    legal = G.legal_actions(s, A)
    action = strong(G.view(s, A), legal)
    assert action.startswith("bid ") or action == "moje", action


def test_no_whist_on_a_hopeless_hand():
    hands = {
        A: ["AC", "KC", "QC", "JC", "TC", "AS", "KS", "AD", "KD", "AH"],
        B: ["7S", "8S", "9S", "7D", "8D", "9D", "7H", "8H", "9H", "TH"],
        C: ["QS", "JS", "TS", "QD", "JD", "TD", "KH", "QH", "JH", "9C"],
    }
    s = start(dealer=C, hands=hands, talon=["8C", "7C"])
    s, _ = run(s, (A, "bid 5"), (B, "pass"), (C, "pass"), (A, "discard 7C"), (A, "discard 8C"), (A, "contract C"))
    assert G.to_act(s) == [B]
    assert strong(G.view(s, B), G.legal_actions(s, B)) == "pass"


def test_a_strong_defence_whists():
    # C declared spades on a thin hand; B holds the top trumps and side aces
    hands = {
        A: ["AS", "KS", "QS", "AD", "KD", "AH", "KH", "AC", "KC", "QC"],
        B: ["7S", "8S", "9S", "7D", "8D", "9D", "7H", "8H", "9H", "7C"],
        C: ["JS", "TS", "QD", "JD", "TD", "QH", "JH", "TH", "JC", "TC"],
    }
    s = start(dealer=B, hands=hands, talon=["8C", "9C"])
    s, _ = run(s, (C, "bid 2"), (A, "pass"), (B, "pass"), (C, "discard 8C"), (C, "discard 9C"), (C, "contract H"))
    assert G.to_act(s) == [A]
    assert strong(G.view(s, A), G.legal_actions(s, A)) == "play"


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_the_issue_31_layout_is_not_defended_by_the_searching_levels(level):
    """Issue 31's layout in this game: A declares clubs with all eight trumps and A-K♠, B
    holds every heart, C every diamond. Neither defender plays at normal or strong. (A
    Balkan contract promises six tricks only, so from either defender's view the partner
    may hold a trump honour: a layout with a defensive trick is consistent, and the
    easy player's quick count, which plays here, takes a risk rather than an absurd
    whist.)"""
    hands = {
        A: "AC KC QC JC TC 9C 8C 7C AS KS".split(),
        B: "AH KH QH JH TH 9H 8H 7H 7S 8S".split(),
        C: "AD KD QD JD TD 9D 8D 7D 9S TS".split(),
    }
    s = start(dealer=C, hands=hands, talon=["JS", "QS"])
    s, _ = run(s, (A, "bid 5"), (B, "pass"), (C, "pass"), (A, "discard JS"), (A, "discard QS"), (A, "contract C"))
    for seat in (B, C):
        assert G.to_act(s) == [seat]
        choice = ai.computer_action(G.view(s, seat), G.legal_actions(s, seat), random.Random(1), level=level)
        assert choice == "pass"
        s, _ = G.apply(s, seat, choice)


# ------------------------------------------------------------------ legal, from the view only
def play_hands(seed: int, hands: int, options: dict, strong_seats=(0,), level="strong"):
    """Hands of a pulka: the strong player in ``strong_seats``, the easy one elsewhere.
    Every action must be legal; the strong one is called on a JSON copy of the view
    and must leave it unchanged."""
    rng = random.Random(seed)
    s = G.initial_state(G.Options(**options), 3)
    s, _ = G.apply(s, None, G.new_deal(G.Options(**options), 3, rng, []))
    while not G.is_over(s) and s.hand_no <= hands:
        system = G.system_action(s, rng)
        if system:
            s, _ = G.apply(s, None, system)
            continue
        seat = G.to_act(s)[0]
        view, legal = G.view(s, seat), G.legal_actions(s, seat)
        if seat in strong_seats:
            copy_ = json.loads(json.dumps(view))
            before = copy.deepcopy(copy_)
            action = ai.computer_action(copy_, legal, random.Random(seed), level=level)
            assert copy_ == before
        else:
            action = ai.computer_action(view, legal, rng, level="easy")
        assert action in legal, (action, legal)
        s, _ = G.apply(s, seat, action)
    return s


def test_strong_player_only_plays_legal_actions():
    play_hands(1, 1, {}, strong_seats=(0, 1))
    play_hands(2, 1, {"show_talon": False, "max_kontra_level": 2, "slovenian_sans_lead": True}, strong_seats=(2,))


def test_normal_level_plays_legal_actions():
    play_hands(3, 1, {}, strong_seats=(0, 1, 2), level="normal")


def test_strong_player_is_deterministic_for_a_seed():
    view = play_view(
        A, ["AS", "7D"], A, 7, None, PLAYED_SANS, [], [5, 2, 1], [2, 2, 2], my_discards=["7C", "8C"], talon=["7C", "8C"]
    )
    assert len({strong(view, ["play AS", "play 7D"], 5) for _ in range(3)}) == 1


# ------------------------------------------------------------------ the view's new public part
def test_view_shows_played_tricks_and_no_hidden_card():
    rng = random.Random(4)
    s = G.initial_state(G.Options(), 3)
    s, _ = G.apply(s, None, G.new_deal(G.Options(), 3, rng, []))
    seen_played = False
    while s.hand_no <= 2 and not G.is_over(s):
        system = G.system_action(s, rng)
        if system:
            s, _ = G.apply(s, None, system)
            continue
        seat = G.to_act(s)[0]
        for x in range(3):
            v = G.view(s, x)
            played = [c for t in v["played"] for _, c in t]
            seen_played |= bool(played)
            assert played == [c for t in G.view(s, None)["played"] for _, c in t]  # public
            for y in range(3):
                assert not set(played) & set(s.hands[y])  # played cards left every hand
            assert len(played) == 3 * len(v["played"]) or len(v["participants"]) == 2
        legal = G.legal_actions(s, seat)
        s, _ = G.apply(s, seat, ai.computer_action(G.view(s, seat), legal, rng, level="easy"))
    assert seen_played


def test_old_dumps_without_played_tricks_still_load():
    s = start()
    s, _ = run(s, (A, "bid 2"), (B, "pass"), (C, "pass"))
    data = G.dump(s)
    del data["played"]
    again = G.load(data)
    assert again.played == [] and G.view(again, A)["played"] == []


# ------------------------------------------------------------------ the settlement model
def test_worth_of_a_hand_matches_the_settlement_of_the_engine():
    # C declares hearts (v = 8), A and B whist and take 2 each: rules §6.2 and §7
    from engine.games.preferans.ai_settle import NO_PLAY, Defence, table_worth, worth

    w = table_worth(C, Defence((A, B)), 4, 6, {A: 2, B: 2})
    assert abs(sum(w.values())) < 1e-9
    assert abs(w[C] - 1.5 * (10 * 2 / 3 - 4)) < 1e-9  # made, four tricks of soup
    assert abs(worth(Defence((A, B)), 4, 5, C) + 17.5) < 1e-9  # failed: five tricks of soup
    assert abs(worth(NO_PLAY, 4, 10, C) - 10.0) < 1e-9  # nobody whists
    assert abs(worth(Defence((A,)), 4, 9, C) - 1.5 * (10 * 3 / 3 - 1)) < 1e-9  # lone, short


def test_a_hopeless_hand_passes_in_the_auction():
    # no long suit, no aces, and queens without small cards (no Bettel either)
    s = start(
        dealer=C,
        hands={
            A: ["QS", "JS", "TS", "QD", "JD", "TD", "QH", "JH", "QC", "JC"],
            B: ["AS", "KS", "9S", "8S", "7S", "9C", "AD", "AH", "AC", "KC"],
            C: ["KD", "9D", "8D", "7D", "KH", "TH", "9H", "8H", "7H", "TC"],
        },
        talon=["8C", "7C"],
    )
    assert strong(G.view(s, A), G.legal_actions(s, A)) == "pass"


def test_a_thin_defence_does_not_invite_the_passed_partner():
    # bench deal (seed 2, no. 60): C plays hearts; A (D1) passed. B could invite A, but
    # then B answers for the pair's four tricks with a passed hand he cannot see: the
    # double-dummy count says four, the table gives three and a penalty. B passes.
    hands = {
        A: ["7D", "8C", "9S", "JC", "JS", "KC", "KS", "QD", "TH", "TS"],
        B: ["8D", "8S", "AD", "AS", "JD", "KD", "QH", "QS", "TC", "TD"],
        C: ["7H", "8H", "9C", "9D", "9H", "AC", "AH", "JH", "KH", "QC"],
    }
    s = start(dealer=A, hands=hands, talon=["7S", "7C"])
    s, _ = run(
        s,
        (B, "bid 2"),
        (C, "bid 3"),
        (A, "pass"),
        (B, "moje"),
        (C, "bid 4"),
        (B, "pass"),
        (C, "discard 7S"),
        (C, "discard 9D"),
        (C, "contract H"),
        (A, "pass"),
    )
    legal = G.legal_actions(s, B)
    assert "invite" in legal
    assert strong(G.view(s, B), legal) == "pass"


def test_the_auction_is_not_raised_on_a_handful_of_layouts():
    # bench deal (seed 5, no. 37): C has the four top diamonds and nothing else. On two or
    # three sampled layouts C would say "moje" to A's diamonds and then to his hearts, and
    # go down in clubs; over 24 layouts no contract of C's is worth it.
    hands = {
        A: ["9C", "8H", "AH", "JH", "KH", "TH", "8S", "9S", "AS", "TS"],
        B: ["8C", "AC", "KC", "TC", "8D", "9D", "7H", "QH", "KS", "QS"],
        C: ["7C", "JC", "QC", "AD", "JD", "KD", "QD", "9H", "7S", "JS"],
    }
    s = start(dealer=B, hands=hands, talon=["7D", "TD"], bula=30, max_kontra_level=2)
    s, _ = run(s, (C, "bid 2"), (A, "bid 3"), (B, "pass"))
    legal = G.legal_actions(s, C)
    assert "moje" in legal
    assert strong(G.view(s, C), legal) == "pass"
