"""The preferans deal (both rule books §3): one 32-card deck, ten cards to each of the
three players in the deal and two face down to the talon; and how a hand is ordered on
the screen."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.cards import RANK_VALUE, is_card, make_deck, shuffled
from engine.errors import common_error

DECK = make_deck(32)
DECK_SET = frozenset(DECK)
HAND_SIZE = 10
TALON_SIZE = 2


def deal_action(dealer: int, rng: random.Random) -> str:
    """The system's ``deal dealer=<seat> <32 cards>``: a fresh shuffle dealt by ``dealer``."""
    return f"deal dealer={dealer} " + " ".join(shuffled(DECK, rng))


def check_deck(deck: Sequence[str]) -> None:
    """``bad_deal`` unless the cards of a deal action are exactly one 32-card deck."""
    if any(not is_card(c) for c in deck) or sorted(deck) != sorted(DECK):
        raise common_error("bad_deal", detail="the cards are not exactly one shuffled 32-card deck")


def split_deal(deck: Sequence[str], seats: Sequence[int], first_packet: int) -> tuple[dict[int, list[str]], list[str]]:
    """The hands and the talon of a deal: ``first_packet`` cards to each of ``seats`` in
    order, the talon, then the rest of each hand (Balkan: 5, talon, 5; Russian: 10, talon)."""
    second_packet = HAND_SIZE - first_packet
    first_round = first_packet * len(seats)
    talon = list(deck[first_round : first_round + TALON_SIZE])
    rest = deck[first_round + TALON_SIZE :]
    hands = {
        seat: list(deck[i * first_packet : (i + 1) * first_packet])
        + list(rest[i * second_packet : (i + 1) * second_packet])
        for i, seat in enumerate(seats)
    }
    return hands, talon


def one_card(action: Any, args: list[str]) -> list[str]:
    """The argument of ``discard 7S`` / ``play 7S``: one card of the deck, else ``bad_syntax``."""
    if len(args) != 1 or args[0] not in DECK_SET:
        raise common_error("bad_syntax", action=action, detail="expected one card, e.g. 7S")
    return args


def sort_hand(cards: Sequence[str], trump: str | None, suit_order: str, trumps_first: bool) -> list[str]:
    """By suit (in ``suit_order``, the trumps first or last), then rank, high first."""
    trump_key = -1 if trumps_first else len(suit_order)

    def key(c: str) -> tuple[int, int]:
        return (trump_key if c[1] == trump else suit_order.index(c[1]), -RANK_VALUE[c[0]])

    return sorted(cards, key=key)
