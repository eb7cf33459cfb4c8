"""The pulka sheet as text: the same lines are posted by the bot (title in bold, the
table in a <pre> block) and printed by ``cardbot score --text``. Plain text, no HTML;
the words live here (not in the bot's catalogs) so the engine can print the sheet.

The table reads on a phone held upright (at most 40 columns, ``engine.text.PHONE_WIDTH``):
one column per player, headed by his seat number (a legend under the table gives the
names once), and the rows of the paper pulka: his contract column, the soup he wrote on
each other player ("Soup on 2": the column's player on player 2), refe marks (─ unused,
╱ used), hat marks (∧ hat, ∨ inverted hat) and what the settlement would give now,
rounded to whole points (the exact value is in the final settlement).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from engine.jsondata import JsonDict
from engine.rounding import rounded_shares
from engine.text import phone_grid, wrap_lines

from .scoring import parse_fnum, shown

WORDS = {
    "ru": {
        "title": "Пуля {bula} · раздача {n}",
        "title0": "Пуля {bula}",
        "contract": "Контракт",
        "soup_row": "Юха на {n}",
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
        "legend": "Юха на N: что игрок столбца написал игроку N. "
        "Рефет: ─ есть, ╱ сыгран. Шляпа: ∧ надета, ∨ снята. Расчёт округлён до целых.",
        "exact": "Точный расчёт: {values}",
    },
    "en": {
        "title": "Bula {bula} · hand {n}",
        "title0": "Bula {bula}",
        "contract": "Contract",
        "soup_row": "Soup on {n}",
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
        "legend": "Soup on N: what the column's player wrote on player N. "
        "Refe: ─ unused, ╱ used. Hat: ∧ on, ∨ off. Result rounded to whole points.",
        "exact": "Exact result: {values}",
    },
}


def words(lang: str) -> dict[str, Any]:
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


def row_summary(row: dict[str, Any], names: list[str], lang: str, rounding: str = "none", bula: int = 0) -> str:
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


def _entries(row: dict[str, Any], names: list[str], rounding: str) -> str:
    parts = [f"{names[int(k)]} {_signed(v, rounding)}" for k, v in row["contract"].items()]
    for key, v in row.get("soups", {}).items():
        wr, tg = int(key[0]), int(key[1])
        parts.append(f"{names[wr]}→{names[tg]} {_num(v, rounding)}")
    return ", ".join(parts)


def _marks(mark: str, count: int) -> str:
    """``count`` marks in a row, or ``mark×count`` when there are too many for a cell."""
    return mark * count if count <= 3 else f"{mark}{count}"


def _hats(hats: list[str]) -> str:
    on, off = hats.count("^"), len(hats) - hats.count("^")
    if len(hats) <= 3:
        return "".join("∧" if m == "^" else "∨" for m in hats)
    return (f"∧{on}" if on else "") + (f"∨{off}" if off else "")


def table_rows(sheet: dict[str, Any], names: list[str], lang: str, rounding: str = "none") -> list[list[str]]:
    """Header + one row per line of the paper pulka, one column per player (his seat
    number heads it). Cells are rounded to whole points: fractions do not fit a phone.
    Input is ``rules.sheet_json`` / ``scoring.Pull.to_json``; ``names`` and ``rounding``
    are kept for the callers (names go in the legend, the exact values in the settlement)."""
    w = words(lang)
    rows = [["", "1", "2", "3"], [w["contract"], *(_num(sheet["contract"][i], "int") for i in range(3))]]
    for target in range(3):
        soups = [_num(sheet["soups"][i][target], "int") if i != target else "·" for i in range(3)]
        rows.append([w["soup_row"].format(n=target + 1), *soups])
    rows.append(
        [w["refe"], *(_marks("─", sheet["refe"][i]) + _marks("╱", sheet["refe_used"][i]) or "·" for i in range(3))]
    )
    rows.append([w["hat"], *(_hats(list(sheet["hats"][i])) or "·" for i in range(3))])
    settle = sheet.get("settlement")
    if settle is not None:
        rounded = rounded_shares([parse_fnum(v) for v in settle])  # adding up to 0, as the exact ones do
        rows.append([w["result"], *(_signed(v, "none") for v in rounded)])
    return rows


def plain_table(rows: list[list[str]], align_right: Collection[int] = frozenset({1, 2, 3})) -> str:
    return phone_grid(rows, align_right)


def names_legend(names: list[str]) -> list[str]:
    """The seat numbers heading the columns, with the players' names (once per sheet)."""
    return [f"{i + 1} — {name}" for i, name in enumerate(names)]


def exact_line(sheet: dict[str, Any], lang: str, rounding: str = "none") -> str | None:
    """The exact settlement when a rounded cell hides a fraction and the table keeps exact
    values (``display_rounding`` "none") or the pulka is closed; else None."""
    settle = sheet.get("settlement")
    if settle is None or all(parse_fnum(v).denominator == 1 for v in settle):
        return None
    if rounding != "none" and not sheet.get("finished"):
        return None
    values = ", ".join(f"{i + 1} {_signed(settle[i], 'none')}" for i in range(3))
    return str(words(lang)["exact"].format(values=values))


def sheet_parts(
    sheet: dict[str, Any],
    rows: list[dict[str, Any]],
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
    """The line under the table that explains the soup rows, the marks and the rounding."""
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
    """The whole sheet as ``cardbot score --text`` prints it, every line within a phone's width."""
    title, lines, table = sheet_parts(sheet, rows, names, lang, bula, hand_no, rounding, last)
    return wrap_lines("\n".join([title, *lines, table, *under_table(sheet, names, lang, rounding)]))


def under_table(sheet: dict[str, Any], names: list[str], lang: str, rounding: str = "none") -> list[str]:
    """The lines under the table: who is who, what the rows and marks mean, the exact
    settlement when the rounded table hides a fraction."""
    exact = exact_line(sheet, lang, rounding)
    return [*legend_lines(names, lang), *([exact] if exact else [])]


def legend_lines(names: list[str], lang: str) -> list[str]:
    """Who is who and what the rows and marks mean, within a phone's width: the bot
    posts them inside the table's <pre> block (a picture of the sheet replaces both)."""
    return [*names_legend(names), *wrap_lines(sheet_legend(lang)).split("\n")]
