"""A double-dummy solver for preferans trick play (two or three hands, all cards known).

It answers "with best play by everybody, how many of the remaining tricks does the
declarer take?" for one layout of the cards. The computer players of both preferans games
run it on many sampled layouts of the cards they cannot see (the Russian one through
``engine.games.preferans_ru.ai_dd``). It knows cards and tricks only, no game's rules.

Method: the declarer's side against the defenders' side (the defenders are treated as
partners, which is how they score in practice); a boolean search "can the declarer's
side reach ``need`` tricks?" with alpha-beta cut-offs, run a few times to pin the exact
value. Positions at the start of a trick are memoised with their known bounds, so the
repeated searches (and the searches of neighbouring cards) reuse each other's work.
Cards that are touching in rank among the cards still in play (e.g. K and Q when A and
J are gone or in the same hand) are equivalent, so only one of each run is searched.

The trick rules are those of ``engine.tricks`` (follow suit, else trump if able, else
anything), re-stated on bitmasks for speed: a card is ``suit * 8 + rank`` with the suit
index of ``SUITS`` and rank 0 (seven) to 7 (ace); a hand is a 32-bit mask.
In Bettel the roles flip: the defenders try to make the declarer take a trick.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from engine.deadline import NEVER, Deadline

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

# a position's hands: one bitmask of cards per seat 0..2 (a passed defender's is 0)
Masks = tuple[int, ...]
# the current trick so far: (seat, card number) in play order
Played = tuple[tuple[int, int], ...]
Test = Callable[[int], bool]  # "does the declarer take at least n tricks?"

SUITS = "SDHC"
RANKS = "789TJQKA"
SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))


def exact_value(ge: Test, hi: int) -> int:
    """The largest n in 0..``hi`` with ``ge(n)`` (``ge`` holds up to it, then fails):
    a binary search, a handful of solver calls."""
    lo = 0
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if ge(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def value_from_guess(ge: Test, guess: int, hi: int) -> int:
    """The same value as ``exact_value``, searched outwards from a guess (a neighbour
    card's value): usually two tests."""
    if ge(guess):
        v = guess
        while v < hi and ge(v + 1):
            v += 1
        return v
    v = guess - 1
    while v > 0 and not ge(v):
        v -= 1
    return max(v, 0)


def card_int(card: str) -> int:
    return SUITS.index(card[1]) * 8 + RANKS.index(card[0])


def mask_of(cards: Iterable[str]) -> int:
    m = 0
    for c in cards:
        m |= 1 << card_int(c)
    return m


def popcount(mask: int) -> int:
    return bin(mask).count("1")


CHECK_EVERY = 512  # nodes between two looks at the deadline (a few ms)


class OutOfNodes(Exception):
    """The solver's node limit was reached (the search is cut off, deterministically)."""


class Solver:
    """Solves positions of one contract. ``seats`` are the participants in clockwise
    order (the passed defender of a two-handed play is left out); ``trump`` is a suit
    letter or None; ``bettel``: the declarer wants no trick."""

    def __init__(
        self,
        declarer: int,
        seats: list[int],
        trump: str | None,
        bettel: bool = False,
        limit: int | None = None,
        deadline: Deadline = NEVER,
    ) -> None:
        self.declarer = declarer
        self.seats = list(seats)
        self.n = len(seats)
        self.next = {s: seats[(i + 1) % self.n] for i, s in enumerate(seats)}
        self.trump = None if trump is None else SUITS.index(trump)
        # the side that wants the declarer's trick count high
        self.max_is_decl = not bettel
        self.tt: dict[tuple[int, int, int, int], tuple[int, int]] = {}  # memo key -> bounds
        self.nodes = 0
        # a hard cap on the nodes of all searches of this solver: past it, OutOfNodes
        self.limit = limit if limit is not None else 1 << 62
        self.deadline = deadline  # asked every CHECK_EVERY nodes: past it, OutOfNodes too

    # ------------------------------------------------------------------ public
    def tricks(self, hands: dict[int, int], leader: int) -> int:
        """Exact number of the remaining tricks the declarer takes, from a trick start."""
        return self._value(hands, leader, ())

    def card_values(self, hands: dict[int, int], turn: int, trick: Played) -> dict[int, int]:
        """For each card ``turn`` may play now: the declarer's tricks from the current
        trick on (it included) after that card, with best play afterwards. ``trick`` is
        the ((seat, card), ...) played to the current trick so far. In Bettel only 0 or
        1 (play stops at the declarer's first trick)."""
        h = self._tuple(hands)
        out: dict[int, int] = {}
        legal = self._legal(h[turn], trick)
        groups = self._groups(legal, self._in_play(h, trick))
        key = self._order_key(turn, trick)
        groups.sort(key=lambda g: key(g[0]))
        left = self._left(h, trick)
        guess = None
        for rep, group in groups:
            after = list(h)
            after[turn] &= ~(1 << rep)
            h2 = tuple(after)
            t2 = trick + ((turn, rep),)

            def ge(need: int, h2: Masks = h2, t2: Played = t2) -> bool:
                return self._after(h2, turn, t2, need)

            if not self.max_is_decl:  # Bettel: only whether the declarer takes a trick
                val = 1 if ge(1) else 0
            elif guess is None:
                val = exact_value(ge, left)
            else:
                val = value_from_guess(ge, guess, left)
            guess = val
            for c in group:
                out[c] = val
        return out

    # ------------------------------------------------------------------ search
    def _tuple(self, hands: dict[int, int]) -> Masks:
        return tuple(hands.get(s, 0) for s in range(3))

    def _value(self, hands: dict[int, int] | Masks, leader: int, trick: Played) -> int:
        h = self._tuple(hands) if isinstance(hands, dict) else hands
        return exact_value(lambda need: self._ge(h, leader, trick, need), self._left(h, trick))

    def _left(self, h: Masks, trick: Played) -> int:
        """Tricks still to be decided, the current one included."""
        d = self.declarer
        n = popcount(h[d])
        if any(s == d for s, _ in trick):
            n += 1
        return n

    def _legal(self, hand: int, trick: Played) -> int:
        if not trick:
            return hand
        follow = hand & SUIT_MASK[trick[0][1] >> 3]
        if follow:
            return follow
        if self.trump is not None:
            trumps = hand & SUIT_MASK[self.trump]
            if trumps:
                return trumps
        return hand

    @staticmethod
    def _in_play(h: Masks, trick: Played) -> int:
        m = h[0] | h[1] | h[2]
        for _, c in trick:
            m |= 1 << c
        return m

    @staticmethod
    def _groups(legal: int, in_play: int) -> list[tuple[int, list[int]]]:
        """Runs of touching cards (no card still in play between them) of ``legal``:
        (the lowest of the run, the run)."""
        out = []
        for s in range(4):
            sh = 8 * s
            m = (legal >> sh) & 0xFF
            if m:
                for rep, run in _RUNS[m * 256 + ((in_play >> sh) & 0xFF)]:
                    out.append((rep + sh, [c + sh for c in run]))
        return out

    def _winner(self, trick: Played) -> int:
        """Index of the winning play of a (partial) trick."""
        best = 0
        bc = trick[0][1]
        t = self.trump
        for i in range(1, len(trick)):
            c = trick[i][1]
            if (c >> 3) == (bc >> 3):
                if c > bc:
                    best, bc = i, c
            elif t is not None and (c >> 3) == t:
                best, bc = i, c
        return best

    def _key(self, h: Masks, turn: int) -> tuple[int, int, int, int]:
        """The memo key: the hands re-ranked among the cards still in play, so positions
        that differ only by which low cards are gone share one entry."""
        h0, h1, h2 = h
        p = h0 | h1 | h2
        k0 = k1 = k2 = 0
        for sh in (0, 8, 16, 24):
            base = ((p >> sh) & 0xFF) * 256
            k0 |= _COMP[base + ((h0 >> sh) & 0xFF)] << sh
            k1 |= _COMP[base + ((h1 >> sh) & 0xFF)] << sh
            k2 |= _COMP[base + ((h2 >> sh) & 0xFF)] << sh
        return (k0, k1, k2, turn)

    def _quick(self, h: Masks, leader: int) -> int:
        """Tricks the leader can cash at once from the top of his suits: a lower bound
        for his side (trump contracts: a side suit only as long as every other player
        holding trumps still follows it)."""
        mine = h[leader]
        p = h[0] | h[1] | h[2]
        t = self.trump
        ruffers = []
        if t is not None:
            tm = SUIT_MASK[t]
            ruffers = [h[x] for x in self.seats if x != leader and h[x] & tm]
        total = 0
        for s in range(4):
            sh = 8 * s
            ps = (p >> sh) & 0xFF
            ms = (mine >> sh) & 0xFF
            run = 0
            for c in range(7, -1, -1):
                bit = 1 << c
                if not ps & bit:
                    continue
                if ms & bit:
                    run += 1
                else:
                    break
            if run and t is not None and s != t and ruffers:
                run = min([run] + [popcount(o & SUIT_MASK[s]) for o in ruffers])
            total += run
        return total

    def _ge(self, h: Masks, turn: int, trick: Played, need: int) -> bool:
        """Can the maximising side make the declarer take >= ``need`` of the tricks
        from here on (the current trick included)?"""
        if need <= 0:
            return True
        if trick:
            return self._search(h, turn, trick, need)
        n = popcount(h[self.declarer])
        if need > n:
            return False
        key = self._key(h, turn)
        bounds = self.tt.get(key)
        if bounds is not None:
            if bounds[0] >= need:
                return True
            if bounds[1] < need:
                return False
            lo, hi = bounds
        else:
            lo, hi = 0, n
            if self.max_is_decl:
                q = self._quick(h, turn)
                if turn == self.declarer:
                    lo = q
                else:
                    hi = n - q
                if lo >= need or hi < need:
                    self.tt[key] = (lo, hi)
                    return lo >= need
        result = self._search(h, turn, trick, need)
        if result:
            lo = max(lo, need)
        else:
            hi = min(hi, need - 1)
        self.tt[key] = (lo, hi)
        return result

    def _moves(self, h: Masks, turn: int, trick: Played) -> list[int]:
        """One card of each run of equivalent legal cards, likely best first."""
        hand = h[turn]
        p = h[0] | h[1] | h[2]
        legal = hand
        if trick:
            for _, c in trick:
                p |= 1 << c
            follow = hand & SUIT_MASK[trick[0][1] >> 3]
            if follow:
                legal = follow
            elif self.trump is not None and hand & SUIT_MASK[self.trump]:
                legal = hand & SUIT_MASK[self.trump]
        reps: list[int] = []
        for sh in (0, 8, 16, 24):
            m = (legal >> sh) & 0xFF
            if m:
                reps += _REPS[sh >> 3][m * 256 + ((p >> sh) & 0xFF)]
        if len(reps) > 1:
            reps.sort(key=self._order_key(turn, trick))
        return reps

    def _search(self, h: Masks, turn: int, trick: Played, need: int) -> bool:
        self.nodes += 1
        if self.nodes > self.limit or not self.nodes % CHECK_EVERY and self.deadline.expired():
            raise OutOfNodes
        me_max = (turn == self.declarer) == self.max_is_decl
        h0, h1, h2 = h
        for rep in self._moves(h, turn, trick):
            bit = ~(1 << rep)
            if turn == 0:
                nh = (h0 & bit, h1, h2)
            elif turn == 1:
                nh = (h0, h1 & bit, h2)
            else:
                nh = (h0, h1, h2 & bit)
            ok = self._after(nh, turn, trick + ((turn, rep),), need)
            if ok == me_max:
                return ok
        return not me_max

    def _after(self, h: Masks, last: int, trick: Played, need: int) -> bool:
        if len(trick) < self.n:
            return self._ge(h, self.next[last], trick, need)
        winner = trick[self._winner(trick)][0]
        if winner == self.declarer:
            need -= 1
        if not h[self.declarer]:
            return need <= 0
        return self._ge(h, winner, (), need)

    def _order_key(self, turn: int, trick: Played) -> Callable[[int], SupportsRichComparison]:
        """Sort key putting likely best cards first. The mover wants the trick for the
        declarer iff he is on the maximising side (in Bettel the defenders want the
        declarer to win). At the lead: high cards (Bettel: low cards). Following: low
        cards when the trick already goes the mover's way, else the cheapest card that
        turns it; the Bettel declarer sheds his highest card that stays under the winner."""
        decl = self.declarer
        if not trick:
            if self.max_is_decl:
                return _neg_rank
            return _rank
        w = self._winner(trick)
        best = trick[w][1]
        t = self.trump
        bs = best >> 3

        def beats(c: int) -> bool:
            if (c >> 3) == bs:
                return c > best
            return t is not None and (c >> 3) == t and bs != t

        if not self.max_is_decl and turn == decl:
            return lambda c: (1, c & 7) if beats(c) else (0, -(c & 7))
        me_max = (turn == decl) == self.max_is_decl
        if (trick[w][0] == decl) == me_max:
            return _rank
        return lambda c: (0, c & 7) if beats(c) else (1, c & 7)


def _rank(c: int) -> int:
    return c & 7


def _neg_rank(c: int) -> int:
    return -(c & 7)


def _runs(m: int, p: int) -> list[tuple[int, list[int]]]:
    out: list[tuple[int, list[int]]] = []
    run: list[int] = []
    for c in range(7, -1, -1):
        bit = 1 << c
        if m & bit:
            run.append(c)
        elif p & bit and run:
            out.append((run[-1], run))
            run = []
    if run:
        out.append((run[-1], run))
    return out


def _subsets(p: int) -> Iterator[int]:
    x = p
    while True:
        yield x
        if x == 0:
            return
        x = (x - 1) & p


def _compress(p: int, x: int) -> int:
    """``x``'s cards re-ranked among the cards ``p`` still in play (0 = the lowest)."""
    out, k = 0, 0
    for c in range(8):
        if p >> c & 1:
            if x >> c & 1:
                out |= 1 << k
            k += 1
    return out


# tables over one suit's 8 bits: runs of a hand's cards among the cards in play, and
# the re-ranked pattern used to key the memo (positions equal up to removed cards)
# (an entry for a hand outside the cards in play is never read: it keeps the shared [])
_RUNS: list[list[tuple[int, list[int]]]] = [[]] * 65536
_REPS: list[list[list[int]]] = [[[]] * 65536 for _ in range(4)]  # per suit: the runs' lowest cards
_COMP: list[int] = [0] * 65536
for _p in range(256):
    for _x in _subsets(_p):
        _RUNS[_x * 256 + _p] = _runs(_x, _p)
        for _s in range(4):
            _REPS[_s][_x * 256 + _p] = [rep + 8 * _s for rep, _ in _RUNS[_x * 256 + _p]]
        _COMP[_p * 256 + _x] = _compress(_p, _x)
