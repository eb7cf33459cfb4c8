"""The small texts of bridge that the table, the hands, the sheet posts and the score-only
sheet share: bids, calls and contracts, sides and vulnerability, a hand suit by suit,
the auction grid, what each seat's calls show in the computers' system and what each call
the bidding box offers would show.

Bids are shown as ``4 ♠`` with a narrow no-break space: ``4♠`` would read as the four of
spades (a card label) to people and to the leak check alike.
"""

from __future__ import annotations

from bot.i18n import t
from bot.render.common import COMPUTER_MARK, esc
from engine.games.bridge.auction import bid_parts
from engine.ai_levels import DEFAULT_LEVEL
from engine.games.bridge.explain import MAX_HCP, SYSTEM_LEVELS, Shown, explain, preview, worth_listing
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


def name_of(names: list[str], seat: int) -> str:
    return esc(names[seat]) if seat < len(names) else SEATS[seat]


def note_key(note: str) -> str:
    """The catalog key of a call's name from the system table ("transfer to hearts")."""
    return "bridge.note." + "".join(ch if ch.isalnum() else "_" for ch in note.lower()).strip("_")


def shown_text(shown: Shown, lang: str, nothing: str = "") -> str:
    """One seat's calls as the computers read them: "15–17, balanced · Stayman, forcing";
    a call that shows nothing but its name is just the name ("Blackwood: asks for aces");
    one that shows nothing at all is ``nothing`` (default: "nothing particular")."""
    parts = []
    if shown.hcp is not None:
        lo, hi = shown.hcp
        parts.append(
            t(lang, "bridge.explain.hcp_min", lo=lo) if hi >= MAX_HCP else t(lang, "bridge.explain.hcp", lo=lo, hi=hi)
        )
    for suit, lo, hi in shown.suits:
        # the count before the suit with a narrow no-break space: "5♥" would read as a card
        count = str(lo) if lo == hi else f"≤{hi}" if lo == 0 else f"{lo}+" if hi >= 7 else f"{lo}–{hi}"
        parts.append(f"{count}{NNBSP}{SUIT_SYMBOL[suit]}")
    if shown.balanced:
        parts.append(t(lang, "bridge.explain.balanced"))
    named = [t(lang, note_key(shown.note))] if shown.note else []
    if shown.forcing:
        named.append(t(lang, "bridge.explain.forcing"))
    if not parts and named:
        return ", ".join(named)
    text = ", ".join(parts) or nothing or t(lang, "bridge.explain.nothing")
    return text + (" · " + ", ".join(named) if named else "")


def with_computers(names: list[str]) -> bool:
    return any(n.startswith(COMPUTER_MARK) for n in names)


def system_shown(view: dict, names: list[str]) -> bool:
    """Whether a DM says what calls mean in the computers' system: during the auction, at
    a table with computers that bid by it. ``view["computer_level"]`` is the table's level
    (bot.screens.hand adds it; a view without it: the engine's default level); the easy
    computers bid by points alone, so at their table the system's meanings would mislead."""
    level = view.get("computer_level", DEFAULT_LEVEL)
    return view["phase"] == "auction" and with_computers(names) and level in SYSTEM_LEVELS


def explanation_lines(view: dict, names: list[str], lang: str) -> list[str]:
    """During the auction at a table with computers that bid by the system
    (``system_shown``): what each seat's calls show in it (docs/bridge-bidding.md), the
    robots' explanations of online bridge. The calls are public, so every seat gets the
    same lines."""
    if not system_shown(view, names):
        return []
    shown = explain(view["auction"], view["dealer"])
    if not shown:
        return []
    lines = [t(lang, "bridge.explain.title")]
    lines += [f"  {SEATS[s.seat]} ({name_of(names, s.seat)}): {shown_text(s, lang)}" for s in shown]
    return lines


BOX_CALLS = {"P": "pass", "X": "double", "XX": "redouble"}


def box_label(call: str, lang: str) -> str:
    """A call in engine notation ("P", "X", "1NT") as its button in the bidding box reads."""
    if call in BOX_CALLS:
        return t(lang, f"bridge.btn.{BOX_CALLS[call]}")
    return bid_text(*bid_parts(call), lang)


def preview_lines(view: dict, names: list[str], lang: str) -> list[str]:
    """On the person's turn to call at a table with computers that bid by the system
    (``system_shown``): what each call of the bidding box would show in it, as BBO's
    bidding box says (the calls ``worth_listing`` picks, one line each, and a line for
    the natural rest). It reads the calls only: the same for any hand in this seat."""
    if not system_shown(view, names):
        return []
    listed, rest = worth_listing(preview(view["auction"], view["dealer"]))
    lines = [t(lang, "bridge.preview.title")]
    lines += [f"  {box_label(p.call, lang)}: {shown_text(p.shown, lang, nothing='—')}" for p in listed]
    if rest:
        lines.append("  " + t(lang, "bridge.preview.rest"))
    return lines
