"""Тысяча in Telegram: the group table message (the auction, the прикуп once it is shown,
the contract and trump, the trick on the table), the DM hand with buttons for the legal
moves only (bids, the two gifts, the final contract, cards and marriages), lobby options
and the score sheet posted after every deal. Input is always an engine view
(``engine.games.thousand``): the gifts reach only the giver's and the receiver's DMs."""

from __future__ import annotations

import sys

from bot.game_registry import register_ui
from bot.game_ui import GameUI, Rows
from bot.games.thousand import deal_record, sheet
from bot.games.thousand.picture import thousand_picture
from bot.i18n import t
from bot.render.common import cards_text, chunk, esc, suit_text
from engine.cards import label
from engine.games.thousand.options import ThousandOptions

DEFAULTS = ThousandOptions().dump()
BID_PHASES = ("bid",)


# ---------------------------------------------------------------------------- the table
def _deal_line(view: dict, names: list[str], lang: str) -> str:
    line = t(lang, "thousand.deal_line", n=view["deal_no"], dealer=esc(names[view["dealer"]]))
    if view["players"] == 4:
        line += " · " + t(lang, "thousand.sits_out", name=esc(names[view["dealer"]]))
    return line


def _contract_lines(view: dict, names: list[str], lang: str) -> list[str]:
    lines = []
    if view["phase"] == "bid":
        if view["high"] is not None:
            dark = " " + t(lang, "thousand.dark_word") if view["dark"] else ""
            lines.append(t(lang, "thousand.high_bid", n=view["high"], name=esc(names[view["declarer"]])) + dark)
    elif view["declarer"] is not None and view["phase"] in ("give", "raise", "play"):
        key = "thousand.declarer_line" if view["phase"] == "play" else "thousand.declarer_bid"
        amount = t(lang, "thousand.dark_amount", n=view["high"]) if view["dark"] else str(view["high"])
        lines.append(t(lang, key, name=esc(names[view["declarer"]]), n=amount))
    if view["talon"] and view["phase"] in ("give", "raise", "play"):
        lines.append(t(lang, "thousand.talon", cards=cards_text(view["talon"])))
    if view["phase"] == "play":
        trump = suit_text(view["trump"]) if view["trump"] else t(lang, "thousand.no_trump")
        lines.append(t(lang, "thousand.trump", suit=trump))
    return lines


def _seat_line(view: dict, seat: int, names: list[str], lang: str) -> str:
    turn = "▶️ " if seat in view["to_act"] else "   "
    parts = [f"{turn}{seat + 1}. {esc(names[seat])} — {view['totals'][seat]}"]
    if view["phase"] in ("deal", "over"):
        return parts[0]
    if seat not in view["active"]:
        return parts[0] + " · " + t(lang, "thousand.role.out")
    if view["phase"] == "bid" and seat in view["passed"]:
        parts.append(t(lang, "thousand.role.passed"))
    if view["phase"] == "play":
        parts.append(t(lang, "thousand.taken", n=view["taken"][seat], tricks=view["tricks"][seat]))
        if view["married"][seat]:
            parts.append(t(lang, "thousand.married", n=view["married"][seat]))
    return " · ".join(parts)


def _plays_text(plays: list, names: list[str]) -> str:
    return " · ".join(f"{esc(names[seat])} {label(card)}" for seat, card in plays)


def _table_lines(view: dict, names: list[str], lang: str) -> list[str]:
    lines = []
    if view["trick"]:
        lines.append(t(lang, "thousand.on_table", cards=_plays_text(view["trick"], names)))
    last = view.get("last_trick")
    if last and view["phase"] == "play":
        lines.append(
            t(lang, "thousand.last_trick", cards=_plays_text(last["plays"], names), name=esc(names[last["winner"]]))
        )
    return lines


def _waiting(view: dict, names: list[str], lang: str) -> str:
    who = ", ".join(esc(names[s]) for s in view["to_act"])
    return t(lang, f"thousand.waiting.{view['phase']}", who=who)


def group_text(view: dict, names: list[str], lang: str, header: str) -> str:
    lines = [f"<b>{esc(header)}</b>"]
    if view["dealer"] is not None:
        lines.append(_deal_line(view, names, lang))
    lines += [_seat_line(view, seat, names, lang) for seat in range(len(names))]
    lines += _contract_lines(view, names, lang)
    lines += _table_lines(view, names, lang)
    if view["phase"] == "over":
        lines += ["", sheet.result_text(view["result"], names, lang)]
    elif view["to_act"]:
        lines.append(_waiting(view, names, lang))
    return "\n".join(lines)


def _gift_lines(view: dict, names: list[str], lang: str) -> list[str]:
    """The gifts this seat gave or got (the view holds only those)."""
    seat = view["seat"]
    lines = []
    for to, card in view.get("gifts") or []:
        if to == seat:
            lines.append(t(lang, "thousand.gift_got", card=label(card), name=esc(names[view["declarer"]])))
        else:
            lines.append(t(lang, "thousand.gift_given", card=label(card), name=esc(names[to])))
    return lines


def hand_text(view: dict, names: list[str], lang: str, header: str, legal: list[str]) -> str:
    lines = [f"<b>{esc(header)}</b>"]
    if view["dealer"] is not None:
        lines.append(_deal_line(view, names, lang))
    lines += _contract_lines(view, names, lang)
    lines += _table_lines(view, names, lang)
    lines += _gift_lines(view, names, lang)
    hand = view.get("hand")
    if hand is None and view["phase"] == "bid":
        lines.append(t(lang, "thousand.hand_hidden"))
    elif hand:
        lines.append(t(lang, "thousand.your_cards", cards=cards_text(hand)))
    if view["seat"] not in view["active"] and view["phase"] not in ("deal", "over"):
        lines.append(t(lang, "thousand.you_sit_out"))
    if view["phase"] == "over":
        lines.append(sheet.result_text(view["result"], names, lang))
    elif legal:
        lines.append("👉 " + _prompt(view, legal, names, lang))
    elif view["to_act"]:
        lines.append(_waiting(view, names, lang))
    return "\n".join(lines)


def _prompt(view: dict, legal: list[str], names: list[str], lang: str) -> str:
    phase = view["phase"]
    if legal == ["dark", "look"]:
        return t(lang, "thousand.prompt.dark")
    if phase == "give":
        given = {to for to, _ in view.get("gifts") or []}
        to = [s for s in view["active"] if s not in given and s != view["seat"]]
        return t(lang, "thousand.prompt.give", names=", ".join(esc(names[s]) for s in to))
    if phase == "bid" and "pass" not in legal:
        return t(lang, "thousand.prompt.open")
    return t(lang, f"thousand.prompt.{phase}")


def action_label(action: str, names: list[str], lang: str) -> str:
    verb, *args = action.split()
    if verb in ("bid", "contract"):
        return args[0]
    if verb == "play":
        return label(args[0])
    if verb == "marry":
        return "💍" + label(args[0])
    if verb == "give":
        return f"{label(args[0])} → {names[int(args[1])]}"
    return t(lang, f"thousand.btn.{verb}")


def action_rows(
    legal: list[str], view: dict, lang: str, mode: str, names: list[str]
) -> tuple[Rows, list[tuple[str, str]]]:
    """Numbers five to a row, cards four to a row (a gift's cards one row per receiver),
    the words (pass, look, blind, concede) on a row of their own."""
    numbers, cards, words = [], [], []
    by_receiver: dict[str, list[tuple[str, int]]] = {}
    for i, action in enumerate(legal):
        verb, *args = action.split()
        button = (action_label(action, names, lang), i)
        if verb in ("bid", "contract"):
            numbers.append(button)
        elif verb == "give":
            by_receiver.setdefault(args[1], []).append(button)
        elif verb in ("play", "marry"):
            cards.append(button)
        else:
            words.append(button)
    rows: Rows = chunk(numbers, 5) + chunk(cards, 4)
    for buttons in by_receiver.values():
        rows += chunk(buttons, 3)
    return rows + ([words] if words else []), []


# ---------------------------------------------------------------------------- the lobby
CYCLES: dict[str, list[int]] = {"target": [1000, 500, 1500], "bid_step": [5, 10], "rounding": [5, 10]}
FLAGS = ("cap_without_marriage", "marriage_after_trick", "bolts", "barrel", "samosval", "concede", "dark")


def variant_text(options: dict, lang: str) -> str:
    """The options that differ from the defaults, briefly ("" with the defaults)."""
    o = {**DEFAULTS, **options}
    parts = []
    for key in CYCLES:
        if o[key] != DEFAULTS[key]:
            parts.append(t(lang, f"thousand.opt.{key}", n=o[key]))
    for key in FLAGS:
        if o[key] != DEFAULTS[key]:
            parts.append(t(lang, f"thousand.opt.{key}" if o[key] else f"thousand.opt.no_{key}"))
    return ", ".join(parts)


def option_rows(options: dict, lang: str) -> Rows:
    o = {**DEFAULTS, **options}

    def flag(key: str) -> tuple[str, str]:
        return (("✓ " if o[key] else "✗ ") + t(lang, f"thousand.opt.{key}"), key)

    return [
        [(t(lang, f"thousand.opt.{key}", n=o[key]), key) for key in CYCLES],
        [flag("cap_without_marriage"), flag("marriage_after_trick")],
        [flag("bolts"), flag("barrel"), flag("samosval")],
        [flag("concede"), flag("dark")],
    ]


def next_option(options: dict, key: str) -> dict:
    new = dict(options)
    if key in CYCLES:
        values = CYCLES[key]
        current = new.get(key, DEFAULTS[key])
        new[key] = values[(values.index(current) + 1) % len(values)] if current in values else values[0]
    elif key in FLAGS:
        new[key] = not new.get(key, DEFAULTS[key])
    else:
        raise KeyError(key)
    return new


# ---------------------------------------------------------------------------- the sheet
def posts(events: list[dict], view: dict, names: list[str], lang: str, history: list[dict]) -> list[str]:
    """The sheet after every deal; after a forfeit, the sheet so far."""
    scored = [e for e in events if e["type"] == "deal_scored"]
    if scored:
        return [sheet.sheet_post(view, names, lang, scored[-1]["entry"])]
    if any(e["type"] == "game_over" for e in events):
        return [sheet.sheet_post(view, names, lang, None)]
    return []


# borrowed from the modules they live in, under the manifest's names
picture = sheet.picture
result_line = sheet.result_line
draw_picture = thousand_picture
deal_record_text = deal_record.deal_record_text
tricks_so_far = deal_record.tricks_so_far


class ThousandUI(GameUI, module=sys.modules[__name__]):
    name = command = "thousand"
    order = 7
    bench_players = 3
    # every decision before the play redraws the group: its "▶️" line names who acts now
    group_milestones = GameUI.group_milestones | {"bid", "pass", "look", "give"}
    # the hands keep the milestones of every game but the contract: the declarer who sets
    # it leads next, so a waiting hand's "▶️" line still names who acts and no card moves;
    # each waiting reader sees the contract when their own turn redraws their hand (the
    # group shows it at once). A Bot API call per waiting hand per deal saved
    hand_milestones = GameUI.group_milestones - {"contract"}


register_ui(ThousandUI())
