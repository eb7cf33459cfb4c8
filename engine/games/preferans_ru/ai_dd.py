"""Double-dummy solving of a preferans position (all cards known), for the computer player.

The search itself is the preferans family's solver (``engine.preferans_family.dd``): three hands of
a 32-card deck, one side against the other, alpha-beta over tricks. Both games play the
same tricks (docs/rules/preferans_ru.md §5.4: follow suit, else trump, else anything),
so this module only translates: card strings to the solver's bit masks, and the three
kinds of Russian play to its two modes.

- a game (6-10): the declarer wants tricks, both defenders (partners) want him short;
- мизер: the declarer wants none, the catchers want him to take as many as they can;
- распасы: everybody wants few tricks; we solve "me against the other two" (both are
  assumed to push tricks on me), the safe view for the player who has to choose.

The solver is card-only and knows neither game's rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.deadline import NEVER, Deadline
from engine.preferans_family.dd import OutOfNodes, Solver, exact_value, value_from_guess
from engine.preferans_family.dd import card_int as card_bit  # the solver's card number
from engine.preferans_family.dd import mask_of as mask  # a hand as the solver's bit mask

__all__ = ["OutOfNodes", "Position", "mask", "card_bit"]


class Position:
    """One deal's play from one side's point of view, with a node budget shared by all
    its searches (``OutOfNodes`` past ``limit``: deterministic, not a clock; or at the
    caller's ``deadline``).

    ``seats``: the players who hold cards, clockwise; ``target``: the seat whose tricks
    are counted (the declarer; on распасы the player choosing); ``avoid``: ``target``
    wants few tricks (мизер, распасы) instead of many."""

    def __init__(
        self,
        seats: Sequence[int],
        target: int,
        trump: str | None,
        avoid: bool,
        limit: int = 1 << 62,
        deadline: Deadline = NEVER,
    ) -> None:
        if len(seats) != 3:
            raise ValueError("three hands play every deal")
        self.seats = list(seats)
        # the solver numbers the hands 0..2 (in clockwise order); seats may be 0..3
        self.index = {seat: i for i, seat in enumerate(self.seats)}
        self.target = target
        self.avoid = avoid
        self.solver = Solver(self.index[target], [0, 1, 2], trump, avoid, limit=limit, deadline=deadline)

    @property
    def nodes(self) -> int:
        return int(self.solver.nodes)

    def _hands(self, hands: Mapping[int, Sequence[str]]) -> tuple[int, int, int]:
        a, b, c = (mask(hands.get(seat, ())) for seat in self.seats)
        return a, b, c

    def tricks(self, hands: Mapping[int, Sequence[str]], leader: int) -> int:
        """The target's tricks from here (a trick start) with best play by all."""
        h = self._hands(hands)
        return exact_value(lambda need: bool(self.solver._ge(h, self.index[leader], (), need)), len(hands[self.target]))

    def takes_any(self, hands: Mapping[int, Sequence[str]], leader: int) -> bool:
        """Can the others force the target to take a trick (the мизер question)? Cheaper
        than ``tricks``: one search."""
        h = self._hands(hands)
        return bool(self.solver._ge(h, self.index[leader], (), 1))

    def card_values(
        self,
        hands: Mapping[int, Sequence[str]],
        turn: int,
        trick: Sequence[tuple[int, str]],
        cards: Sequence[str],
        guess: int | None = None,
    ) -> dict[str, int]:
        """For each of ``cards`` (legal for ``turn``): the target's tricks from the
        current trick on (it included) after that card, with best play afterwards.
        ``guess``: a likely value of the first card (the search starts there)."""
        h = self._hands(hands)
        played = tuple((self.index[seat], card_bit(c)) for seat, c in trick)
        me = self.index[turn]
        left = len(hands[self.target]) + (1 if any(seat == self.target for seat, _ in trick) else 0)
        out: dict[str, int] = {}
        for card in cards:
            bit = card_bit(card)
            after = list(h)
            after[me] &= ~(1 << bit)
            h2 = (after[0], after[1], after[2])
            t2 = played + ((me, bit),)

            def ge(need: int, h2: tuple[int, int, int] = h2, t2: tuple[tuple[int, int], ...] = t2) -> bool:
                return bool(self.solver._after(h2, me, t2, need))

            value = exact_value(ge, left) if guess is None else value_from_guess(ge, guess, left)
            out[card] = guess = value
        return out
