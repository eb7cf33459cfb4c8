"""A finished preferans hand, analysed: the hands as dealt and the talon, the bidding,
the contract and result, the play trick by trick, and what double dummy says (this
package's own solver, ``engine.preferans_family.dd``).

``analyse(record)`` gives one plain dict per hand of a game record (docs/records.md):

    {"deal": 2, "dealer": "B", "hands": {"A": [...], "B": [...], "C": [...]},
     "talon": ["QH", "QC"], "discards": ["7C", "QC"],
     "bidding": [{"seat": "C", "call": "pass"}, {"seat": "A", "call": "bid 2"}, ...],
     "contract": "S", "declarer": "A", "defence": {"B": "play", "C": "pass"},
     "result": {"A": 6, "B": 3, "C": 1},
     "tricks": [{"leader": "C", "cards": [["C", "8H"], ...], "winner": "A"}, ...],
     "dd_tricks": 6, "dd_by_contract": {"S": 6, "D": 4, "H": 5, "C": 4, "SANS": 5},
     "best_contract": "S", "whist_right": false,
     "costly": [{"trick": 4, "seat": "B", "card": "TS", "loss": 1}, ...]}

Figures are from the hands at the opening lead (the declarer's after his discard), with
the opening leader of the hand: ``dd_tricks`` the declarer's tricks in the contract
played, ``dd_by_contract`` in each trump contract and sans, ``best_contract`` the highest
of them he makes (six tricks; Bettel is not among them, it wants another discard);
both are ``null`` when Bettel was played.
``whist_right`` (when a defender played): the contract fails by double dummy.
For Bettel ``dd_tricks`` is the number of tricks the defenders can force on the declarer
and a costly card is one that turned the outcome (caught or not): ``loss`` 1.
A hand with no play (both defenders passed, all passed) has hands and bidding only.
"""

from __future__ import annotations

from typing import Any

from engine.analysis_core import DealLog, deals_of, side_costs, tricks_by_counts
from engine.jsondata import JsonDict

from engine.preferans_family.dd import Solver, card_int, mask_of
from .state import State
from .scoring import BETTEL, CONTRACTS, NAME_OF, TRUMP_OF

SEAT_NAMES = "ABC"
NEED = 6  # tricks a declarer must take in every contract but Bettel
TRUMP_CONTRACTS = ("S", "D", "H", "C", "SANS")


def _hands_of(state: State) -> list[list[str]]:
    return state.hands


def _won_of(state: State) -> list[int]:
    return state.won


def _masks(hands: list[list[str]], seats: list[int]) -> dict[int, int]:
    return {s: mask_of(hands[s]) for s in seats}


def declarer_tricks(hands: list[list[str]], seats: list[int], declarer: int, leader: int, number: int) -> int:
    """The declarer's double-dummy tricks in contract ``number`` from a trick start;
    for Bettel, the tricks the defenders can force on him."""
    solver = Solver(declarer, seats, TRUMP_OF[number], bettel=number == BETTEL)
    return solver.tricks(_masks(hands, seats), leader)


def costly_cards(
    hands: list[list[str]], seats: list[int], declarer: int, number: int, tricks: list[JsonDict]
) -> list[JsonDict]:
    """Each card that lowered (raised, for a defender) the declarer's double-dummy tricks."""
    bettel = number == BETTEL
    solver = Solver(declarer, seats, TRUMP_OF[number], bettel=bettel)
    left = [list(h) for h in hands]
    values: list[dict[str, int]] = []
    plays: list[tuple[int, str]] = []
    for trick in tricks:
        done: list[tuple[int, int]] = []
        for seat, card in trick["cards"]:
            by_int = solver.card_values(_masks(left, seats), seat, tuple(done))
            values.append({c: by_int[card_int(c)] for c in left[seat] if card_int(c) in by_int})
            plays.append((seat, card))
            done.append((seat, card_int(card)))
            left[seat].remove(card)
    # the declarer wants tricks (in Bettel none), the defenders the opposite
    costs = side_costs(values, plays, wants_high=lambda seat: (seat == declarer) != bettel)
    trick_of = [k + 1 for k, t in enumerate(tricks) for _ in t["cards"]]
    return [
        {"trick": trick_of[i], "seat": SEAT_NAMES[plays[i][0]], "card": plays[i][1], "loss": loss} for i, loss in costs
    ]


def analyse_deal(deal: DealLog) -> JsonDict:
    dealt, final = deal.dealt, deal.final
    first = deal.first_play()
    number, declarer = final.number, final.declarer
    out: JsonDict = {
        "deal": deal.number,
        "finished": deal.finished,
        "dealer": SEAT_NAMES[dealt.dealer],
        "hands": {SEAT_NAMES[i]: list(h) for i, h in enumerate(dealt.hands)},
        "talon": list(dealt.talon),
        "discards": list(final.discards),
        "bidding": [{"seat": SEAT_NAMES[seat], "call": call} for seat, call in final.calls],
        "contract": NAME_OF[number] if number is not None else None,
        "declarer": SEAT_NAMES[declarer] if declarer is not None else None,
        "defence": {SEAT_NAMES[int(s)]: v for s, v in final.defence.items()},
        "result": None,
        "tricks": [],
        "dd_tricks": None,
        "dd_by_contract": None,
        "best_contract": None,
        "whist_right": None,
        "costly": [],
    }
    if first is None or number is None or declarer is None:
        return out
    tricks = tricks_by_counts(deal, _hands_of, _won_of)
    out["tricks"] = [
        {
            "leader": SEAT_NAMES[t["leader"]],
            "cards": [[SEAT_NAMES[s], c] for s, c in t["cards"]],
            "winner": None if t["winner"] is None else SEAT_NAMES[t["winner"]],
        }
        for t in tricks
    ]
    if final.phase in ("deal", "over"):
        out["result"] = {SEAT_NAMES[i]: n for i, n in enumerate(final.won)}
    hands = [list(h) for h in first.before.hands]
    seats = sorted({s for t in tricks for s, _ in t["cards"]})
    leader = tricks[0]["leader"]
    if number != BETTEL:
        by_contract = {
            name: declarer_tricks(hands, seats, declarer, leader, CONTRACTS[name]) for name in TRUMP_CONTRACTS
        }
        out["dd_by_contract"] = by_contract
        out["dd_tricks"] = by_contract[NAME_OF[number]]  # the contract played is one of them
        made = [name for name in TRUMP_CONTRACTS if by_contract[name] >= NEED]
        out["best_contract"] = max(made, key=CONTRACTS.__getitem__) if made else None
    else:
        out["dd_tricks"] = declarer_tricks(hands, seats, declarer, leader, number)
    if any(v != "pass" for v in final.defence.values()):  # play, invite, invited: defended
        out["whist_right"] = out["dd_tricks"] > 0 if number == BETTEL else out["dd_tricks"] < NEED
    out["costly"] = costly_cards(hands, seats, declarer, number, tricks)
    return out


def analyse(record: Any) -> list[JsonDict]:
    """Every hand of a preferans game record, analysed. Raises ``RecordError`` for a
    record that does not replay."""
    _, deals = deals_of(record)
    return [analyse_deal(d) for d in deals]
