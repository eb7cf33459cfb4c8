"""``/score bridge``: the We/They sheet of a rubber played with real cards. The buttons
sit under the group message and anyone keeping the sheet may press them: declarer,
level, strain, doubling, tricks, honours, then Write (or Cancel); Undo drops the last
deal. The sheet is posted after every written deal, the settlement at the end."""

from __future__ import annotations

import sys
from functools import partial

from bot.game_registry import register_ui
from bot.game_ui import GameUI, Rows
from bot.games.bridge import ui
from bot.games.bridge.sheet_posts import deal_post, final_post, over_title, sheet_picture, sheet_pre
from bot.games.bridge.texts import SEATS, bid_text, sheet_summary, side_name, strain_text
from bot.i18n import t
from bot.render.common import chunk, esc


def pending_text(view: dict, lang: str) -> str | None:
    p = view.get("pending")
    if not p:
        return None
    if p.get("stop"):
        return t(lang, "bridge.score.entry_stop_chicago" if view["sheet"].get("chicago") else "bridge.score.entry_stop")
    if p.get("passed_out"):
        return t(lang, "bridge.score.entry_passed")
    parts = [p["declarer"]]
    if "level" in p and "strain" in p:
        parts.append(bid_text(p["level"], p["strain"], lang) + {"X": "X", "XX": "XX"}.get(p.get("doubling"), ""))
    elif "level" in p:
        parts.append(str(p["level"]))
    if "tricks" in p:
        parts.append(t(lang, "bridge.score.tricks_label", n=p["tricks"]))
    if p.get("honours"):
        h = p["honours"]
        parts.append(t(lang, "bridge.score.btn.honours", side=side_name(h["side"], lang), held=h["held"]))
    return t(lang, "bridge.score.entry", entry=esc(" ".join(parts)))


def group_text(view: dict, names: list[str], lang: str, header: str) -> str:
    lines = [f"<b>{esc(header)}</b>"]
    if view["phase"] == "over":
        lines.append(over_title(view["sheet"], lang))
        lines.append(sheet_summary(view["sheet"], lang))
        return "\n".join(lines)
    lines.append(t(lang, "bridge.score.dealer", seat=SEATS[view["dealer"]]))
    lines.append(sheet_summary(view["sheet"], lang) if view["deals"] else t(lang, "bridge.score.no_deals"))
    entry = pending_text(view, lang)
    if entry:
        lines.append(entry)
    if view["phase"] == "entry":
        lines.append(t(lang, f"bridge.score.ask.{view['step'] or 'declarer'}"))
    return "\n".join(lines)


def action_rows(legal: list[str], view: dict, lang: str, mode: str, names: list[str]) -> tuple[Rows, list]:
    main, tail = [], []
    pending = view.get("pending") or {}
    for i, action in enumerate(legal):
        verb, *args = action.split()
        if verb == "declarer":
            main.append((args[0], i))
        elif verb == "level":
            main.append((args[0], i))
        elif verb == "strain":
            main.append((strain_text(args[0], lang), i))
        elif verb == "doubling":
            main.append((t(lang, f"bridge.score.btn.{args[0]}"), i))
        elif verb == "tricks":
            n, need = int(args[0]), 6 + pending.get("level", 1)
            diff = "=" if n == need else f"+{n - need}" if n > need else f"−{need - n}"
            main.append((f"{n} ({diff})", i))
        elif verb == "honours":
            if args[0] == "none":
                main.append((t(lang, "bridge.score.btn.honours_none"), i))
            elif pending.get("strain") == "NT":
                main.append((t(lang, "bridge.score.btn.aces", side=side_name(args[0], lang)), i))
            else:
                main.append((t(lang, "bridge.score.btn.honours", side=side_name(args[0], lang), held=args[1]), i))
        elif verb == "stop" and view["sheet"].get("chicago"):
            tail.append((t(lang, "bridge.score.btn.stop_chicago"), i))
        elif verb in ("passed_out", "undo", "stop", "confirm", "cancel"):
            tail.append((t(lang, f"bridge.score.btn.{verb}"), i))
    width = (
        7 if legal and legal[0].startswith(("level", "tricks")) else 5 if legal and legal[0].startswith("strain") else 4
    )
    return chunk(main, width) + chunk(tail, 2), []


def picture(events: list[dict], view: dict, names: list[str], lang: str) -> dict:
    return sheet_picture(view["sheet"], None, lang)


def posts(events: list[dict], view: dict, names: list[str], lang: str, history: list[dict]) -> list[str]:
    out = []
    for event in events:
        if event["type"] == "deal_scored":
            out.append(deal_post(event, None, lang))
        elif event["type"] == "undone":
            out.append(t(lang, "bridge.score.undone", n=event["deal_no"]) + "\n" + sheet_pre(event["sheet"], lang))
        elif event["type"] == "game_over":
            out.append(final_post(event["result"], view["sheet"], None, lang))
    return out


# borrowed from the modules they live in, under the manifest's names
variant_text = ui.variant_text
lobby_lines = ui.lobby_lines
result_line = ui.result_line


def title(options: dict, lang: str) -> str:
    return t(lang, "game.bridge_score_chicago" if options.get("scoring") == "chicago" else "game.bridge_score")


# the lobby of the played game, with the paper sheet's own switch
option_rows = partial(ui.option_rows, paper=True)
next_option = partial(ui.next_option, paper=True)


class BridgeScoreUI(GameUI, module=sys.modules[__name__]):
    name = "bridge_score"
    command = ""
    order = 104
    group_controls = True
    score_for = "bridge"
    score_presets = ui.TABLE_PRESETS  # /score chicago
    rules_of = "bridge"


register_ui(BridgeScoreUI())
