"""A finished bridge deal, analysed: the hands as dealt, the auction, the contract and
result, the play trick by trick, and what double dummy says (DDS through ``endplay``).

``analyse(record)`` gives one plain dict per deal of a game record (docs/records.md):

    {"deal": 2, "board": 2, "dealer": "E", "vulnerable": {"NS": false, "EW": false},
     "hands": {"N": [...], "E": [...], "S": [...], "W": [...]},
     "auction": [{"seat": "E", "call": "1S"}, ...], "passed_out": false,
     "contract": "3D", "declarer": "W", "result": 8,
     "tricks": [{"leader": "N", "cards": [["N", "2H"], ...], "winner": "E"}, ...],
     "dd": {"N": {"C": 5, "D": 4, "H": 7, "S": 5, "NT": 6}, "E": {...}, ...},
     "par": {"score": -110, "contracts": ["2SE=", ...]},
     "dd_tricks": 9, "costly": [{"trick": 3, "seat": "N", "card": "6H", "loss": 1}, ...]}

``par.score`` is North-South's; a par contract reads level, strain, ``X`` when doubled,
declarer, and the result (``=``, ``+1``, ``-3``). ``dd_tricks`` is the declarer's by double
dummy at the opening lead; the costly cards are ``engine.ddplay.review``'s.
"""

from __future__ import annotations

from typing import Any, Sequence

from engine.analysis_core import DealLog, deals_of, tricks_of
from engine.ddplay.review import costly_cards, dd_table
from engine.jsondata import JsonDict

from .state import State
from .scoring import SEATS


def par_of(table: Any, dealer: int, vul: JsonDict) -> JsonDict:
    """The par score (North-South's) and contracts of a deal by endplay's ``par``."""
    from endplay.dds import par
    from endplay.types import Player, Vul

    ns, ew = bool(vul.get("NS")), bool(vul.get("EW"))
    vulnerability = Vul.both if ns and ew else Vul.ns if ns else Vul.ew if ew else Vul.none
    result = par(table, vulnerability, Player(dealer))
    contracts = []
    for c in result:
        strain = "NT" if c.denom.name == "nt" else c.denom.name[0].upper()
        doubled = "X" if c.penalty.name == "doubled" else ""
        outcome = "=" if c.result == 0 else f"{c.result:+d}"
        contracts.append(f"{c.level}{strain}{doubled}{SEATS[int(c.declarer)]}{outcome}")
    return {"score": int(result.score), "contracts": contracts}


def dd_summary(hands: Sequence[Sequence[str]], dealer: int, vul: JsonDict) -> JsonDict:
    """The double-dummy table and the par of four hands as dealt (no play needed)."""
    table, raw = dd_table(hands)
    return {"dd": table, "par": par_of(raw, dealer, vul)}


def _hands_of(state: State) -> list[list[str]]:
    return state.hands


def analyse_deal(deal: DealLog) -> JsonDict:
    dealt, final = deal.dealt, deal.final
    hands = [list(h) for h in dealt.dealt]
    auction = [
        {"seat": SEATS[s.seat], "call": s.action} for s in deal.steps[1:] if s.seat is not None and _is_call(s.action)
    ]
    out: JsonDict = {
        "deal": deal.number,
        "finished": deal.finished,
        "board": dealt.board,
        "dealer": SEATS[dealt.dealer],
        "vulnerable": dict(dealt.vul),
        "hands": {SEATS[i]: h for i, h in enumerate(hands)},
        "auction": [{"seat": a["seat"], "call": _call(a["call"])} for a in auction],
    }
    out.update(dd_summary(hands, dealt.dealer, dealt.vul))
    contract, declarer = final.contract, final.declarer
    out["passed_out"] = contract is None and final.phase != "auction"
    if contract is None:
        out.update({"contract": None, "declarer": None, "result": None, "tricks": [], "dd_tricks": None, "costly": []})
        return out
    trump = None if contract.strain == "NT" else contract.strain
    plays = deal.plays(_hands_of)
    tricks = tricks_of(plays, 4, trump)
    out.update(
        {
            "contract": str(contract),
            "declarer": SEATS[declarer],
            "result": _declarer_tricks(final, declarer, tricks),
            "tricks": [_seat_names(t) for t in tricks],
            "dd_tricks": out["dd"][SEATS[declarer]][contract.strain],
            "costly": costly_cards(hands, plays, trump),
        }
    )
    return out


def _declarer_tricks(final: Any, declarer: int, tricks: list[JsonDict]) -> int | None:
    """The declarer's tricks when the deal is over (a claim or concession included)."""
    last = final.last or {}
    if last.get("tricks") is not None and final.phase in ("deal", "over"):
        return int(last["tricks"])
    if final.phase in ("deal", "over"):
        return sum(1 for t in tricks if t["winner"] is not None and t["winner"] % 2 == declarer % 2)
    return None  # the record stops in the middle of the deal


def _is_call(action: str) -> bool:
    return action in ("pass", "double", "redouble") or action.startswith("bid ")


def _call(action: str) -> str:
    if action.startswith("bid "):
        return action[4:]
    return {"pass": "Pass", "double": "X", "redouble": "XX"}[action]


def _seat_names(trick: JsonDict) -> JsonDict:
    return {
        "leader": SEATS[trick["leader"]],
        "cards": [[SEATS[s], c] for s, c in trick["cards"]],
        "winner": None if trick["winner"] is None else SEATS[trick["winner"]],
    }


def analyse(record: Any) -> list[JsonDict]:
    """Every deal of a bridge game record, analysed. Raises ``RecordError`` for a record
    that does not replay."""
    _, deals = deals_of(record)
    return [analyse_deal(d) for d in deals]
