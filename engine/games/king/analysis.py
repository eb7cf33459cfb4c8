"""A finished King deal, analysed: the contract, the hands as dealt, and the play trick by
trick (for the seventh and eighth deals, which are not played in tricks, the cards laid
in order).

``analyse(record)`` gives one plain dict per deal of a game record (docs/records.md):

    {"deal": 3, "no": 3, "contract": "boys", "dealer": 2, "trump": null,
     "hands": {"0": [...], "1": [...], ...},
     "tricks": [{"leader": 3, "cards": [[3, "9S"], ...], "winner": 1}, ...],
     "laid": [], "dd": null}

No double-dummy figures: King is every player for himself, and the solvers the project
has answer one side against another (DDS: two partnerships; the preferans solver: one
declarer against partners). ``dd`` is there, ``null``, so readers can tell "not
solved" from "forgotten".
"""

from __future__ import annotations

from typing import Any

from engine.analysis_core import DealLog, deals_of, tricks_by_counts
from engine.jsondata import JsonDict

from .state import State
from .scoring import CONTRACTS, kind


def _hands_of(state: State) -> list[list[str]]:
    return state.hands


def _counts_of(state: State) -> list[int]:
    return [state.winners.count(s) for s in range(state.n)]


def analyse_deal(deal: DealLog) -> JsonDict:
    dealt = deal.dealt
    first = deal.first_play()
    start = first.before if first is not None else dealt
    no = dealt.deal_no
    out: JsonDict = {
        "deal": deal.number,
        "finished": deal.finished,
        "no": no,
        "contract": CONTRACTS.get(no),
        "dealer": dealt.dealer,
        "trump": start.trump,
        "hands": {str(s): list(h) for s, h in enumerate(start.hands)},
        "tricks": [],
        "laid": [],
        "dd": None,
    }
    if kind(no) == "tricks":
        out["tricks"] = tricks_by_counts(deal, _hands_of, _counts_of)
    else:
        out["laid"] = [[s.seat, s.action] for s in deal.steps[1:] if s.seat is not None]
    return out


def analyse(record: Any) -> list[JsonDict]:
    """Every deal of a King game record, analysed. Raises ``RecordError`` for a record
    that does not replay."""
    _, deals = deals_of(record)
    return [analyse_deal(d) for d in deals]
