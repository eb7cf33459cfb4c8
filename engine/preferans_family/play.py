"""Preferans trick play (both rule books): follow suit, else trump if able, else anything;
the trick's winner leads the next one. The state's own bookkeeping of a trick (who takes
part, распасы talon cards, when the play stops) stays with each game."""

from __future__ import annotations

from typing import Any, Protocol

from engine.jsondata import JsonDict
from engine.tricks import playable

from .errors import error


class TrickTable(Protocol):
    """The trick-play fields of a preferans state (seats index ``hands`` and ``won``)."""

    hands: list[list[str]]
    trick_leader: int | None
    trick: list[list[Any]]  # [seat, card] plays of the current trick
    won: list[int]
    tricks_played: int
    played: list[list[list[Any]]]  # this deal's finished tricks (public)


def legal_cards(hand: list[str], led: str | None, trump: str | None) -> list[str]:
    """The cards of ``hand`` that may go on a trick led in ``led`` (None: it is a lead)."""
    return playable(hand, led, trump, True)  # True: a player out of the suit must trump


def check_card(hand: list[str], card: str, led: str | None, trump: str | None) -> None:
    """``not_in_hand`` or ``must_follow`` unless ``card`` may be played from ``hand`` now."""
    if card not in hand:
        raise error("not_in_hand", card=card)
    if card not in legal_cards(hand, led, trump):
        raise error("must_follow", card=card)


def lay_card(t: TrickTable, seat: int, card: str) -> None:
    """``card`` leaves the hand of ``seat`` for the trick (checked before: ``check_card``)."""
    t.hands[seat] = [c for c in t.hands[seat] if c != card]
    t.trick.append([seat, card])


def close_trick(t: TrickTable, winner: int, events: list[JsonDict]) -> list[list[Any]]:
    """The full trick goes to ``winner`` and joins the deal's played tricks; returns it."""
    t.won[winner] += 1
    t.tricks_played += 1
    finished = t.trick
    t.played = t.played + [finished]
    t.trick = []
    events.append({"type": "trick", "winner": winner, "cards": [c for _, c in finished], "won": list(t.won)})
    return finished


def trick_view(t: TrickTable, live: bool) -> JsonDict:
    """The public trick-play part of a view (``live``: a deal is on the table)."""
    return {
        "trick": [list(x) for x in t.trick],
        "trick_leader": t.trick_leader,
        # every finished trick of this deal (face up at the table, so a player may remember them)
        "played": [[list(x) for x in tr] for tr in t.played] if live else [],
        "won": list(t.won),
        "tricks_played": t.tricks_played,
        "hand_counts": [len(h) for h in t.hands],
    }
