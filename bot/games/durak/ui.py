"""Durak in Telegram: the group table message, the DM hand message, action buttons,
lobby options and the series sheet. Input is always an engine view (``engine.games.durak``)."""

from __future__ import annotations

import sys

from bot.game_registry import register_ui
from bot.game_ui import GameUI, Rows
from bot.i18n import t
from bot.render.common import cards_text, chunk, esc, pre_table, seat_name, suit_text
from engine.cards import label
from engine.games.durak.tally import tally as series_tally


def variant_text(options: dict, lang: str) -> str:
    parts = [t(lang, f"durak.variant.{options.get('base_game', 'podkidnoy')}")]
    parts.append(t(lang, "durak.deck", n=options.get("deck_size", 36)))
    if not options.get("trumps", True):
        parts.append(t(lang, "durak.opt.no_trumps"))
    if options.get("two_decks"):
        parts.append(t(lang, "durak.opt.two_decks"))
    if options.get("blind_beating"):
        parts.append(t(lang, "durak.opt.blind_beating"))
    if options.get("first_bout_five"):
        parts.append(t(lang, "durak.opt.first_bout_five"))
    if options.get("throw_in", "any_time") != "any_time":
        parts.append(_throw_in_text(options, lang))
    return ", ".join(parts)


def _throw_in_text(options: dict, lang: str) -> str:
    value = options.get("throw_in", "any_time")
    return t(lang, "durak.opt.throw_in") + ": " + t(lang, f"durak.opt.throw_in.{value}")


def _table_lines(view: dict, names: list[str]) -> list[str]:
    """The attack cards and their covers. Once more than one player has put cards on the
    table (a throw-in, a transfer), each card says whose it is ("8♠ (Борис) ← …")."""
    lines = []
    owners = {pair.get("by") for pair in view["table"]}
    for pair in view["table"]:
        attack = label(pair["attack"])
        if len(owners) > 1 and pair.get("by") is not None:
            attack += f" ({esc(names[pair['by']])})"
        if pair["cover"] and not pair["hidden"]:
            lines.append(f"{attack} ← {label(pair['cover'])}")
        elif pair["hidden"]:
            own = f" ({label(pair['cover'])})" if pair["cover"] else ""
            lines.append(f"{attack} ← 🂠{own}")
        else:
            lines.append(f"{attack} ← …")
    return lines


def _trump_line(view: dict, lang: str) -> str:
    if view["trump"] is None:
        return t(lang, "durak.no_trump_line", stock=view["stock"], discard=view["discard"])
    card = label(view["trump_card"]) if view.get("trump_card") else suit_text(view["trump"])
    return t(lang, "durak.trump_line", card=card, stock=view["stock"], discard=view["discard"])


def _role(view: dict, seat: int, lang: str) -> str:
    if view["finished"][seat]:
        return t(lang, "durak.role.out")
    if view["phase"] == "over":
        return ""
    if seat == view.get("attacker"):
        return t(lang, "durak.role.attacker")
    if seat == view.get("defender"):
        return t(lang, "durak.role.taking") if view.get("taking") else t(lang, "durak.role.defender")
    return ""


def group_text(view: dict, names: list[str], lang: str, header: str) -> str:
    lines = [f"<b>{esc(header)}</b>", _trump_line(view, lang)]
    for seat, name in enumerate(names):
        role = _role(view, seat, lang)
        turn = "▶️ " if seat in view["to_act"] else "   "
        count = t(lang, "durak.cards_count", n=view["hand_counts"][seat])
        lines.append(f"{turn}{seat + 1}. {esc(name)} — {count}{(' · ' + role) if role else ''}")
    if view["table"]:
        lines.append(t(lang, "durak.on_table"))
        lines += ["  " + line for line in _table_lines(view, names)]
    if view["phase"] == "over":
        lines.append("")
        lines.append(result_text(view["result"], names, lang))
    elif view["to_act"]:
        lines.append(_waiting(view, names, lang))
    return "\n".join(lines)


def _covering(view: dict) -> bool:
    """A throw-in window while the defender is still covering (``throw_in = any_time``)."""
    return view["phase"] == "throw" and any(p["cover"] is None and not p["hidden"] for p in view["table"])


def _waiting(view: dict, names: list[str], lang: str) -> str:
    who = ", ".join(esc(names[s]) for s in view["to_act"])
    if _covering(view):
        return t(lang, "durak.waiting.throw_covering", who=who, defender=esc(names[view["defender"]]))
    return t(lang, f"durak.waiting.{view['phase']}", who=who)


def result_text(result: dict | None, names: list[str], lang: str) -> str:
    if not result:
        return ""
    if result.get("draw"):
        return t(lang, "durak.result.draw")
    name = esc(names[result["durak"]])
    if result.get("forfeit"):
        return t(lang, "durak.result.forfeit", name=name)
    if result.get("by_52"):
        return t(lang, "durak.result.by_52", name=name)
    return t(lang, "durak.result.durak", name=name)


def hand_text(view: dict, names: list[str], lang: str, header: str, legal: list[str]) -> str:
    seat = view["seat"]
    lines = [f"<b>{esc(header)}</b>", _trump_line(view, lang)]
    others = [f"{esc(names[s])}: {view['hand_counts'][s]}" for s in range(len(names)) if s != seat]
    lines.append(t(lang, "durak.others", counts=", ".join(others)))
    if view["table"]:
        lines.append(t(lang, "durak.on_table") + " " + " · ".join(_table_lines(view, names)))
    lines.append(t(lang, "durak.your_cards", cards=cards_text(view.get("hand", []))))
    if view["phase"] == "over":
        lines.append(result_text(view["result"], names, lang))
    elif legal:
        if _covering(view):
            prompt = t(lang, "durak.prompt.throw_covering", defender=esc(names[view["defender"]]))
        else:
            helper = view["phase"] == "throw" and seat != view.get("attacker")
            prompt = t(lang, "durak.prompt.throw_other" if helper else f"durak.prompt.{view['phase']}")
        lines.append("👉 " + prompt)
    elif view["to_act"]:
        lines.append(_waiting(view, names, lang))
    return "\n".join(lines)


def action_label(action: str, view: dict, lang: str) -> str:
    verb, *args = action.split()
    if verb in ("attack", "throw"):
        return ("" if verb == "attack" else "+") + "".join(label(c) for c in args)
    if verb == "beat":
        return f"{label(args[1])}→{label(args[0])}"
    if verb == "blind":
        return f"🂠{label(args[1])}→{label(args[0])}"
    if verb == "transfer":
        return f"⇄{label(args[0])}"
    if verb == "pass":
        if view.get("taking"):
            return t(lang, "durak.btn.pass_final")
        # "бито" is the main attacker's word for ending the bout; the others just pass
        return t(lang, "durak.btn.pass" if view.get("seat") == view.get("attacker") else "durak.btn.pass_other")
    return t(lang, f"durak.btn.{verb}")


def keyboard(
    legal: list[str], view: dict, lang: str, blind_mode: bool = False
) -> tuple[list[list[tuple[str, int]]], bool]:
    """Buttons as (label, index into ``legal``): cards four to a row, verbs on their own row.

    Covers are offered for the first unbeaten attack card only: the order of covering
    changes nothing in the rules, and it keeps the keyboard within Telegram's 100 buttons
    even with two decks. Blind covers (any card of the hand) get their own keyboard,
    reached with a toggle; the second value says whether blind covers exist."""
    target = next((p["attack"] for p in view["table"] if p["cover"] is None and not p["hidden"]), None)
    card_buttons: list[tuple[str, int]] = []
    verbs: list[tuple[str, int]] = []
    has_blind = False
    for i, action in enumerate(legal):
        verb, *args = action.split()
        if verb in ("beat", "blind") and args[0] != target:
            continue
        if verb == "blind":
            has_blind = True
        if (verb == "blind") != blind_mode:
            continue  # blind covers and the other actions live on separate keyboards
        target_list = verbs if verb in ("take", "pass", "accept", "challenge") else card_buttons
        target_list.append((action_label(action, view, lang), i))
    # the cards in the order the hand line shows them (by suit, trumps last), single
    # cards before the groups of one rank
    card_buttons.sort(key=lambda button: _hand_order(legal[button[1]], view.get("hand") or []))
    return chunk(card_buttons, 4) + ([verbs] if verbs else []), has_blind


def _hand_order(action: str, hand: list[str]) -> tuple[bool, list[int]]:
    verb, *args = action.split()
    own = args[1:] if verb in ("beat", "blind") else args  # a cover names its target first
    places = [hand.index(card) if card in hand else len(hand) for card in own]
    return len(own) > 1, places


def tally_sheet(tally: dict, names: list[str], lang: str) -> str:
    rows = [[t(lang, "sheet.seat"), t(lang, "sheet.player"), t(lang, "durak.sheet.fools")]]
    for seat, name in enumerate(names):
        rows.append([str(seat + 1), name, str(tally["fools"][seat])])
    rows.append(["", t(lang, "durak.sheet.games", n=tally["games"]), t(lang, "durak.sheet.draws", n=tally["draws"])])
    return pre_table(rows, align_right={2})


OPTION_CYCLES: dict[str, list[str | int]] = {
    "base_game": ["prostoy", "podkidnoy", "perevodnoy", "perevodnoy_after_beating"],
    "deck_size": [36, 52, 24],
}
OPTION_FLAGS = ("trumps", "two_decks", "blind_beating", "first_bout_five")
THROW_IN = ["any_time", "all_covered"]


def option_rows(options: dict, lang: str) -> Rows:
    def flag(key: str) -> tuple[str, str]:
        return (("✓ " if options[key] else "✗ ") + t(lang, f"durak.opt.{key}"), key)

    return [
        [
            (t(lang, f"durak.variant.{options['base_game']}"), "base_game"),
            (t(lang, "durak.deck", n=options["deck_size"]), "deck_size"),
        ],
        [flag("trumps"), flag("two_decks")],
        [flag("blind_beating"), flag("first_bout_five")],
        [(_throw_in_text(options, lang), "throw_in")],
    ]


def next_option(options: dict, key: str) -> dict:
    new = dict(options)
    if key in OPTION_CYCLES:
        values = OPTION_CYCLES[key]
        new[key] = values[(values.index(options[key]) + 1) % len(values)]
    elif key in OPTION_FLAGS:
        new[key] = not options[key]
    elif key == "throw_in":
        new[key] = THROW_IN[(THROW_IN.index(options.get(key, "any_time")) + 1) % len(THROW_IN)]
    else:
        raise KeyError(key)
    return new


def action_rows(
    legal: list[str], view: dict, lang: str, mode: str, names: list[str]
) -> tuple[Rows, list[tuple[str, str]]]:
    """The keyboard of ``mode`` ("normal" or "blind") and the switch to the other one when
    blind covers exist."""
    rows, has_blind = keyboard(legal, view, lang, blind_mode=mode == "blind")
    if not has_blind:
        return rows, []
    if mode == "blind":
        return rows, [(t(lang, "durak.btn.blind_back"), "normal")]
    return rows, [(t(lang, "durak.btn.blind_menu"), "blind")]


def posts(events: list[dict], view: dict, names: list[str], lang: str, history: list[dict]) -> list[str]:
    """The series sheet after each game."""
    over = next((e for e in events if e["type"] == "game_over"), None)
    if over is None:
        return []
    text = "\n".join(
        [
            t(lang, "sheet.game_no", n=len(history)),
            result_text(over["result"], names, lang),
            tally_sheet(series_tally(history, len(names)), names, lang),
        ]
    )
    return [text]


def result_line(result: dict, names: list[str], lang: str) -> str:
    """/history's line: the durak, or a draw; the durak's forfeit is said too."""
    if result.get("draw"):
        return t(lang, "history.draw")
    durak = seat_name(names, result.get("durak"))
    line = t(lang, "history.durak", name=durak)
    return line + " " + t(lang, "history.forfeit", name=durak) if result.get("forfeit") is True else line


class DurakUI(GameUI, module=sys.modules[__name__]):
    name = command = "durak"
    order = 1
    bench_players = 3


register_ui(DurakUI())
