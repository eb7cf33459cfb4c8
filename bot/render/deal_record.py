"""Pieces of the "🔍 The deal" message shared by the games' renderers
(``bot/games/<game>/deal_record.py``): hands, tricks and costly cards written from a deal
analysis (``engine/games/<game>/analysis.py``). Pure functions of the analysis, the names and
the language: they show what the analysis holds and nothing else."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.i18n import t
from bot.render.common import esc
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
