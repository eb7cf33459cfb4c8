"""The whist score sheet as monospaced text (rules §7), in Russian or English.

One function serves the bot (posted inside ``<pre>`` after every deal / entry) and
``cardbot score --text`` (printed as is), so both show exactly the same sheet. The few
words it needs live here rather than in the bot's catalogs: the engine layer does not
import the bot.

Layout: the rubbers finished before the one shown, one line each; then the shown
rubber (the running one, or the one the last deal finished) deal by deal — for each
side the trick points, the honour points and the game score after the deal — with a
line under every finished game (its value) and the rubber's premium and totals; last,
the match tally. Every line fits a phone held upright (40 columns).
"""

from __future__ import annotations

from engine.jsondata import JsonDict

from .scoring import SIDES, Sheet

WORDS = {
    "en": {
        "title": "Whist — score sheet",
        "empty": "No deals yet.",
        "side": {"NS": "We", "EW": "They"},
        "side_long": {"NS": "We (N–S)", "EW": "They (E–W)"},
        "tr": "tr",
        "hn": "hn",
        "rubber": "Rubber {n}",
        "game": "game {n}: {side} ×{value} ({a}:{b})",
        "rubber_done": "rubber {n}: {side} {a}:{b}, premium {premium}",
        "totals": "totals: We {ns} · They {ew}",
        "credited": "credited: {side} {points}",
        "summary": "Rubber {n}: {side} {a}:{b}, +{points}",
        "match": "Match: rubbers {a}:{b}",
        "match_credited": "credited {ns}:{ew}",
        "target": " (to {n})",
        "match_won": "Match won by {side}.",
        "balance": "Balance: We {ns:+d} · They {ew:+d}",
    },
    "ru": {
        "title": "Вист — запись",
        "empty": "Раздач ещё не было.",
        "side": {"NS": "Мы", "EW": "Они"},
        "side_long": {"NS": "Мы (N–S)", "EW": "Они (E–W)"},
        "tr": "вз",
        "hn": "к",
        "rubber": "Роббер {n}",
        "game": "партия {n}: {side} ×{value} ({a}:{b})",
        "rubber_done": "роббер {n}: {side} {a}:{b}, премия {premium}",
        "totals": "итого: Мы {ns} · Они {ew}",
        "credited": "в зачёт: {side} {points}",
        "summary": "Роббер {n}: {side} {a}:{b}, +{points}",
        "match": "Матч: робберы {a}:{b}",
        "match_credited": "в зачёт {ns}:{ew}",
        "target": " (до {n})",
        "match_won": "Матч выиграли: {side}.",
        "balance": "Баланс: Мы {ns:+d} · Они {ew:+d}",
    },
}


def words(lang: str) -> JsonDict:
    return WORDS.get(lang, WORDS["en"])


def _num(n: int) -> str:
    return str(n) if n else "·"


def sheet_text(sheet: Sheet, lang: str = "en") -> str:
    w = words(lang)
    lines = [w["title"]]
    shown = sheet.rubber_no if sheet.rubber_deals or not sheet.rubbers else sheet.rubbers[-1]["n"]
    for r in sheet.rubbers:
        if r["n"] != shown:
            lines.append(
                w["summary"].format(
                    n=r["n"],
                    side=w["side"][r["winner"]],
                    a=r["games"][r["winner"]],
                    b=r["games"]["EW" if r["winner"] == "NS" else "NS"],
                    points=r["credited"][r["winner"]],
                )
            )
    deals = [d for d in sheet.deals if d["rubber"] == shown]
    if not sheet.deals:
        lines.append(w["empty"])
    elif deals:
        lines.append(w["rubber"].format(n=shown))
        width = 10
        head = "  #│" + "│".join(w["side_long"][s][:width].center(width) for s in SIDES)
        sub = "   │" + "│".join(f"{w['tr']:>3}{w['hn']:>3}{'=':>4}" for _ in SIDES)
        lines += [head, sub]
        for d in deals:
            cells = "│".join(f"{_num(d['tricks'][s]):>3}{_num(d['honours'][s]):>3}{d['scores'][s]:>4}" for s in SIDES)
            lines.append(f"{d['n']:>3}│{cells}")
            game = d.get("game_won")
            if game:
                win = game["winner"]
                lose = "EW" if win == "NS" else "NS"
                lines.append(
                    "─── "
                    + w["game"].format(
                        n=game["n"],
                        side=w["side"][win],
                        value=game["value"],
                        a=game["points"][win],
                        b=game["points"][lose],
                    )
                )
            rubber = d.get("rubber_won")
            if rubber:
                win = rubber["winner"]
                lose = "EW" if win == "NS" else "NS"
                lines.append(
                    "═══ "
                    + w["rubber_done"].format(
                        n=rubber["n"],
                        side=w["side"][win],
                        a=rubber["games"][win],
                        b=rubber["games"][lose],
                        premium=rubber["premium"],
                    )
                )
                lines.append("   " + w["totals"].format(ns=rubber["total"]["NS"], ew=rubber["total"]["EW"]))
                lines.append("   " + w["credited"].format(side=w["side"][win], points=rubber["credited"][win]))
    won, credited = sheet.rubbers_won, sheet.credited
    target = sheet.options.match_rubbers_to_win
    # two lines: the rubbers, then the points, so that each fits a phone (40 columns)
    lines.append(w["match"].format(a=won["NS"], b=won["EW"]) + (w["target"].format(n=target) if target else ""))
    lines.append(w["match_credited"].format(ns=credited["NS"], ew=credited["EW"]))
    if sheet.finished:
        lines.append(w["match_won"].format(side=w["side"][sheet.winner]))
        balance = sheet.balance
        lines.append(w["balance"].format(ns=balance["NS"], ew=balance["EW"]))
    return "\n".join(lines)
