"""A finished Тысяча deal, analysed for "🔍 The deal": the contract, the hands as dealt,
the прикуп, the gifts, the marriages and the play trick by trick.

``analyse(record)`` gives one plain dict per deal of a game record (docs/records.md):

    {"deal": 3, "no": 3, "dealer": 2, "declarer": 0, "contract": 120, "dark": false,
     "conceded": false, "hands": {"0": [...], ...}, "talon": [...], "gifts": [[1, "9S"], ...],
     "marriages": [[0, "H"]], "tricks": [{"leader": 0, "cards": [[0, "AS"], ...], "winner": 0}, ...],
     "dd": null}

No double-dummy figures: every player plays for himself (``dd`` is null, as King's).
"""

from __future__ import annotations

from typing import Any

from engine.analysis_core import DealLog, deals_of
from engine.jsondata import JsonDict

from . import cards as C


def analyse_deal(deal: DealLog) -> JsonDict:
    dealt = deal.dealt
    last = deal.final
    tricks: list[JsonDict] = []
    for step in deal.steps:
        if len(step.after.played) > len(step.before.played):  # this card closed a trick
            trick = step.after.last_trick
            tricks.append(
                {"leader": trick["leader"], "cards": [list(p) for p in trick["plays"]], "winner": trick["winner"]}
            )
    conceded = bool(last.entries) and last.entries[-1].get("n") == dealt.deal_no and last.entries[-1]["conceded"]
    return {
        "deal": deal.number,
        "finished": deal.finished,
        "no": dealt.deal_no,
        "dealer": dealt.dealer,
        "declarer": last.declarer,
        "contract": last.high,
        "dark": last.dark,
        "conceded": conceded,
        "hands": {str(s): C.sort_cards(dealt.hands[s]) for s in dealt.active},
        "talon": list(dealt.talon),
        "gifts": [list(g) for g in last.gifts],
        "marriages": [list(m) for m in last.marriages],
        "tricks": tricks,
        "dd": None,
    }


def analyse(record: Any) -> list[JsonDict]:
    """Every deal of a Тысяча game record, analysed. Raises ``RecordError`` for a record
    that does not replay."""
    _, deals = deals_of(record)
    return [analyse_deal(d) for d in deals]
