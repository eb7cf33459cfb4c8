"""Natural bidding by points once the table has nothing to say: the "captain".

A seat adds its own points to what its partner has shown (``inference``), finds the
strain (a known eight-card major fit, else notrump when the hands suit it, else a minor
fit, else a long suit) and the level the combined points are worth:

    notrump  2NT 23, 3NT 25, 6NT 33, 7NT 37
    majors   3 21, 4 24, slam 31, grand 35
    minors   3 21, 5 27, slam 31, grand 35

(the suits a point lighter than the textbook: the double-dummy par the bench measures
against rewards bidding games and slams; notrump at the textbook's 25 since the
invitations below). Partner's points are his shown minimum plus half his
range (at most four; one when the range is open-ended, "12 or more"), no more than the
opponents' shown strength leaves him.

It bids that contract if it is higher than what its side already has, else passes. When
game in notrump or a major needs partner above his minimum, it invites instead (2NT, three
of the major) and partner bids game with the top of his range: the invitation is read as
the points that make game opposite his estimate (``natural_range``). Slams
in a suit go through Blackwood (see ``slam.py``). When the opponents outbid it, it competes
to the level of the total trumps (eight trumps: the two level, nine: the three level) and
doubles them when its side clearly has the balance of points.

The same thresholds read a natural call backwards (``natural_range``): a bid at a level
shows what that level needs, less what the partner has already shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # inference imports this module (placement reads inferences too)
    from engine.games.bridge.inference import HandRange

from .hand import SUITS, Hand
from .slam import asks_for_aces
from .system import MAJORS, bid_rank, cheapest, natural

NT_LEVELS = {2: 23, 3: 25, 6: 33, 7: 37}
MAJOR_LEVELS = {3: 21, 4: 24, 6: 31, 7: 35}
MINOR_LEVELS = {3: 21, 5: 27, 6: 31, 7: 35}
GAME = {"NT": 3, "S": 4, "H": 4, "D": 5, "C": 5}
# over the opponents' contract a three-level partscore with fewer than nine known trumps
# needs this many points, not the 21 above: doubled there, eight trumps and 21 go down
COMPETE_THREE = 23
SLAM_HCP = 28  # a suit slam also needs this many high-card points between the hands
# one below game in notrump or a major: partner accepts or declines, never invites back
INVITATIONS = tuple(f"{GAME[s] - 1}{s}" for s in ("NT", *MAJORS))


def levels(strain: str) -> dict[int, int]:
    return NT_LEVELS if strain == "NT" else MAJOR_LEVELS if strain in MAJORS else MINOR_LEVELS


def target_level(strain: str, points: float) -> int:
    """The highest level the combined points are worth in ``strain`` (1 or 2 for a partscore)."""
    best = 1 if strain == "NT" else 2
    for level, need in levels(strain).items():
        if points >= need:
            best = level
    return best


def points_for(level: int, strain: str) -> tuple[int, int]:
    """The combined points a natural bid of ``level`` in ``strain`` stands for."""
    table = sorted(levels(strain).items())
    lo, hi = 0, 37
    for i, (lvl, need) in enumerate(table):
        if level >= lvl:
            lo = need
            hi = table[i + 1][1] - 1 if i + 1 < len(table) else 37
    if lo == 0:
        hi = table[0][1] - 1
    return lo, hi


# ------------------------------------------------------------------ reading natural calls
def strain_nt(call: str) -> bool:
    return call.endswith("NT")


def natural_range(call: str, before: list[str], dealer: int, shown: dict[int, HandRange]) -> HandRange:
    """What a call the table does not know shows, given what each seat had shown."""
    from engine.games.bridge.inference import HandRange, range_of

    base = range_of([natural(call)])
    if call in ("P", "X", "XX") or not call[0].isdigit():
        return base
    seat = (dealer + len(before)) % 4
    partner = shown[(seat + 2) % 4]
    if not any(c != "P" for i, c in enumerate(before) if (dealer + i) % 2 == seat % 2):
        # our side's first call, not in the table: an overcall or a balancing bid
        return HandRange((15, 18) if strain_nt(call) else (8, 17), base.length)
    level, strain = int(call[0]), call[1:]
    lo, hi = points_for(level, strain)
    est = partner.est()
    last = next((i for i in range(len(before) - 1, -1, -1) if before[i] not in ("P",)), None)
    contested = last is not None and (dealer + last) % 2 != seat % 2  # over an opponent's call
    if call in INVITATIONS and not contested and partner.hcp[0] > 0:
        # an invitation (see ``place``): game opposite his estimate, not opposite his minimum
        game = levels(strain)[GAME[strain]]
        lo = max(0, int(game - est))
        hi = max(lo + 1, int(game - partner.hcp[0]))
        return HandRange((lo, hi), dict(base.length))
    lo = max(0, int(lo - est) - (6 if contested else 2))
    hi = min(37, max(lo + 4, int(hi - partner.hcp[0]) + 1))
    length = dict(base.length)
    if strain != "NT" and partner.min_len(strain) >= 4:
        length[strain] = (3 if partner.min_len(strain) >= 5 else 4, 13)  # a raise: support
    return HandRange((lo, hi), length)


# ------------------------------------------------------------------ choosing
def choose_strain(hand: Hand, partner: HandRange, theirs: str = "") -> tuple[str, int]:
    """(strain, known trumps between the hands; 0 for notrump). ``theirs``: the suits the
    opponents bid, which notrump needs stopped (by me, as far as I know)."""
    total = {s: hand.len[s] + partner.min_len(s) for s in SUITS}
    majors = [m for m in "SH" if total[m] >= 8]
    if majors:
        m = max(majors, key=lambda s: total[s])
        return m, total[m]
    long = hand.longest()
    if hand.len[long] >= 6 and long in MAJORS:
        return long, total[long]
    partner_flat = all(partner.length[s][1] <= 5 for s in SUITS) or all(partner.length[s][0] <= 3 for s in SUITS)
    minors = [m for m in "DC" if total[m] >= 8]
    stopped = all(hand.stopper(x) for x in theirs)
    if hand.semi_balanced and partner_flat and stopped:
        return "NT", 0
    if minors:
        m = max(minors, key=lambda s: total[s])
        if total[m] >= 9 or not hand.semi_balanced:
            return m, total[m]
    long = hand.longest()
    if hand.len[long] >= 6:
        return long, total[long]
    shown = max(SUITS, key=lambda s: (partner.min_len(s), -SUITS.index(s)))
    if partner.min_len(shown) >= 6 or (partner.min_len(shown) >= 5 and hand.len[shown] >= 2):
        return shown, total[shown]
    if not stopped:
        best = max(SUITS, key=lambda s: (total[s], -SUITS.index(s)))
        if total[best] >= 7:
            return best, total[best]
        if hand.len[long] >= 5:
            return long, total[long]  # their suit is not stopped: my long suit, not notrump
    return "NT", 0


def their_suits(calls: list[str], dealer: int, seat: int) -> str:
    return "".join(
        dict.fromkeys(
            c[1] for i, c in enumerate(calls) if (dealer + i) % 2 != seat % 2 and c[0].isdigit() and c[1:] != "NT"
        )
    )


def partner_estimate(hand: Hand, partner: HandRange, inf: dict[int, HandRange], seat: int) -> float:
    """Partner's working points, no more than the opponents' shown minimum leaves him."""
    opp = inf[(seat + 1) % 4].hcp[0] + inf[(seat + 3) % 4].hcp[0]
    return max(partner.hcp[0], min(partner.est(), 40 - hand.hcp - opp))


def my_points(hand: Hand, strain: str, partner: HandRange) -> int:
    if strain == "NT":
        return hand.hcp + (1 if max(hand.len.values()) >= 5 else 0)
    if hand.len[strain] >= 3 and partner.min_len(strain) >= hand.len[strain]:
        return hand.support_points(strain)  # I am the dummy: count shortness
    if partner.min_len(strain) + hand.len[strain] >= 8:
        # the long trump hand with a fit: long cards and shortness both count
        return hand.length_points + sum({0: 2, 1: 1}.get(n, 0) for s, n in hand.len.items() if s != strain)
    return hand.length_points


def place(
    hand: Hand, calls: list[str], dealer: int, seat: int, legal: set[str], inf: dict[int, HandRange], forcing: bool
) -> str:
    """The natural call: a contract the side is worth, a competitive bid, a double or pass."""
    partner = inf[(seat + 2) % 4]
    last = next((i for i in range(len(calls) - 1, -1, -1) if calls[i][0].isdigit()), None)
    last_bid = calls[last] if last is not None else None
    ours = last is not None and (dealer + last) % 2 == seat % 2
    partner_spoke = any(c != "P" for i, c in enumerate(calls) if (dealer + i) % 4 == (seat + 2) % 4)
    if not partner_spoke and not forcing:
        return _alone(hand, calls, dealer, seat, last_bid, legal)
    takeout = _takeout_answer(hand, calls, dealer, seat, last_bid, legal)
    if takeout:
        return takeout

    strain, trumps = choose_strain(hand, partner, their_suits(calls, dealer, seat))
    est = partner_estimate(hand, partner, inf, seat)
    mine = my_points(hand, strain, partner)
    combined = mine + est
    level = target_level(strain, combined)
    if level >= 6 and hand.hcp + est < SLAM_HCP:
        level = GAME[strain]  # shape alone does not make a slam
    competing = not ours and last_bid is not None
    if competing and strain != "NT" and 3 <= level < GAME[strain] and trumps < 9 and combined < COMPETE_THREE:
        level = 2
    stopped = all(hand.stopper(x) for x in their_suits(calls, dealer, seat))
    minor_game_in_nt = strain in "CD" and level == 5 and "3NT" in legal and stopped  # see below
    if strain != "NT" and trumps < 8 and level >= GAME[strain] and not minor_game_in_nt:
        if hand.len[strain] < 7 and not hand.good_suit(strain):
            level = GAME[strain] - 1  # my own suit with no fit known: game only if it plays alone
    partner_slam = any(c[0] in "67" for i, c in enumerate(calls) if (dealer + i) % 4 == (seat + 2) % 4)
    if partner_slam and ours:
        return "P"  # partner placed a slam: leave it
    if level >= 6 and strain != "NT":
        asked = any(c == "4NT" for i, c in enumerate(calls) if (dealer + i) % 2 == seat % 2)
        if not asked and "4NT" in legal and asks_for_aces(calls, dealer):
            return "4NT"  # Blackwood before any suit slam
        level = 6 if asked or level == 7 else level  # a grand only through Blackwood
    if level == 7:
        level = 6
    if ours and last_bid == "3NT" and strain in "CD" and level < 6:
        return "P"  # nine tricks in notrump score more than eleven in a minor
    partner_invited = len(calls) >= 2 and calls[-2] in INVITATIONS
    if (
        ours
        and not partner_invited
        and level == GAME[strain]
        and strain in ("NT", *MAJORS)
        and target_level(strain, mine + partner.hcp[0]) < level
    ):
        invite = f"{level - 1}{strain}"  # game only if partner is above his minimum: invite it
        if last_bid is not None and bid_rank(invite) > bid_rank(last_bid) and invite in legal:
            return invite
    want = f"{level}{strain}"
    if strain in "CD" and level == 5 and "3NT" in legal and stopped:
        want = "3NT"  # nine tricks before eleven
    limited = partner.hcp[1] - partner.hcp[0] <= 6
    if last_bid is None or bid_rank(want) > bid_rank(last_bid):
        low = cheapest(strain, last_bid)
        if bid_rank(low) < bid_rank(want) and (
            (strain != "NT" and level < GAME[strain] and not ours)  # compete cheaply
            or (not limited and trumps < 8 and level < 6 and strain != "NT")
        ):  # describe
            want = low if strain != "NT" or level >= 3 or int(low[0]) <= 2 else want
        if want in legal:
            return want
    if ours:
        if forcing:
            return _cheapest_sensible(hand, strain, last_bid, legal)
        return "P"
    # the opponents hold the contract above what we are worth
    assert last_bid is not None, "not ours, so the opponents bid"
    their_level, their_strain = int(last_bid[0]), last_bid[1:]
    if "X" in legal and _penalty(hand, combined, their_level, their_strain, level, strain):
        return "X"
    partner_doubled = len(calls) >= 2 and calls[-2] == "X" and calls[-1] == "P"
    if partner_doubled and their_strain != "NT" and hand.len[their_strain] <= 2:
        long = hand.longest()
        bid = cheapest(long, last_bid)
        if hand.len[long] >= 5 and bid in legal and int(bid[0]) <= 4:
            return bid  # short in their trumps: take partner's double out to my long suit
    if strain != "NT" and trumps >= 8:
        bid = cheapest(strain, last_bid)
        if bid and int(bid[0]) <= min(trumps - 6, 4) and bid in legal:
            return bid
    return "P"


def _takeout_answer(
    hand: Hand, calls: list[str], dealer: int, seat: int, last_bid: str | None, legal: set[str]
) -> str | None:
    """Partner doubled a suit for takeout before our side bid, and RHO passed: name a suit
    (a jump with 10+), or pass for penalties with length and strength in theirs."""
    if len(calls) < 2 or calls[-1] != "P" or calls[-2] != "X" or last_bid is None or last_bid.endswith("NT"):
        return None
    if any(c[0].isdigit() for i, c in enumerate(calls) if (dealer + i) % 2 == seat % 2):
        return None
    their = last_bid[1:]
    if hand.len[their] >= 5 and hand.suit_hcp[their] >= 4:
        return "P"
    unbid = [s for s in SUITS if s != their]
    majors = [m for m in unbid if m in MAJORS and hand.len[m] >= 4]
    suit = max(majors or unbid, key=lambda s: (hand.len[s], -SUITS.index(s)))
    bid = cheapest(suit, last_bid)
    if hand.hcp >= 10 and bid and int(bid[0]) < 7:
        jump = f"{int(bid[0]) + 1}{suit}"
        if int(jump[0]) <= GAME[suit] and jump in legal:
            return jump
    return bid if bid in legal else None


def _alone(hand: Hand, calls: list[str], dealer: int, seat: int, last_bid: str | None, legal: set[str]) -> str:
    """Partner has only passed: bid again only with a long suit or real extra strength."""
    i_bid = any(c != "P" for i, c in enumerate(calls) if (dealer + i) % 4 == seat)
    long = hand.longest()
    bid = cheapest(long, last_bid)
    # in the pass-out seat, bid as if holding a king more (partner has values he could not show)
    balancing = len(calls) >= 2 and calls[-1] == "P" and calls[-2] == "P" and last_bid is not None
    pts = hand.hcp + (3 if balancing else 0)
    if i_bid:
        pts = hand.hcp
        if hand.len[long] >= 6 and bid in legal and (int(bid[0]) <= 2 or pts >= 15 and int(bid[0]) <= 3):
            return bid
        if pts >= 17 and "X" in legal and last_bid and int(last_bid[0]) <= 4:
            return "X"
        return "P"
    their = last_bid[1:] if last_bid else None
    their_level = int(last_bid[0]) if last_bid else 0  # read only when ``their``
    if (
        balancing
        and their
        and their != "NT"
        and "X" in legal
        and pts >= 12
        and hand.len[their] <= 2
        and their_level <= 2
        and all(hand.len[s] >= 3 for s in SUITS if s != their)
    ):
        return "X"  # takeout
    five = 11 if balancing and bid[:1] == "1" else 12  # a one-level balance is lighter
    if (hand.len[long] >= 5 and pts >= five or hand.len[long] >= 6 and pts >= 10) and bid in legal and int(bid[0]) <= 2:
        return bid
    nt = cheapest("NT", last_bid)
    if (
        pts >= 15
        and hand.semi_balanced
        and nt in legal
        and int(nt[0]) <= 2
        and (not their or their != "NT" and hand.stopper(their))  # never a natural notrump over theirs
    ):
        return nt
    if (
        balancing
        and their
        and their != "NT"
        and "X" in legal
        and pts >= 14
        and hand.len[their] <= 2
        and their_level <= 2
    ):
        return "X"
    return "P"


def _penalty(hand: Hand, combined: float, level: int, strain: str, my_level: int, my_strain: str) -> bool:
    """Double the opponents: we hold the balance of points and they are high, or they
    sacrificed over our game. A point or two more than the bare balance, and a trump
    stack needs two honours' worth in it: a doubled contract that makes costs more IMPs
    than an undoubled one that fails gains."""
    trumps = hand.len[strain] if strain != "NT" else 0
    if my_level >= GAME[my_strain] and level >= 4 and combined >= 26 and trumps >= 2:
        return True
    if level >= 2 and combined >= 26 + 2 * max(0, 3 - level) and (strain == "NT" or trumps >= 3):
        return True
    return level >= 2 and combined >= 22 and trumps >= 4 and hand.suit_hcp.get(strain, 0) >= 4


def _cheapest_sensible(hand: Hand, strain: str, last_bid: str | None, legal: set[str]) -> str:
    """Partner's call is forcing: the cheapest natural answer."""
    for s in (strain, hand.longest(), "NT"):
        bid = cheapest(s, last_bid)
        if bid in legal:
            return bid
    return "P"
