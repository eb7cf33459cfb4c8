"""The steps of a deal that both preferans games take the same way: a call of the auction,
the declarer taking the talon and putting two cards away, the end of the pulka; and the
public view of the deal and its auction."""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from engine.errors import common_error
from engine.jsondata import JsonDict


class Table(Protocol):
    """The fields of a preferans state these steps read and write."""

    phase: str
    hand_no: int
    dealer: int | None
    turn: int | None
    hands: list[list[str]]
    talon: list[str]
    talon_public: bool
    discards: list[str]
    calls: list[list[Any]]  # [seat, call] in order, e.g. [0, "bid 2"]
    high: Any  # the highest bid so far, in the game's notation
    holder: int | None
    passed: list[bool]
    result: JsonDict | None

    @property
    def fh(self) -> int: ...  # the first hand: the dealer's left neighbour

    def clone(self) -> Any: ...


T = TypeVar("T", bound=Table)


def say(t: Table, seat: int, call: str, events: list[JsonDict]) -> None:
    """``seat``'s call joins the auction (its effect on the bid is the game's)."""
    t.calls.append([seat, call])
    events.append({"type": "call", "seat": seat, "call": call, "high": t.high})


def take_talon(t: Table, declarer: int, public: bool, events: list[JsonDict]) -> None:
    """The declarer adds the talon to his hand (shown to everyone if ``public``) and
    discards two."""
    t.talon_public = public
    t.hands[declarer] = t.hands[declarer] + t.talon
    events.append({"type": "talon", "declarer": declarer, "cards": list(t.talon) if public else None})
    t.phase = "discard"


def discard(s: T, seat: int, card: str, events: list[JsonDict]) -> T:
    """``s`` after the declarer put ``card`` away, face down (``not_in_hand`` if he lacks it)."""
    if card not in s.hands[seat]:
        raise common_error("not_in_hand", card=card)
    t: T = s.clone()
    t.hands[seat] = [c for c in t.hands[seat] if c != card]
    t.discards.append(card)
    events.append({"type": "discard", "seat": seat, "count": len(t.discards)})
    return t


def end_pulka(t: Table, result: JsonDict, events: list[JsonDict]) -> None:
    """The match is over with ``result``: the sheet is closed, nobody acts any more."""
    t.phase = "over"
    t.turn = None
    t.result = result
    events.append({"type": "game_over", "result": dict(result)})


def table_view(s: Table, to_act: list[int]) -> JsonDict:
    """The public view of the deal and its auction so far."""
    return {
        "phase": s.phase,
        "hand_no": s.hand_no,
        "dealer": s.dealer,
        "first_hand": s.fh if s.dealer is not None else None,
        "to_act": to_act,
        "turn": s.turn,
        "calls": [list(c) for c in s.calls],
        "high": s.high,
        "holder": s.holder,
        "passed": list(s.passed),
    }
