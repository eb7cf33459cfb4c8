"""The strong bidder's simulation of placing calls (engine/games/bridge/bidding/simulate.py):
duplicate scores and IMPs, candidates, determinism, legality, the deadline, and that it
decides from the seat's view alone."""

from __future__ import annotations

from engine.games.bridge import auction as A
from engine.games.bridge.bidding import choose_call, rule_call, simulate
from engine.games.bridge.bidding.hand import Hand
from engine.games.bridge.inference import auction_inferences
from engine.games.bridge.rules import call_view
from engine.deadline import EXPIRED, NEVER, AfterChecks
from tests.test_ai_bridge_bidding import cards

N, E, S, W = range(4)
# responder after P-1D-P-1H-P-3D-P (West, seat 3) with seven hearts and 7 HCP:
# placement bids 3H, and game in hearts is simulated beside it
OPENER = "A.KT98743.T82.62"
AUCTION = ["P", "1D", "P", "1H", "P", "3D", "P"]
ME = W


def view_of(pbn: str, calls: list[str], dealer: int = N, vul: tuple[bool, bool] = (False, False)) -> dict:
    return {
        "game": "bridge",
        "seat": (dealer + len(calls)) % 4,
        "phase": "auction",
        "dealer": dealer,
        "vulnerable": {"NS": vul[0], "EW": vul[1]},
        "hand": cards(pbn),
        "auction": [{"seat": (dealer + i) % 4, **call_view(c)} for i, c in enumerate(calls)],
        "contract": None,
        "declarer": None,
        "played": [],
        "trick": [],
    }


def legal_of(calls: list[str], dealer: int = N) -> list[str]:
    return [{"P": "pass", "X": "double", "XX": "redouble"}.get(c) or "bid " + c for c in A.legal_calls(calls, dealer)]


def test_duplicate_score_and_imps():
    assert simulate.duplicate_score(4, "S", 0, 10, True) == 620
    assert simulate.duplicate_score(3, "NT", 0, 10, False) == 430
    assert simulate.duplicate_score(1, "NT", 1, 5, True) == -500
    assert simulate.duplicate_score(6, "C", 0, 12, False) == 920
    assert simulate.duplicate_score(2, "H", 1, 8, False) == 470
    assert simulate.duplicate_score(3, "D", 0, 8, False) == -50
    assert simulate.imps(0) == 0 and simulate.imps(20) == 1 and simulate.imps(-420) == -9
    assert simulate.imps(4000) == 24


def test_candidates_start_with_the_rule_call():
    hand, legal = Hand(cards(OPENER)), set(A.legal_calls(AUCTION, N))
    rule, placed = rule_call(hand, AUCTION, N, ME, legal)
    assert placed
    cands = simulate.candidates(hand, AUCTION, N, ME, legal, auction_inferences(AUCTION, N), rule)
    assert cands[0] == rule and len(cands) >= 2 and len(set(cands)) == len(cands)
    assert "4H" in cands and all(c in legal for c in cands)


def test_no_candidates_when_partner_has_not_spoken():
    calls = ["1H", "P", "P", "2C"]  # opener again, partner passed
    hand = Hand(cards("K32.AKJ932.A4.32"))
    seat = len(calls) % 4
    legal = set(A.legal_calls(calls, N))
    rule, _ = rule_call(hand, calls, N, seat, legal)
    assert simulate.candidates(hand, calls, N, seat, legal, auction_inferences(calls, N), rule) == [rule]


def test_deterministic_and_legal():
    view, legal = view_of(OPENER, AUCTION), legal_of(AUCTION)
    first = choose_call(view, legal, NEVER)
    assert first in legal
    assert choose_call(view, legal, NEVER) == first


def test_a_passed_deadline_gives_the_rule_call():
    view, legal = view_of(OPENER, AUCTION), legal_of(AUCTION)
    assert choose_call(view, legal, EXPIRED) == choose_call(view, legal)
    # cut after a few layouts (fewer than MIN_LAYOUTS): the rule call too
    assert choose_call(view, legal, AfterChecks(3)) == choose_call(view, legal)


def test_uses_the_view_only():
    view, legal = view_of(OPENER, AUCTION), legal_of(AUCTION)
    peeked = dict(view, hands=[cards("AKQJT98765432...")] * 4, partner_hand=cards("Q.AQJT98765.KQ.A"))
    assert choose_call(peeked, legal, NEVER) == choose_call(view, legal, NEVER)


def test_layouts_fit_the_auction():
    import random

    inf = auction_inferences(AUCTION, N)
    from engine.games.bridge.inference import HandRange

    hands = simulate.layout(cards(OPENER), ME, inf, random.Random(5), HandRange())
    assert sorted(c for h in hands for c in h) == sorted(simulate.DECK)
    assert hands[ME] == cards(OPENER)
    assert inf[E].misfit(hands[E]) == 0  # partner's jump rebid in diamonds


class Ticking:
    """A deadline whose clock advances a fixed step at every look (no real clock)."""

    def __init__(self, seconds: float, step: float) -> None:
        self.left, self.step = seconds, step

    def remaining(self) -> float:
        self.left -= self.step
        return max(0.0, self.left)

    def expired(self) -> bool:
        return self.remaining() <= 0


def test_a_deadline_mid_search_keeps_whole_layouts_only():
    inf = auction_inferences(AUCTION, N)
    hand, legal = Hand(cards(OPENER)), set(A.legal_calls(AUCTION, N))
    rule, _ = rule_call(hand, AUCTION, N, ME, legal)
    cands = simulate.candidates(hand, AUCTION, N, ME, legal, inf, rule)
    vul = {"NS": False, "EW": False}
    for seconds in (0.5, 2.0, 6.0):
        gains = simulate.evaluate(cards(OPENER), AUCTION, N, ME, vul, inf, cands, Ticking(seconds, 0.05))
        sizes = {len(g) for g in gains.values()}
        assert len(sizes) == 1 and sizes.pop() < simulate.LAYOUTS  # cut, every candidate alike
        assert all(x == 0 for x in gains[rule])


def test_a_good_opponent_punishes_what_the_rule_bidders_let_through():
    assert simulate.punished(4, 0, 8, ours=True, contested=True) == 1  # two down: doubled
    assert simulate.punished(4, 0, 9, ours=True, contested=True) == 0  # one down
    assert simulate.punished(4, 0, 8, ours=True, contested=False) == 0  # they never bid
    assert simulate.punished(3, 1, 9, ours=False, contested=True) == 2  # our double made: redoubled
    assert simulate.punished(3, 1, 8, ours=False, contested=True) == 1


def test_no_sacrifice_the_layouts_only_make_because_nobody_doubles(monkeypatch):
    # P P 1C 1H 2C 2H 3NT (seed 1 board 127): five hearts, the opponents in 3NT; 4H was
    # chosen because the rule bidders left it undoubled on the layouts, and went for -300
    calls = ["P", "P", "1C", "1H", "2C", "2H", "3NT"]
    view = view_of("2.KT962.AQT52.T6", calls, dealer=S, vul=(True, False))
    assert choose_call(view, legal_of(calls, S), NEVER) == "pass"
    monkeypatch.setattr(simulate, "punished", lambda level, doubling, made, ours, contested: doubling)
    assert choose_call(view, legal_of(calls, S), NEVER) == "bid 4H"
