"""``/score whist``: the score sheet of a whist match played with real cards. Buttons under
the group message (any seated person may press): the tricks of each side, then the
honours, then confirm; undo strikes out the last deal. The sheet is posted after every
entry, exactly as ``cardbot score --text`` prints it."""

from __future__ import annotations

import sys

from bot.game_registry import register_ui
from bot.game_ui import GameUI, Rows
from bot.games.whist import ui
from bot.games.whist.ui import (
    PRESETS,
    final_post,
    honours_notes,
    next_rubbers,
    result_text,
    rubbers_label,
    score_lines,
    sheet_block,
)
from bot.i18n import t
from bot.render.common import chunk, esc
from engine.games.whist.options import WhistOptions


def _pending_text(view: dict, lang: str) -> list[str]:
    p = view["pending"]
    n = len(view["entries"]) + 1
    if p is None:
        return [t(lang, "whist_score.prompt.tricks", n=n)]
    lines = [t(lang, "whist_score.entry_tricks", n=n, ns=p["tricks"]["NS"], ew=p["tricks"]["EW"])]
    if "honours" not in p:
        lines.append(t(lang, "whist_score.prompt.honours_" + view["options"]["honours_mode"], k=view["honour_count"]))
        return lines
    lines.append(t(lang, "whist_score.entry_honours", ns=p["honours"]["NS"], ew=p["honours"]["EW"]))
    lines.append(t(lang, "whist_score.prompt.confirm"))
    return lines


def group_text(view: dict, names: list[str], lang: str, header: str) -> str:
    lines = [f"<b>{esc(header)}</b>", t(lang, "whist_score.keepers", names=", ".join(esc(n) for n in names))]
    score = view["score"]
    if view["phase"] != "over":
        lines.append(t(lang, "whist_score.position", rubber=score["rubber_no"], game=score["game_no"]))
    lines += score_lines(score, lang)
    if view["phase"] == "over":
        lines += [t(lang, "whist.match_over"), result_text(view["result"], None, lang)]
    else:
        lines += _pending_text(view, lang)
    return "\n".join(lines)


def action_rows(legal: list[str], view: dict, lang: str, mode: str, names: list[str]) -> tuple[Rows, list]:
    numbers: list[tuple[str, int]] = []
    verbs: list[tuple[str, int]] = []
    k = view["honour_count"]
    for i, action in enumerate(legal):
        verb, *args = action.split()
        if verb == "tricks":
            n = int(args[0])
            numbers.append((f"{n}:{13 - n}", i))
        elif verb == "honours":
            h = int(args[0])
            numbers.append((f"{h}:{k - h}", i))
        else:
            verbs.append((t(lang, f"whist_score.btn.{verb}"), i))
    return chunk(numbers, 5) + ([verbs] if verbs else []), []


def option_rows(options: dict, lang: str) -> Rows:
    full = WhistOptions.model_validate(options)
    return [
        [
            (t(lang, f"whist.preset.{full.preset}"), "preset"),
            (rubbers_label(full.match_rubbers_to_win, lang), "rubbers"),
        ]
    ]


def next_option(options: dict, key: str) -> dict:
    full = WhistOptions.model_validate(options)
    if key == "preset":
        preset = PRESETS[(PRESETS.index(full.preset) + 1) % len(PRESETS)]
        new = {"preset": preset, "match_rubbers_to_win": full.match_rubbers_to_win}
    elif key == "rubbers":
        new = {**full.dump(), "match_rubbers_to_win": next_rubbers(full.match_rubbers_to_win)}
    else:
        raise KeyError(key)
    return WhistOptions.model_validate(new).dump()


def posts(events: list[dict], view: dict, names: list[str], lang: str, history: list[dict]) -> list[str]:
    out = []
    for event in events:
        if event["type"] == "deal_scored":
            entry = event["entry"]
            head = t(
                lang,
                "whist_score.written",
                n=event["deal"],
                ns=entry["tricks"]["NS"],
                ew=entry["tricks"]["EW"],
                hns=entry["honours"]["NS"],
                hew=entry["honours"]["EW"],
            )
            head = "\n".join([head, *honours_notes(event, lang)])
            out.append(head + "\n" + sheet_block(view, lang))
        elif event["type"] == "undone":
            out.append(t(lang, "whist_score.undone", n=event["deal"]) + "\n" + sheet_block(view, lang))
        elif event["type"] == "game_over":
            out.append(final_post(event["result"], view, None, lang))
    return out


# borrowed from the modules they live in, under the manifest's names
variant_text = ui.variant_text
result_line = ui.result_line


class WhistScoreUI(GameUI, module=sys.modules[__name__]):
    name = "whist_score"
    command = ""
    order = 105
    group_controls = True
    score_for = "whist"


register_ui(WhistScoreUI())
