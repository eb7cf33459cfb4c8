"""King in Telegram: the group table message (the deal, its task, the trick on the table,
tricks and scoring cards taken, the layout of the domino deal), the DM hand with buttons
for the legal cards (and the trump choice of deals 9–12), lobby options and the score
sheet posted after every deal. Input is always an engine view (``engine.games.king``)."""

from __future__ import annotations

import sys

from bot.game_registry import register_ui
from bot.games.king import deal_record
from bot.game_ui import GameUI, Rows
from bot.games.king.picture import king_picture
from bot.i18n import t
from bot.render.common import cards_text, chunk, esc, seat_name, signed, suit_text
from engine.cards import RANK_LABEL, SUIT_SYMBOL, SUITS, label
from engine.games.king.options import DEAL7_THRESHOLDS, DEAL7_VALUES, KingOptions
from engine.games.king.scoring import CONTRACTS
from engine.text import phone_grid

SEAT_CHOICES = ("random", "N", "E", "S", "W")
ROW_ORDER = "789TJQKA"
DEFAULTS = KingOptions().model_dump()


def _num(n: int) -> str:
    """A score with a real minus sign for texts (the sheet keeps ASCII for alignment)."""
    return f"−{-n}" if n < 0 else (f"+{n}" if n > 0 else "0")


def contract_name(no: int, lang: str) -> str:
    return t(lang, f"king.contract.{CONTRACTS[no]}")


def task_text(no: int, options: dict, lang: str) -> str:
    """One line: what the deal asks and what it costs (with the table's options)."""
    o = {**DEFAULTS, **options}
    key = CONTRACTS[no]
    if key == "tricks" and no == 1:
        return t(lang, "king.task.tricks", n=_num(o["deal1_per_trick"]))
    if key == "hearts":
        extra = (" " + t(lang, "king.task.no_heart_lead")) if o["deal2_no_heart_lead"] else ""
        return t(lang, "king.task.hearts", n=_num(o["deal2_per_heart"])) + extra
    if key == "boys":
        which = "boys_kj" if o["deal3_cards"] == "KJ" else "boys"
        return t(lang, f"king.task.{which}", n=_num(o["deal3_per_card"]))
    if key == "queens":
        if o["deal4_bachelor_rule"]:
            return t(
                lang,
                "king.task.queens",
                n=_num(o["deal4_per_queen"]),
                b=_num(o["deal4_bachelor_per_queen"]),
                all=_num(o["deal4_all_four_bonus"]),
            )
        return t(lang, "king.task.queens_plain", n=_num(o["deal4_per_queen"]), all=_num(o["deal4_all_four_bonus"]))
    if key == "last_two":
        return t(lang, "king.task.last_two", n=_num(o["deal5_per_trick"]))
    if key == "king":
        return t(lang, "king.task.king", n=_num(o["deal6_penalty"]))
    if key == "count":
        values = o["deal7_values"] or DEAL7_VALUES
        worth = " ".join(f"{RANK_LABEL.get(r, r)}={v}" for r, v in sorted(values.items(), key=lambda kv: -kv[1]) if v)
        steps = " ".join(f"{at}:{_num(p)}" for at, p in (o["deal7_thresholds"] or DEAL7_THRESHOLDS))
        return t(lang, "king.task.count", values=worth, steps=steps)
    if key == "domino":
        return t(lang, "king.task.domino", n=_num(o["deal8_penalty"]))
    return t(lang, "king.task.trumps", n=_num(o["trump_per_trick"]))


def _deal_line(view: dict, lang: str) -> str:
    no = view["deal_no"]
    return t(lang, "king.deal_line", no=no, name=esc(contract_name(no, lang)))


def _trump_line(view: dict, names: list[str], lang: str) -> str | None:
    if view["deal_no"] < 9 or not view["trump"]:
        return None
    mode = view.get("trump_mode")
    if mode == "until" and view.get("trump_asked") != view["trump"]:
        mode = "until_miss"  # no card of the asked suit turned up: the highest decided
    how = t(lang, f"king.how.{mode}", suit=suit_text(view.get("trump_asked"))) if mode else ""
    line = t(lang, "king.trump_line", suit=suit_text(view["trump"]), how=how)
    if view["turned"]:
        line += " · " + t(lang, "king.turned", cards=cards_text(view["turned"]))
    return line


def _plays_text(plays: list, names: list[str]) -> str:
    return " · ".join(f"{esc(names[seat])} {label(card)}" for seat, card in plays)


def _row_text(suit: str, row: list[str]) -> str:
    lo, hi = ROW_ORDER.index(row[0]), ROW_ORDER.index(row[1])
    ranks = " ".join(RANK_LABEL.get(r, r) for r in ROW_ORDER[lo : hi + 1])
    return f"{SUIT_SYMBOL[suit]} {ranks}"


def _status_lines(view: dict, names: list[str], lang: str) -> list[str]:
    """What is on the table now: the trick (and the last one), the pile, the rows."""
    lines: list[str] = []
    k = view.get("kind")
    if view["phase"] == "deal" or k is None:
        return lines
    if k == "tricks":
        if view["trick"]:
            lines.append(t(lang, "king.on_table", cards=_plays_text(view["trick"], names)))
        last = view.get("last_trick")
        if last:
            lines.append(
                t(
                    lang,
                    "king.last_trick",
                    no=last["no"],
                    cards=_plays_text(last["plays"], names),
                    name=esc(names[last["winner"]]),
                )
            )
    elif k == "count":
        pile = view["pile"]
        lines.append(t(lang, "king.total", total=view["total"]))
        if pile:
            lines.append(t(lang, "king.laid", cards=_plays_text(pile[-4:], names)))
        marks = []
        for at, _points, seat in view["thresholds"]:
            who = esc(names[seat]) if seat is not None else "—"
            marks.append(f"{at}: {who}")
        lines.append(" · ".join(marks))
    else:
        rows = view["rows"]
        if rows:
            lines.append(t(lang, "king.rows"))
            lines += ["  " + _row_text(s, rows[s]) for s in SUITS if s in rows]
        else:
            lines.append(t(lang, "king.rows_empty"))
        if view["passed"]:
            lines.append(t(lang, "king.passed", names=", ".join(esc(names[s]) for s in view["passed"])))
    return lines


def _player_line(view: dict, seat: int, name: str, lang: str) -> str:
    turn = "▶️ " if seat in view["to_act"] else "   "
    parts = [t(lang, "king.cards_count", n=view["hand_counts"][seat])]
    k = view.get("kind")
    if view["phase"] != "deal" and k == "tricks" and view["phase"] != "choose":
        parts.append(t(lang, "king.tricks_count", n=view["tricks_taken"][seat]))
        taken = view["taken"][seat]
        if taken:
            parts.append(cards_text(taken))
    if k == "domino" and seat in view.get("out", []):
        parts.append(t(lang, "king.out"))
    if k == "count":
        marks = [_num(p) for at, p, s in view["thresholds"] if s == seat]
        if marks:
            parts.append(" ".join(marks))
    parts.append(t(lang, "king.sum", total=_num(view["totals"][seat])))
    return f"{turn}{seat + 1}. {esc(name)} — " + " · ".join(parts)


def _waiting(view: dict, names: list[str], lang: str) -> str | None:
    if not view["to_act"]:
        return None
    who = esc(names[view["to_act"][0]])
    if view["phase"] == "choose":
        return t(lang, "king.waiting.choose", who=who)
    return t(lang, "king.waiting.move", who=who)


def group_text(view: dict, names: list[str], lang: str, header: str) -> str:
    lines = [f"<b>{esc(header)}</b>"]
    if view["deal_no"]:
        lines.append(_deal_line(view, lang))
        lines.append(task_text(view["deal_no"], view.get("options") or {}, lang))
        dealer = t(lang, "king.dealer", name=esc(names[view["dealer"]]))
        trump = _trump_line(view, names, lang)
        lines.append(dealer + (" · " + trump if trump else ""))
    for seat, name in enumerate(names):
        lines.append(_player_line(view, seat, name, lang))
    lines += _status_lines(view, names, lang)
    if view["phase"] == "over":
        lines.append("")
        lines.append(final_text(view["result"], names, lang))
    else:
        waiting = _waiting(view, names, lang)
        if waiting:
            lines.append(waiting)
    return "\n".join(lines)


def hand_text(view: dict, names: list[str], lang: str, header: str, legal: list[str]) -> str:
    lines = [f"<b>{esc(header)}</b>"]
    if view["deal_no"]:
        lines.append(_deal_line(view, lang) + " — " + task_text(view["deal_no"], view.get("options") or {}, lang))
        trump = _trump_line(view, names, lang)
        if trump:
            lines.append(trump)
    lines += _status_lines(view, names, lang)
    lines.append(t(lang, "king.your_cards", cards=cards_text(view.get("hand", []))))
    if view["phase"] == "over":
        lines.append(final_text(view["result"], names, lang))
    elif legal:
        if view["phase"] == "choose":
            lines.append("👉 " + t(lang, "king.prompt.choose"))
        elif view["phase"] == "count":
            lines.append("👉 " + t(lang, "king.prompt.count", total=view["total"]))
        elif view["phase"] == "domino":
            lines.append("👉 " + t(lang, "king.prompt.domino"))
        else:
            lines.append("👉 " + t(lang, "king.prompt.lead" if not view["trick"] else "king.prompt.follow"))
    else:
        waiting = _waiting(view, names, lang)
        if waiting:
            lines.append(waiting)
    return "\n".join(lines)


def action_label(action: str, lang: str) -> str:
    verb, *args = action.split()
    if verb == "play":
        return label(args[0])
    if verb in ("name", "until"):
        return t(lang, f"king.btn.{verb}", suit=SUIT_SYMBOL[args[0]])
    return t(lang, f"king.btn.{verb}")


def action_rows(legal: list[str], view: dict, lang: str, mode: str, seats: list[str]) -> tuple[Rows, list]:
    """Cards four to a row; in the trump choice: name a suit, open until a suit, open
    until the highest; the domino pass on its own row. One keyboard: no switches."""
    cards: list[tuple[str, int]] = []
    names: list[tuple[str, int]] = []
    untils: list[tuple[str, int]] = []
    other: list[tuple[str, int]] = []
    for i, action in enumerate(legal):
        verb = action.split()[0]
        target = {"play": cards, "name": names, "until": untils}.get(verb, other)
        target.append((action_label(action, lang), i))
    return [row for row in chunk(cards, 4) + [names, untils, other] if row], []


# ---------------------------------------------------------------------------- the sheet


def _cell(n: int | None) -> str:
    return "" if n is None else str(n)


def sheet_table(view: dict, lang: str, names: list[str] | None = None) -> str:
    """The running sheet: 12 deals × 4 players (seat numbers head the columns, the legend
    names them), the dealer, the row's sum and the running totals, as a monospaced <pre>
    block a phone shows whole (at most 40 columns): the trump of deals 9–12 follows the
    deal's name."""
    by_no = {e["no"]: e for e in view["sheet"]}
    first = view.get("first_dealer")
    rows = [
        [
            t(lang, "king.sheet.no"),
            t(lang, "king.sheet.contract"),
            t(lang, "king.sheet.dealer"),
            "1",
            "2",
            "3",
            "4",
            "Σ",
        ]
    ]
    for no in range(1, 13):
        e = by_no.get(no)
        dealer = e["dealer"] if e else (None if first is None else (first + no - 1) % 4)
        name = t(lang, f"king.short.{CONTRACTS[no]}")
        if no >= 9 and e and e["trump"]:
            name += " " + SUIT_SYMBOL[e["trump"]]
        scores = e["scores"] if e else [None] * 4
        rows.append(
            [
                str(no),
                name,
                "" if dealer is None else str(dealer + 1),
                *(_cell(s) for s in scores),
                _cell(sum(scores) if e else None),
            ]
        )
    totals = view["totals"]
    rows.append(["", t(lang, "king.sheet.total"), "", *(str(x) for x in totals), str(sum(totals))])
    text = phone_grid(rows, {0, 3, 4, 5, 6, 7})
    if names:  # who heads each column, once, under the table (a picture replaces both)
        text += "\n\n" + legend(names)
    return "<pre>" + esc(text) + "</pre>"


def legend(names: list[str]) -> str:
    """The seat numbers heading the sheet's columns, with the players' names (plain text)."""
    return "\n".join(f"{i + 1} — {name}" for i, name in enumerate(names))


def final_text(result: dict | None, names: list[str], lang: str) -> str:
    if not result:
        return ""
    lines = []
    if "forfeit" in result:
        lines.append(t(lang, "king.result.forfeit", name=esc(names[result["forfeit"]]), deals=result["deals"]))
    lines.append(t(lang, "king.result.title"))
    order = sorted(range(len(names)), key=lambda s: (result["places"][s], s))
    for s in order:
        medal = "🏆 " if result["places"][s] == 1 else ""
        lines.append(
            t(
                lang,
                "king.result.line",
                place=result["places"][s],
                medal=medal,
                name=esc(names[s]),
                total=_num(result["totals"][s]),
            )
        )
    return "\n".join(lines)


def picture(events: list[dict], view: dict, names: list[str], lang: str) -> dict:
    """The King grid as a picture spec (``bot.games.king.picture``)."""
    return {
        "game": "king",
        "lang": lang,
        "title": t(lang, "sheets.pic.king"),
        "names": names,
        "sheet": view["sheet"],
        "totals": view["totals"],
        "first_dealer": view.get("first_dealer"),
    }


def sheet_post(view: dict, names: list[str], lang: str, deal_no: int | None) -> str:
    parts = []
    if deal_no is not None:
        parts.append(t(lang, "king.sheet.title", no=deal_no, name=esc(contract_name(deal_no, lang))))
    parts.append(sheet_table(view, lang, names))
    if view["phase"] == "over":
        parts.append(final_text(view["result"], names, lang))
    return "\n".join(parts)


# ---------------------------------------------------------------------------- lobby

FLAGS = (
    "deal2_no_heart_lead",
    "deal4_bachelor_rule",
    "deal6_no_heart_lead",
    "deal6_must_discard_kh",
    "deal8_free_pass",
    "trump_must_ruff",
)


def variant_text(options: dict, lang: str) -> str:
    """The options that differ from the defaults, briefly ("" with the defaults)."""
    o = {**DEFAULTS, **options}
    parts = []
    if o["first_dealer"] != "random":
        parts.append(t(lang, "king.opt.first_dealer", seat=SEAT_CHOICES.index(o["first_dealer"])))
    if o["deal3_cards"] == "KJ":
        parts.append(t(lang, "king.opt.deal3_kj"))
    for key in FLAGS:
        if o[key] != DEFAULTS[key]:
            parts.append(("" if o[key] else t(lang, "king.opt.no") + " ") + t(lang, f"king.opt.{key}"))
    return ", ".join(parts)


def option_rows(options: dict, lang: str) -> Rows:
    o = {**DEFAULTS, **options}

    def flag(key: str) -> tuple[str, str]:
        return (("✓ " if o[key] else "✗ ") + t(lang, f"king.opt.{key}"), key)

    fd = o["first_dealer"]
    dealer = (
        t(lang, "king.opt.dealer_random")
        if fd == "random"
        else t(lang, "king.opt.first_dealer", seat=SEAT_CHOICES.index(fd))
    )
    boys = t(lang, "king.opt.deal3_kj" if o["deal3_cards"] == "KJ" else "king.opt.deal3_j")
    return [
        [(dealer, "first_dealer"), (boys, "deal3_cards")],
        [flag("deal2_no_heart_lead"), flag("deal4_bachelor_rule")],
        [flag("deal6_no_heart_lead"), flag("deal6_must_discard_kh")],
        [flag("deal8_free_pass"), flag("trump_must_ruff")],
    ]


def next_option(options: dict, key: str) -> dict:
    new = dict(options)
    if key == "first_dealer":
        cur = new.get("first_dealer", "random")
        new[key] = SEAT_CHOICES[(SEAT_CHOICES.index(cur) + 1) % len(SEAT_CHOICES)]
    elif key == "deal3_cards":
        kj = new.get("deal3_cards", "J") != "KJ"
        new["deal3_cards"] = "KJ" if kj else "J"
        new["deal3_per_card"] = -2 if kj else -4  # rules §9: −2 each with kings and jacks
    elif key in FLAGS:
        new[key] = not new.get(key, DEFAULTS[key])
    else:
        raise KeyError(key)
    return new


def posts(events: list[dict], view: dict, names: list[str], lang: str, history: list[dict]) -> list[str]:
    """The sheet after every deal; after a forfeit, the sheet so far."""
    scored = [e for e in events if e["type"] == "deal_scored"]
    over = next((e for e in events if e["type"] == "game_over"), None)
    if scored:
        return [sheet_post(view, names, lang, scored[-1]["no"])]
    if over is not None:  # a forfeit: the sheet so far and the final order
        return [sheet_post(view, names, lang, None)]
    return []


def result_line(result: dict, names: list[str], lang: str) -> str:
    """/history's line: the totals, best first."""
    totals = result["totals"]
    order = sorted(range(len(totals)), key=lambda i: -totals[i])
    return " · ".join(f"{seat_name(names, i)} {signed(totals[i])}" for i in order)


# borrowed from the modules they live in, under the manifest's names
draw_picture = king_picture
deal_record_text = deal_record.deal_record_text
tricks_so_far = deal_record.tricks_so_far


class KingUI(GameUI, module=sys.modules[__name__]):
    name = command = "king"
    order = 3
    bench_players = 4


register_ui(KingUI())
