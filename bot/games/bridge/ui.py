"""Rubber bridge in Telegram: the group table message (auction, contract, dummy, trick),
the DM hand (the bidding box, cards; the declarer also plays dummy's cards from here), the
lobby options and the We/They sheet after every deal (``sheet_posts``). Input is always
an engine view. The small texts (bids, calls, sides, the auction) are ``texts``.
"""

from __future__ import annotations

import sys
import time

from bot.game_registry import register_ui
from bot.games.bridge import deal_record
from bot.game_ui import GameUI, Rows, partnership_result_line
from bot.games.bridge.picture import bridge_picture
from bot.games.bridge.sheet_posts import deal_post, final_post, over_title, sheet_picture
from bot.games.bridge.texts import (
    SEATS,
    SUIT_ORDER,
    auction_grid,
    bid_text,
    contract_text,
    explanation_lines,
    name_of,
    preview_lines,
    plays_text,
    seat_side,
    sheet_summary,
    side_name,
    suit_lines,
    vul_text,
)
from bot.i18n import t
from bot.render.common import chunk, esc
from engine.games.bridge.options import parse_options
from engine.games.bridge.pbn import export_all
from engine.games.bridge.words import WORDS
from engine.cards import label


def deal_lines(view: dict, lang: str) -> list[str]:
    """The board, its dealer and vulnerability, once a board is dealt (else nothing)."""
    if view.get("board") is None:
        return []
    vul = vul_text(view["vulnerable"], lang)
    return [t(lang, "bridge.deal_line", board=view["board"], dealer=SEATS[view["dealer"]], vul=vul)]


def group_text(view: dict, names: list[str], lang: str, header: str) -> str:
    lines = [f"<b>{esc(header)}</b>"]
    lines += deal_lines(view, lang)
    for seat in range(4):
        acting = seat in view["to_act"] or (view["phase"] == "play" and view["turn"] == seat)
        mark = "▶️ " if acting and view["to_act"] else ""
        role = ""
        if view.get("declarer") is not None and view["phase"] in ("play", "claim"):
            role = (
                t(lang, "bridge.role.declarer")
                if seat == view["declarer"]
                else t(lang, "bridge.role.dummy")
                if seat == view["dummy"]
                else ""
            )
        lines.append(
            t(
                lang,
                "bridge.seat_line",
                mark=mark,
                seat=SEATS[seat],
                name=name_of(names, seat),
                side=side_name(seat_side(seat), lang),
                role=role,
            )
        )
    if view["phase"] in ("auction", "play", "claim") and view.get("dealer") is not None:
        lines.append(t(lang, "bridge.auction") + "\n" + auction_grid(view, lang))
    if view["phase"] in ("play", "claim"):
        lines += _play_block(view, names, lang)
    lines.append(sheet_summary(view["sheet"], lang))
    if view["phase"] == "over":
        lines.append("")
        lines.append(over_title(view["sheet"], lang))
    elif _waiting(view, names, lang):
        lines.append(_waiting(view, names, lang))
    return "\n".join(lines)


def _play_block(view: dict, names: list[str], lang: str, show_dummy: bool = True) -> list[str]:
    lines = [
        t(
            lang,
            "bridge.contract_line",
            contract=esc(contract_text(view["contract"], lang)),
            seat=SEATS[view["declarer"]],
            name=name_of(names, view["declarer"]),
            we=view["won"]["NS"],
            they=view["won"]["EW"],
        )
    ]
    if view.get("dummy_hand") is not None and show_dummy:
        lines.append(t(lang, "bridge.dummy_line", seat=SEATS[view["dummy"]], name=name_of(names, view["dummy"])))
        lines += ["  " + line for line in suit_lines(view["dummy_hand"])]
    if view.get("declarer_hand") is not None:
        lines.append(t(lang, "bridge.declarer_shown", seat=SEATS[view["declarer"]]))
        lines += ["  " + line for line in suit_lines(view["declarer_hand"])]
    if view["trick"]:
        lines.append(t(lang, "bridge.trick", cards=plays_text(view["trick"])))
    elif view.get("last_trick"):
        last = view["last_trick"]
        lines.append(t(lang, "bridge.last_trick", cards=plays_text(last["plays"]), seat=SEATS[last["winner"]]))
    if view.get("claim"):
        claim = view["claim"]
        lines.append(
            t(
                lang,
                "bridge.claim_line",
                seat=SEATS[view["declarer"]],
                name=name_of(names, view["declarer"]),
                k=claim["tricks"],
                rest=claim["remaining"],
            )
        )
    return lines


def _waiting(view: dict, names: list[str], lang: str) -> str:
    phase = view["phase"]
    if phase == "deal":
        return t(lang, "bridge.waiting.deal")
    if not view["to_act"]:  # nobody acts (a cancelled table)
        return ""
    who = ", ".join(f"{SEATS[s]} ({name_of(names, s)})" for s in view["to_act"])
    if phase == "play" and view["turn"] == view["dummy"]:
        return t(lang, "bridge.waiting.dummy", who=who, seat=SEATS[view["dummy"]])
    return t(lang, f"bridge.waiting.{phase}", who=who)


def hand_text(view: dict, names: list[str], lang: str, header: str, legal: list[str]) -> str:
    seat = view["seat"]
    lines = [f"<b>{esc(header)}</b>", t(lang, "bridge.you", seat=SEATS[seat], side=side_name(seat_side(seat), lang))]
    lines += deal_lines(view, lang)
    if view["phase"] in ("auction", "play", "claim"):
        lines.append(t(lang, "bridge.auction") + "\n" + auction_grid(view, lang))
    lines += explanation_lines(view, names, lang)
    if legal and view["phase"] == "auction":
        lines += preview_lines(view, names, lang)  # above the hand: the hand stays next to the buttons
    if view["phase"] in ("play", "claim"):
        lines += _play_block(view, names, lang, show_dummy=seat != view.get("dummy"))
    phase = view["phase"]
    if view.get("hand") or phase != "over":  # at the end, four empty suits would say nothing
        lines.append(t(lang, "bridge.your_hand"))
        lines += ["  " + line for line in suit_lines(view.get("hand", []))]
    if phase == "over":
        lines.append(over_title(view["sheet"], lang))
    elif legal:
        if phase == "auction":
            lines.append(t(lang, "bridge.prompt.auction"))
        elif phase == "claim":
            lines.append(t(lang, "bridge.prompt.claim"))
        elif view["turn"] == view.get("dummy"):
            lines.append(t(lang, "bridge.prompt.dummy", seat=SEATS[view["dummy"]]))
        else:
            lines.append(t(lang, "bridge.prompt.play"))
    else:
        if phase in ("play", "claim") and seat == view.get("dummy"):
            lines.append(t(lang, "bridge.prompt.you_are_dummy", name=name_of(names, view["declarer"])))
        waiting = _waiting(view, names, lang)
        if waiting:
            lines.append(waiting)
    return "\n".join(lines)


def action_rows(
    legal: list[str], view: dict, lang: str, mode: str, names: list[str] | None = None
) -> tuple[Rows, list[tuple[str, str]]]:
    """The bidding box (pass/double/redouble, then one row per level), the cards one row
    per suit, and a second keyboard for claiming (declarer) or conceding (a defender)."""
    calls, claims, concede, answers = [], [], [], []
    bids: dict[int, list[tuple[str, int]]] = {}  # level -> its bid buttons
    cards: dict[str, list[tuple[str, int]]] = {}  # suit -> its card buttons
    for i, action in enumerate(legal):
        verb, *args = action.split()
        if verb in ("pass", "double", "redouble"):
            calls.append((t(lang, f"bridge.btn.{verb}"), i))
        elif verb == "bid":
            level, strain = int(args[0][0]), args[0][1:]
            bids.setdefault(level, []).append((bid_text(level, strain, lang), i))
        elif verb == "play":
            cards.setdefault(args[0][1], []).append((label(args[0]), i))
        elif verb == "claim":
            k, rest = int(args[0]), view["claim"]["remaining"] if view.get("claim") else 13 - view["tricks_played"]
            text = t(lang, "bridge.btn.claim_all", k=k) if k == rest else t(lang, "bridge.btn.claim", k=k, rest=rest)
            claims.append((text, i))
        elif verb == "concede":
            concede.append((t(lang, "bridge.btn.concede", rest=13 - view["tricks_played"]), i))
        elif verb in ("accept", "reject"):
            answers.append((t(lang, f"bridge.btn.{verb}"), i))
    if mode == "claim" and claims:
        return [claims[:1]] + chunk(claims[1:], 4), [(t(lang, "bridge.btn.back"), "normal")]
    if mode == "concede" and concede:
        return [concede], [(t(lang, "bridge.btn.back"), "normal")]
    rows: Rows = []
    if calls:
        rows.append(calls)
    rows += [bids[level] for level in sorted(bids)]
    for suit in SUIT_ORDER:
        if suit in cards:
            rows += chunk(cards[suit], 7)
    if answers:
        rows.append(answers)
    switches = []
    if claims:
        switches.append((t(lang, "bridge.btn.claim_menu"), "claim"))
    if concede:
        switches.append((t(lang, "bridge.btn.concede_menu"), "concede"))
    return rows, switches


# ------------------------------------------------------------------------- lobby
PRESETS = ["seed", "acbl"]
ROUNDING = ["half_up", "down", "none"]
# the scoring button's cycle: rubber, Chicago by the laws, Chicago each deal alone (§7.8)
SCORING = ["rubber", "chicago", "chicago_each_deal"]
# /chicago opens a bridge table that scores four-deal rounds (§7.8)
TABLE_PRESETS: dict[str, dict] = {"chicago": {"scoring": "chicago"}}


def title(options: dict, lang: str) -> str:
    return t(lang, "game.bridge_chicago" if options.get("scoring") == "chicago" else "game.bridge")


def variant_text(options: dict, lang: str) -> str:
    return t(lang, "bridge.variant", preset=t(lang, f"bridge.preset.{options.get('preset', 'seed')}"))


def lobby_lines(options: dict, lang: str) -> list[str]:
    """What the scoring preset changes, in the values a bridge player knows (§5.4); a
    Chicago has no rubber, so its line leaves out the rubber's premiums."""
    chicago = options.get("scoring") == "chicago"
    lines = [t(lang, f"bridge.preset_line.{options.get('preset', 'seed')}" + ("_chicago" if chicago else ""))]
    if chicago:
        lines.append(t(lang, f"bridge.scoring_line.{_scoring(options)}"))
    return lines


def _scoring(options: dict) -> str:
    """The scoring button's value: rubber, chicago (by the laws) or chicago_each_deal. Read
    through the options model: a table stored before ``chicago_scoring`` plays each deal
    alone (docs/rules/bridge.md §7.8)."""
    opts = parse_options(options)
    if opts.scoring != "chicago":
        return "rubber"
    return "chicago_each_deal" if opts.chicago_scoring == "each_deal" else "chicago"


def option_rows(options: dict, lang: str, paper: bool = False) -> Rows:
    def flag(key: str) -> tuple[str, str]:
        return (("✓ " if options.get(key) else "✗ ") + t(lang, f"bridge.opt.{key}"), key)

    rows = [
        # the preset's name says what it changes, so its button takes a row of its own
        [(t(lang, "bridge.opt.preset", preset=t(lang, f"bridge.preset.{options['preset']}")), "preset")],
        [
            (t(lang, "bridge.opt.first_dealer", seat=options["first_dealer"]), "first_dealer"),
            (t(lang, "bridge.opt.rounding", mode=t(lang, f"bridge.rounding.{options['rounding']}")), "rounding"),
        ],
        [(t(lang, f"bridge.opt.scoring.{_scoring(options)}"), "scoring"), flag("score_honours")],
    ]
    if paper and options.get("scoring", "rubber") == "rubber":  # a Chicago deal is never left half-way
        rows.append([flag("unfinished_rubber_bonus")])
    return rows


def next_option(options: dict, key: str, paper: bool = False) -> dict:
    new = dict(options)
    cycles = {"preset": PRESETS, "first_dealer": list(SEATS), "rounding": ROUNDING}
    flags = ("score_honours", "unfinished_rubber_bonus") if paper else ("score_honours",)
    if key == "scoring":
        value = SCORING[(SCORING.index(_scoring(options)) + 1) % len(SCORING)]
        new["scoring"] = "rubber" if value == "rubber" else "chicago"
        new["chicago_scoring"] = "each_deal" if value == "chicago_each_deal" else "laws"
    elif key in cycles:
        values = cycles[key]
        new[key] = values[(values.index(options.get(key, values[0])) + 1) % len(values)]
    elif key in flags:
        new[key] = not options.get(key)
    else:
        raise KeyError(key)
    return new


def pbn_files(
    states: list, names: list[str], event: str, stem: str, dealt: list[list[float]]
) -> list[tuple[str, bytes]]:
    """The deals of these games as one PBN file, for other bridge programs, each dated
    the day (UTC) it was dealt."""
    dates = [[time.strftime("%Y.%m.%d", time.gmtime(at)) if at else "????.??.??" for at in game] for game in dealt]
    return [(f"{stem}.pbn", export_all(states, names, event=event, dates=dates).encode("utf-8"))]


def posts(events: list[dict], view: dict, names: list[str], lang: str, history: list[dict]) -> list[str]:
    out = []
    for event in events:
        if event["type"] == "deal_scored":
            out.append(deal_post(event, names, lang))
        elif event["type"] == "game_over":
            out.append(final_post(event["result"], view["sheet"], names, lang))
    return out


def picture(events: list[dict], view: dict, names: list[str], lang: str) -> dict:
    return sheet_picture(view["sheet"], names, lang)


# borrowed from the modules they live in, under the manifest's names
result_line = partnership_result_line
draw_picture = bridge_picture
deal_record_text = deal_record.deal_record_text
tricks_so_far = deal_record.tricks_so_far


class BridgeUI(GameUI, module=sys.modules[__name__]):
    name = command = "bridge"
    order = 5
    table_presets = TABLE_PRESETS
    seat_names = SEATS
    words = WORDS
    export_files = staticmethod(pbn_files)
    bench_players = 4


register_ui(BridgeUI())
