"""``cardbot score`` for rubber bridge (docs/rules/records.md §2).

``score(record)`` returns the JSON result, ``text(record, lang)`` the sheets as the bot
posts them (HTML-free). Both raise ``engine.score.ScoreError(entry, message)`` for a
malformed or impossible record. The scoring itself is ``engine.games.bridge.scoring`` — the
same code the played engine and the score-only table use.
"""

from __future__ import annotations

from typing import Any

from engine.jsondata import JsonDict
from engine.options import record_options
from engine.score import ScoreError

from .options import BridgeOptions, parse_options, scoring_table
from .scoring import SEATS, SIDES, Contract, Sheet, number_json, parse_contract
from .sheet import result_lines, sheet_table
from .words import translator

# the shortest valid record: a sheet with nothing written yet (tests/test_hostile_cli.py)
EMPTY = {"game": "bridge", "deals": []}
DEAL_KEYS = {"declarer", "contract", "tricks", "honours"}


def check_entry(n: int, deal: Any) -> JsonDict | None:
    """One deal of a record, checked: None for a passed-out deal, else
    ``{"declarer": seat, "contract": Contract, "tricks": int, "honours": (side, held) | None}``."""
    if not isinstance(deal, dict):
        raise ScoreError(n, "a deal is a JSON object")
    if deal.get("passed_out") is True:
        extra = set(deal) - {"passed_out"}
        if extra:
            raise ScoreError(n, f"a passed-out deal has no {', '.join(sorted(extra))}")
        return None
    if "passed_out" in deal and deal["passed_out"] is not False:
        raise ScoreError(n, "passed_out must be true or false")
    unknown = set(deal) - DEAL_KEYS - {"passed_out"}
    if unknown:
        raise ScoreError(n, f"unknown key(s) {', '.join(sorted(unknown))}")
    declarer = deal.get("declarer")
    if declarer not in tuple(SEATS) or not isinstance(declarer, str):
        raise ScoreError(n, f"declarer must be N, E, S or W, not {declarer!r}")
    try:
        contract = parse_contract(deal.get("contract"))
    except ValueError as exc:
        raise ScoreError(n, str(exc)) from None
    tricks = deal.get("tricks")
    if not isinstance(tricks, int) or isinstance(tricks, bool) or not 0 <= tricks <= 13:
        raise ScoreError(n, f"tricks must be a whole number 0-13, not {tricks!r}")
    honours = check_honours(n, contract, deal.get("honours"))
    return {"declarer": SEATS.index(declarer), "contract": contract, "tricks": tricks, "honours": honours}


def check_honours(n: int, contract: Contract, honours: Any) -> tuple[str, int] | None:
    if honours is None:
        return None
    if not isinstance(honours, dict) or set(honours) != {"side", "held"}:
        raise ScoreError(n, 'honours are {"side": "NS"|"EW", "held": 4|5}')
    side, held = honours["side"], honours["held"]
    if side not in SIDES:
        raise ScoreError(n, f"honours side must be NS or EW, not {side!r}")
    if contract.strain == "NT":
        if held != 4 or isinstance(held, bool):
            raise ScoreError(n, "in no trump only all 4 aces (held 4) score honours")
    elif held not in (4, 5) or isinstance(held, bool):
        raise ScoreError(n, "honours held are 4 or 5 trump honours")
    return side, held


def write_entry(sheet: Sheet, entry: JsonDict | None, score_honours: bool) -> list[JsonDict]:
    """Write a checked entry (``check_entry``) on ``sheet``; returns the entries written."""
    if entry is None:
        return sheet.add_passed_out()
    honours = entry["honours"] if score_honours else None
    return sheet.add_deal(entry["declarer"], entry["contract"], entry["tricks"], honours)


def _options(record: JsonDict) -> BridgeOptions:
    try:
        raw = record_options(record)
    except ValueError as exc:
        raise ScoreError(0, str(exc)) from None
    try:
        return parse_options(raw)
    except Exception as exc:  # BadOptions
        raise ScoreError(0, getattr(exc, "reason", str(exc))) from None


def build(record: Any) -> tuple[BridgeOptions, list[Sheet], list[JsonDict]]:
    """Replay a record: the options, the sheet of every rubber (a new one starts after a
    complete rubber) and, per deal, ``{"n", "rubber", "sheet_deal", "entry"}``."""
    if not isinstance(record, dict):
        raise ScoreError(0, "the record must be a JSON object")
    if record.get("game") != "bridge":
        raise ScoreError(0, "this is not a bridge record")
    options = _options(record)
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise ScoreError(0, "deals must be a list")
    table = scoring_table(options)
    sheets = [Sheet(table)]
    rows = []
    for i, deal in enumerate(deals, start=1):
        entry = check_entry(i, deal)
        if sheets[-1].complete:
            sheets.append(Sheet(table))
        write_entry(sheets[-1], entry, options.score_honours)
        rows.append({"n": i, "rubber": len(sheets), "sheet_deal": sheets[-1].deals, "entry": entry})
    return options, sheets, rows


def rubber_summary(sheet: Sheet, options: BridgeOptions) -> JsonDict:
    """A rubber as records.md writes it. An incomplete rubber is settled as it stands
    (with the §7.6 premiums when ``unfinished_rubber_bonus`` is on)."""
    out: dict[str, Any] = {"complete": sheet.complete, "games": dict(sheet.games)}
    if sheet.complete and sheet.chicago is not None:  # a Chicago round: no rubber bonus
        out["winner"] = sheet.winner
        settled = sheet
    elif sheet.complete:
        bonus = next(e for e in sheet.entries if e["kind"] == "rubber_bonus")
        out["bonus"] = {"side": bonus["side"], "points": bonus["points"]}
        settled = sheet
    else:
        settled = sheet.clone()
        extra = settled.stop(options.unfinished_rubber_bonus)
        if extra:
            out["unfinished_bonus"] = [{"side": e["side"], "points": e["points"], "kind": e["kind"]} for e in extra]
    settle = settled.settlement(options.rounding)
    out["totals"] = settled.totals()
    out["settlement"] = {side: number_json(v) for side, v in settle["units"].items()}
    return out


def score(record: Any) -> JsonDict:
    options, sheets, rows = build(record)
    deals = []
    for row in rows:
        points = sheets[row["rubber"] - 1].deal_points(row["sheet_deal"])
        deals.append(
            {
                "n": row["n"],
                "rubber": row["rubber"],
                "passed_out": row["entry"] is None,
                "NS": points["NS"],
                "EW": points["EW"],
            }
        )
    last = sheets[-1]
    vulnerable = {s: False for s in SIDES} if last.complete else last.vul()
    return {
        "game": "bridge",
        "deals": deals,
        "rubbers": [rubber_summary(s, options) for s in sheets if s.deals or len(sheets) == 1],
        "vulnerable": vulnerable,
    }


def text(record: Any, lang: str = "en") -> str:
    """Each rubber's sheet as the bot posts it, then its settlement, HTML-free."""
    options, sheets, _ = build(record)
    tr = translator(lang)

    blocks = []
    for number, sheet in enumerate(sheets, start=1):
        if not sheet.deals and len(sheets) > 1:
            continue
        title = "bridge.sheet.chicago_no" if sheet.chicago is not None else "bridge.sheet.rubber_no"
        lines = [tr(title, n=number), sheet_table(sheet.public(), tr)]
        if sheet.complete:
            summary = sheet
        else:
            summary = sheet.clone()
            summary.stop(options.unfinished_rubber_bonus)
            lines.append(
                tr("bridge.sheet.chicago_incomplete" if sheet.chicago is not None else "bridge.sheet.incomplete")
            )
        lines += result_lines(summary.public(), summary.settlement(options.rounding), None, tr)
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)
