"""Cards and their notation, shared by every game.

A card is a plain string: rank then suit, e.g. ``"TH"`` (ten of hearts), ``"6S"``.
When a game uses two identical decks each copy gets its own id by a ``#n``
suffix (``"7S#1"``, ``"7S#2"``); the copies are equal for every rule, so rules
compare ``rank()`` and ``suit()``, never the raw strings.
"""

from __future__ import annotations

import random
from typing import Iterable, Sequence

RANKS = "23456789TJQKA"
SUITS = "SHDC"  # spades, hearts, diamonds, clubs
RANK_VALUE = {r: i + 2 for i, r in enumerate(RANKS)}  # '2' -> 2 ... 'A' -> 14

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_LABEL = {"T": "10"}

# Which ranks a deck of a given size holds (durak's 24/36/52, the 32 of King/preferans).
DECK_RANKS = {24: "9TJQKA", 32: "789TJQKA", 36: "6789TJQKA", 52: RANKS}


def rank(card: str) -> str:
    return card[0]


def suit(card: str) -> str:
    return card[1]


def base(card: str) -> str:
    """The card without its copy suffix: ``"7S#2"`` -> ``"7S"``."""
    return card[:2]


def is_card(text: str) -> bool:
    """True for a well-formed card id (with or without a ``#n`` copy suffix)."""
    if len(text) < 2 or text[0] not in RANKS or text[1] not in SUITS:
        return False
    if len(text) == 2:
        return True
    return text[2] == "#" and text[3:].isdigit() and len(text) > 3


def make_deck(size: int = 36, copies: int = 1) -> list[str]:
    """An ordered (unshuffled) deck. With ``copies > 1`` ids get ``#1``, ``#2``..."""
    try:
        ranks = DECK_RANKS[size]
    except KeyError:
        raise ValueError(f"unknown deck size {size}") from None
    cards = [r + s for s in SUITS for r in ranks]
    if copies == 1:
        return cards
    return [f"{c}#{k}" for k in range(1, copies + 1) for c in cards]


def shuffled(cards: Sequence[str], rng: random.Random) -> list[str]:
    deck = list(cards)
    rng.shuffle(deck)
    return deck


def label(card: str) -> str:
    """Human label with suit symbol: ``"TH"`` -> ``"10♥"``. Copy suffixes are dropped."""
    r = card[0]
    return RANK_LABEL.get(r, r) + SUIT_SYMBOL[card[1]]


def sort_hand(cards: Iterable[str], trump: str | None = None) -> list[str]:
    """Sort for display: by suit (trump last), then by rank."""
    order = {s: i for i, s in enumerate(SUITS)}
    if trump:
        order[trump] = len(SUITS)
    return sorted(cards, key=lambda c: (order[c[1]], RANK_VALUE[c[0]], c))
