"""The strong computer's bidding: a natural SAYC-like system (docs/bridge-bidding.md).

``choose_call(view, legal)`` decides from the seat's own view (its hand and the public
auction) only:
1. Blackwood answers and the asker's follow-up (``slam.py``);
2. the system table (``system.py``): the first entry for the situation that is legal and
   that the hand fits;
3. otherwise natural placement by points (``placement.py``) against what partner has shown,
   read from the same table by ``engine/games/bridge/inference.py``.
Deterministic: no randomness is used.
"""

from __future__ import annotations

from .inference import HandRange, auction_inferences, last_meaning, normalize
from engine.jsondata import JsonDict

from . import slam
from .hand import Hand
from .placement import GAME, SLAM_HCP, choose_strain, my_points, place, target_level
from .system import meanings, situation

ACTION = {"P": "pass", "X": "double", "XX": "redouble"}


def to_call(action: str) -> str:
    return {"pass": "P", "double": "X", "redouble": "XX"}.get(action, action[4:])


def to_action(call: str) -> str:
    return ACTION.get(call) or "bid " + call


def choose_call(view: JsonDict, legal: list[str]) -> str:
    """One of ``legal`` (action strings) for the seat's auction turn."""
    calls = normalize(view["auction"])
    legal_calls = {to_call(a) for a in legal}
    call = decide(Hand(view["hand"]), calls, view["dealer"], view["seat"], legal_calls)
    action = to_action(call)
    return action if action in legal else ("pass" if "pass" in legal else legal[0])


def decide(hand: Hand, calls: list[str], dealer: int, seat: int, legal: set[str]) -> str:
    if slam.partner_asks(calls, dealer, seat):
        return slam.answer(hand, legal)
    inf = auction_inferences(calls, dealer)
    partner = inf[(seat + 2) % 4]
    reply = slam.partner_answered(calls, dealer, seat)
    if reply is not None:
        strain, _ = choose_strain(hand, partner)
        if strain == "NT":
            strain = max("SHDC", key=lambda s: hand.len[s] + partner.min_len(s))
        return slam.after_answer(hand, reply, strain, my_points(hand, strain, partner) + partner.est(), legal)
    if _slam_in_view(hand, calls, dealer, seat, partner) and "4NT" in legal and slam.asks_for_aces(calls, dealer):
        return "4NT"  # before the table's game bids: ask for aces
    for m in meanings(situation(calls, dealer)):
        if m.call in legal and m.fits(hand):
            return m.call
    return place(hand, calls, dealer, seat, legal, inf, _forced(calls, dealer, seat))


def _slam_in_view(hand: Hand, calls: list[str], dealer: int, seat: int, partner: HandRange) -> bool:
    """A known suit fit (eight cards), partner's strength known within a few points, and
    the combined points for a slam: ask for aces (4NT) before any game bid."""
    partner_bid = any(c[0].isdigit() for i, c in enumerate(calls) if (dealer + i) % 4 == (seat + 2) % 4)
    if not partner_bid or any(c == "4NT" or c[0] in "67" for c in calls) or partner.hcp[1] - partner.hcp[0] > 6:
        return False
    strain, trumps = choose_strain(hand, partner)
    if strain == "NT" or trumps < 8:
        return False
    return (
        target_level(strain, my_points(hand, strain, partner) + partner.est()) >= 6
        and hand.hcp + partner.est() >= SLAM_HCP
    )


def _forced(calls: list[str], dealer: int, seat: int) -> bool:
    """Partner's last call was forcing and RHO passed; or our side opened 2C and is below game."""
    if not calls or calls[-1] != "P" or len(calls) < 2:
        return False
    j = len(calls) - 2  # partner's last call
    if calls[j] in ("P", "X", "XX") and calls[j] != "X":
        return False
    m = last_meaning(calls, dealer, j)
    if m is not None and m.forcing:
        return True
    first = next((i for i, c in enumerate(calls) if c != "P"), None)
    if first is not None and calls[first] == "2C" and (dealer + first) % 2 == seat % 2:
        if (
            "2NT" in calls[first : first + 5]
            and calls[first : first + 5].count("2NT") == 1
            and situation(calls, dealer).startswith("2C-2D-2NT")
        ):
            return False
        last = calls[j]
        return last[0].isdigit() and int(last[0]) < GAME[last[1:]]
    return False
