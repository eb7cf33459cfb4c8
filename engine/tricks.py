"""Trick-taking pieces shared by preferans, King, bridge and whist: which cards may be
played to a trick, who wins it, and whose turn it is. Cards are the strings of
``engine.cards``; seats are numbers 0..n-1 clockwise.

The common rule family: follow the suit led if you can; a player who cannot may have to
play a trump (``must_trump``: preferans, whist by default, King's trump deals) — any
trump, never a duty to overtrump; otherwise any card. The trick goes to the highest
trump in it, or, with none, to the highest card of the suit led. "Highest" is by a rank
order, ``RANK_VALUE`` (ace high) unless a game passes its own (rank -> value, higher wins).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.cards import RANK_VALUE
from engine.jsondata import JsonDict


def playable(hand: list[str], led_suit: str | None, trump: str | None, must_trump: bool) -> list[str]:
    """The cards of ``hand`` that may be played to a trick whose first card had ``led_suit``
    (``None``: this card leads, anything goes). Order is kept."""
    if led_suit is None:
        return list(hand)
    follow = [c for c in hand if c[1] == led_suit]
    if follow:
        return follow
    if must_trump and trump:
        trumps = [c for c in hand if c[1] == trump]
        if trumps:
            return trumps
    return list(hand)


def winning_index(cards: list[str], trump: str | None, ranks: Mapping[str, int] = RANK_VALUE) -> int:
    """Index (in play order) of the card that wins a complete or partial trick; of two
    cards of one rank (two decks) the first played wins."""
    best = 0
    for i in range(1, len(cards)):
        card, top = cards[i], cards[best]
        if card[1] == top[1]:
            if ranks[card[0]] > ranks[top[0]]:
                best = i
        elif trump and card[1] == trump and top[1] != trump:
            best = i
        # any other card (a discard) never wins
    return best


def next_seat(seat: int, players: int, skip: frozenset[int] | set[int] = frozenset()) -> int:
    """The next seat clockwise that is not in ``skip`` (e.g. bridge's dummy never leads,
    a preferans defender who passed does not play)."""
    for step in range(1, players + 1):
        candidate = (seat + step) % players
        if candidate not in skip:
            return candidate
    raise ValueError("every seat is skipped")


@dataclass
class Trick:
    """A trick in progress: who led and the (seat, card) plays so far."""

    leader: int
    plays: list[tuple[int, str]] = field(default_factory=list)

    @property
    def led_suit(self) -> str | None:
        return self.plays[0][1][1] if self.plays else None

    @property
    def cards(self) -> list[str]:
        return [card for _, card in self.plays]

    def winner(self, trump: str | None, ranks: Mapping[str, int] = RANK_VALUE) -> int:
        """The seat that wins the trick so far."""
        return self.plays[winning_index(self.cards, trump, ranks)][0]

    def copy(self) -> "Trick":
        """A trick that more cards may be played to without changing this one."""
        return Trick(self.leader, self.plays[:])

    def to_dict(self) -> JsonDict:
        return {"leader": self.leader, "plays": [[s, c] for s, c in self.plays]}

    @classmethod
    def from_dict(cls, data: JsonDict) -> "Trick":
        return cls(data["leader"], [(s, c) for s, c in data["plays"]])
