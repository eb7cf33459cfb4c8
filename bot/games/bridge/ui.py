"""Rubber bridge in Telegram: the group table message (auction, contract, dummy, trick),
the DM hand (the bidding box, cards; the declarer also plays dummy's cards from here), the
lobby options and the We/They sheet after every deal. Input is always an engine view.

Bids are shown as ``4 ♠`` with a narrow no-break space: ``4♠`` would read as the four of
spades (a card label) to people and to the leak check alike.
"""

from __future__ import annotations

from bot.games import register_ui
from bot.games.base import GameUI, Rows, partnership_result_line
from bot.games.bridge.picture import bridge_picture
from bot.i18n import t
from bot.render.common import COMPUTER_MARK, chunk, esc
from engine.bridge.explain import MAX_HCP, Shown, explain
from engine.bridge.pbn import export_all
from engine.bridge.sheet import result_lines, sheet_table
from engine.bridge.words import WORDS
from engine.cards import SUIT_SYMBOL, label

SEATS = ("N", "E", "S", "W")
NNBSP = "\u202f"
SUIT_ORDER = "SHDC"


# ------------------------------------------------------------------------- small texts
def strain_text(strain: str, lang: str) -> str:
    return t(lang, "bridge.nt") if strain == "NT" else SUIT_SYMBOL[strain]


def bid_text(level: int, strain: str, lang: str, space: str = NNBSP) -> str:
    return f"{level}{space}{strain_text(strain, lang)}"


def contract_text(contract: dict, lang: str, space: str = NNBSP) -> str:
    return bid_text(contract["level"], contract["strain"], lang, space) + "X" * contract["doubling"]


def call_text(call: dict, lang: str, space: str = NNBSP) -> str:
    if call["call"] == "bid":
        return bid_text(call["level"], call["strain"], lang, space)
    return {"pass": t(lang, "bridge.call.pass"), "double": "X", "redouble": "XX"}[call["call"]]


def side_name(side: str, lang: str) -> str:
    return t(lang, "bridge.we" if side == "NS" else "bridge.they")


def seat_side(seat: int) -> str:
    return "NS" if seat % 2 == 0 else "EW"


def vul_text(vul: dict, lang: str) -> str:
    if vul["NS"] and vul["EW"]:
        return t(lang, "bridge.vul.both")
    if vul["NS"]:
        return t(lang, "bridge.vul.we")
    if vul["EW"]:
        return t(lang, "bridge.vul.they")
    return t(lang, "bridge.vul.none")


def suit_lines(cards: list[str]) -> list[str]:
    """One line per suit (♠ ♥ ♦ ♣), high cards first; a void shows the suit and a dash."""
    out = []
    for suit in SUIT_ORDER:
        in_suit = [c for c in cards if c[1] == suit]
        out.append(" ".join(label(c) for c in in_suit) if in_suit else f"{SUIT_SYMBOL[suit]} —")
    return out


def plays_text(plays: list) -> str:
    return " · ".join(f"{SEATS[seat]} {label(card)}" for seat, card in plays)


def auction_grid(view: dict, lang: str) -> str:
    """The auction as a <pre> grid, columns N E S W, the first row starting at the dealer."""
    cells = [""] * view["dealer"] + [call_text(a, lang, " ") for a in view["auction"]]
    if view["phase"] == "auction":
        cells.append("?")
    rows = [list(SEATS)] + [(cells[i : i + 4] + [""] * 4)[:4] for i in range(0, len(cells), 4)]
    width = max(4, max(len(c) for row in rows for c in row) + 1)
    text = "\n".join("".join(c.ljust(width) for c in row).rstrip() for row in rows)
    return "<pre>" + esc(text) + "</pre>"


def sheet_summary(sheet: dict, lang: str) -> str:
    return t(
        lang,
        "bridge.sheet_line",
        we_games=sheet["games"]["NS"],
        they_games=sheet["games"]["EW"],
        we_below=sheet["below"]["NS"],
        they_below=sheet["below"]["EW"],
        we_total=sheet["totals"]["NS"],
        they_total=sheet["totals"]["EW"],
    )


def _name(names: list[str], seat: int) -> str:
    return esc(names[seat]) if seat < len(names) else SEATS[seat]


# ------------------------------------------------------------------------- group message
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
        mark = "▶️ " if seat in view["to_act"] or (view["phase"] == "play" and view["turn"] == seat) else ""
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
                name=_name(names, seat),
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
        lines.append(t(lang, "bridge.result.title"))
    else:
        lines.append(_waiting(view, names, lang))
    return "\n".join(lines)


def _play_block(view: dict, names: list[str], lang: str, show_dummy: bool = True) -> list[str]:
    lines = [
        t(
            lang,
            "bridge.contract_line",
            contract=esc(contract_text(view["contract"], lang)),
            seat=SEATS[view["declarer"]],
            name=_name(names, view["declarer"]),
            we=view["won"]["NS"],
            they=view["won"]["EW"],
        )
    ]
    if view.get("dummy_hand") is not None and show_dummy:
        lines.append(t(lang, "bridge.dummy_line", seat=SEATS[view["dummy"]], name=_name(names, view["dummy"])))
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
                name=_name(names, view["declarer"]),
                k=claim["tricks"],
                rest=claim["remaining"],
            )
        )
    return lines


def _waiting(view: dict, names: list[str], lang: str) -> str:
    phase = view["phase"]
    if phase == "deal" or not view["to_act"]:
        return t(lang, "bridge.waiting.deal")
    who = ", ".join(f"{SEATS[s]} ({_name(names, s)})" for s in view["to_act"])
    if phase == "play" and view["turn"] == view["dummy"]:
        return t(lang, "bridge.waiting.dummy", who=who, seat=SEATS[view["dummy"]])
    return t(lang, f"bridge.waiting.{phase}", who=who)


# ------------------------------------------------------------------------- DM
def note_key(note: str) -> str:
    """The catalog key of a call's name from the system table ("transfer to hearts")."""
    return "bridge.note." + "".join(ch if ch.isalnum() else "_" for ch in note.lower()).strip("_")


def shown_text(shown: Shown, lang: str) -> str:
    """One seat's calls as the computers read them: "15–17, balanced · Stayman, forcing"."""
    parts = []
    if shown.hcp is not None:
        lo, hi = shown.hcp
        parts.append(
            t(lang, "bridge.explain.hcp_min", lo=lo) if hi >= MAX_HCP else t(lang, "bridge.explain.hcp", lo=lo, hi=hi)
        )
    for suit, lo, hi in shown.suits:
        # the count before the suit with a narrow no-break space: "5♥" would read as a card
        count = str(lo) if lo == hi else f"{lo}+" if hi >= 7 else f"{lo}–{hi}"
        parts.append(f"{count}{NNBSP}{SUIT_SYMBOL[suit]}")
    if shown.balanced:
        parts.append(t(lang, "bridge.explain.balanced"))
    named = [t(lang, note_key(shown.note))] if shown.note else []
    if shown.forcing:
        named.append(t(lang, "bridge.explain.forcing"))
    text = ", ".join(parts) or t(lang, "bridge.explain.nothing")
    return text + (" · " + ", ".join(named) if named else "")


def explanation_lines(view: dict, names: list[str], lang: str) -> list[str]:
    """During the auction at a table with computers: what each seat's calls show in the
    computers' system (docs/bridge-bidding.md), the robots' explanations of online bridge.
    The calls are public, so every seat gets the same lines."""
    if view["phase"] != "auction" or not any(n.startswith(COMPUTER_MARK) for n in names):
        return []
    shown = explain(view["auction"], view["dealer"])
    if not shown:
        return []
    lines = [t(lang, "bridge.explain.title")]
    lines += [f"  {SEATS[s.seat]} ({_name(names, s.seat)}): {shown_text(s, lang)}" for s in shown]
    return lines


def hand_text(view: dict, names: list[str], lang: str, header: str, legal: list[str]) -> str:
    seat = view["seat"]
    lines = [f"<b>{esc(header)}</b>", t(lang, "bridge.you", seat=SEATS[seat], side=side_name(seat_side(seat), lang))]
    lines += deal_lines(view, lang)
    if view["phase"] in ("auction", "play", "claim"):
        lines.append(t(lang, "bridge.auction") + "\n" + auction_grid(view, lang))
    lines += explanation_lines(view, names, lang)
    if view["phase"] in ("play", "claim"):
        lines += _play_block(view, names, lang, show_dummy=seat != view.get("dummy"))
    lines.append(t(lang, "bridge.your_hand"))
    lines += ["  " + line for line in suit_lines(view.get("hand", []))]
    phase = view["phase"]
    if phase == "over":
        lines.append(t(lang, "bridge.result.title"))
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
            lines.append(t(lang, "bridge.prompt.you_are_dummy", name=_name(names, view["declarer"])))
        lines.append(_waiting(view, names, lang))
    return "\n".join(lines)


def action_rows(legal: list[str], view: dict, lang: str, mode: str) -> tuple[Rows, list[tuple[str, str]]]:
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


# ------------------------------------------------------------------------- posts
def deal_post(event: dict, names: list[str] | None, lang: str) -> str:
    """The line about the deal just scored, then the sheet as a <pre> table."""
    board = event.get("board")
    paper = board is None
    if event["passed_out"]:
        head = (
            t(lang, "bridge.passed_out_paper", n=event["deal_no"])
            if paper
            else t(lang, "bridge.passed_out", board=board)
        )
    else:
        res = event["result"]
        outcome = (
            t(lang, "bridge.outcome.made")
            if res == 0
            else t(lang, "bridge.outcome.over", n=res)
            if res > 0
            else t(lang, "bridge.outcome.down", n=-res)
        )
        contract = esc(contract_text(event["contract"], lang))
        seat = SEATS[event["declarer"]]
        if paper:
            head = t(
                lang,
                "bridge.deal_result_paper",
                n=event["deal_no"],
                contract=contract,
                seat=seat,
                tricks=event["tricks"],
                outcome=outcome,
            )
        else:
            head = t(
                lang,
                "bridge.deal_result",
                board=board,
                contract=contract,
                seat=seat,
                name=_name(names or [], event["declarer"]),
                tricks=event["tricks"],
                outcome=outcome,
            )
        how = event.get("how") or {}
        if "claimed" in how:
            head += " " + t(lang, "bridge.claim_note")
        elif "conceded_by" in how:
            head += " " + t(lang, "bridge.concede_note")
    lines = [head]
    doubling = (event.get("contract") or {}).get("doubling", 0)
    lines += written_lines(event.get("entries", []), lang, doubling)
    won = _games_won(event)
    if won:
        lines.append(t(lang, "bridge.game_won", side=side_name(won, lang)))
    lines.append(sheet_pre(event["sheet"], lang))
    return "\n".join(lines)


def _kind_text(kind: str, lang: str, doubling: int) -> str:
    if kind == "insult":
        kind = "insult_xx" if doubling == 2 else "insult_x"
    return t(lang, f"bridge.kind.{kind}")


def written_lines(entries: list[dict], lang: str, doubling: int = 0) -> list[str]:
    """What a deal (or the end of a rubber) wrote, one line per side, so that a summed
    cell of the sheet can be checked: "They: below the line 90; above the line 30 (overtricks) + 100 (game)"."""
    lines = []
    for side in ("NS", "EW"):
        mine = [e for e in entries if e["side"] == side]
        if not mine:
            continue
        parts = []
        below = sum(e["points"] for e in mine if e["line"] == "below")
        if below:
            parts.append(t(lang, "bridge.written.below", points=below))
        above = [f"{e['points']} ({_kind_text(e['kind'], lang, doubling)})" for e in mine if e["line"] == "above"]
        if above:
            parts.append(t(lang, "bridge.written.above", items=" + ".join(above)))
        lines.append(t(lang, "bridge.written", side=side_name(side, lang), parts="; ".join(parts)))
    return lines


def _games_won(event: dict) -> str | None:
    """The side that won a game with this deal, if any (a new game block started)."""
    below = [e for e in event.get("entries", []) if e["line"] == "below"]
    if below and event["sheet"]["game"] > below[0]["game"]:
        return below[0]["side"]
    return None


def sheet_pre(sheet: dict, lang: str) -> str:
    return "<pre>" + esc(sheet_table(sheet, lambda key, **p: t(lang, key, **p))) + "</pre>"


def sheet_picture(sheet: dict, names: list[str] | None, lang: str) -> dict:
    """The We/They sheet as a picture spec (``bot.games.bridge.picture``)."""
    return {"game": "bridge", "lang": lang, "title": t(lang, "sheets.pic.bridge"), "names": names, "sheet": sheet}


def final_post(result: dict, sheet: dict, names: list[str] | None, lang: str) -> str:
    if "forfeit" in result and names:
        winner = "EW" if result["forfeit"] % 2 == 0 else "NS"
        lines = [
            t(lang, "bridge.result.title"),
            t(lang, "bridge.result.forfeit", name=_name(names, result["forfeit"]), side=side_name(winner, lang)),
        ]
    elif not result.get("complete"):
        lines = [t(lang, "bridge.result.stopped")]
    else:
        lines = [t(lang, "bridge.result.title")]
    if not result.get("complete"):
        # what stopping wrote (the forfeit's rubber bonus, the unfinished-rubber premiums)
        last = [
            e
            for e in sheet["entries"]
            if e["kind"] in ("unfinished_game", "unfinished_part")
            or (e["kind"] == "rubber_bonus" and not sheet.get("complete"))
        ]
        lines += written_lines(last, lang)
    tr = lambda key, **p: t(lang, key, **p)  # noqa: E731
    settlement = {"diff": result["diff"], "units": result["units"]}
    lines += [
        esc(line)
        for line in result_lines(
            sheet, settlement, [names[s] for s in range(4)] if names and len(names) == 4 else None, tr
        )
    ]
    return "\n".join(lines)


# ------------------------------------------------------------------------- lobby
PRESETS = ["seed", "acbl"]
ROUNDING = ["half_up", "down", "none"]


def variant_text(options: dict, lang: str) -> str:
    return t(lang, "bridge.variant", preset=t(lang, f"bridge.preset.{options.get('preset', 'seed')}"))


def lobby_lines(options: dict, lang: str) -> list[str]:
    """What the scoring preset changes, in the values a bridge player knows (§5.4)."""
    return [t(lang, f"bridge.preset_line.{options.get('preset', 'seed')}")]


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
        [flag("score_honours")],
    ]
    if paper:
        rows.append([flag("unfinished_rubber_bonus")])
    return rows


def next_option(options: dict, key: str, paper: bool = False) -> dict:
    new = dict(options)
    cycles = {"preset": PRESETS, "first_dealer": list(SEATS), "rounding": ROUNDING}
    flags = ("score_honours", "unfinished_rubber_bonus") if paper else ("score_honours",)
    if key in cycles:
        values = cycles[key]
        new[key] = values[(values.index(options[key]) + 1) % len(values)]
    elif key in flags:
        new[key] = not options.get(key)
    else:
        raise KeyError(key)
    return new


def pbn_files(states: list, names: list[str], event: str, stem: str) -> list[tuple[str, bytes]]:
    """The deals of these games as one PBN file, for other bridge programs."""
    return [(f"{stem}.pbn", export_all(states, names, event=event).encode("utf-8"))]


class BridgeUI(GameUI):
    name = command = "bridge"
    order = 4
    seat_names = SEATS
    words = WORDS
    export_files = staticmethod(pbn_files)
    bench_players = 4

    def variant_text(self, options, lang):
        return variant_text(options, lang)

    def lobby_lines(self, options, lang):
        return lobby_lines(options, lang)

    def option_rows(self, options, lang):
        return option_rows(options, lang)

    def next_option(self, options, key):
        return next_option(options, key)

    def group_text(self, view, names, lang, header):
        return group_text(view, names, lang, header)

    def hand_text(self, view, names, lang, header, legal):
        return hand_text(view, names, lang, header, legal)

    def action_rows(self, legal, view, lang, mode, names):
        return action_rows(legal, view, lang, mode)

    def picture(self, events, view, names, lang):
        return sheet_picture(view["sheet"], names, lang)

    def draw_picture(self, spec):
        return bridge_picture(spec)

    def posts(self, events, view, names, lang, history):
        out = []
        for event in events:
            if event["type"] == "deal_scored":
                out.append(deal_post(event, names, lang))
            elif event["type"] == "game_over":
                out.append(final_post(event["result"], view["sheet"], names, lang))
        return out

    def result_line(self, result: dict, names: list[str], lang: str) -> str:
        return partnership_result_line(result, names, lang)


register_ui(BridgeUI())
