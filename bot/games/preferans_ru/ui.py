"""Russian preferans (Сочи, Ленинград, Ростов) in Telegram: the group table message
(auction, contract, whist decisions, the open hands when whisting в светлую, the trick),
the DM hand with buttons for the legal calls and cards only, the lobby options, and the
пулька posted after every deal (the same text as ``cardbot score --text``). Input is
always an engine view (``engine.games.preferans_ru``), so a hidden card cannot reach a chat
unless the engine's ``view`` leaks it."""

from __future__ import annotations

import sys
from typing import Any

from bot.game_registry import register_ui
from bot.games.preferans_ru import deal_record
from bot.game_ui import GameUI, Rows
from bot.games.preferans_ru import score
from bot.games.preferans_ru.picture import preferans_ru_picture
from bot.games.preferans_ru.score import contract_label, sheet_block
from bot.games.preferans_ru.score import next_option as sheet_next_option
from bot.games.preferans_ru.score import option_rows as sheet_option_rows
from bot.i18n import t
from bot.render.common import cards_text, chunk, esc
from engine.cards import label
from engine.games.preferans_ru.options import SYSTEMS, PreferansRuOptions
from engine.games.preferans_ru.scoring import parse_fnum

# /sochi, /leningrad, /rostov open a table with the system's preset (§6.6)
PRESETS: dict[str, dict[str, Any]] = {system: {"system": system} for system in SYSTEMS}
# lobby switches of the played game beyond the sheet's (system, pool, help, half-whist)
FLAGS = ("here", "ten_checked", "stalingrad", "misere_without_talon", "jump_bids")


# ------------------------------------------------------------------------------ words
def bid_label(bid: str, lang: str) -> str:
    if bid == "MISERE_NOTALON":
        return t(lang, "prefru.misere_notalon")
    return contract_label(bid, lang)


def call_text(call: str, lang: str) -> str:
    verb, *args = call.split()
    if verb == "bid":
        return bid_label(args[0], lang)
    return t(lang, f"prefru.call.{verb}")


def _signed(value: Any) -> str:
    number = parse_fnum(value)
    text = str(value).replace("-", "−")
    return "+" + text if number > 0 else text


def result_lines(result: dict[str, Any], names: list[str], lang: str) -> list[str]:
    lines = []
    if result.get("forfeit") is not None:
        lines.append(t(lang, "prefru.result.forfeit", name=esc(names[result["forfeit"]])))
    settle = result["settlement"]
    lines.append(t(lang, "prefru.result.title"))
    for i in sorted(range(len(settle)), key=lambda i: -parse_fnum(settle[i])):
        lines.append(f"{esc(names[i])}: <b>{_signed(settle[i])}</b>")
    return lines


# ------------------------------------------------------------------------------ status lines
def status_lines(
    view: dict[str, Any], names: list[str], lang: str, seat: int | None = None, live: bool = True
) -> list[str]:
    """What everybody at the table sees now (and, for a seat, what the DM adds to it);
    ``live=False`` leaves out what changes with every decision before the play (the calls,
    the whists), for a hand whose reader waits."""
    lines: list[str] = []
    if view["dealer"] is None:
        return lines
    key = "prefru.hand_line4" if view["players"] == 4 else "prefru.hand_line"
    lines.append(t(lang, key, n=view["hand_no"], dealer=esc(names[view["dealer"]]), fh=esc(names[view["first_hand"]])))
    phase = view["phase"]
    if phase in ("deal", "over"):
        return lines
    calls = view["calls"]
    if calls and live:
        shown = calls[-9:]
        text = " · ".join(f"{esc(names[s])}: {call_text(c, lang)}" for s, c in shown)
        lines.append(t(lang, "prefru.auction", calls=("… " if len(calls) > 9 else "") + text))
    if view["raspasy"]:
        lines.append(t(lang, "prefru.raspasy_line", n=view["series"] + 1))
        if view["turned"]:
            lines.append(t(lang, "prefru.turned_line", cards=cards_text(view["turned"])))
        elif view["tricks_played"] < 2 and view["options"]["raspasy_talon"] == "lead_suit":
            lines.append(t(lang, "prefru.talon_hidden"))
    d = view["declarer"]
    if d is not None and view["contract"] is None:
        lines.append(t(lang, "prefru.won_line", name=esc(names[d]), bid=bid_label(view["bid"], lang)))
    if d is not None and view["contract"] is not None:
        key = "prefru.misere_line" if view["contract"] == "MISERE" else "prefru.contract_line"
        lines.append(t(lang, key, name=esc(names[d]), contract=contract_label(view["contract"], lang)))
    if view["talon"]:
        lines.append(t(lang, "prefru.talon_line", cards=cards_text(view["talon"])))
    elif phase == "auction":
        lines.append(t(lang, "prefru.talon_hidden"))
    if view["whist_calls"] and live:
        parts = [f"{esc(names[s])} — {t(lang, 'prefru.whist.' + x)}" for s, x in view["whist_calls"]]
        lines.append(t(lang, "prefru.whist_line", parts=", ".join(parts)))
    if view["lone"] is not None and view["open"] is not None:
        key = "prefru.lone_open" if view["open"] else "prefru.lone_closed"
        lines.append(t(lang, key, name=esc(names[view["lone"]])))
    for s, cards in sorted(view["open_hands"].items()):
        lines.append(t(lang, "prefru.open_hand", name=esc(names[int(s)]), cards=cards_text(cards)))
    if phase == "play":
        won = " · ".join(f"{esc(names[s])}: {view['won'][s]}" for s in view["active"])
        lines.append(t(lang, "prefru.tricks_line", won=won))
        if view["trick"]:
            cards = " · ".join(f"{esc(names[s])}: {label(c)}" for s, c in view["trick"])
            lines.append(t(lang, "prefru.trick_line", cards=cards))
        elif view["last_trick"]:
            cards = " · ".join(f"{esc(names[s])}: {label(c)}" for s, c in view["last_trick"])
            lines.append(t(lang, "prefru.last_trick_line", cards=cards))
    return lines


def waiting_line(view: dict[str, Any], names: list[str], lang: str) -> str:
    if not view["to_act"]:
        return ""
    who = esc(names[view["to_act"][0]])
    turn = view["turn"]
    if view["phase"] == "play" and turn is not None and turn != view["to_act"][0]:
        return "▶️ " + t(lang, "prefru.waiting.play_for", who=who, whose=esc(names[turn]))
    return "▶️ " + t(lang, f"prefru.waiting.{view['phase']}", who=who)


def last_hand_line(view: dict[str, Any], names: list[str], lang: str) -> str:
    row = view.get("last_row")
    if not row or view["phase"] != "deal":
        return ""
    if row["raspasy"]:
        text = t(lang, "prefru.summary.raspasy")
    else:
        contract = contract_label(row["contract"], lang)
        text = f"{esc(names[row['declarer']])} — {contract}"
        if row["tricks"] is not None:
            text += ", " + t(lang, "prefru.summary.tricks", n=row["tricks"][str(row["declarer"])])
        else:
            text += ", " + t(lang, "prefru.summary.no_play")
    return t(lang, "prefru.last_hand", n=row["hand_no"], text=text)


def group_text(view: dict[str, Any], names: list[str], lang: str, header: str) -> str:
    lines = [f"<b>{esc(header)}</b>", *status_lines(view, names, lang)]
    if view["phase"] == "over":
        lines.append(t(lang, "prefru.over"))
        lines += result_lines(view["result"], names, lang)
    else:
        # the group is redrawn trick by trick, not card by card: during the play a line
        # naming who plays would name someone who has already played
        wait = waiting_line(view, names, lang) if view["phase"] != "play" else ""
        if wait:
            lines.append(wait)
        last = last_hand_line(view, names, lang)
        if last:
            lines.append(last)
    return "\n".join(lines)


def prompt_key(view: dict[str, Any], legal: list[str]) -> str:
    phase = view["phase"]
    if phase == "discard":
        return "discard1" if view["discarded"] == 0 else "discard2"
    if phase == "whist" and "half" in legal:
        return "whist_half"
    if phase == "whist" and view["whist_stage"] == "first_again":
        return "whist_again"
    if phase == "play" and view["turn"] != view["seat"]:
        return "play_for"
    return phase


def hand_text(view: dict[str, Any], names: list[str], lang: str, header: str, legal: list[str]) -> str:
    seat = view["seat"]
    # before the play a waiting reader's hand is not redrawn for each decision of the
    # others (hand_milestones): it leaves the calls, the whists and who acts to the group
    waits_before_play = not legal and view["phase"] not in ("deal", "play", "over")
    lines = [f"<b>{esc(header)}</b>", *status_lines(view, names, lang, seat=seat, live=not waits_before_play)]
    if view.get("my_discards"):
        lines.append(t(lang, "prefru.discards_line", cards=cards_text(view["my_discards"])))
    if view["players"] == 4 and view["dealer"] == seat and view["phase"] not in ("deal", "over"):
        lines.append(t(lang, "prefru.sitting_out"))
    else:
        lines.append(t(lang, "prefru.your_cards", cards=cards_text(view.get("hand", []))))
    if view["phase"] == "over":
        lines += result_lines(view["result"], names, lang)
    elif legal:
        turn = view["turn"]
        whose = esc(names[turn]) if turn is not None else ""
        lines.append("👉 " + t(lang, f"prefru.prompt.{prompt_key(view, legal)}", whose=whose))
    elif waits_before_play:
        lines.append("⏳ " + t(lang, "prefru.wait_in_group"))
    else:
        wait = waiting_line(view, names, lang)
        if wait:
            lines.append(wait)
        last = last_hand_line(view, names, lang)
        if last:
            lines.append(last)
    return "\n".join(lines)


def action_label(action: str, lang: str) -> str:
    verb, *args = action.split()
    if verb in ("play", "discard"):
        return label(args[0])
    if verb in ("bid", "contract"):
        return bid_label(args[0], lang)
    return t(lang, f"prefru.btn.{verb}")


def action_rows(legal: list[str], view: dict[str, Any], lang: str, mode: str, names: list[str]) -> tuple[Rows, list]:
    """Cards and bids five to a row, the verbs on one row; one keyboard: no switches."""
    cards, bids, verbs = [], [], []
    for i, action in enumerate(legal):
        verb = action.split()[0]
        item = (action_label(action, lang), i)
        if verb in ("play", "discard"):
            cards.append(item)
        elif verb in ("bid", "contract"):
            bids.append(item)
        else:
            verbs.append(item)
    return chunk(cards, 5) + chunk(bids, 5) + ([verbs] if verbs else []), []


# ------------------------------------------------------------------------------ lobby
def option_rows(options: dict[str, Any], lang: str) -> Rows:
    full = PreferansRuOptions.model_validate(options)

    def flag(key: str) -> tuple[str, str]:
        return (("✓ " if getattr(full, key) else "✗ ") + t(lang, f"prefru.opt.{key}"), key)

    return sheet_option_rows(options, lang) + [
        [flag("here"), flag("ten_checked")],
        [flag("stalingrad"), flag("misere_without_talon")],
        [flag("jump_bids")],
    ]


def next_option(options: dict[str, Any], key: str) -> dict[str, Any]:
    """The sheet's options (a new system brings its whole preset) plus the play switches,
    which a change of system keeps."""
    full = PreferansRuOptions.model_validate(options)
    if key in FLAGS:
        new = full.model_dump()
        new[key] = not new[key]
        return PreferansRuOptions.model_validate(new).model_dump(mode="json")
    changed = sheet_next_option(options, key)
    changed.update({flag: getattr(full, flag) for flag in FLAGS})
    return PreferansRuOptions.model_validate(changed).model_dump(mode="json")


def posts(
    events: list[dict[str, Any]], view: dict[str, Any], names: list[str], lang: str, history: list[dict]
) -> list[str]:
    """The пулька after every deal; the settlement with the last one."""
    out = []
    over = next((e for e in events if e["type"] == "game_over"), None)
    for e in events:
        if e["type"] == "deal_scored":
            text = t(lang, "prefru.deal_written", n=e["hand_no"]) + "\n" + sheet_block(view, names, lang, last=True)
            if over is not None:
                text += "\n" + "\n".join(result_lines(over["result"], names, lang))
            out.append(text)
    if over is not None and not any(e["type"] == "deal_scored" for e in events):
        text = sheet_block(view, names, lang, last=False)
        out.append(text + "\n" + "\n".join(result_lines(over["result"], names, lang)))
    return out


# borrowed from the modules they live in, under the manifest's names
variant_text = score.variant_text
picture = score.picture
result_line = score.result_line
draw_picture = preferans_ru_picture
deal_record_text = deal_record.deal_record_text
tricks_so_far = deal_record.tricks_so_far


class PreferansRuUI(GameUI, module=sys.modules[__name__]):
    name = "preferans_ru"
    command = ""  # opened by /sochi, /leningrad, /rostov, or /preferans's chooser
    order = 4
    table_presets = PRESETS
    bench_players = 3
    # every decision before the play redraws the group: its "▶️ …" line names who acts now;
    # the hands keep the milestones of every game (a waiting reader's hand shows no calls)
    group_milestones = GameUI.group_milestones | {
        *("call", "auction_won", "discard", "whist", "whist_done", "open_choice", "hands_open", "talon_card")
    }
    hand_milestones = GameUI.group_milestones


register_ui(PreferansRuUI())
