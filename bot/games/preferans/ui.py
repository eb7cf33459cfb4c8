"""Balkan preferans in Telegram: the group table message (auction, contract, defence,
kontra level, trick counts), the DM hand with buttons for the legal actions only, the
lobby options, and the pulka sheet posted after every hand. Input is always an
engine view (``engine.games.preferans``); the sheet text comes from ``engine.games.preferans.sheet``
so ``cardbot score --text`` prints exactly what the bot posts."""

from __future__ import annotations

import sys

from bot.game_registry import register_ui
from bot.games.preferans import deal_record
from bot.game_ui import GameUI, Rows, settlement_result_line
from bot.games.preferans.picture import preferans_picture
from bot.i18n import t
from bot.render.common import cards_text, chunk, esc
from engine.cards import label
from engine.games.preferans.options import default_max_refe
from engine.games.preferans.sheet import exact_line, legend_lines, row_summary, sheet_parts
from engine.games.preferans.sheet import words as sheet_words

NAMES = {"S": 2, "D": 3, "H": 4, "C": 5, "BETTEL": 6, "SANS": 7}


# ------------------------------------------------------------------------------ words
def contract_label(number: int | None, igra: bool, lang: str) -> str:
    if number is None:
        return "—"
    name = t(lang, f"preferans.c.{number}")
    return t(lang, "preferans.igra_contract", contract=name) if igra else name


def level_name(level: int, lang: str) -> str:
    if 1 <= level <= 4:
        return t(lang, f"preferans.kontra.{level}")
    return t(lang, "preferans.kontra.n", m=2**level)


def call_text(call: str, lang: str) -> str:
    verb, *args = call.split()
    if verb == "bid":
        return t(lang, f"preferans.c.{args[0]}")
    if verb == "name":
        return contract_label(NAMES[args[0]], True, lang)
    return t(lang, f"preferans.call.{verb}")


def sheet_post(view: dict, names: list[str], lang: str, last: dict | None, hand_no: int | None) -> str:
    rounding = view["options"].get("display_rounding", "none") if view.get("options") else "none"
    title, lines, table = sheet_parts(view["sheet"], [], names, lang, view["bula"], hand_no, rounding, last)
    block = "\n".join([table, "", *legend_lines(names, lang)])  # the legend reads with the table
    exact = exact_line(view["sheet"], lang, rounding)
    return "\n".join(
        [
            f"<b>{esc(title)}</b>",
            *(esc(line) for line in lines),
            f"<pre>{esc(block)}</pre>",
            *([esc(exact)] if exact else []),
        ]
    )


def sheet_picture(view: dict, names: list[str], lang: str, hand_no: int | None) -> dict:
    """The pulka as a picture spec (``bot.games.preferans.picture``)."""
    w = sheet_words(lang)
    title = w["title"].format(bula=view["bula"], n=hand_no) if hand_no else w["title0"].format(bula=view["bula"])
    return {
        "game": "preferans",
        "lang": lang,
        "title": title,
        "names": names,
        "bula": view["bula"],
        "sheet": view["sheet"],
    }


def result_lines(result: dict, names: list[str], lang: str) -> list[str]:
    lines = []
    if result.get("forfeit") is not None:
        lines.append(t(lang, "preferans.result.forfeit", name=esc(names[result["forfeit"]])))
    settle = result["settlement"]
    order = sorted(range(3), key=lambda i: -_value(settle[i]))
    lines.append(t(lang, "preferans.result.title"))
    for i in order:
        lines.append(f"{esc(names[i])}: <b>{_signed(settle[i])}</b>")
    return lines


def _value(v) -> float:
    if isinstance(v, str) and "/" in v:
        a, b = v.split("/")
        return int(a) / int(b)
    return float(v)


def _signed(v) -> str:
    s = str(v).replace("-", "−")
    return s if _value(v) <= 0 else "+" + s


# ------------------------------------------------------------------------------ status lines
def status_lines(view: dict, names: list[str], lang: str, seat: int | None = None, live: bool = True) -> list[str]:
    """What everybody at the table sees now; ``live=False`` leaves out what changes with
    every decision before the play (the calls), for a hand whose reader waits."""
    lines: list[str] = []
    if view["dealer"] is None:
        return lines
    lines.append(
        t(
            lang,
            "preferans.hand_line",
            n=view["hand_no"],
            dealer=esc(names[view["dealer"]]),
            fh=esc(names[view["first_hand"]]),
        )
    )
    phase = view["phase"]
    if phase in ("deal", "over"):
        return lines
    calls = view["calls"]
    if calls and live:
        shown = calls[-9:]
        text = " · ".join(f"{esc(names[s])}: {call_text(c, lang)}" for s, c in shown)
        lines.append(t(lang, "preferans.auction", calls=("… " if len(calls) > 9 else "") + text))
    if phase == "naming" and live:
        callers = ", ".join(esc(names[c]) for c in view["callers"] if c not in view["conceded"])
        lines.append(t(lang, "preferans.naming_line", callers=callers))
    d = view["declarer"]
    if d is not None and view["number"] is None and phase in ("discard", "contract"):
        bid = t(lang, f"preferans.c.{view['bid']}") if view["bid"] else t(lang, "preferans.call.igra")
        lines.append(t(lang, "preferans.won_line", name=esc(names[d]), bid=bid))
    if d is not None and view["number"] is not None:
        refe = t(lang, "preferans.refe_x2") if view["sheet"]["refe"][d] > 0 else ""
        talon = t(lang, "preferans.with_talon") if not view["igra"] else t(lang, "preferans.without_talon")
        lines.append(
            t(
                lang,
                "preferans.contract_line",
                name=esc(names[d]),
                contract=contract_label(view["number"], view["igra"], lang),
                talon=talon,
            )
            + (f" · {refe}" if refe else "")
        )
    if view.get("talon") and seat is None:
        lines.append(t(lang, "preferans.talon_line", cards=cards_text(view["talon"])))
    elif d is not None and not view["igra"] and seat is None and phase in ("discard", "contract"):
        lines.append(t(lang, "preferans.talon_hidden"))
    if view["defence"]:
        parts = [f"{esc(names[int(s)])} — {t(lang, 'preferans.def.' + x)}" for s, x in view["defence"].items()]
        lines.append(t(lang, "preferans.defence_line", parts=", ".join(parts)))
    if view["level"]:
        by = ", ".join(esc(names[k]) for k in view["kontra"])
        lines.append(
            t(lang, "preferans.kontra_line", name=level_name(view["level"], lang), m=2 ** view["level"], by=by)
        )
    if phase == "play":
        won = " · ".join(f"{esc(names[s])}: {view['won'][s]}" for s in view["participants"])
        lines.append(t(lang, "preferans.tricks_line", won=won))
        if view["trick"]:
            lines.append(
                t(
                    lang,
                    "preferans.trick_line",
                    cards=" · ".join(f"{esc(names[s])}: {label(c)}" for s, c in view["trick"]),
                )
            )
        elif view["last_trick"]:
            lines.append(
                t(
                    lang,
                    "preferans.last_trick_line",
                    cards=" · ".join(f"{esc(names[s])}: {label(c)}" for s, c in view["last_trick"]),
                )
            )
    return lines


def waiting_line(view: dict, names: list[str], lang: str) -> str:
    if not view["to_act"]:
        return ""
    who = esc(names[view["to_act"][0]])
    key = view["phase"]
    if key == "kontra" and view.get("kstage") != "round":
        key = "kontra_raise"
    return "▶️ " + t(lang, f"preferans.waiting.{key}", who=who)


def last_hand_line(view: dict, names: list[str], lang: str) -> str:
    row = view.get("last_row")
    if not row:
        return ""
    rounding = view["options"].get("display_rounding", "none")
    return t(
        lang,
        "preferans.last_hand",
        n=row.get("hand_no", ""),
        text=esc(row_summary(row, names, lang, rounding, view["bula"])),
    )


def group_text(view: dict, names: list[str], lang: str, header: str) -> str:
    lines = [f"<b>{esc(header)}</b>"]
    lines += status_lines(view, names, lang)
    if view["phase"] == "over":
        lines.append(t(lang, "preferans.over"))
        lines += result_lines(view["result"], names, lang)
    elif view["phase"] != "play":
        # the group is redrawn trick by trick, not card by card: during the play a line
        # naming who plays would name someone who has already played
        wait = waiting_line(view, names, lang)
        if wait:
            lines.append(wait)
    last = last_hand_line(view, names, lang)
    if last and view["phase"] != "over":
        lines.append(last)
    return "\n".join(lines)


def hand_text(view: dict, names: list[str], lang: str, header: str, legal: list[str]) -> str:
    lines = [f"<b>{esc(header)}</b>"]
    # before the play a waiting reader's hand is not redrawn for each decision of the
    # others (hand_milestones): it leaves the calls and who acts to the group's table
    waits_before_play = not legal and view["phase"] not in ("deal", "play", "over")
    lines += status_lines(view, names, lang, seat=view["seat"], live=not waits_before_play)
    if view.get("talon") and view["phase"] not in ("deal", "over"):
        lines.append(t(lang, "preferans.talon_line", cards=cards_text(view["talon"])))
    if view.get("my_discards"):
        lines.append(t(lang, "preferans.discards_line", cards=cards_text(view["my_discards"])))
    lines.append(t(lang, "preferans.your_cards", cards=cards_text(view.get("hand", []))))
    if view["phase"] == "over":
        lines += result_lines(view["result"], names, lang)
    elif legal:
        key = view["phase"]
        if key == "kontra":
            key = "kontra_round" if view["kstage"] == "round" else "kontra_raise"
        elif key == "discard":
            key = "discard1" if view["discarded"] == 0 else "discard2"
        elif key == "defence" and "invite" in legal:
            key = "defence_invite"
        elif key == "naming":
            key = "naming_first" if view["named"] is None else "naming" if "hold" in legal else "naming_nohold"
        lines.append(
            "👉 "
            + t(
                lang,
                f"preferans.prompt.{key}",
                level=level_name(view["level"] + 1, lang),
                choices=auction_choices(legal, lang) if key == "auction" else "",
            )
        )
        if key == "kontra_round":
            lines += kontra_hints(view, names, lang)
    elif waits_before_play:
        lines.append("⏳ " + t(lang, "preferans.wait_in_group"))
    else:
        wait = waiting_line(view, names, lang)
        if wait:
            lines.append(wait)
    last = last_hand_line(view, names, lang)
    if last and view["phase"] != "over":
        lines.append(last)
    return "\n".join(lines)


def kontra_hints(view: dict, names: list[str], lang: str) -> list[str]:
    """What a kontra changes besides the stakes: an unkontra'd "two" is not played (§5.6),
    and a lone defender's kontra brings the passed defender in as his partner (§5.5)."""
    out = []
    d, opts = view["declarer"], view["options"]
    if (
        view["number"] == 2
        and not view["igra"]
        and opts.get("two_requires_kontra", True)
        and view["sheet"]["refe"][d] == 0
        and not view["kontra"]
    ):
        key = "two_slo" if opts.get("slovenian_two_refe") else "two"
        out.append(t(lang, f"preferans.hint.{key}", name=esc(names[d])))
    me = view["seat"]
    other = next((int(x) for x, v in view["defence"].items() if int(x) != me), None)
    if view["defence"].get(str(me)) == "play" and other is not None and view["defence"][str(other)] == "pass":
        out.append(t(lang, "preferans.hint.lone", name=esc(names[other])))
    return out


def auction_choices(legal: list[str], lang: str) -> str:
    """The calls the buttons offer, in words: "a number, moje, igra or pass"."""
    verbs = [v for v in ("bid", "moje", "igra", "pass") if any(a.split()[0] == v for a in legal)]
    parts = [t(lang, f"preferans.prompt.part.{v}") for v in verbs]
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + f" {t(lang, 'preferans.prompt.or')} " + parts[-1]


def action_label(action: str, view: dict, lang: str) -> str:
    verb, *args = action.split()
    if verb == "play" and args:
        return label(args[0])
    if verb == "discard":
        return label(args[0])
    if verb == "bid":
        return t(lang, f"preferans.c.{args[0]}")
    if verb in ("contract", "name"):
        return contract_label(NAMES[args[0]], view["igra"] or verb == "name", lang)
    if verb == "raise":
        return level_name(view["level"] + 1, lang)
    return t(lang, f"preferans.btn.{verb}")


def action_rows(legal: list[str], view: dict, lang: str, mode: str, names: list[str]) -> tuple[Rows, list]:
    """Cards five to a row, numbers three, the verbs on one row; one keyboard: no switches."""
    cards, numbers, verbs = [], [], []
    for i, action in enumerate(legal):
        verb, *args = action.split()
        item = (action_label(action, view, lang), i)
        if (verb == "play" and args) or verb == "discard":
            cards.append(item)
        elif verb in ("bid", "contract", "name"):
            numbers.append(item)
        else:
            verbs.append(item)
    return chunk(cards, 5) + chunk(numbers, 3) + ([verbs] if verbs else []), []


# ------------------------------------------------------------------------------ lobby
BULAS = [30, 50, 100, 10, 20]
KONTRA_CHAINS = [(True, None), (False, None), (True, 1), (True, 3), (True, 4)]
QUOTAS = [2, 1, 3]
FLAGS = ("show_talon", "single_step_bids", "two_requires_kontra", "slovenian_two_refe", "slovenian_sans_lead")


def _chain_index(options: dict) -> int:
    pair = (options.get("allow_subkontra", True), options.get("max_kontra_level"))
    return KONTRA_CHAINS.index(pair) if pair in KONTRA_CHAINS else 0


def chain_label(options: dict, lang: str) -> str:
    allow, cap = KONTRA_CHAINS[_chain_index(options)]
    if allow and cap is None:
        return t(lang, "preferans.opt.chain_unlimited")
    top = 2 if not allow or cap is None else cap  # (allowed with no cap returned above)
    return t(lang, "preferans.opt.chain_upto", name=level_name(top, lang))


def refe_label(options: dict, lang: str) -> str:
    value = options.get("max_refe")
    if value is None:
        return t(lang, "preferans.opt.refe_unlimited")
    return t(lang, "preferans.opt.refe_max", n=value)


def variant_text(options: dict, lang: str) -> str:
    parts = [t(lang, "preferans.opt.bula", n=options.get("bula", 30))]
    if options.get("slovenian_two_refe") or options.get("slovenian_sans_lead"):
        parts.append(t(lang, "preferans.opt.slovenian"))
    if not options.get("show_talon", True):
        parts.append(t(lang, "preferans.opt.hidden_talon"))
    return ", ".join(parts)


def option_rows(options: dict, lang: str) -> Rows:
    def flag(key: str) -> tuple[str, str]:
        return (("✓ " if options.get(key) else "✗ ") + t(lang, f"preferans.opt.{key}"), key)

    return [
        [(t(lang, "preferans.opt.bula", n=options.get("bula", 30)), "bula"), (refe_label(options, lang), "max_refe")],
        [
            (t(lang, f"preferans.opt.scope.{options.get('kontra_scope', 'pair_only')}"), "kontra_scope"),
            (chain_label(options, lang), "kontra_chain"),
        ],
        [flag("show_talon"), flag("single_step_bids")],
        [flag("two_requires_kontra"), flag("slovenian_two_refe")],
        [
            flag("slovenian_sans_lead"),
            (t(lang, "preferans.opt.quota", n=options.get("lone_defender_quota", 2)), "lone_defender_quota"),
        ],
        [(t(lang, f"preferans.opt.rounding.{options.get('display_rounding', 'none')}"), "display_rounding")],
    ]


def next_option(options: dict, key: str) -> dict:
    new = dict(options)
    if key == "bula":
        cur = options.get("bula", 30)
        new["bula"] = BULAS[(BULAS.index(cur) + 1) % len(BULAS)] if cur in BULAS else BULAS[0]
        new["max_refe"] = default_max_refe(new["bula"])
    elif key == "max_refe":
        cur = options.get("max_refe")
        auto = default_max_refe(options.get("bula", 30))
        seq = [v for v in (auto, 0, 1, 2, 3, None)]
        seq = list(dict.fromkeys(seq))
        new["max_refe"] = seq[(seq.index(cur) + 1) % len(seq)] if cur in seq else seq[0]
    elif key == "kontra_scope":
        new["kontra_scope"] = "all" if options.get("kontra_scope") == "pair_only" else "pair_only"
    elif key == "kontra_chain":
        allow, cap = KONTRA_CHAINS[(_chain_index(options) + 1) % len(KONTRA_CHAINS)]
        new["allow_subkontra"], new["max_kontra_level"] = allow, cap
    elif key == "lone_defender_quota":
        cur = options.get("lone_defender_quota", 2)
        new[key] = QUOTAS[(QUOTAS.index(cur) + 1) % len(QUOTAS)] if cur in QUOTAS else QUOTAS[0]
    elif key == "display_rounding":
        new[key] = "int" if options.get(key, "none") == "none" else "none"
    elif key in FLAGS:
        new[key] = not options.get(key)
    else:
        raise KeyError(key)
    return new


def picture(events: list[dict], view: dict, names: list[str], lang: str) -> dict:
    return sheet_picture(view, names, lang, view.get("hand_no"))


def posts(events: list[dict], view: dict, names: list[str], lang: str, history: list[dict]) -> list[str]:
    out = []
    over = next((e for e in events if e["type"] == "game_over"), None)
    for e in events:
        if e["type"] == "deal_scored":
            text = sheet_post(view, names, lang, e["row"], e["hand_no"])
            if over is not None:
                text += "\n" + "\n".join(result_lines(over["result"], names, lang))
            out.append(text)
    if over is not None and not any(e["type"] == "deal_scored" for e in events):
        text = sheet_post(view, names, lang, view.get("last_row"), view.get("hand_no"))
        out.append(text + "\n" + "\n".join(result_lines(over["result"], names, lang)))
    return out


# borrowed from the modules they live in, under the manifest's names
result_line = settlement_result_line
draw_picture = preferans_picture
deal_record_text = deal_record.deal_record_text
tricks_so_far = deal_record.tricks_so_far


class PreferansUI(GameUI, module=sys.modules[__name__]):
    name = command = "preferans"
    order = 2
    bench_players = 3
    # /preferans asks which preferans the group plays; the game of the group's last
    # preferans table is its remembered choice
    choices = {
        "sochi": ("preferans_ru", {"system": "sochi"}),
        "leningrad": ("preferans_ru", {"system": "leningrad"}),
        "rostov": ("preferans_ru", {"system": "rostov"}),
        "balkan": ("preferans", {}),
    }
    choice_words = "prefru"
    # every decision before the play redraws the group: its "▶️ …" line names who acts now;
    # the hands keep the milestones of every game (a waiting reader's hand shows no calls)
    group_milestones = GameUI.group_milestones | {
        *("call", "naming", "auction_won", "discard", "defence", "kontra", "level", "stop", "no_play")
    }
    hand_milestones = GameUI.group_milestones


register_ui(PreferansUI())
