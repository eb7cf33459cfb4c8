"""Тысяча's cards (rules §1): 24 cards 9–A ranked 9 J Q K 10 A, their points and the
marriages (K+Q of a suit)."""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import make_deck

DECK = tuple(make_deck(24))
RANKS = "9JQKTA"  # low to high (§1.1): the ten ranks above the king
RANK_ORDER = {r: i for i, r in enumerate(RANKS)}
POINTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}  # §1.2: 120 in the deck
MARRIAGE = {"H": 100, "D": 80, "C": 60, "S": 40}  # §4.2
SUIT_ORDER = "SCDH"  # display order: the marriages' values rising


def points(cards: Iterable[str]) -> int:
    return sum(POINTS[c[0]] for c in cards)


def marriages(hand: Iterable[str]) -> list[str]:
    """The suits of which ``hand`` holds both king and queen."""
    held = set(hand)
    return [s for s in SUIT_ORDER if "K" + s in held and "Q" + s in held]


def sort_cards(cards: Iterable[str], trump: str | None = None) -> list[str]:
    """Display order: by suit (trump last), then by rank."""
    order = {s: i for i, s in enumerate(SUIT_ORDER)}
    if trump:
        order[trump] = 9
    return sorted(cards, key=lambda c: (order[c[1]], RANK_ORDER[c[0]]))


def trick_winner(cards: list[str], trump: str | None) -> int:
    """Index of the card that wins the trick: the highest trump, else the highest of the suit led."""
    best = 0
    for i in range(1, len(cards)):
        card, top = cards[i], cards[best]
        if card[1] == top[1]:
            if RANK_ORDER[card[0]] > RANK_ORDER[top[0]]:
                best = i
        elif trump and card[1] == trump:
            best = i
    return best


def playable(hand: list[str], led: str | None, trump: str | None) -> list[str]:
    """§3.2: follow suit, else trump, else any card."""
    if led is None:
        return list(hand)
    follow = [c for c in hand if c[1] == led]
    if follow:
        return follow
    trumps = [c for c in hand if c[1] == trump] if trump else []
    return trumps or list(hand)
