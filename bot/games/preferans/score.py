"""``/score preferans``: the pulka sheet for people who play preferans with real cards.

The table's three seats are the three players of the paper game (people join the
lobby; the order of joining is the seating order, clockwise). Every seated person may
press the entry buttons under the group message: declarer (or all pass), contract,
igra, the defence, the kontra and the tricks, then confirm. "Undo" drops the last
confirmed hand. The sheet is posted after every confirmed hand and after an undo."""

from __future__ import annotations

import sys

from bot.game_registry import register_ui
from bot.game_ui import GameUI, Rows
from bot.games.preferans import ui
from bot.games.preferans.ui import (
    contract_label,
    level_name,
    result_lines,
    sheet_picture,
    sheet_post,
)
from bot.i18n import t
from bot.render.common import chunk, esc
from engine.games.preferans.scoring import defenders

LETTERS = "ABC"
NAMES = {"S": 2, "D": 3, "H": 4, "C": 5, "BETTEL": 6, "SANS": 7}


def _who(view: dict, letter: str) -> str:
    names = view.get("names")
    seat = LETTERS.index(letter)
    return names[seat] if names else str(seat + 1)


def pending_text(view: dict, names: list[str], lang: str) -> list[str]:
    p = view["pending"]
    if p is None:
        return []
    if p.get("all_pass"):
        return [t(lang, "preferans.score.entry", text=t(lang, "preferans.score.all_pass"))]
    parts = [esc(names[p["declarer"]])]
    if "number" in p:
        parts.append(contract_label(p["number"], p.get("igra", False), lang) + ("" if "igra" in p else " …"))
    for seat, decision in p.get("defence", {}).items():
        parts.append(f"{esc(names[int(seat)])} — {t(lang, 'preferans.def.' + decision)}")
    if p.get("kontra"):
        parts.append(level_name(p.get("level", 1), lang) + " (" + ", ".join(esc(names[k]) for k in p["kontra"]) + ")")
    if p.get("tricks"):
        parts.append(
            t(
                lang,
                "preferans.score.tricks_done",
                tricks=", ".join(f"{esc(names[int(s)])} {n}" for s, n in p["tricks"].items()),
            )
        )
    return [t(lang, "preferans.score.entry", text=" · ".join(parts))]


def prompt(view: dict, names: list[str], lang: str) -> str:
    p = view["pending"]
    if p is None:
        return t(lang, "preferans.score.prompt.new")
    step = p["step"]
    if step == "tricks":
        return t(lang, "preferans.score.prompt.tricks", name=esc(names[p["tseat"]]))
    if step in ("d1", "d2"):
        d1, d2 = defenders(p["declarer"])
        return t(lang, "preferans.score.prompt.defence", name=esc(names[d1 if step == "d1" else d2]))
    return t(lang, f"preferans.score.prompt.{step}")


def group_text(view: dict, names: list[str], lang: str, header: str) -> str:
    lines = [f"<b>{esc(header)}</b>"]
    lines.append(
        t(lang, "preferans.score.players", players=", ".join(f"{i + 1}. {esc(n)}" for i, n in enumerate(names)))
    )
    sheet = view["sheet"]
    lines.append(
        t(
            lang,
            "preferans.score.columns",
            cols=" · ".join(f"{esc(names[i])} {str(sheet['contract'][i]).replace('-', '−')}" for i in range(3)),
            n=view["entries"],
        )
    )
    if view.get("last_row"):
        from engine.games.preferans.sheet import row_summary

        lines.append(
            t(
                lang,
                "preferans.last_hand",
                n=view["entries"],
                text=esc(row_summary(view["last_row"], names, lang, view["options"]["display_rounding"], view["bula"])),
            )
        )
    if view["result"]:
        lines.append(t(lang, "preferans.over"))
        lines += result_lines(view["result"], names, lang)
    elif view["started"]:
        lines += pending_text(view, names, lang)
        lines.append("👉 " + prompt(view, names, lang))
    return "\n".join(lines)


def action_label(action: str, view: dict, lang: str) -> str:
    verb, *args = action.split()
    arg = args[0] if args else ""  # every verb read below has its argument
    if verb == "declarer":
        return _who(view, arg)
    if verb == "contract":
        return contract_label(NAMES[arg], False, lang)
    if verb in ("igra", "d1", "d2"):
        return t(lang, f"preferans.score.btn.{verb}.{arg}")
    if verb == "kontra":
        if arg in ("none", "both"):
            return t(lang, f"preferans.score.btn.kontra.{arg}")
        return t(lang, "preferans.score.btn.kontra_by", name=_who(view, arg))
    if verb == "level":
        return level_name(int(arg), lang)
    if verb == "tricks":
        return arg
    return t(lang, f"preferans.score.btn.{verb}")


def action_rows(legal: list[str], view: dict, lang: str, mode: str, names: list[str]) -> tuple[Rows, list]:
    view = {**view, "names": names}  # the seat buttons show names
    main: list[tuple[str, int]] = []
    tail: list[tuple[str, int]] = []
    for i, action in enumerate(legal):
        item = (action_label(action, view, lang), i)
        (tail if action.split()[0] in ("cancel", "undo", "allpass") else main).append(item)
    size = 6 if legal and legal[0].startswith("tricks") else 3
    return chunk(main, size) + ([tail] if tail else []), []


def picture(events: list[dict], view: dict, names: list[str], lang: str) -> dict:
    return sheet_picture(view, names, lang, view["entries"] or None)


def posts(events: list[dict], view: dict, names: list[str], lang: str, history: list[dict]) -> list[str]:
    out = []
    over = next((e for e in events if e["type"] == "game_over"), None)
    for e in events:
        if e["type"] == "deal_scored" or e["type"] == "entry_undone":
            last = e.get("row") if e["type"] == "deal_scored" else None
            text = sheet_post(view, names, lang, last, view["entries"] or None)
            if e["type"] == "entry_undone":
                text = t(lang, "preferans.score.undone") + "\n" + text
            if over is not None:
                text += "\n" + "\n".join(result_lines(over["result"], names, lang))
            out.append(text)
    if over is not None and not any(e["type"] == "deal_scored" for e in events):
        text = sheet_post(view, names, lang, view.get("last_row"), view["entries"] or None)
        out.append(text + "\n" + "\n".join(result_lines(over["result"], names, lang)))
    return out


# borrowed from the modules they live in, under the manifest's names
variant_text = ui.variant_text
option_rows = ui.option_rows
next_option = ui.next_option
result_line = ui.result_line


class PreferansScoreUI(GameUI, module=sys.modules[__name__]):
    name = "preferans_score"
    command = ""
    order = 90
    group_controls = True
    score_for = "preferans"
    rules_of = "preferans"


register_ui(PreferansScoreUI())
