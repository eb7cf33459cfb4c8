"""``cardbot analyse RECORD [--json]``: every deal of a game record with its double-dummy
analysis (``engine.analysis_core.analyse_record``), as JSON or as readable English text."""

from __future__ import annotations

import json
from typing import Any

from engine.jsondata import JsonDict


def _cards(cards: list[str]) -> str:
    return " ".join(cards) if cards else "-"


def _trick_lines(tricks: list[JsonDict]) -> list[str]:
    lines = []
    for k, trick in enumerate(tricks, start=1):
        cards = " ".join(f"{seat}:{card}" for seat, card in trick["cards"])
        winner = trick["winner"] if trick["winner"] is not None else "?"
        lines.append(f"  {k:2}. {cards}  -> {winner}")
    return lines


def deal_text(deal: JsonDict) -> str:
    """One deal of the analysis as plain English lines (only what the analysis holds)."""
    lines = [f"Deal {deal['deal']}" + (f" (board {deal['board']})" if deal.get("board") else "")]
    lines += [f"  {seat}: {_cards(hand)}" for seat, hand in deal["hands"].items()]
    if deal.get("talon"):
        lines.append(f"  talon: {_cards(deal['talon'])}")
    calls = deal.get("auction") or deal.get("bidding")
    if calls:
        lines.append("  calls: " + ", ".join(f"{c['seat']} {c['call']}" for c in calls))
    if deal.get("contract"):
        by = f" by {deal['declarer']}" if deal.get("declarer") else ""
        lines.append(f"  contract: {deal['contract']}{by}")
    if "trump" in deal:
        lines.append(f"  trump: {deal.get('trump') or 'none'}")
    if deal.get("result") is not None:
        lines.append(f"  result: {deal['result']}")
    lines += _trick_lines(deal.get("tricks") or [])
    if deal.get("laid"):
        lines.append("  laid: " + ", ".join(f"{seat}:{action}" for seat, action in deal["laid"]))
    if deal.get("dd"):
        lines.append("  double dummy (declarer: C D H S NT):")
        for seat, row in deal["dd"].items():
            lines.append(f"    {seat}: " + " ".join(str(row[s]) for s in ("C", "D", "H", "S", "NT")))
    if deal.get("par"):
        lines.append(f"  par: {deal['par']['score']} ({', '.join(deal['par']['contracts'])})")
    for key in ("dd_tricks", "dd_by_contract", "dd_by_strain", "best_contract", "whist_right"):
        if deal.get(key) is not None:
            lines.append(f"  {key.replace('_', ' ')}: {deal[key]}")
    costly = deal.get("costly") or []
    if costly:
        lines.append(
            "  costly: " + ", ".join(f"trick {c['trick']} {c['seat']} {c['card']} (-{c['loss']})" for c in costly)
        )
    return "\n".join(lines)


def output(analysis: JsonDict, as_json: bool) -> str:
    if as_json:
        return json.dumps(analysis["deals"], ensure_ascii=False, indent=2)
    return "\n\n".join(deal_text(deal) for deal in analysis["deals"])


def analyse(record: Any, as_json: bool) -> str:
    """The CLI's output for a record (``RecordError`` for a bad one)."""
    from engine.analysis_core import analyse_record

    return output(analyse_record(record), as_json)
