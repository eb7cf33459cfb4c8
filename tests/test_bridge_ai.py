"""The computer defender's answer to a claim. It sees dummy, the declarer's hand (shown for
the claim), its own hand and the played cards, so it knows its partner's cards too and
checks the claim exactly on small endings and accepts no claim it could beat."""

from __future__ import annotations

from engine.games.bridge import ai_easy as ai
from engine.games.bridge.ai_easy import FULL, can_take, claim_is_sound


def claim_view(
    hands: dict[int, list[str]], seat: int, claimed: int, strain: str = "S", declarer: int = 0, leader: int = 0
) -> dict:
    """A defender's view during a claim with these remaining hands (N E S W = 0..3)."""
    left = {c for h in hands.values() for c in h}
    return {
        "seat": seat,
        "phase": "claim",
        "hand": hands[seat],
        "declarer": declarer,
        "dummy": (declarer + 2) % 4,
        "declarer_hand": hands[declarer],
        "dummy_hand": hands[(declarer + 2) % 4],
        "played": [c for c in FULL if c not in left],
        "trick": [],
        "trick_leader": leader,
        "contract": {"level": 4, "strain": strain, "doubling": 0},
        "claim": {"tricks": claimed, "remaining": len(hands[0])},
    }


# N declares 4♠ and leads with ♠A ♥2 against E's ♠3 ♥A: N wins one trick, never two
ENDING = {0: ["AS", "2H"], 1: ["3S", "AH"], 2: ["2D", "3D"], 3: ["2C", "3C"]}


def test_a_claim_the_defenders_can_beat_is_rejected():
    assert not claim_is_sound(claim_view(ENDING, 1, claimed=2))
    assert not claim_is_sound(claim_view(ENDING, 3, claimed=2))  # W sees E's cards by elimination
    assert claim_is_sound(claim_view(ENDING, 1, claimed=1))
    assert claim_is_sound(claim_view(ENDING, 3, claimed=0))


def test_a_right_claim_is_accepted():
    # trumps to draw: N ♠A ♠K, dummy ♥A ♥K; E's small trump falls under the ace
    hands = {0: ["AS", "KS"], 1: ["2S", "2H"], 2: ["AH", "KH"], 3: ["3H", "4H"]}
    assert claim_is_sound(claim_view(hands, 1, claimed=2))
    # every card a winner, no trump out: accepted without a search
    hands = {0: ["AH", "KH"], 1: ["2H", "3H"], 2: ["AD", "KD"], 3: ["2D", "3D"]}
    assert claim_is_sound(claim_view(hands, 3, claimed=2, strain="NT"))


def test_search_agrees_with_plain_counting_and_gives_up_on_big_positions(monkeypatch):
    hands = tuple(frozenset(ENDING[s]) for s in range(4))
    assert can_take(hands, 0, "S", 0, 1) and not can_take(hands, 0, "S", 0, 2)
    assert can_take(hands, 0, "S", 1, 1) and not can_take(hands, 0, None, 1, 2)
    # too big to check within the budget: the defender plays on rather than guess
    monkeypatch.setattr(ai, "CLAIM_SEARCH_BUDGET", 1)
    assert not claim_is_sound(claim_view(ENDING, 1, claimed=1))
