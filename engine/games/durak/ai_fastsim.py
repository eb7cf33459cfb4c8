"""A fast heads-up playout for the strong player's Monte Carlo (ai_strong.py).

The engine (rules.py) is exact but builds strings, clones states and checks every
action; a playout needs none of that, and the strong player runs hundreds of them per
decision. This is the heads-up game of rules.py §5–7 (one thrower: prostoy and
podkidnoy coincide with two players) on small ints, mutated in place, with the
heuristic of ai_policy.py on both sides. It never transfers nor covers blind; the
position it starts from comes from the engine, so the decision itself is always
checked by the real rules. Cards are ints: rank (2..14) + 16 × suit (+ 64 × copy).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.cards import RANK_VALUE, SUITS

from .state import State

HAND = 6
TB = 13  # ai_policy.TRUMP_BONUS
LOW = RANK_VALUE["J"]
HIGH_TRUMP = TB + RANK_VALUE["Q"]
_SUIT = {s: i for i, s in enumerate(SUITS)}


def encode(card: str) -> int:
    copy = int(card[3:]) if len(card) > 2 else 0
    return RANK_VALUE[card[0]] + 16 * _SUIT[card[1]] + 64 * copy


# (card, its cover or None), cards encoded as ints by ``encode``
TablePair = tuple[int, int | None]
# hands, stock, table, phase, attacker, taking, trump suit (-1: none), limit,
# limit of this bout, cards in hand that lose (two decks)
Position = tuple[list[list[int]], list[int], list[TablePair], str, int, bool, int, int, int, int]


def from_state(s: State, me: int) -> Position | None:
    """The playout position of a heads-up engine state (None when it is not one)."""
    if s.n != 2 or s.phase in ("deal", "verdict"):
        return None
    assert s.attacker is not None, "a dealt game has an attacker"
    hands = [[encode(c) for c in h] for h in s.hands]
    table: list[TablePair] = [(encode(p[0]), encode(p[2]) if p[2] is not None else None) for p in s.table]
    stock = [encode(c) for c in s.stock]
    trump = _SUIT[s.trump] if s.trump is not None else -1
    lim = s.rules.first_limit if s.bout == 1 else s.rules.limit
    return (
        hands,
        stock,
        table,
        s.phase,
        s.attacker,
        s.taking,
        trump,
        s.rules.limit,
        lim,
        s.rules.loss_at if s.rules.two_decks else 10**6,
    )


def playout(pos: Position, me: int, max_bouts: int = 200) -> int:
    """+1 if ``me`` is not the fool, -1 if it is, 0 for a draw (or an endless game)."""
    hands, stock, table, phase, att, taking, trump, limit, lim, loss_at = pos
    hands = [hands[0][:], hands[1][:]]
    stock = stock[:]
    table = list(table)

    def val(c: int) -> int:
        r = c & 15
        return r + TB if (c >> 4) & 3 == trump else r

    for _ in range(max_bouts):
        d = 1 - att
        ha, hd = hands[att], hands[d]
        if phase == "open":
            ha.sort(key=val)
            # the cheapest rank; all of it while low (or once the stock is gone)
            first = ha[0]
            r = first & 15
            group = [c for c in ha if c & 15 == r]
            if len(group) > 1 and (r >= LOW and stock or any((c >> 4) & 3 == trump for c in group)):
                group = [first]
            group = group[: min(lim, len(hd))]
            for c in group:
                ha.remove(c)
            table = [(c, None) for c in group]
            phase = "defend"
        taken = False
        while True:
            if phase == "defend":
                taken = not _defend(hd, table, trump, len(stock), val)
                if taken:
                    phase = "final"
                else:
                    phase = "throw"
            # throw-ins: the attacker alone (heads-up)
            room = min(lim - len(table), len(hd) - sum(1 for p in table if p[1] is None))
            if room > 0:
                vis = {p[0] & 15 for p in table} | {p[1] & 15 for p in table if p[1] is not None}
                throw = []
                for c in sorted(ha, key=val):
                    if c & 15 not in vis:
                        continue
                    v = val(c)
                    if stock:
                        if v >= TB or v >= LOW + (2 if phase == "final" else 0):
                            continue
                    elif phase != "final" and (c >> 4) & 3 == trump:
                        continue
                    throw.append(c)
                    if len(throw) >= room:
                        break
                if throw:
                    for c in throw:
                        ha.remove(c)
                    table.extend((c, None) for c in throw)
                    if phase == "throw":
                        phase = "defend"
                        continue
            if phase == "throw" and any(p[1] is None for p in table):
                # a throw-in window (throw_in = any_time) closed: the defender covers on.
                # The playout itself throws in only after full covers, a fair approximation.
                phase = "defend"
                continue
            break
        # end of the bout
        cards = [p[0] for p in table] + [p[1] for p in table if p[1] is not None]
        table = []
        if phase == "final":
            hd.extend(cards)
            if len(hd) >= loss_at:
                return -1 if d == me else 1
        for x in (att, d):
            h = hands[x]
            while len(h) < HAND and stock:
                h.append(stock.pop(0))
        if not stock:
            if not ha and not hd:
                return 0
            if not ha or not hd:
                return -1 if (ha if not hd else hd) is hands[me] else 1
        if phase != "final":
            att = d
        lim = limit
        phase = "open"
    return 0


def _defend(hd: list[int], table: list[TablePair], trump: int, stock: int, val: Callable[[int], int]) -> bool:
    """Cover every open card (True), or take (False), like ai_policy._defend."""
    while True:
        open_idx = [i for i, p in enumerate(table) if p[1] is None]
        if not open_idx:
            return True
        covers: dict[int, int] = {}
        for i in open_idx:
            a = table[i][0]
            sa, ra = (a >> 4) & 3, a & 15
            best: int | None = None
            for c in hd:
                sc = (c >> 4) & 3
                if (sc == sa and (c & 15) > ra) or (sc == trump and sa != trump):
                    if best is None or val(c) < val(best):
                        best = c
            if best is None:
                return False
            covers[i] = best
        if stock > 0 and len(hd) <= 7 and stock >= 6:
            spent = sum(val(c) for c in covers.values())
            attack = sum(val(table[i][0]) for i in open_idx)
            if any(val(c) >= HIGH_TRUMP for c in covers.values()) or spent - attack > 12:
                return False
        i = max(open_idx, key=lambda j: val(table[j][0]))
        hd.remove(covers[i])
        table[i] = (table[i][0], covers[i])
