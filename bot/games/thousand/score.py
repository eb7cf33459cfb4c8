"""``/score thousand`` (or ``/score 1000``): the sheet of a Тысяча game played with real
cards. The seated people (3, or 4 with the dealer sitting out) are the players, clockwise
in the order they joined. Anybody seated presses the entry buttons under the group
message: who won the auction, the contract, made / lost / распишись, then each
opponent's points (or болт), then "write". "Undo" strikes out the last deal. After every
deal the sheet is posted as ``cardbot score --text`` prints it (its latest deals)."""

from __future__ import annotations

import sys
from typing import Any

from bot.game_registry import register_ui
from bot.game_ui import GameUI, Rows
from bot.games.thousand import sheet, ui
from bot.i18n import t
from bot.render.common import chunk, display_name, esc
from engine.games.thousand.record import BOLT, LETTERS, Played, play
from engine.games.thousand.sheet import sheet_text
from engine.text import phone_grid

LAST_ROWS = 12  # a post shows the latest deals; `cardbot score --text` prints them all


def _name(names: list[str], letter: str) -> str:
    i = LETTERS.index(letter)
    return names[i] if i < len(names) else letter


def _played(view: dict[str, Any]) -> Played:
    return play(view["record"])


def sheet_block(view: dict[str, Any], names: list[str], lang: str) -> str:
    """The paper sheet (the text of ``cardbot score --text``) in a <pre> block."""
    return f"<pre>{esc(sheet_text(_played(view), lang, names=names, last=LAST_ROWS))}</pre>"


def _amount(p: dict[str, Any], lang: str) -> str:
    return t(lang, "thousand.dark_amount", n=p["contract"]) if p["dark"] else str(p["contract"])


def _points_word(value: Any, lang: str) -> str:
    return t(lang, "thousand_score.bolt") if value == BOLT else str(value)


def pending_text(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    p = view["pending"]
    if p is None:
        return []
    parts = [esc(_name(names, p["declarer"]))]
    if "contract" in p:
        parts.append(_amount(p, lang))
    if p.get("conceded"):
        parts.append(t(lang, "thousand.conceded"))
    elif "made" in p:
        parts.append(t(lang, "thousand.made" if p["made"] else "thousand.failed"))
    for letter, value in p.get("points", {}).items():
        parts.append(f"{esc(_name(names, letter))} {_points_word(value, lang)}")
    return [t(lang, "thousand_score.entry", text=" · ".join(parts))]


def prompt(view: dict[str, Any], names: list[str], lang: str) -> str:
    p = view["pending"]
    if p is None:
        return t(lang, "thousand_score.prompt.new", n=len(view["entries"]) + 1)
    step = p["step"]
    if step == "points":
        return t(lang, "thousand_score.prompt.points", name=esc(_name(names, p["ask"])))
    if step == "result":
        return t(lang, "thousand_score.prompt.result", name=esc(_name(names, p["declarer"])), amount=_amount(p, lang))
    return t(lang, f"thousand_score.prompt.{step}")


def totals_table(view: dict[str, Any], names: list[str], lang: str) -> str:
    """Each player's letter (the sheet's column), name, total and marks, the last deal's
    points beside them."""
    last = view["entries"][-1] if view["entries"] else None
    rows = [["", t(lang, "sheet.player"), t(lang, "thousand.sheet.deal"), t(lang, "thousand.sheet.total"), ""]]
    for seat, name in enumerate(names):
        delta = "" if last is None or seat not in last["active"] else sheet.num(last["delta"][seat])
        marks = sheet.marks_text(view, seat, last, lang)
        rows.append(
            [LETTERS[seat], display_name(name, sheet.SHEET_NAME_WIDTH), delta, str(view["totals"][seat]), marks]
        )
    return "<pre>" + esc(phone_grid(rows, align_right={2, 3})) + "</pre>"


def group_text(view: dict[str, Any], names: list[str], lang: str, header: str) -> str:
    lines = [f"<b>{esc(header)}</b>"]
    order = ", ".join(f"{LETTERS[i]}. {esc(n)}" for i, n in enumerate(names))
    lines.append(t(lang, "thousand_score.players", players=order))
    if view["started"]:
        lines.append(totals_table(view, names, lang))
    if view["result"]:
        lines.append(sheet.result_text(view["result"], names, lang))
    elif view["started"]:
        dealer = esc(names[view["dealer"]])
        key = "thousand_score.dealer_out" if view["players"] == 4 else "thousand_score.dealer"
        lines.append(t(lang, key, name=dealer))
        lines += pending_text(view, names, lang)
        lines.append("👉 " + prompt(view, names, lang))
    return "\n".join(lines)


def action_label(action: str, view: dict[str, Any], names: list[str], lang: str) -> str:
    verb, *args = action.split()
    if verb == "declarer":
        return _name(names, args[0])
    if verb in ("contract", "points"):
        return args[0]
    if verb == "band":  # the other hundreds: "200–295"; the last runs to 400
        points = (view["pending"] or {}).get("step") == "points"
        step = view["options"]["rounding" if points else "bid_step"]
        low = int(args[0])
        return f"{low}–{low + 100 - step if low < 300 else 400}"
    if verb == "dark":
        return t(lang, "thousand.dark_amount", n=100)
    return t(lang, f"thousand_score.btn.{verb}")


def action_rows(legal: list[str], view: dict[str, Any], lang: str, mode: str, names: list[str]) -> tuple[Rows, list]:
    """Numbers five to a row, then the other hundreds, then the words."""
    numbers: list[tuple[str, Any]] = []
    bands: list[tuple[str, Any]] = []
    words: list[tuple[str, Any]] = []
    for i, action in enumerate(legal):
        verb = action.split()[0]
        item = (action_label(action, view, names, lang), i)
        if verb in ("contract", "points", "declarer", "bolt"):
            numbers.append(item)
        elif verb == "band":
            bands.append(item)
        else:
            words.append(item)
    size = 4 if legal and legal[0].startswith("declarer") else 5
    rows = chunk(numbers, size)
    return rows + ([bands] if bands else []) + ([words] if words else []), []


def posts(
    events: list[dict[str, Any]], view: dict[str, Any], names: list[str], lang: str, history: list[dict[str, Any]]
) -> list[str]:
    out = []
    over = next((e["result"] for e in events if e["type"] == "game_over"), None)
    for e in events:
        if e["type"] == "deal_scored":
            entry = e["entry"]
            lines = [t(lang, "thousand.sheet.title", n=entry["n"]), sheet.contract_text(entry, names, lang)]
            lines += sheet.events_lines(entry, names, lang)
            out.append("\n".join([*lines, sheet_block(view, names, lang)]))
        elif e["type"] == "entry_undone":
            out.append(t(lang, "thousand_score.undone") + "\n" + sheet_block(view, names, lang))
    if over is not None:
        text = sheet.result_text(over, names, lang)
        if out:
            out[-1] += "\n" + text
        else:
            out.append(sheet_block(view, names, lang) + "\n" + text)
    return out


# borrowed from the modules they live in, under the manifest's names
variant_text = ui.variant_text
option_rows = ui.option_rows
next_option = ui.next_option
picture = sheet.picture
result_line = sheet.result_line


class ThousandScoreUI(GameUI, module=sys.modules[__name__]):
    name = "thousand_score"
    command = ""
    order = 107
    group_controls = True
    score_for = "thousand"
    score_presets = {"1000": {}}


register_ui(ThousandScoreUI())
