"""The bidding system as ONE table of call meanings.

``TABLE[situation]`` is an ordered list of ``Meaning``s: the calls the system knows in that
situation, each with what it promises (HCP range, suit lengths, balanced or not) and whether
it is forcing. The bidder walks the list and makes the first call its hand fits; the
inference (``engine/games/bridge/inference.py``) reads the same entries backwards to describe a
seat from its calls. A call with no entry in its situation is natural (see ``natural``).

A *situation* is the auction from the first bid as the caller sees it: its own side's
calls plain, the opponents' bids and doubles in brackets, their passes left out, e.g.
``""`` (to open), ``"1H"`` (partner opened 1H, RHO passed), ``"1NT-2C"`` (opener after
Stayman), ``"(1D)"`` (RHO opened 1D), ``"1C-(1S)"`` (partner's 1C was overcalled).

The system (docs/bridge-bidding.md says it for players): 1NT 15-17 balanced, 2NT 20-21,
2C 22+, five-card majors, better minor, weak twos and three-level pre-empts; Stayman and
Jacoby transfers over 1NT and 2NT; single / limit / game raises; new suits forcing;
notrump rebids by ranges; overcalls, 1NT overcall, takeout doubles, negative doubles.
Later calls are natural and placed by points (``placement.py``), slams through Blackwood.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .hand import SUITS, Hand

STRAIN_ORDER = "CDHSN"  # N = NT, for ranking bids
MAJORS, MINORS = "HS", "CD"


@dataclass(frozen=True)
class Meaning:
    call: str  # engine notation: "P", "X", "XX", "1C".."7NT"
    hcp: tuple[int, int] = (0, 37)  # range of the count below
    length: tuple[tuple[str, int, int], ...] = ()  # (suit, at least, at most)
    balanced: bool = False  # promises a balanced hand
    forcing: bool = False  # partner may not pass (if RHO passes)
    count: str = "hcp"  # "hcp", "length" (HCP + long cards) or a trump
    test: Callable[[Hand], bool] | None = None  # bidder-only refinement (choice between calls)
    note: str = ""

    def fits(self, hand: Hand) -> bool:
        pts = (
            hand.hcp
            if self.count == "hcp"
            else hand.length_points
            if self.count == "length"
            else hand.support_points(self.count)
        )
        if not self.hcp[0] <= pts <= self.hcp[1]:
            return False
        if any(not lo <= hand.len[s] <= hi for s, lo, hi in self.length):
            return False
        if self.balanced and not hand.balanced:
            return False
        return self.test is None or self.test(hand)


TABLE: dict[str, list[Meaning]] = {}


def add(
    situation: str,
    call: str,
    hcp: tuple[int, int] = (0, 37),
    *,
    forcing: bool = False,
    balanced: bool = False,
    count: str = "hcp",
    # Callable[..., bool]: the tests below are lambdas that capture loop variables as
    # default arguments (``lambda h, m=_m: ...``), which mypy cannot match against
    # Callable[[Hand], bool]; Meaning.test keeps the precise type.
    test: Callable[..., bool] | None = None,
    note: str = "",
    suits: dict[str, tuple[int, int]] | None = None,
    **length: tuple[int, int],
) -> None:
    """One entry; suit lengths as keywords, e.g. ``H=(5, 13)``, or in ``suits`` when
    the suit is in a variable (``suits={m: (5, 13)}``)."""
    length = {**length, **(suits or {})}
    TABLE.setdefault(situation, []).append(
        Meaning(call, hcp, tuple((s, lo, hi) for s, (lo, hi) in length.items()), balanced, forcing, count, test, note)
    )


# ------------------------------------------------------------------ situations
def situation(calls: list[str], dealer: int, index: int | None = None) -> str:
    """The situation of the caller of call ``index`` (default: the next call)."""
    index = len(calls) if index is None else index
    seat = (dealer + index) % 4
    parts: list[str] = []
    for i in range(index):
        call = calls[i]
        if not parts and call == "P":
            continue  # passes before the first bid
        if (dealer + i) % 2 == seat % 2:
            parts.append(call)
        elif call != "P":
            parts.append(f"({call})")
    return "-".join(parts)


def meanings(key: str) -> list[Meaning]:
    if key not in TABLE and key.startswith("(1") and key[4:].startswith("-1NT"):
        key = key[5:]  # after our 1NT overcall the notrump system is on
    if key not in TABLE and key.endswith(")-P") and key.count("(") == 1 and key[1] in "23":
        key = key[:-2]  # in the pass-out seat over a weak two or pre-empt: as in the direct seat
    return TABLE.get(key, [])


def bid_rank(bid: str) -> int:
    return (int(bid[0]) - 1) * 5 + STRAIN_ORDER.index(bid[1])


def strain_of(bid: str) -> str:
    return bid[1:] if bid[1:] != "NT" else "NT"


def cheapest(strain: str, above: str | None) -> str:
    """The cheapest bid in ``strain`` above bid ``above`` (None: from 1)."""
    for level in range(1, 8):
        bid = f"{level}{strain}"
        if above is None or bid_rank(bid) > bid_rank(above):
            return bid
    return ""


def _s(n: str) -> str:
    return n if n != "N" else "NT"


# ------------------------------------------------------------------ openings
def _better_minor_d(h: Hand) -> bool:
    return h.len["D"] > h.len["C"] or h.len["D"] == h.len["C"] >= 4


add("", "2C", (22, 37), forcing=True, note="strong, artificial")
add("", "2NT", (20, 21), balanced=True)
add("", "1NT", (15, 17), balanced=True)
add("", "1S", (10, 21), S=(5, 13), test=lambda h: h.opens() and h.len["S"] >= h.len["H"])
add("", "1H", (10, 21), H=(5, 13), test=Hand.opens)
add("", "1D", (10, 21), D=(3, 13), S=(0, 4), H=(0, 4), test=lambda h: h.opens() and _better_minor_d(h))
add("", "1C", (10, 21), C=(3, 13), S=(0, 4), H=(0, 4), test=Hand.opens)
for _m in "SHD":
    add(
        "",
        f"2{_m}",
        (5, 10),
        note="weak two",
        suits={_m: (6, 6)},
        test=lambda h, m=_m: h.good_suit(m) and all(h.len[x] <= 3 for x in MAJORS if x != m),
    )
for _m in SUITS:
    add("", f"3{_m}", (5, 10), note="pre-empt", suits={_m: (7, 7)})
for _m in MAJORS:
    add("", f"4{_m}", (5, 11), note="pre-empt", suits={_m: (8, 10)})
add("", "P", (0, 13))


# ------------------------------------------------------------------ notrump systems
def _no_major(h: Hand) -> bool:
    return h.len["H"] < 4 and h.len["S"] < 4


def _four_major(h: Hand) -> bool:
    return (h.len["H"] == 4 or h.len["S"] == 4) and h.len["H"] < 5 and h.len["S"] < 5


def notrump_system(prefix: str, lo: int, hi: int, two: bool) -> None:
    """Responses to a notrump opening (or 2C-2D-2NT) showing ``lo``-``hi``: Stayman,
    Jacoby transfers, quantitative raises. ``two``: the opening was at the two level."""
    game = 25 - lo  # responder's points for game opposite the minimum
    inv = game - 2  # an invitation
    slam = 33 - lo
    p = prefix
    L = 3 if two else 2  # transfer level
    st = f"{L}C"
    tr_h, tr_s = f"{L}D", f"{L}H"
    add(p, tr_s, S=(5, 13), test=lambda h: h.len["S"] >= h.len["H"], forcing=True, note="transfer to spades")
    add(p, tr_h, H=(5, 13), forcing=True, note="transfer to hearts")
    if two:
        add(p, st, (game, 37), test=_four_major, forcing=True, note="Stayman")
    else:
        add(p, st, (inv, 37), test=_four_major, forcing=True, note="Stayman")
    add(p, "4NT", (slam - 2, slam - 1), test=_no_major, note="quantitative: bid 6NT with a maximum")
    add(p, "6NT", (slam, slam + 3), test=_no_major)
    add(p, "7NT", (37 - lo, 37), test=_no_major)
    add(p, "3NT", (game, slam - 3), test=lambda h: h.len["H"] < 5 and h.len["S"] < 5)
    if not two:
        add(p, "2NT", (inv, game - 1), test=lambda h: h.len["H"] < 5 and h.len["S"] < 5, note="invitational")
    add(p, "P", (0, inv - 1 if not two else game - 1))

    # after Stayman
    s = f"{p}-{st}" if p else st
    add(s, f"{L}H", (lo, hi), H=(4, 5), note="four hearts (maybe spades too)")
    add(s, f"{L}S", (lo, hi), S=(4, 5), H=(0, 3), note="four spades, not four hearts")
    add(s, f"{L}D", (lo, hi), H=(0, 3), S=(0, 3), note="no four-card major")
    for ans in (f"{L}D", f"{L}H", f"{L}S"):
        k = f"{s}-{ans}"
        fit = ans[-1] if ans[-1] in MAJORS else None
        if fit:
            add(k, f"4{fit}", (game, slam - 1), count=fit, suits={fit: (4, 5)})
            if not two:
                add(k, f"3{fit}", (inv, game - 1), count=fit, suits={fit: (4, 5)}, note="invitational")
        else:  # no major fit: the notrump raises as over the opening
            add(k, "4NT", (slam - 2, slam - 1), note="quantitative: bid 6NT with a maximum")
            add(k, "6NT", (slam, slam + 3))
            add(f"{k}-4NT", "6NT", (lo + 1, hi))
            add(f"{k}-4NT", "P", (lo, lo + 1))
        add(k, "3NT", (game, slam - 1))
        if not two:
            add(k, "2NT", (inv, game - 1), note="invitational")
        # opener after responder's notrump: correct to the other major he must hold
        other = "S" if ans == f"{L}H" else None
        if not two:
            k2 = f"{k}-2NT"
            if other:
                add(k2, "4S", (lo + 1, hi), S=(4, 5))
                add(k2, "3S", (lo, lo), S=(4, 5))
            add(k2, "3NT", (lo + 1, hi))
            add(k2, "P", (lo, lo))
            if fit:
                k3 = f"{k}-3{fit}"
                add(k3, f"4{fit}", (lo + 1, hi))
                add(k3, "P", (lo, lo))
        k4 = f"{k}-3NT"
        if other:
            add(k4, "4S", (lo, hi), S=(4, 5))
        add(k4, "P", (lo, hi))

    # after a transfer
    for t, m in ((tr_h, "H"), (tr_s, "S")):
        k = f"{s[: -len(st)]}{t}" if p else t
        add(k, f"{L}{m}", (lo, hi), suits={m: (2, 5)}, note="completes the transfer")
        k = f"{k}-{L}{m}"
        add(k, f"4{m}", (game, slam - 1), count="length", suits={m: (6, 13)})
        add(k, "3NT", (game, slam - 1), suits={m: (5, 5)}, note="choose 3NT or 4 of the major")
        if not two:
            add(k, f"3{m}", (inv, game - 1), count="length", suits={m: (6, 13)}, note="invitational")
            add(k, "2NT", (inv, game - 1), suits={m: (5, 5)}, note="invitational")
        add(k, "P", (0, inv - 1 if not two else game - 1))
        if not two:
            add(f"{k}-2NT", f"4{m}", (lo + 1, hi), suits={m: (3, 5)})
            add(f"{k}-2NT", f"3{m}", (lo, lo), suits={m: (3, 5)})
            add(f"{k}-2NT", "3NT", (lo + 1, hi), suits={m: (2, 2)})
            add(f"{k}-2NT", "P", (lo, lo), suits={m: (2, 2)})
            add(f"{k}-3{m}", f"4{m}", (lo + 1, hi))
            add(f"{k}-3{m}", "P", (lo, lo))
        add(f"{k}-3NT", f"4{m}", (lo, hi), suits={m: (3, 5)})
        add(f"{k}-3NT", "P", (lo, hi), suits={m: (2, 2)})
    if not two:  # the 2NT invitation: game with the top of the range
        add(f"{p}-2NT" if p else "2NT", "3NT", (lo + 1, hi))
        add(f"{p}-2NT" if p else "2NT", "P", (lo, lo))
    # quantitative
    add(f"{p}-4NT" if p else "4NT", "6NT", (lo + 1, hi))
    add(f"{p}-4NT" if p else "4NT", "P", (lo, lo + 1))


notrump_system("1NT", 15, 17, two=False)
notrump_system("2NT", 20, 21, two=True)
notrump_system("2C-2D-2NT", 22, 24, two=True)

# strong 2C
for _m in "HS":
    add("2C", f"2{_m}", (8, 37), forcing=True, suits={_m: (5, 13)}, test=lambda h, m=_m: h.good_suit(m))
for _m in "CD":
    add("2C", f"3{_m}", (8, 37), forcing=True, suits={_m: (5, 13)}, test=lambda h, m=_m: h.good_suit(m))
add("2C", "2NT", (8, 37), balanced=True, forcing=True)
add("2C", "2D", forcing=True, note="waiting")
add("2C-2D", "2NT", (22, 24), balanced=True)
add("2C-2D", "3NT", (25, 27), balanced=True)
for _m in "HS":
    add("2C-2D", f"2{_m}", (22, 37), forcing=True, suits={_m: (5, 13)}, test=lambda h, m=_m: h.longest() == m)
for _m in "CD":
    add("2C-2D", f"3{_m}", (22, 37), forcing=True, suits={_m: (5, 13)}, test=lambda h, m=_m: h.longest() == m)


# ------------------------------------------------------------------ one of a suit
def _raises(
    key: str,
    m: str,
    single: tuple[int, int],
    limit: tuple[int, int],
    game: tuple[int, int] | None,
    support: int,
    extra: Callable[[Hand], bool] | None = None,
) -> None:
    lvl = 2 if key.endswith(f"1{m}") or "(" not in key else 2
    if game:
        add(key, f"4{m}", game, count=m, test=extra, suits={m: (support + 1 if m in MAJORS else support, 13)})
    add(key, f"3{m}", limit, count=m, test=extra, note="limit raise", suits={m: (support, 13)})
    add(key, f"{lvl}{m}", single, count=m, test=extra, suits={m: (support, 13)})


def _nt_responses(key: str, stop: str | None = None, no_major: bool = False) -> None:
    def ok(h: Hand) -> bool:
        return (stop is None or h.stopper(stop)) and (not no_major or _no_major(h))

    add(key, "3NT", (13, 15), balanced=True, test=ok)
    add(key, "2NT", (11, 12), balanced=True, test=ok, note="invitational")


def _two_over_one(h: Hand, m: str, opening: str) -> bool:
    """``m`` is the suit to show first at the two level over one of a major: the longest
    of the suits that may be shown there (hearts over 1S only with five), the higher of
    two equally long."""
    shown = [x for x in "HDC" if x != opening and (x != "H" or h.len["H"] >= 5)]
    return m in shown and h.longest("".join(shown)) == m


for _o in "SH":  # one of a major
    k = f"1{_o}"
    _raises(k, _o, (6, 10), (10, 12), (13, 16), 3)
    if _o == "H":
        add(k, "1S", (6, 37), S=(4, 13), forcing=True, test=lambda h: not (h.len["H"] >= 3 and h.hcp <= 10))
    _nt_responses(k, no_major=False)
    for _m in "CDH" if _o == "S" else "CD":
        add(
            k,
            f"2{_m}",
            (11, 37),
            forcing=True,
            suits={_m: (5 if _m == "H" else 4, 13)},
            test=lambda h, m=_m, o=_o: _two_over_one(h, m, o),
        )
    add(k, "1NT", (6, 10), note="no fit, not forcing")
    add(k, "P", (0, 5))

for _o in "DC":  # one of a minor
    k = f"1{_o}"
    add(k, "1H", (6, 37), H=(4, 13), forcing=True, test=lambda h: h.len["H"] >= h.len["S"] or h.len["S"] < 5)
    add(k, "1S", (6, 37), S=(4, 13), forcing=True)
    if _o == "C":
        add(k, "1D", (6, 37), D=(4, 13), forcing=True, test=lambda h: h.len["D"] >= h.len["C"])
    _nt_responses(k, no_major=True)
    add(k, f"3{_o}", (10, 12), count=_o, test=_no_major, suits={_o: (5 if _o == "C" else 4, 13)}, note="limit raise")
    add(k, f"2{_o}", (6, 10), count=_o, test=_no_major, suits={_o: (5 if _o == "C" else 4, 13)})
    if _o == "D":
        add(k, "2C", (11, 37), C=(4, 13), forcing=True)
    if _o == "C":
        add(k, "1D", (6, 37), D=(4, 13), forcing=True)
    add(k, "1NT", (6, 10), test=_no_major)
    add(k, "P", (0, 5))


# opener's rebid after a one-level response, and after 1NT / single and limit raises
for _o in SUITS:
    for _r in [*(x for x in SUITS if STRAIN_ORDER.index(x) > STRAIN_ORDER.index(_o)), "NT"]:
        k = f"1{_o}-1{_r}"
        if _r != "NT":
            for lvl, rng in ((4, (19, 21)), (3, (16, 18)), (2, (12, 15))):
                if _r in MAJORS or lvl < 4:
                    add(k, f"{lvl}{_r}", rng, count=_r, suits={_r: (4, 13)})
                if _r in MAJORS:  # three-card support and a singleton or void: raise too
                    add(k, f"{lvl}{_r}", rng, count=_r, suits={_r: (3, 3)}, test=lambda h: h.shape[3] <= 1)
        else:
            add(k, f"3{_o}", (16, 19), count="length", suits={_o: (6, 13)})
        add(k, "2NT", (18, 19), balanced=True)
        # a new suit at the one level
        for z in SUITS:
            if z not in (_o, _r) and _r != "NT" and STRAIN_ORDER.index(z) > STRAIN_ORDER.index(_r):
                add(k, f"1{z}", (12, 18), forcing=False, suits={z: (4, 13)})
        # 19-21 with a six-card suit: game (a major) or 3NT (a minor); the jump to three
        # invites with less
        if _o in MAJORS:
            add(k, f"4{_o}", (19, 21), suits={_o: (6, 13)})
        else:
            add(k, "3NT", (19, 21), suits={_o: (6, 13)})
        if _r != "NT":
            add(k, "1NT", (12, 14), balanced=True)
            add(k, f"3{_o}", (16, 19), count="length", suits={_o: (6, 13)})
        add(k, f"2{_o}", (12, 15), suits={_o: (6, 13)})
        for z in SUITS:  # a new suit at the two level: lower = 12-18, higher (reverse) = 17+
            if z in (_o, _r):
                continue
            if STRAIN_ORDER.index(z) < STRAIN_ORDER.index(_o):
                add(k, f"2{z}", (12, 18), suits={z: (4, 13)}, test=lambda h, o=_o, z=z: h.len[o] >= h.len[z])
            else:
                add(
                    k,
                    f"2{z}",
                    (17, 21),
                    forcing=True,
                    suits={z: (4, 13), _o: (5, 13)},
                    test=lambda h, o=_o, z=z: h.len[o] > h.len[z],
                )
        add(k, f"2{_o}", (12, 15), suits={_o: (5, 13)})
        if _r == "NT":
            add(k, "P", (12, 14), balanced=True)
    if _o in MAJORS:
        add(f"1{_o}-2{_o}", f"4{_o}", (18, 21), count="length")
        add(f"1{_o}-2{_o}", f"3{_o}", (16, 17), count="length", note="invitational")
        add(f"1{_o}-2{_o}", "P", (10, 15), count="length")
        add(f"1{_o}-3{_o}", f"4{_o}", (13, 21), count="length")
        add(f"1{_o}-3{_o}", "P", (10, 12), count="length")
    else:
        add(f"1{_o}-2{_o}", "3NT", (18, 21), balanced=True)
        add(f"1{_o}-2{_o}", "2NT", (18, 19), count="length")
        add(f"1{_o}-2{_o}", "P", (10, 15), count="length")
        add(f"1{_o}-3{_o}", "3NT", (14, 21), test=lambda h: h.semi_balanced)
        add(f"1{_o}-3{_o}", f"5{_o}", (16, 21), count="length")
        add(f"1{_o}-3{_o}", "P", (10, 13), count="length")
    add(f"1{_o}-2NT", "3NT", (14, 21), test=lambda h: h.semi_balanced)
    if _o in MAJORS:
        add(f"1{_o}-2NT", f"4{_o}", (14, 21), suits={_o: (6, 13)})
        add(f"1{_o}-2NT", f"3{_o}", (10, 13), suits={_o: (6, 13)})
    add(f"1{_o}-2NT", "P", (10, 13), balanced=True)
    add(f"1{_o}-3NT", "P", (10, 16))


# opener's rebid after a two-over-one response (forcing one round): a second suit of five,
# a six-card suit again, support for partner's minor, a second suit of four, notrump by
# range (2NT 12-14, 3NT 15-19), else the five-card suit again
for _o, _r in (("S", "C"), ("S", "D"), ("S", "H"), ("H", "C"), ("H", "D"), ("D", "C")):
    k = f"1{_o}-2{_r}"
    new_suits = {z: cheapest(z, f"2{_r}") for z in SUITS if z not in (_o, _r)}
    again = cheapest(_o, f"2{_r}")  # the own suit again at the two level
    for z, bid in new_suits.items():
        if bid[0] == "2" or (z in MINORS and bid[0] == "3"):
            add(k, bid, (12, 21), forcing=True, suits={z: (5, 13)}, test=lambda h, z=z, o=_o: h.len[o] >= h.len[z])
    add(k, again, (12, 21), suits={_o: (6, 13)})
    add(k, f"3{_r}", (12, 21), suits={_r: (4 if _r in MINORS else 3, 13)})
    for z, bid in new_suits.items():
        if bid[0] == "2":
            add(k, bid, (12, 21), forcing=True, suits={z: (4, 13)})
    add(k, "2NT", (12, 14), balanced=True)
    add(k, "3NT", (15, 19), balanced=True)
    add(k, again, (12, 21), suits={_o: (5, 13)})


# partner's weak two
for _m in "SHD":
    k = f"2{_m}"
    if _m in MAJORS:
        add(k, f"4{_m}", (16, 37), count=_m, suits={_m: (3, 13)})
    add(k, "3NT", (16, 37), test=lambda h, m=_m: h.semi_balanced and h.len[m] >= 2)
    if _m == "D":
        add(k, "5D", (16, 37), count="D", D=(4, 13))
    for z in "SHC":
        if z != _m:
            add(k, cheapest(z, k), (16, 37), forcing=True, suits={z: (5, 13)}, test=lambda h, z=z: h.good_suit(z))
    add(k, f"3{_m}", (0, 15), count=_m, suits={_m: (3, 13)}, note="pre-emptive")
    add(k, "P", (0, 15))

# partner's three-level pre-empt (seven cards, 5-10): game with a fit and the tricks
for _m in SUITS:
    k = f"3{_m}"
    if _m in MAJORS:
        add(k, f"4{_m}", (14, 37), count=_m, suits={_m: (2, 13)})
    else:
        add(
            k,
            "3NT",
            (15, 37),
            suits={_m: (1, 13)},
            test=lambda h, m=_m: all(h.stopper(x) for x in SUITS if x != m),
        )
        add(k, f"5{_m}", (16, 37), count=_m, suits={_m: (2, 13)})


# ------------------------------------------------------------------ competition
def _takeout_double(h: Hand, theirs: str) -> bool:
    """Shape for a takeout double of ``theirs``: three cards in every other suit and no
    five-card major to overcall in; or 17+ HCP (too strong to overcall)."""
    support = all(h.len[s] >= 3 for s in SUITS if s != theirs)
    return support and not any(h.len[m] >= 5 for m in MAJORS if m != theirs) or h.hcp >= 17


def _unbid_majors(*bid: str) -> str:
    return "".join(m for m in "SH" if m not in bid)


for _x in SUITS:  # RHO opened one of a suit: overcalls and takeout doubles
    k = f"(1{_x})"
    add(k, "1NT", (15, 18), balanced=True, test=lambda h, x=_x: h.stopper(x))
    add(
        k,
        "X",
        (12, 37),
        suits={_x: (0, 2)},
        note="takeout",
        test=lambda h, x=_x: _takeout_double(h, x),
    )
    for z in "SHDC":
        if z == _x:
            continue
        lvl = 1 if STRAIN_ORDER.index(z) > STRAIN_ORDER.index(_x) else 2
        add(
            k,
            f"{lvl}{z}",
            (8 if lvl == 1 else 11, 17),
            suits={z: (5, 13)},
            test=lambda h, z=z, lvl=lvl: h.longest() == z and (lvl == 1 or h.good_suit(z) or h.hcp >= 13),
        )
        add(
            k,
            f"{lvl + 1}{z}",
            (5, 10),
            suits={z: (6, 7)},
            note="weak jump overcall",
            test=lambda h, z=z: h.good_suit(z),
        )
    add(k, "P")

    # advancing partner's takeout double
    k = f"(1{_x})-X"
    unbid = [s for s in "SHDC" if s != _x]
    add(k, "3NT", (13, 37), test=lambda h, x=_x: h.stopper(x) and not any(h.len[m] >= 4 for m in MAJORS if m != x))
    for m in unbid:
        if m in MAJORS:
            add(k, f"4{m}", (12, 37), suits={m: (4, 13)}, test=lambda h, m=m, u=unbid: _best(h, u) == m)
    add(k, "2NT", (11, 12), test=lambda h, x=_x: h.stopper(x) and not any(h.len[m] >= 4 for m in MAJORS if m != x))
    add(k, "1NT", (6, 10), test=lambda h, x=_x: h.stopper(x) and not any(h.len[m] >= 4 for m in MAJORS if m != x))
    for m in unbid:
        lvl = 1 if STRAIN_ORDER.index(m) > STRAIN_ORDER.index(_x) else 2
        add(
            k,
            f"{lvl + 1}{m}",
            (9, 11),
            suits={m: (4, 13)},
            test=lambda h, m=m, u=unbid: _best(h, u) == m,
            note="jump: invitational",
        )
        add(k, f"{lvl}{m}", (0, 8), suits={m: (3, 13)}, test=lambda h, m=m, u=unbid: _best(h, u) == m)
        add(k, f"{lvl}{m}", (12, 37), suits={m: (3, 13)}, test=lambda h, m=m, u=unbid: _best(h, u) == m)

    # advancing partner's overcall in z
    for z in SUITS:
        if z == _x:
            continue
        lvl = 1 if STRAIN_ORDER.index(z) > STRAIN_ORDER.index(_x) else 2
        k = f"(1{_x})-{lvl}{z}"
        if z in MAJORS:
            add(k, f"4{z}", (13, 37), count=z, suits={z: (3, 13)})
        add(
            k,
            f"{lvl + 2}{z}" if lvl == 1 else f"{lvl + 1}{z}",
            (11, 12),
            count=z,
            suits={z: (3, 13)},
            note="invitational",
        )
        add(k, f"{lvl + 1}{z}", (7, 10), count=z, suits={z: (3, 13)})
        for w in SUITS:
            if w not in (z, _x):
                add(
                    k,
                    cheapest(w, f"{lvl}{z}"),
                    (8, 37),
                    suits={w: (5, 13)},
                    test=lambda h, w=w, z=z: h.len[z] < 3 and h.longest() == w,
                )
        add(k, "3NT", (15, 37), test=lambda h, x=_x: h.stopper(x))
        add(k, "2NT", (12, 14), test=lambda h, x=_x: h.stopper(x))
        if lvl == 1:
            add(k, "1NT", (8, 11), test=lambda h, x=_x: h.stopper(x))
        add(k, "P")

    # partner's one-level opening was overcalled or doubled
    for y in [*SUITS, "X"]:
        if y == _x:
            continue
        over = f"1{y}" if y == "X" or STRAIN_ORDER.index(y) > STRAIN_ORDER.index(_x) else f"2{y}"
        over = "X" if y == "X" else over
        k = f"1{_x}-({over})"
        if y == "X":
            add(k, "XX", (10, 37), test=lambda h, x=_x: h.len[x] < 3, note="values, no fit")
            TABLE[k].extend(m for m in TABLE[f"1{_x}"] if m.call not in ("P",))
            add(k, "P", (0, 9))
            continue
        sup = 3 if _x in MAJORS else 4
        if _x in MAJORS:
            add(k, f"4{_x}", (13, 16), count=_x, suits={_x: (4, 13)})
        add(k, f"3{_x}", (10, 12), count=_x, suits={_x: (sup + (_x in MAJORS), 13)}, note="limit raise")
        add(k, f"2{_x}", (6, 10), count=_x, suits={_x: (sup, 13)})
        open_majors = _unbid_majors(_x, y)
        if over[0] == "1" or over in ("2C", "2D", "2H"):
            if len(open_majors) == 1:
                add(k, "X", (6, 37), suits={open_majors: (4, 13)}, note="negative")
            elif open_majors:
                add(k, "X", (6, 37), test=lambda h, om=open_majors: any(h.len[m] >= 4 for m in om), note="negative")
        for z in SUITS:
            if z in (_x, y):
                continue
            bid = cheapest(z, over)
            if bid[0] == "1":
                add(k, bid, (6, 37), forcing=True, suits={z: (4, 13)})
            elif bid[0] == "2":
                add(k, bid, (11, 37), forcing=True, suits={z: (5, 13)}, test=lambda h, z=z: h.good_suit(z))
        add(k, "3NT", (13, 19), test=lambda h, y=y: h.stopper(y))
        add(k, "2NT", (11, 12), test=lambda h, y=y: h.stopper(y))
        if over[0] == "1":
            add(k, "1NT", (8, 10), test=lambda h, y=y: h.stopper(y))
        add(k, "P", (0, 12))

for _x in "SHDC":  # RHO's weak two or pre-empt
    for lvl in (2, 3) if _x != "C" else (3,):
        k = f"({lvl}{_x})"
        add(k, "3NT" if lvl == 3 else "2NT", (16, 19), test=lambda h, x=_x: h.stopper(x) and h.semi_balanced)
        add(
            k,
            "X",
            (13, 37),
            suits={_x: (0, 2)},
            note="takeout",
            test=lambda h, x=_x: _takeout_double(h, x),
        )
        add(k, "X", (17, 37), note="takeout")  # too strong to pass: any shape
        for z in SUITS:
            if z == _x:
                continue
            bid = cheapest(z, f"{lvl}{_x}")
            add(
                k,
                bid,
                (12, 17),
                suits={z: (5 if bid[0] == "2" else 6, 13)},
                test=lambda h, z=z: h.longest() == z and h.good_suit(z),
            )
        add(k, "P")
        # advancing partner's takeout double of a weak two or pre-empt
        k = f"({lvl}{_x})-X"
        unbid = [s for s in "SHDC" if s != _x]
        add(k, "3NT", (10, 37), test=lambda h, x=_x: h.stopper(x) and not any(h.len[m] >= 4 for m in MAJORS if m != x))
        for m in unbid:
            bid = cheapest(m, f"{lvl}{_x}")
            if m in MAJORS and bid[0] != "4":
                add(k, f"4{m}", (10, 37), suits={m: (4, 13)}, test=lambda h, m=m, u=unbid: _best(h, u) == m)
            if m in MINORS and bid[0] != "5":
                add(k, f"5{m}", (13, 37), suits={m: (5, 13)}, test=lambda h, m=m, u=unbid: _best(h, u) == m)
            add(k, bid, (0, 37), suits={m: (3, 13)}, test=lambda h, m=m, u=unbid: _best(h, u) == m)
add("(1NT)", "X", (15, 37), note="penalty")
for _z in "SHDC":
    add("(1NT)", f"2{_z}", (8, 15), suits={_z: (6, 13)}, test=lambda h, z=_z: h.good_suit(z))
    add("(1NT)", f"2{_z}", (10, 15), suits={_z: (5, 5)}, test=lambda h, z=_z: h.good_suit(z) and h.longest() == z)
add("(1NT)", "P")


def _best(h: Hand, unbid: list[str]) -> str:
    """Advancer's suit after a takeout double: a four-card major before a longer minor."""
    majors = [m for m in unbid if m in MAJORS and h.len[m] >= 4]
    pool = majors or unbid
    return max(pool, key=lambda s: (h.len[s], -SUITS.index(s)))


# ------------------------------------------------------------------ natural reading
def natural(call: str) -> Meaning:
    """How a call the table has no entry for is read: a bid promises four cards of its
    suit; notrump, doubles and passes promise nothing in particular."""
    if call in ("P", "X", "XX") or call.endswith("NT"):
        return Meaning(call)
    s = call[1]
    return Meaning(call, length=((s, 4, 13),))
