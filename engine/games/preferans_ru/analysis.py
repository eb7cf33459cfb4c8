"""A finished Russian preferans deal, analysed: the hands as dealt and the talon, the
bidding, the contract and result, the play trick by trick, and what double dummy says
(the Balkan game's card-only solver through ``ai_dd``, as the computer player uses it).

``analyse(record)`` gives one plain dict per deal of a game record (docs/records.md):

    {"deal": 2, "dealer": "Б", "hands": {"А": [...], "Б": [...], "В": [...]},
     "talon": [...], "discards": [...],
     "bidding": [{"seat": "В", "call": "pass"}, {"seat": "Б", "call": "bid 6S"}, ...],
     "contract": "6D", "declarer": "Б", "whist": {"В": "pass", "А": "half"},
     "result": {"А": 3, "Б": 6, "В": 1},
     "tricks": [{"leader": "В", "cards": [["В", "8H"], ...], "winner": "Б"}, ...],
     "dd_tricks": 6, "dd_by_strain": {"S": 5, "C": 4, "D": 6, "H": 5, "NT": 4},
     "best_contract": "6D", "whist_right": false,
     "costly": [{"trick": 4, "seat": "А", "card": "TS", "loss": 1}, ...]}

Figures are from the hands at the opening lead (the declarer's after his discard), with
the deal's opening leader: ``dd_tricks`` the declarer's tricks in the contract played —
for мизер, the tricks the catchers could force on him; ``dd_by_strain`` his tricks in
each trump and no trump; ``best_contract`` the highest game he makes by double dummy.
``whist_right`` (when a defender whisted): the contract fails by double dummy. A costly
card lowered its side's figure (the declarer's tricks; on мизер the catchers want them
high) by ``loss``. Распасы and deals with no play have hands, bidding and play only.
"""

from __future__ import annotations

from typing import Any

from engine.analysis_core import DealLog, deals_of, tricks_by_counts
from engine.jsondata import JsonDict

from .ai_dd import Position
from .rules import STRAINS, is_misere, level_of, strain_of
from .state import SEAT_NAMES, State

NEED_MIN = 6  # the lowest game


def _hands_of(state: State) -> list[list[str]]:
    return state.hands


def _won_of(state: State) -> list[int]:
    return state.won


def _trump(strain: str) -> str | None:
    return None if strain == "NT" else strain


def declarer_tricks(hands: list[list[str]], seats: list[int], declarer: int, leader: int, contract: str) -> int:
    misere = is_misere(contract)
    trump = None if misere else _trump(strain_of(contract))
    position = Position(seats, declarer, trump, avoid=misere)
    return position.tricks({s: hands[s] for s in seats}, leader)


def costly_cards(
    hands: list[list[str]],
    seats: list[int],
    declarer: int,
    contract: str,
    tricks: list[JsonDict],
    at_lead: int | None = None,
) -> list[JsonDict]:
    """Each card that lowered (raised, for a defender; on a мизер the other way round)
    the declarer's double-dummy tricks.

    One value a card, not one per legal card: the declarer's tricks after the card
    played, searched from the best value there (the card played is usually a best one,
    so a couple of tests). The best value before a card is the value after the card
    before it (less the trick just closed, when the declarer took it); at the lead, the
    solve of the position (``at_lead`` when the caller has it). The solver's table of
    positions serves the whole deal."""
    misere = is_misere(contract)
    trump = None if misere else _trump(strain_of(contract))
    position = Position(seats, declarer, trump, avoid=misere)
    left = {s: list(hands[s]) for s in seats}
    if at_lead is None:
        at_lead = position.tricks(left, tricks[0]["leader"]) if tricks else 0
    best = at_lead
    out: list[JsonDict] = []
    for number, trick in enumerate(tricks, start=1):
        done: list[tuple[int, str]] = []
        for seat, card in trick["cards"]:
            value = position.card_values(left, seat, done, [card], guess=best)[card]
            loss = abs(best - value)
            if loss:
                out.append({"trick": number, "seat": SEAT_NAMES[seat], "card": card, "loss": loss})
            done.append((seat, card))
            left[seat].remove(card)
            best = value
        if trick["winner"] is not None:  # the next trick's value counts from there on
            best -= trick["winner"] == declarer
    return out


def analyse_deal(deal: DealLog) -> JsonDict:
    dealt, final = deal.dealt, deal.final
    first = deal.first_play()
    contract, declarer = final.contract, final.declarer
    out: JsonDict = {
        "deal": deal.number,
        "finished": deal.finished,
        "dealer": SEAT_NAMES[dealt.dealer],
        "hands": {SEAT_NAMES[i]: list(h) for i, h in enumerate(dealt.hands) if h},
        "talon": list(dealt.talon),
        "discards": list(final.discards),
        "bidding": [{"seat": SEAT_NAMES[seat], "call": call} for seat, call in final.calls],
        "contract": "raspasy" if final.raspasy else contract,
        "declarer": SEAT_NAMES[declarer] if declarer is not None and not final.raspasy else None,
        "whist": {SEAT_NAMES[s]: w for s, w in enumerate(final.whist) if w is not None},
        "result": None,
        "tricks": [],
        "dd_tricks": None,
        "dd_by_strain": None,
        "best_contract": None,
        "whist_right": None,
        "costly": [],
    }
    if first is None:
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
        out["result"] = {SEAT_NAMES[s]: final.won[s] for s in sorted({s for t in tricks for s, _ in t["cards"]})}
    if final.raspasy or contract is None or declarer is None:
        return out
    hands = [list(h) for h in first.before.hands]
    seats = [s for s in final.active]
    leader = tricks[0]["leader"]
    if not is_misere(contract):
        by_strain = {st: declarer_tricks(hands, seats, declarer, leader, f"6{st}") for st in STRAINS}
        out["dd_by_strain"] = by_strain
        out["dd_tricks"] = by_strain[strain_of(contract)]  # the level does not change the play
        made = [(min(t, 10), STRAINS.index(st), st) for st, t in by_strain.items() if t >= NEED_MIN]
        if made:
            level, _, strain = max(made)
            out["best_contract"] = f"{level}{strain}"
        if "whist" in final.whist:
            out["whist_right"] = out["dd_tricks"] < level_of(contract)
    else:
        out["dd_tricks"] = declarer_tricks(hands, seats, declarer, leader, contract)
        if any(w is not None for w in final.whist):
            out["whist_right"] = out["dd_tricks"] > 0
    out["costly"] = costly_cards(hands, seats, declarer, contract, tricks, out["dd_tricks"])
    return out


def analyse(record: Any) -> list[JsonDict]:
    """Every deal of a Russian preferans game record, analysed. Raises ``RecordError``
    for a record that does not replay."""
    _, deals = deals_of(record)
    return [analyse_deal(d) for d in deals]
