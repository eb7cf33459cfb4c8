"""Pieces of the "🔍 The deal" message shared by the games' renderers
(``bot/games/<game>/deal_record.py``): hands, tricks and costly cards written from a deal
analysis (``engine/games/<game>/analysis.py``). Pure functions of the analysis, the names and
the language: they show what the analysis holds and nothing else."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.i18n import t
from bot.render.common import display_name, esc
from engine.cards import RANK_LABEL, SUIT_SYMBOL, label
from engine.jsondata import JsonDict

RANKS_DOWN = "AKQJT98765432"
SUITS_SHOWN = "SHDC"


def holding(cards: Sequence[str], suit: str) -> str:
    """``"A K 10 2"`` for the cards of one suit, high first (``—`` for a void)."""
    ranks = sorted((c[0] for c in cards if c[1] == suit), key=RANKS_DOWN.index)
    return " ".join(RANK_LABEL.get(r, r) for r in ranks) or "—"


def hand_rows(cards: Sequence[str]) -> list[str]:
    """One row per suit: ``"♠ A K 5"``."""
    return [f"{SUIT_SYMBOL[s]} {holding(cards, s)}" for s in SUITS_SHOWN]


def hand_line(cards: Sequence[str]) -> str:
    """A whole hand on one line, suit by suit."""
    return "  ".join(f"{SUIT_SYMBOL[s]}{holding(cards, s).replace(' ', '')}" for s in SUITS_SHOWN)


def compass(hands: dict[str, list[str]], titles: dict[str, str]) -> str:
    """The usual bridge diagram, monospaced: North on top, West and East, South below.
    ``titles``: each compass seat's heading (its letter and the player's name)."""
    width = 18
    north, south = hand_rows(hands["N"]), hand_rows(hands["S"])
    west, east = hand_rows(hands["W"]), hand_rows(hands["E"])
    pad = " " * width
    lines = [pad + titles["N"]] + [pad + row for row in north]
    lines.append(titles["W"][: width - 1].ljust(width) + pad + titles["E"])
    lines += [w.ljust(width) + pad + e for w, e in zip(west, east)]
    lines += [pad + titles["S"]] + [pad + row for row in south]
    return "<pre>" + esc("\n".join(lines)) + "</pre>"


def trick_lines(tricks: list[JsonDict], seat_label: Callable[[object], str], lang: str) -> list[str]:
    """``"3. N 10♥ · E A♥ · S 2♥ · W 5♥ → E"``, one line a trick."""
    out = []
    for k, trick in enumerate(tricks, start=1):
        cards = " · ".join(f"{seat_label(seat)} {label(card)}" for seat, card in trick["cards"])
        winner = trick["winner"]
        tail = f" → {seat_label(winner)}" if winner is not None else ""
        out.append(f"{k}. {cards}{tail}")
    if not out:
        out.append(t(lang, "deal_record.no_play"))
    return out


def open_trick(plays: Sequence[Sequence[object]], leader: object) -> list[JsonDict]:
    """The trick on the table as a game's ``tricks_so_far`` lists it last (no winner yet);
    none when no card lies there."""
    return [{"leader": leader, "cards": [list(p) for p in plays], "winner": None}] if plays else []


def costly_lines(costly: list[JsonDict], seat_label: Callable[[object], str], lang: str) -> list[str]:
    if not costly:
        return [t(lang, "deal_record.no_costly")]
    return [
        t(
            lang,
            "deal_record.costly_card",
            trick=c["trick"],
            seat=seat_label(c["seat"]),
            card=label(c["card"]),
            n=c["loss"],
        )
        for c in costly
    ]


def section(lang: str, key: str) -> str:
    return f"<b>{t(lang, key)}</b>"


def symbols(text: str) -> str:
    """Suit letters after a level as symbols: ``"bid 6S"`` -> ``"bid 6♠"``, ``"8NT"`` stays."""
    out = []
    for word in text.split():
        if len(word) >= 2 and word[:-1].isdigit() and word[-1] in SUIT_SYMBOL:
            word = word[:-1] + SUIT_SYMBOL[word[-1]]
        out.append(word)
    return " ".join(out)


def preferans_family_text(
    deal: JsonDict,
    names: list[str],
    lang: str,
    seats: str,
    contract_text: Callable[[str], str],
    by_contract_key: str,
    choices_key: str,
) -> str:
    """The message of a preferans hand (Balkan or Russian): hands one per line and the
    talon, the bidding, the contract and the defenders' choices, the tricks, and the
    double-dummy figures the analysis holds. ``seats``: the analysis's seat letters in
    seat order (names are read by that index); ``contract_text`` writes a contract;
    ``by_contract_key``: the analysis field of the declarer's tricks per contract;
    ``choices_key``: the field of the defenders' choices."""

    def name(seat: object) -> str:
        index = seats.index(str(seat))
        return esc(display_name(names[index], 12)) if index < len(names) else str(seat)

    lines = [t(lang, "deal_record.pref_title", deal=deal["deal"], dealer=name(deal["dealer"]))]
    lines += [f"{name(seat)}: {hand_line(hand)}" for seat, hand in deal["hands"].items()]
    if deal.get("talon"):
        lines.append(t(lang, "deal_record.talon", cards=" ".join(label(c) for c in deal["talon"])))
    if deal.get("discards"):
        lines.append(t(lang, "deal_record.discards", cards=" ".join(label(c) for c in deal["discards"])))
    lines.append(section(lang, "deal_record.bidding"))
    lines.append(", ".join(f"{name(c['seat'])} {_call(c['call'], lang)}" for c in deal["bidding"]) or "—")
    if deal.get("contract"):
        if deal.get("declarer"):
            lines.append(
                t(
                    lang,
                    "deal_record.pref_contract",
                    contract=contract_text(deal["contract"]),
                    name=name(deal["declarer"]),
                )
            )
        else:
            lines.append(contract_text(deal["contract"]))
    choices = deal.get(choices_key) or {}
    lines += [
        t(lang, "deal_record.defence", name=name(seat), choice=t(lang, f"deal_record.choice.{choice}"))
        for seat, choice in choices.items()
    ]
    lines.append(section(lang, "deal_record.play"))
    lines += trick_lines(deal["tricks"], name, lang)
    if deal.get("result"):
        lines.append(t(lang, "deal_record.took", tricks=", ".join(f"{name(s)} {n}" for s, n in deal["result"].items())))
    if deal.get("dd_tricks") is not None:
        lines.append(section(lang, "deal_record.double_dummy"))
        if deal.get(by_contract_key) is None:  # мизер, Bettel: the catchers' figure
            lines.append(t(lang, "deal_record.misere_dd", n=deal["dd_tricks"]))
        else:
            lines.append(t(lang, "deal_record.pref_dd", n=deal["dd_tricks"]))
            figures = ", ".join(f"{contract_text(c)} {n}" for c, n in deal[by_contract_key].items())
            lines.append(figures)
            best = deal.get("best_contract")
            lines.append(
                t(lang, "deal_record.best_contract", contract=contract_text(best))
                if best
                else t(lang, "deal_record.no_best_contract")
            )
        if deal.get("whist_right") is not None:
            lines.append(t(lang, "deal_record.whist_right" if deal["whist_right"] else "deal_record.whist_wrong"))
        lines.append(section(lang, "deal_record.costly"))
        lines += costly_lines(deal["costly"], name, lang)
    return "\n".join(lines)


def _call(call: str, lang: str) -> str:
    word = call.split()[0]
    if word in ("pass", "bid") and call.split()[1:]:
        return esc(symbols(" ".join(call.split()[1:])))
    return t(lang, f"deal_record.call.{word}") if word in ("pass",) else esc(symbols(call))
