"""Тысяча's score sheet after a deal: a text post with a <pre> table (each seat's points
this deal, its total, its болты and бочка) and the same sheet as a picture spec.
Input is always an engine view (``engine.games.thousand``)."""

from __future__ import annotations

from bot.i18n import t
from bot.render.common import display_name, esc, seat_name
from engine.text import phone_grid

SHEET_NAME_WIDTH = (
    12  # a sheet line keeps to a phone's 40 columns with the widest marks ("// бочка 3"): tests/test_conformance.py
)


def num(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def contract_text(entry: dict, names: list[str], lang: str) -> str:
    """ "Аня: 120 — сыграно" / "… тёмная 100 — без"."""
    word = "thousand.made" if entry["made"] else ("thousand.conceded" if entry["conceded"] else "thousand.failed")
    amount = t(lang, "thousand.dark_amount", n=entry["contract"]) if entry["dark"] else str(entry["contract"])
    return t(lang, "thousand.contract_line", name=esc(names[entry["declarer"]]), amount=amount, result=t(lang, word))


def marks_text(view: dict, seat: int, entry: dict | None, lang: str) -> str:
    """This seat's marks: its болты (as strokes), on the бочка, this deal's самосвал."""
    out = []
    out.append("/" * (view["bolts"][seat] % 3))  # the болты since the last one that cost
    if view["barrel"][seat] is not None:
        out.append(t(lang, "thousand.mark.barrel", n=view["barrel"][seat] + 1))
    if entry and "samosval" in entry["marks"].get(str(seat), []):
        out.append(t(lang, "thousand.mark.samosval"))
    return " ".join(m for m in out if m)


def sheet_table(view: dict, names: list[str], lang: str, entry: dict | None) -> str:
    rows = [["", t(lang, "sheet.player"), t(lang, "thousand.sheet.deal"), t(lang, "thousand.sheet.total"), ""]]
    for seat, name in enumerate(names):
        delta = "" if entry is None or seat not in entry["active"] else num(entry["delta"][seat])
        rows.append(
            [
                str(seat + 1),
                display_name(name, SHEET_NAME_WIDTH),
                delta,
                str(view["totals"][seat]),
                marks_text(view, seat, entry, lang),
            ]
        )
    return "<pre>" + esc(phone_grid(rows, align_right={2, 3})) + "</pre>"


def events_lines(entry: dict, names: list[str], lang: str) -> list[str]:
    """The deal's news in words: marriages, болты, the бочка, самосвал."""
    lines = []
    for seat_key, marks in sorted(entry["marks"].items()):
        name = esc(names[int(seat_key)])
        for mark in marks:
            lines.append(t(lang, f"thousand.news.{mark}", name=name))
    return lines


def result_text(result: dict | None, names: list[str], lang: str) -> str:
    if not result:
        return ""
    lines = [t(lang, "thousand.result.title")]
    if isinstance(result.get("forfeit"), int):
        lines.append(t(lang, "thousand.result.forfeit", name=esc(names[result["forfeit"]])))
    totals = result["totals"]
    for seat in sorted(range(len(names)), key=lambda s: -totals[s]):
        medal = "🏆 " if seat == result.get("winner") else ""
        lines.append(f"{medal}{esc(names[seat])}: {totals[seat]}")
    return "\n".join(lines)


def sheet_post(view: dict, names: list[str], lang: str, entry: dict | None) -> str:
    parts = []
    if entry is not None:
        parts.append(t(lang, "thousand.sheet.title", n=entry["n"]))
        parts.append(contract_text(entry, names, lang))
        parts += events_lines(entry, names, lang)
    parts.append(sheet_table(view, names, lang, entry))
    if view["phase"] == "over":
        parts.append(result_text(view["result"], names, lang))
    return "\n".join(parts)


def result_line(result: dict, names: list[str], lang: str) -> str:
    """/history's line: the totals, best first (``names`` already escaped)."""
    totals = result["totals"]
    order = sorted(range(len(totals)), key=lambda i: -totals[i])
    return " · ".join(f"{seat_name(names, i)} {totals[i]}" for i in order)


def picture(events: list[dict], view: dict, names: list[str], lang: str) -> dict:
    """The sheet as a picture spec (``bot.games.thousand.picture``)."""
    return {
        "game": "thousand",
        "lang": lang,
        "title": t(lang, "thousand.pic.title"),
        "names": names,
        "entries": view["entries"],
        "totals": view["totals"],
        "bolts": view["bolts"],
        "barrel": view["barrel"],
    }
