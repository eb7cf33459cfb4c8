"""The pulka sheet as text: the same lines are posted by the bot (title in bold, the
table in a <pre> block) and printed by ``cardbot score --text``. Plain text, no HTML;
the words live here (not in the bot's catalogs) so the engine can print the sheet.

Per player: the soup on his left neighbour (the next player clockwise), his contract
column, the soup on his right neighbour, refe marks (─ unused, ╱ used), hat marks
(∧ hat, ∨ inverted hat) and what the settlement would give now.
"""

from __future__ import annotations

from collections.abc import Container
from typing import Any

from engine.jsondata import JsonDict
from engine.text import grid

from .scoring import parse_fnum, shown

WORDS = {
    "ru": {
        "title": "Пуля {bula} · раздача {n}",
        "title0": "Пуля {bula}",
        "player": "Игрок",
        "left": "Юха→лев",
        "contract": "Контракт",
        "right": "Юха→прав",
        "refe": "Рефет",
        "hat": "Шляпа",
        "result": "Расчёт",
        "result_now": "Расчёт — если закончить сейчас.",
        "result_final": "Пуля закрыта. Итог:",
        "all_pass": "все спасовали",
        "refe_granted": "всем рефет",
        "no_refe": "без рефета",
        "made": "сыграно",
        "failed": "не сыграно",
        "no_play": "без розыгрыша (вистующих нет)",
        "no_play_two": "«два» без контры — победа без игры",
        "two_nothing": "«два» без контры — никто не пишет",
        "tricks": "взятки",
        "igra": "игра",
        "refe_x2": "рефет ×2",
        "scaled": "последняя запись ×{f}",
        "kontra": ["", "контра", "реконтра", "субконтра", "мортконтра"],
        "kontra_n": "контра ×{m}",
        "forfeit": "{name}: время вышло, −{bula} в контракт",
        "contracts": {2: "2 ♠", 3: "3 ♦", 4: "4 ♥", 5: "5 ♣", 6: "беттель", 7: "санац"},
        "writes": "пишут",
        "soup_on": "{w}→{t} {x}",
        "hand": "{n}.",
        "legend": "Юха→лев / Юха→прав: висты на соседа слева / справа (в скобках его №). "
        "Рефет: ─ есть, ╱ сыгран. Шляпа: ∧ надета, ∨ снята.",
    },
    "en": {
        "title": "Bula {bula} · hand {n}",
        "title0": "Bula {bula}",
        "player": "Player",
        "left": "Soup→L",
        "contract": "Contract",
        "right": "Soup→R",
        "refe": "Refe",
        "hat": "Hat",
        "result": "Result",
        "result_now": "Result — if settled now.",
        "result_final": "The pulka is closed. Result:",
        "all_pass": "all passed",
        "refe_granted": "refe for everybody",
        "no_refe": "no refe",
        "made": "made",
        "failed": "failed",
        "no_play": "not played (no defender)",
        "no_play_two": "a two without kontra — won without play",
        "two_nothing": "a two without kontra — nobody writes",
        "tricks": "tricks",
        "igra": "igra",
        "refe_x2": "refe ×2",
        "scaled": "last entry ×{f}",
        "kontra": ["", "kontra", "rekontra", "subkontra", "mortkontra"],
        "kontra_n": "kontra ×{m}",
        "forfeit": "{name}: out of time, −{bula} to the contract column",
        "contracts": {2: "2 ♠", 3: "3 ♦", 4: "4 ♥", 5: "5 ♣", 6: "bettel", 7: "sans"},
        "writes": "write",
        "soup_on": "{w}→{t} {x}",
        "hand": "{n}.",
        "legend": "Soup→L / Soup→R: whists on the left / right neighbour (his # in brackets). "
        "Refe: ─ unused, ╱ used. Hat: ∧ on, ∨ off.",
    },
}


def words(lang: str) -> JsonDict:
    return WORDS.get(lang, WORDS["en"])


def contract_name(number: int, igra: bool, lang: str) -> str:
    w = words(lang)
    name = w["contracts"][number]
    return f"{w['igra']} {name}" if igra else name


def kontra_name(level: int, lang: str) -> str:
    w = words(lang)
    if level < len(w["kontra"]):
        return str(w["kontra"][level])
    return str(w["kontra_n"].format(m=2**level))


def _num(v: Any, rounding: str) -> str:
    return shown(parse_fnum(v), rounding)


def _signed(v: Any, rounding: str) -> str:
    x = parse_fnum(v)
    s = shown(x, rounding)
    return s if s.startswith("−") or s == "0" else "+" + s


def row_summary(row: JsonDict, names: list[str], lang: str, rounding: str = "none", bula: int = 0) -> str:
    """One line: what a hand wrote."""
    w = words(lang)
    if row["type"] == "all_pass":
        return f"{w['all_pass']}: {w['refe_granted'] if row.get('refe') else w['no_refe']}"
    if row["type"] == "forfeit":
        return str(w["forfeit"].format(name=names[row["seat"]], bula=bula))
    d = row["declarer"]
    head = f"{names[d]}: {contract_name(row['number'], row['igra'], lang)}"
    extras = []
    if row.get("refe_used"):
        extras.append(w["refe_x2"])
    if row.get("level"):
        extras.append(kontra_name(row["level"], lang) + " (" + ", ".join(names[k] for k in row["kontra"]) + ")")
    if extras:
        head += " [" + ", ".join(extras) + "]"
    outcome = row.get("outcome")
    if outcome == "two_nothing":
        return f"{head} — {w['two_nothing']}" + (f"; {w['refe_granted']}" if row.get("refe") else "")
    if outcome == "no_play":
        both = all(x == "pass" for x in row["defence"].values())
        return f"{head} — {w['no_play'] if both else w['no_play_two']}; " + _entries(row, names, rounding)
    tricks = row["tricks"]
    took = ", ".join(
        f"{names[x]} {tricks[x]}" for x in range(3) if x == d or row["defence"].get(str(x), "pass") != "pass"
    )
    text = f"{head} — {w['made'] if row['made'] else w['failed']} ({w['tricks']}: {took}); "
    text += _entries(row, names, rounding)
    if row.get("scale") is not None:
        text += "; " + w["scaled"].format(f=_num(row["scale"], "none"))
    return text


def _entries(row: JsonDict, names: list[str], rounding: str) -> str:
    parts = [f"{names[int(k)]} {_signed(v, rounding)}" for k, v in row["contract"].items()]
    for key, v in row.get("soups", {}).items():
        wr, tg = int(key[0]), int(key[1])
        parts.append(f"{names[wr]}→{names[tg]} {_num(v, rounding)}")
    return ", ".join(parts)


def table_rows(sheet: JsonDict, names: list[str], lang: str, rounding: str = "none") -> list[list[str]]:
    """Header + one row per player (from ``rules.sheet_json`` / ``scoring.Pull.to_json``)."""
    w = words(lang)
    rows = [["#", w["player"], w["left"], w["contract"], w["right"], w["refe"], w["hat"], w["result"]]]
    settle = sheet.get("settlement")
    for i in range(3):
        left, right = (i + 1) % 3, (i + 2) % 3
        refe = "─" * int(sheet["refe"][i]) + "╱" * int(sheet["refe_used"][i])
        hats = "".join("∧" if m == "^" else "∨" for m in sheet["hats"][i])
        rows.append(
            [
                str(i + 1),
                names[i],
                f"({left + 1}) {_num(sheet['soups'][i][left], rounding)}",
                _num(sheet["contract"][i], rounding),
                f"({right + 1}) {_num(sheet['soups'][i][right], rounding)}",
                refe or "·",
                hats or "·",
                _signed(settle[i], rounding) if settle is not None else "",
            ]
        )
    return rows


def plain_table(rows: list[list[str]], align_right: Container[int] = frozenset({3, 7})) -> str:
    return grid(rows, align_right)


def sheet_parts(
    sheet: JsonDict,
    rows: list[JsonDict],
    names: list[str],
    lang: str,
    bula: int,
    hand_no: int | None,
    rounding: str = "none",
    last: JsonDict | None = None,
) -> tuple[str, list[str], str]:
    """(title, summary lines, table text) of the sheet after the last written hand."""
    w = words(lang)
    title = w["title"].format(bula=bula, n=hand_no) if hand_no else w["title0"].format(bula=bula)
    lines = []
    if last is not None:
        lines.append(row_summary(last, names, lang, rounding, bula))
    table = plain_table(table_rows(sheet, names, lang, rounding))
    lines.append(w["result_final"] if sheet.get("finished") else w["result_now"])
    return title, lines, table


def sheet_legend(lang: str) -> str:
    """The line under the table that explains the soup columns and the bracketed numbers."""
    return str(words(lang)["legend"])


def sheet_text(
    sheet: JsonDict,
    rows: list[JsonDict],
    names: list[str],
    lang: str,
    bula: int,
    hand_no: int | None,
    rounding: str = "none",
    last: JsonDict | None = None,
) -> str:
    title, lines, table = sheet_parts(sheet, rows, names, lang, bula, hand_no, rounding, last)
    return "\n".join([title, *lines, table, sheet_legend(lang)])
