"""A finished whist deal, analysed: the hands as dealt, the trump, the play trick by trick,
the tricks each side took, and what double dummy says (DDS through ``endplay``).

``analyse(record)`` gives one plain dict per deal of a game record (docs/records.md):

    {"deal": 1, "dealer": "N", "trump": "S",
     "hands": {"N": [...], "E": [...], "S": [...], "W": [...]},
     "tricks": [{"leader": "E", "cards": [["E", "2H"], ...], "winner": "S"}, ...],
     "result": {"NS": 9, "EW": 4},
     "dd": {"N": {"C": 7, "D": 6, "H": 8, "S": 9, "NT": 8}, ...},
     "dd_tricks": {"NS": 8, "EW": 5},
     "costly": [{"trick": 3, "seat": "W", "card": "KS", "loss": 1}, ...]}

``dd_tricks`` are each side's tricks in the trump played, by double dummy at the opening
lead; ``dd`` the whole table (as in bridge, with no auction and no par). ``result`` is
``null`` when the record stops in the middle of the deal.
"""

from __future__ import annotations

from typing import Any

from engine.analysis_core import DealLog, deals_of, tricks_of
from engine.ddplay.review import SEATS, costly_cards, dd_table
from engine.jsondata import JsonDict

from .state import State
from .scoring import SIDES


def _hands_of(state: State) -> list[list[str]]:
    return state.hands


def analyse_deal(deal: DealLog) -> JsonDict:
    final = deal.final
    first = deal.first_play()
    # the hands as dealt: the trump chooser's turned cards are still in the deck until
    # the trump is named, so the hands are read where the play starts
    start = first.before if first is not None else deal.dealt
    hands = [list(h) for h in start.hands]
    trump = start.trump
    out: JsonDict = {
        "deal": deal.number,
        "finished": deal.finished or final.phase == "vote",  # a rubber won: the players vote on another
        "dealer": SEATS[deal.dealt.dealer],
        "trump": trump,
        "hands": {SEATS[i]: h for i, h in enumerate(hands)},
        "tricks": [],
        "result": None,
        "dd": None,
        "dd_tricks": None,
        "costly": [],
    }
    if first is None or any(len(h) != 13 for h in hands):
        return out
    plays = deal.plays(_hands_of)
    tricks = tricks_of(plays, 4, trump)
    out["tricks"] = [
        {
            "leader": SEATS[t["leader"]],
            "cards": [[SEATS[s], c] for s, c in t["cards"]],
            "winner": None if t["winner"] is None else SEATS[t["winner"]],
        }
        for t in tricks
    ]
    if final.phase in ("deal", "vote", "over") and all(t["winner"] is not None for t in tricks):
        won = [sum(1 for t in tricks if t["winner"] % 2 == side) for side in (0, 1)]
        out["result"] = dict(zip(SIDES, won))
    table, _ = dd_table(hands)
    out["dd"] = table
    leader = plays[0][0]
    strain = trump or "NT"
    # the leader's side's tricks at the lead: the table counts them for the other side's declarer
    defenders = table[SEATS[(leader + 3) % 4]][strain]
    leaders_side = 13 - defenders
    out["dd_tricks"] = {SIDES[leader % 2]: leaders_side, SIDES[1 - leader % 2]: defenders}
    out["costly"] = costly_cards(hands, plays, trump)
    return out


def analyse(record: Any) -> list[JsonDict]:
    """Every deal of a whist game record, analysed. Raises ``RecordError`` for a record
    that does not replay."""
    _, deals = deals_of(record)
    return [analyse_deal(d) for d in deals]
