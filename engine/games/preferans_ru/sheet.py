"""The пулька as monospaced text, read like the paper sheet (docs/rules/preferans_ru.md §6).

The bot posts these lines in a <pre> block and ``cardbot score --text`` prints them. Every
line fits 40 characters (a phone shows about that many): players are initials, with a
legend when the names are longer. The words live here so the engine can print the sheet.
Settlement: exact at the end of the game, rounded while it goes on.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from engine.rounding import rounded_shares
from engine.text import display_width, grid

from .hand import AllPassHand, GameHand, Hand, MisereHand
from .options import PreferansRuOptions
from .scoring import Gain, Sheet, finished, settlement

WIDTH = 40

WORDS: dict[str, dict[str, str]] = {
    "ru": {
        "title": "Пулька · {system} · до {pool}",
        "hand_n": " · раздача {n}",
        "sochi": "Сочи",
        "leningrad": "Ленинград",
        "rostov": "Ростов",
        "pool": "пуля",
        "mountain": "гора",
        "whists_on": "→X: висты на X",
        "all_pass": "распасы",
        "misere": "мизер",
        "NT": "БК",
        "made": "сыграл",
        "down": "без {u}",
        "clean": "чистый",
        "tricks": "взяток: {t}",
        "both_pass": "оба пас",
        "half": "полвиста {who}",
        "whist": "вист {who}",
        "pass": "пас {who}",
        "deals": "сдаёт {who}",
        "gain": "запись:",
        "nothing": "запись: ничего",
        "result_now": "Расчёт сейчас (≈):",
        "result_final": "Пулька закрыта. Итог:",
    },
    "en": {
        "title": "Pulka · {system} · to {pool}",
        "hand_n": " · deal {n}",
        "sochi": "Sochi",
        "leningrad": "Leningrad",
        "rostov": "Rostov",
        "pool": "pool",
        "mountain": "mount",
        "whists_on": "→X: whists on X",
        "all_pass": "all-pass",
        "misere": "misère",
        "NT": "NT",
        "made": "made",
        "down": "down {u}",
        "clean": "clean",
        "tricks": "tricks: {t}",
        "both_pass": "both pass",
        "half": "half-whist {who}",
        "whist": "whist {who}",
        "pass": "pass {who}",
        "deals": "{who} deals",
        "gain": "written:",
        "nothing": "written: nothing",
        "result_now": "Settlement now (≈):",
        "result_final": "Pulka closed. Result:",
    },
}
SUIT = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}


@dataclass(frozen=True)
class HandLine:
    """One written hand: what it was and what the sheet gained (for the hand's line)."""

    n: int
    hand: Hand
    dealer: str | None
    gain: Gain
    series: int


def initials(players: tuple[str, ...]) -> dict[str, str]:
    """Short names for the sheet: the first letters if they differ, else A B C D."""
    first = {p: p.strip()[:1].upper() for p in players}
    if len(set(first.values())) == len(players) and all(display_width(x) == 1 for x in first.values()):
        return first
    return {p: "ABCD"[i] for i, p in enumerate(players)}


def shown(x: Fraction | int, exact: bool = True, sign: bool = False) -> str:
    """A number for the sheet: ``14``, ``−100/3``; rounded half away from zero if not exact."""
    x = Fraction(x)
    if not exact and x.denominator != 1:
        r = int(abs(x) + Fraction(1, 2))
        x = Fraction(r if x >= 0 else -r)
    body = str(abs(x.numerator)) if x.denominator == 1 else f"{abs(x.numerator)}/{x.denominator}"
    if x < 0:
        return "−" + body
    return ("+" + body) if sign and x > 0 else body


def wrap(words: list[str], first: str = "", indent: str = "  ") -> list[str]:
    """Join ``words`` into lines of at most 40 characters."""
    lines: list[str] = []
    line = first
    for word in words:
        candidate = f"{line} {word}" if line.strip() else line + word
        if display_width(candidate) <= WIDTH or not line.strip():
            line = candidate
        else:
            lines.append(line)
            line = indent + word
    if line.strip():
        lines.append(line)
    return [x[:WIDTH] if display_width(x) > WIDTH else x for x in lines]


def _contract(hand: GameHand, w: dict[str, str]) -> str:
    strain = hand.contract.strain or ""
    # a space: "7 ♥" is a contract, "7♥" would read as a card
    return f"{hand.contract.level} {SUIT.get(strain, w['NT'])}"


def hand_words(line: HandLine, short: dict[str, str], w: dict[str, str]) -> list[str]:
    """The hand itself: contract, decisions, result."""
    hand = line.hand
    words = [f"{line.n}."]
    if isinstance(hand, AllPassHand):
        words.append(f"{w['all_pass']} ({line.series}):")
        words += [f"{short[p]} {t}," for p, t in hand.tricks.items()]
        words[-1] = words[-1].rstrip(",")
    elif isinstance(hand, MisereHand):
        taken = hand.tricks[hand.declarer]
        result = w["clean"] if taken == 0 else w["tricks"].format(t=taken)
        words += [short[hand.declarer], f"{w['misere']}:", result]
    else:
        words += [short[hand.declarer], _contract(hand, w)]
        decisions = list(hand.whist.items())
        if hand.tricks is None:
            if any(d == "half" for _, d in decisions):
                words += ["—", w["half"].format(who=next(short[p] for p, d in decisions if d == "half"))]
            else:
                words += ["—", w["both_pass"]]
        else:
            taken = hand.tricks[hand.declarer]
            level = hand.contract.level or 0
            words.append(w["made"] if taken >= level else w["down"].format(u=level - taken))
            words[-1] += ";"
            words += [w["whist" if d == "whist" else "pass"].format(who=short[p]) + "," for p, d in decisions]
            words += [f"{short[p]} {t}," for p, t in hand.tricks.items()]
            words[-1] = words[-1].rstrip(",")
    if line.dealer is not None:
        words.append("(" + w["deals"].format(who=short[line.dealer]) + ")")
    return words


def gain_words(gain: Gain, short: dict[str, str], w: dict[str, str]) -> list[str]:
    """What the hand wrote: ``пуля A +2``, ``гора B +6``, ``B→A 4``."""
    words = []
    for area, key in ((gain.pool, "pool"), (gain.mountain, "mountain")):
        for p, x in area.items():
            if x:
                words.append(f"{w[key]} {short[p]} {shown(x, sign=True)},")
    for p, row in gain.whists.items():
        for q, x in row.items():
            if x:
                words.append(f"{short[p]}→{short[q]} {shown(x)},")
    if words:
        words[-1] = words[-1].rstrip(",")
    return words


def sheet_text(
    sheet: Sheet,
    options: PreferansRuOptions,
    lang: str,
    last: HandLine | None = None,
    hands: int = 0,
    names: dict[str, str] | None = None,
) -> str:
    """The whole пулька: title, legend, the table (пуля, гора, висты on each opponent),
    the last hand and what it wrote, and the settlement. ``names``: what to call each
    player of the sheet (the bot's seat letters -> people's names)."""
    w = WORDS.get(lang, WORDS["en"])
    shown_name = {p: (names or {}).get(p, p) for p in sheet.players}
    by_name = initials(tuple(shown_name.values()))
    short = {p: by_name[shown_name[p]] for p in sheet.players}
    title = w["title"].format(system=w[options.system], pool=options.pool)
    if hands:
        title += w["hand_n"].format(n=hands)
    lines = wrap(title.split(" "), indent="")
    for p in sheet.players:
        if short[p] != shown_name[p]:
            lines += wrap([f"{short[p]} —", *shown_name[p].split()], indent="    ")
    header = ["", w["pool"], w["mountain"]] + [f"→{short[q]}" for q in sheet.players]
    rows = [header]
    for p in sheet.players:
        cells = [short[p], shown(sheet.pool[p]), shown(sheet.mountain[p])]
        cells += ["·" if q == p else shown(sheet.whists[p][q]) for q in sheet.players]
        rows.append(cells)
    lines += grid(rows, align_right=set(range(1, len(header))), gap=" ").split("\n")
    lines.append(w["whists_on"])
    if last is not None:
        lines += wrap(hand_words(last, short, w))
        gained = gain_words(last.gain, short, w)
        lines += wrap(gained, first="  " + w["gain"]) if gained else ["  " + w["nothing"]]
    done = finished(sheet, options)
    lines.append(w["result_final" if done else "result_now"])
    result = settlement(sheet, options)
    exact = [result[p] for p in sheet.players]
    # while the game goes on the figures are rounded, and still add up to zero
    figures = exact if done else [Fraction(x) for x in rounded_shares(exact)]
    lines += wrap([f"{short[p]} {shown(x, sign=True)}" for p, x in zip(sheet.players, figures)], first=" ")
    return "\n".join(lines)
