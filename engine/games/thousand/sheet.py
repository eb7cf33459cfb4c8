"""The Тысяча score sheet as monospaced text, drawn like the paper one: a row per deal with
who declared what and every player's running total after it. In Russian or English.

One function serves the bot (``/score thousand`` posts it inside ``<pre>``) and
``cardbot score --text`` (printed as is). Its few words live here: the engine layer does
not import the bot. The table keeps to a phone's 40 columns with three players; a cell
is the total and its marks — ``/`` a болт (``///`` the third, which cost), ``[880]`` on
the бочка, ``*`` a самосвал."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.jsondata import JsonDict
from engine.text import grid, wrap

if TYPE_CHECKING:
    from .record import Played

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Тысяча (1000) to {target}",
        "deals": " · deal {n}",
        "empty": "No deals yet.",
        "no": "#",
        "bid": "bid",
        "dark": "d",
        "made": "+",
        "failed": "−",
        "conceded": "c",
        "out": "–",
        "hidden": "… deals 1–{n} above",
        "bolts": "болты: {seats}",
        "barrel": "on the бочка: {seats}",
        "try": "{seat} (deal {n} of {of})",
        "won": "Game over: {seat} wins with {total}.",
        "tie": "Game over: {seats} share first place with {total}.",
        "legend": "+ made, − lost, c conceded, d blind; / болт, [ ] бочка, * самосвал",
    },
    "ru": {
        "title": "Тысяча до {target}",
        "deals": " · раздача {n}",
        "empty": "Раздач ещё нет.",
        "no": "№",
        "bid": "заказ",
        "dark": "т",
        "made": "+",
        "failed": "−",
        "conceded": "р",
        "out": "–",
        "hidden": "… раздачи 1–{n} выше",
        "bolts": "болты: {seats}",
        "barrel": "на бочке: {seats}",
        "try": "{seat} (раздача {n} из {of})",
        "won": "Игра окончена: победил {seat}, {total}.",
        "tie": "Игра окончена: {seats} делят первое место, {total}.",
        "legend": "+ сыграно, − без, р распишись, т тёмная; / болт, [ ] бочка, * самосвал",
    },
}


def _bid(entry: JsonDict, label: str, w: dict[str, str]) -> str:
    """ "B 120+", "A т100−", "C 105р": the declarer, the contract and how it went."""
    how = w["made"] if entry["made"] else (w["conceded"] if entry["conceded"] else w["failed"])
    return f"{label} {w['dark'] if entry['dark'] else ''}{entry['contract']}{how}"


def _on_barrel_after(played: Played) -> list[list[bool]]:
    """Per deal, per seat: on the бочка once the deal is written (the marks say when a
    seat got on or fell off; reaching the target or dropping below the бочка ends it)."""
    o = played.options
    on = [False] * played.players
    out = []
    for entry in played.entries:
        for seat in range(played.players):
            marks = entry["marks"].get(str(seat), [])
            total = entry["totals"][seat]
            if "barrel_on" in marks:
                on[seat] = True
            if "barrel_fall" in marks or total >= o.target or total < o.barrel_at:
                on[seat] = False
        out.append(list(on))
    return out


def _cell(entry: JsonDict, seat: int, on_barrel: bool, w: dict[str, str]) -> str:
    if seat not in entry["active"]:
        return w["out"]
    marks = entry["marks"].get(str(seat), [])
    text = str(entry["totals"][seat])
    if on_barrel:
        text = f"[{text}]"
    if "samosval" in marks:
        text += "*"
    if "bolt" in marks:
        text += "///" if "bolt_penalty" in marks else "/"
    return text


def sheet_text(played: Played, lang: str, names: list[str] | None = None, last: int | None = None) -> str:
    """The sheet, its columns headed by the record's letters; ``names`` (the bot's): a line
    says who each letter is; ``last``: only that many of the latest deals."""
    w = WORDS.get(lang, WORDS["en"])
    labels = list(played.letters)
    title = w["title"].format(target=played.options.target)
    if played.entries:
        title += w["deals"].format(n=len(played.entries))
    lines = [title]
    if names:
        lines += wrap("  ".join(f"{labels[seat]}. {name}" for seat, name in enumerate(names)))
    if not played.entries:
        return "\n".join([*lines, w["empty"]])
    barrel = _on_barrel_after(played)
    shown = list(enumerate(played.entries))
    if last is not None and len(shown) > last:
        lines.append(w["hidden"].format(n=len(shown) - last))
        shown = shown[-last:]
    rows = [[w["no"], w["bid"], *labels]]
    for i, entry in shown:
        cells = [_cell(entry, seat, barrel[i][seat], w) for seat in range(played.players)]
        rows.append([str(entry["n"]), _bid(entry, labels[entry["declarer"]], w), *cells])
    lines.append(grid(rows, align_right={0, *range(2, played.players + 2)}))
    lines += _status(played, labels, w)
    lines += wrap(w["legend"])
    return "\n".join(lines)


def _status(played: Played, labels: list[str], w: dict[str, str]) -> list[str]:
    """The болты standing (strokes since the last that cost), who is on the бочка, the end."""
    lines = []
    bolts = [f"{labels[s]} {'/' * (n % 3)}" for s, n in enumerate(played.bolts) if n % 3]
    if bolts:
        lines.append(w["bolts"].format(seats=", ".join(bolts)))
    o = played.options
    tries = [
        w["try"].format(seat=labels[s], n=(n or 0) + 1, of=o.barrel_tries)
        for s, n in enumerate(played.barrel)
        if n is not None
    ]
    if tries:
        lines += wrap(w["barrel"].format(seats=", ".join(tries)))
    if played.over:
        result: Any = played.result()
        total = max(played.totals)
        if result["winner"] is not None:
            lines.append(w["won"].format(seat=labels[result["winner"]], total=total))
        else:
            best = [labels[s] for s, x in enumerate(played.totals) if x == total]
            lines.append(w["tie"].format(seats=", ".join(best), total=total))
    return lines
