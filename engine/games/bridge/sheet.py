"""The We/They sheet as monospaced text (rules §6), shared by the bot's posts and
``cardbot score --text``. Words come from a translator ``tr(key, **params)`` (the bot
passes its catalog, ``cardbot score`` the one of ``words.py``), so this module holds
layout only. Input is ``Sheet.public()``.

Layout: above the line the entries of each deal, the newest on top (written upwards from
the line, as on paper); ``═`` is the line; below it the trick points deal by deal, a ``─``
line under each won game; then games, vulnerability, the current game (in Chicago the deal
of the round to come), the totals.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

from engine.jsondata import JsonDict

Tr = Callable[..., str]


def per_deal(entries: list[JsonDict], line: str) -> list[tuple[int, int, int, int]]:
    """(deal, NS points, EW points, game block) per deal that wrote on ``line``."""
    rows: dict[int, list[int]] = {}
    for e in entries:
        if e["line"] != line:
            continue
        row = rows.setdefault(e["deal"], [0, 0, e["game"]])
        row[0 if e["side"] == "NS" else 1] += e["points"]
    return [(deal, ns, ew, game) for deal, (ns, ew, game) in sorted(rows.items())]


def sheet_table(sheet: JsonDict, tr: Tr) -> str:
    """The sheet as plain monospaced lines (no HTML)."""

    def cell(v: int) -> str:
        return str(v) if v else ""

    rows: list[tuple[str, str, str] | str] = [("", tr("bridge.we"), tr("bridge.they")), "="]
    above = per_deal(sheet["entries"], "above")
    for deal, ns, ew, _ in reversed(above):
        rows.append((f"{deal}.", cell(ns), cell(ew)))
    rows.append("═")
    games_done = sheet["game"]
    below = per_deal(sheet["entries"], "below")
    for i, (deal, ns, ew, game) in enumerate(below):
        rows.append((f"{deal}.", cell(ns), cell(ew)))
        nxt = below[i + 1][3] if i + 1 < len(below) else games_done
        if game < nxt:
            rows.append("─")
    yes, no = tr("bridge.sheet.yes"), tr("bridge.sheet.no")
    rows.append("-")
    rows.append((tr("bridge.sheet.games"), str(sheet["games"]["NS"]), str(sheet["games"]["EW"])))
    rows.append(
        (tr("bridge.sheet.vul"), yes if sheet["vulnerable"]["NS"] else no, yes if sheet["vulnerable"]["EW"] else no)
    )
    if sheet.get("chicago") and not sheet.get("complete"):
        rows.append((tr("bridge.sheet.chicago_deal", n=sheet["chicago_deal"]), "", ""))
    # the part-scores towards a game; none in the clubs' Chicago, where every deal stands alone
    if not sheet.get("chicago") or sheet.get("chicago_scoring") == "laws":
        rows.append((tr("bridge.sheet.this_game"), str(sheet["below"]["NS"]), str(sheet["below"]["EW"])))
    rows.append((tr("bridge.sheet.above"), str(sheet["above"]["NS"]), str(sheet["above"]["EW"])))
    rows.append((tr("bridge.sheet.below"), str(sheet["below_total"]["NS"]), str(sheet["below_total"]["EW"])))
    rows.append((tr("bridge.sheet.total"), str(sheet["totals"]["NS"]), str(sheet["totals"]["EW"])))
    cells = [r for r in rows if isinstance(r, tuple)]
    w0 = max(len(r[0]) for r in cells)
    w1 = max(len(r[1]) for r in cells)
    w2 = max(len(r[2]) for r in cells)
    lines = []
    for r in rows:
        if isinstance(r, tuple):
            lines.append(f"{r[0].ljust(w0)} {r[1].rjust(w1)} │ {r[2].rjust(w2)}".rstrip())
        else:
            fill = {"=": "─", "═": "═", "─": "─", "-": "─"}[r]
            cross = {"=": "┼", "═": "╪", "─": "┼", "-": "┼"}[r]
            if r == "─":  # a game line crosses only the score columns
                lines.append(" " * (w0 + 1) + fill * w1 + fill + cross + fill * (w2 + 1))
            else:
                lines.append(fill * (w0 + 1 + w1 + 1) + cross + fill * (w2 + 1))
    return "\n".join(lines)


def units_text(value: Any) -> str:
    """+3, −2, 0; a fraction (rounding ``none``) as a decimal: +16.8."""
    if isinstance(value, str) and "/" in value:
        value = Fraction(value)
    if isinstance(value, Fraction):
        text = f"{float(abs(value)):.2f}".rstrip("0").rstrip(".")
        sign = "−" if value < 0 else "+" if value > 0 else ""
        return sign + text
    return ("+" if value > 0 else "−" if value < 0 else "") + str(abs(value))


def result_lines(sheet: JsonDict, settlement: JsonDict, names: list[str] | None, tr: Tr) -> list[str]:
    """The end of a rubber: who won it, the totals, the difference and each player's units.
    ``names`` are the four seats' names (N, E, S, W) or None (paper: We/They only)."""
    lines = []
    winner = sheet.get("winner")
    games = sheet["games"]
    if sheet.get("chicago"):
        if sheet.get("complete") and winner:
            lines.append(tr("bridge.result.chicago", side=tr("bridge.we" if winner == "NS" else "bridge.they")))
    elif sheet.get("complete") and winner:
        lines.append(
            tr(
                "bridge.result.rubber",
                side=tr("bridge.we" if winner == "NS" else "bridge.they"),
                score=f"{games[winner]}:{games['EW' if winner == 'NS' else 'NS']}",
            )
        )
    totals = sheet["totals"]
    lines.append(tr("bridge.result.totals", we=totals["NS"], they=totals["EW"]))
    diff = settlement["diff"]
    k = settlement["units"]["NS"]
    if isinstance(k, str):
        k = Fraction(k)
    if diff == 0:
        lines.append(tr("bridge.result.even"))
    else:
        side = tr("bridge.we" if diff > 0 else "bridge.they")
        lines.append(tr("bridge.result.diff", side=side, diff=abs(diff), units=units_text(abs(k)).lstrip("+")))
    if names:
        parts = [f"{names[seat]} {units_text(k if seat % 2 == 0 else -k)}" for seat in (0, 2, 1, 3)]
        lines.append(tr("bridge.result.players", players=", ".join(parts)))
    else:
        lines.append(tr("bridge.result.sides", we=units_text(k), they=units_text(-k)))
    return lines
