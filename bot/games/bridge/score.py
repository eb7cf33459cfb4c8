"""``/score bridge``: the We/They sheet of a rubber played with real cards. The buttons
sit under the group message and anyone keeping the sheet may press them: declarer,
level, strain, doubling, tricks, honours, then Write (or Cancel); Undo drops the last
deal. The sheet is posted after every written deal, the settlement at the end."""

from __future__ import annotations

from bot.games import register_ui
from bot.games.base import GameUI, Rows
from bot.games.bridge.ui import (
    BridgeUI,
    SEATS,
    bid_text,
    deal_post,
    final_post,
    lobby_lines,
    option_rows,
    next_option,
    sheet_picture,
    sheet_pre,
    sheet_summary,
    side_name,
    strain_text,
    variant_text,
)
from bot.i18n import t
from bot.render.common import chunk, esc


def pending_text(view: dict, lang: str) -> str | None:
    p = view.get("pending")
    if not p:
        return None
    if p.get("stop"):
        return t(lang, "bridge.score.entry_stop")
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
        lines.append(t(lang, "bridge.result.title"))
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


def action_rows(legal: list[str], view: dict, lang: str) -> Rows:
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
        elif verb in ("passed_out", "undo", "stop", "confirm", "cancel"):
            tail.append((t(lang, f"bridge.score.btn.{verb}"), i))
    width = (
        7 if legal and legal[0].startswith(("level", "tricks")) else 5 if legal and legal[0].startswith("strain") else 4
    )
    return chunk(main, width) + chunk(tail, 2)


class BridgeScoreUI(GameUI):
    name = "bridge_score"
    command = ""
    order = 104
    group_controls = True
    score_for = "bridge"

    def variant_text(self, options, lang):
        return variant_text(options, lang)

    def lobby_lines(self, options, lang):
        return lobby_lines(options, lang)

    def option_rows(self, options, lang):
        return option_rows(options, lang, paper=True)

    def next_option(self, options, key):
        return next_option(options, key, paper=True)

    def group_text(self, view, names, lang, header):
        return group_text(view, names, lang, header)

    def hand_text(self, view, names, lang, header, legal):
        return group_text(view, names, lang, header)

    def action_rows(self, legal, view, lang, mode, names):
        return action_rows(legal, view, lang), []

    def rules_text(self, lang):
        return t(lang, "rules.bridge")

    def picture(self, events, view, names, lang):
        return sheet_picture(view["sheet"], None, lang)

    def posts(self, events, view, names, lang, history):
        out = []
        for event in events:
            if event["type"] == "deal_scored":
                out.append(deal_post(event, None, lang))
            elif event["type"] == "undone":
                out.append(t(lang, "bridge.score.undone", n=event["deal_no"]) + "\n" + sheet_pre(event["sheet"], lang))
            elif event["type"] == "game_over":
                out.append(final_post(event["result"], view["sheet"], None, lang))
        return out

    result_line = BridgeUI.result_line


register_ui(BridgeScoreUI())
