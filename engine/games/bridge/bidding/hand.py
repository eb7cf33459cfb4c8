"""Hand evaluation for the bidder: points, suit lengths, shape, stoppers.

Plain functions over a hand as the view gives it (cards like ``"AS"``, ``"TD"``).
"""

from __future__ import annotations

SUITS = "SHDC"
HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}


class Hand:
    """One seat's thirteen cards with the counts the bidder asks for again and again."""

    __slots__ = ("cards", "hcp", "len", "suit_hcp", "aces")

    def __init__(self, cards: list[str]) -> None:
        self.cards = list(cards)
        self.hcp = sum(HCP.get(c[0], 0) for c in cards)
        self.len = {s: 0 for s in SUITS}
        self.suit_hcp = {s: 0 for s in SUITS}
        for c in cards:
            self.len[c[1]] += 1
            self.suit_hcp[c[1]] += HCP.get(c[0], 0)
        self.aces = sum(1 for c in cards if c[0] == "A")

    # shape -------------------------------------------------------------
    @property
    def shape(self) -> list[int]:
        return sorted(self.len.values(), reverse=True)

    @property
    def balanced(self) -> bool:
        """4-3-3-3, 4-4-3-2 or 5-3-3-2: no singleton or void, at most one doubleton."""
        s = self.shape
        return s[3] >= 2 and s[2] >= 3

    @property
    def semi_balanced(self) -> bool:
        """No singleton or void (5-4-2-2 and 6-3-2-2 too): fine for notrump. A seven-card
        suit (7-2-2-2) is not: the hand plays in its suit."""
        return self.shape[3] >= 2 and self.shape[0] <= 6

    def longest(self, suits: str = SUITS) -> str:
        """The longest of ``suits``; ties go to the higher-ranking suit."""
        return max(suits, key=lambda s: (self.len[s], -SUITS.index(s)))

    # points ------------------------------------------------------------
    @property
    def length_points(self) -> int:
        """HCP plus one for every card beyond four in a suit (an opener's count)."""
        return self.hcp + sum(max(0, n - 4) for n in self.len.values())

    def support_points(self, trump: str) -> int:
        """HCP plus shortness when raising ``trump`` (a dummy's count): void 5, singleton 3,
        doubleton 1 with four trumps; 3/2/1 with only three."""
        table = {0: 5, 1: 3, 2: 1} if self.len[trump] >= 4 else {0: 3, 1: 2, 2: 1}
        return self.hcp + sum(table.get(n, 0) for s, n in self.len.items() if s != trump)

    def stopper(self, suit: str) -> bool:
        """A likely stopper for notrump: A, Kx, Qxx, Jxxx or any five cards."""
        ranks = {c[0] for c in self.cards if c[1] == suit}
        n = self.len[suit]
        return (
            "A" in ranks
            or ("K" in ranks and n >= 2)
            or ("Q" in ranks and n >= 3)
            or ("J" in ranks and n >= 4)
            or n >= 5
        )

    def good_suit(self, suit: str) -> bool:
        """Two of the top three honours, or three of the top five: worth showing alone."""
        ranks = {c[0] for c in self.cards if c[1] == suit}
        return len(ranks & set("AKQ")) >= 2 or len(ranks & set("AKQJT")) >= 3

    def opens(self) -> bool:
        """Worth a one-level opening: 12+ HCP, or the rule of 20 (HCP plus the two longest
        suits) with 10+."""
        s = self.shape
        return self.hcp >= 12 or (self.hcp >= 10 and self.hcp + s[0] + s[1] >= 20)
