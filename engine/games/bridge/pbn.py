"""PBN export (Portable Bridge Notation 2.1, export format) of a rubber's finished deals.

``export(state, names, event)`` writes one game section per finished deal (passed-out
ones included): the 15 tags of the mandatory tag set in their export order, then the
Auction and Play sections. A deal ended by a claim or a concession has its Play section
closed by ``*``; a trick left incomplete by a concession shows ``-`` for the missing cards.
Given a deal's double-dummy summary (``engine.games.bridge.analysis.dd_summary``: computed
elsewhere, off the event loop), the section also carries the ``OptimumScore``,
``ParContract`` and ``OptimumResultTable`` tags.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.jsondata import JsonDict

from .scoring import SEATS

RANKS_DOWN = "AKQJT98765432"
PBN_CALL = {"P": "Pass", "X": "X", "XX": "XX"}


def _tag(name: str, value: str) -> str:
    value = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{value}"]'


def _hand(cards: list[str]) -> str:
    suits = []
    for suit in "SHDC":
        ranks = sorted((c[0] for c in cards if c[1] == suit), key=RANKS_DOWN.index)
        suits.append("".join(ranks))
    return ".".join(suits)


def deal_tag(dealer: int, hands: list[list[str]]) -> str:
    """``"N:AKQ.xxx... E S W"``: the dealer's hand first, then clockwise."""
    return SEATS[dealer] + ":" + " ".join(_hand(hands[(dealer + i) % 4]) for i in range(4))


def _vulnerable(vul: JsonDict) -> str:
    ns, ew = vul.get("NS"), vul.get("EW")
    return "All" if ns and ew else "NS" if ns else "EW" if ew else "None"


def _contract(c: JsonDict) -> str:
    return f"{c['level']}{c['strain']}{'X' * c['doubling']}"


def dd_tags(summary: JsonDict) -> list[str]:
    """The par and double-dummy tags of a deal from its ``{"dd", "par"}`` summary: the
    par as North-South's score and each par contract by its side (``NS 2S+1``), and one
    table row per declarer and denomination (``N NT 8``)."""
    par = summary["par"]
    contracts = []
    for c in par["contracts"]:  # "4SXN-1": level, strain, X, declarer, result
        strain = "NT" if c[1:3] == "NT" else c[1]
        rest = c[1 + len(strain) :]
        doubled = "X" if rest.startswith("X") else ""
        seat, result = rest[len(doubled)], rest[len(doubled) + 1 :]
        side = "NS" if seat in "NS" else "EW"
        text = f"{side} {c[0]}{strain}{doubled}{'' if result == '=' else result}"
        if text not in contracts:
            contracts.append(text)
    lines = [_tag("OptimumScore", f"NS {par['score']}"), _tag("ParContract", "; ".join(contracts))]
    # written as the PBN standard shows it: "\2R" is a column format, not an escape
    lines.append('[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]')
    for seat in SEATS:
        for strain in ("NT", "S", "H", "D", "C"):
            lines.append(f"{seat} {strain} {summary['dd'][seat][strain]}")
    return lines


def _scoring(state: Any) -> str:
    """The Scoring tag: PBN names rubber bridge "Rubber" and four-deal rounds "Chicago"."""
    options = state.options if hasattr(state, "options") else state.get("options", {})
    scoring = options.scoring if hasattr(options, "scoring") else options.get("scoring", "rubber")
    return "Chicago" if scoring == "chicago" else "Rubber"


def board_text(
    rec: JsonDict,
    names: list[str],
    event: str,
    dd: JsonDict | None = None,
    *,
    date: str | None = None,
    scoring: str = "Rubber",
) -> str:
    """One game section; ``date`` the day the deal was dealt ("2026.12.04"), unknown when None."""
    dealer = rec["dealer"]
    lines = [
        _tag("Event", event),
        _tag("Site", "Telegram"),
        _tag("Date", date or "????.??.??"),
        _tag("Board", rec["board"]),
        _tag("West", names[3] if len(names) > 3 else "?"),
        _tag("North", names[0] if names else "?"),
        _tag("East", names[1] if len(names) > 1 else "?"),
        _tag("South", names[2] if len(names) > 2 else "?"),
        _tag("Dealer", SEATS[dealer]),
        _tag("Vulnerable", _vulnerable(rec["vulnerable"])),
        _tag("Deal", deal_tag(dealer, rec["hands"])),
        _tag("Scoring", scoring),
    ]
    if rec["passed_out"]:
        lines += [_tag("Declarer", ""), _tag("Contract", "Pass"), _tag("Result", "")]
    else:
        lines += [
            _tag("Declarer", SEATS[rec["declarer"]]),
            _tag("Contract", _contract(rec["contract"])),
            _tag("Result", rec["tricks"]),
        ]
    lines.append(_tag("Auction", SEATS[dealer]))
    calls = [PBN_CALL.get(c, c) for c in rec["calls"]]
    lines += [" ".join(calls[i : i + 4]) for i in range(0, len(calls), 4)]
    if not rec["passed_out"]:
        leader = (rec["declarer"] + 1) % 4
        lines.append(_tag("Play", SEATS[leader]))
        tricks = rec.get("play") or []
        for trick in tricks:
            by_seat = {seat: card for seat, card in trick["plays"]}
            row = [by_seat.get((leader + i) % 4) for i in range(4)]
            lines.append(" ".join(c[1] + c[0] if c else "-" for c in row))
        complete = len(tricks) == 13 and all(len(t["plays"]) == 4 for t in tricks)
        if not complete:
            lines.append("*")
    if dd is not None:
        lines += dd_tags(dd)
    return "\n".join(lines)


def export(
    state: Any,
    names: list[str],
    event: str = "cardbot rubber",
    dd: Mapping[int, JsonDict] | None = None,
    dates: list[str] | None = None,
) -> str:
    """Valid PBN for every finished deal of ``state`` (an ``engine.games.bridge.State``);
    ``names`` are the players of seats N, E, S, W. A dumped state (a dict) works too.
    ``dd``: board number -> double-dummy summary, for the boards that have one;
    ``dates``: the day each board was dealt, in order (the engine has no clock)."""
    return export_all([state], names, event, dd, [dates] if dates is not None else None)


def export_all(
    states: list[Any],
    names: list[str],
    event: str = "cardbot rubber",
    dd: Mapping[int, JsonDict] | None = None,
    dates: list[list[str]] | None = None,
) -> str:
    """One PBN file for several rubbers of a session (board numbers run on across them);
    ``dd`` as in :func:`export`, ``dates`` one list per state."""
    out = ["% PBN 2.1", "% EXPORT", ""]
    for k, state in enumerate(states):
        boards = state.boards if hasattr(state, "boards") else state.get("boards", [])
        days = dates[k] if dates is not None and k < len(dates) else []
        for i, rec in enumerate(boards):
            date = days[i] if i < len(days) else None
            dd_of = (dd or {}).get(rec["board"])
            out.append(board_text(rec, names, event, dd_of, date=date, scoring=_scoring(state)))
            out.append("")
    return "\n".join(out)
