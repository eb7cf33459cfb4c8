"""A simple computer player for bridge. It reads only its own ``view`` (its hand, the
public auction, dummy once exposed, the played cards) and the ``legal`` list, and always
returns one of ``legal``.

Bidding — a points count (high-card points A4 K3 Q2 J1, plus length or shortness):
- open 1NT with 15–17 balanced, 2NT with 20–21, else one of the longest suit with 13+
  points (majors first), pre-empt at three with a seven-card suit and a weak hand;
- overcall a five-card suit at the one level with 9+, at two with 12+;
- with partner in the auction: find a fit (eight cards between the hands, as far as the
  bids show), estimate the side's points and bid straight to the level they are worth
  (game 25 in NT and majors, 29 in minors; slam 33, grand 37); never above it;
- double an opponent's contract of three or more with four good trumps, or 3NT+ with 15+;
  redouble with a strong side when doubled.
Every bid is higher than the last, so an auction always ends.

Play — declarer draws trumps while a defender may hold one and he holds the top trump,
cashes sure winners, else leads low from a long suit; second hand low, third and fourth
hand win as cheaply as they can unless partner already wins; ruff when void and partner
is not winning; discard the lowest card. The declarer claims when every remaining card
of his side is a winner and the defenders hold no trump; a defender accepts a claim only
when a small double-dummy search shows it is right (he sees dummy, the declarer's hand and
his own, so he knows his partner's too), else plays on.
"""

from __future__ import annotations

import random

from engine.cards import RANK_VALUE as RV
from engine.tricks import winning_index
from engine.jsondata import JsonDict

HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}
SUITS = "SHDC"
GAME_LEVEL = {"NT": 3, "S": 4, "H": 4, "D": 5, "C": 5}
FULL = [r + s for s in SUITS for r in "23456789TJQKA"]


def computer_action(view: JsonDict, legal: list[str], rng: random.Random) -> str:
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1:
        return legal[0]
    phase = view.get("phase")
    if phase == "auction":
        action = choose_call(view, legal)
    elif phase == "claim":
        action = "accept" if claim_is_sound(view) else "reject"
    else:
        action = choose_play(view, legal)
    return action if action in legal else legal[0]


# ------------------------------------------------------------------------- hands
def hcp(hand: list[str]) -> int:
    return sum(HCP.get(c[0], 0) for c in hand)


def lengths(hand: list[str]) -> dict[str, int]:
    out = {s: 0 for s in SUITS}
    for c in hand:
        out[c[1]] += 1
    return out


def balanced(lens: dict[str, int]) -> bool:
    counts = sorted(lens.values())
    return counts[0] >= 2 and counts[1] >= 3


# ------------------------------------------------------------------------- bidding
def choose_call(view: JsonDict, legal: list[str]) -> str:
    me = view["seat"]
    partner = (me + 2) % 4
    hand = view["hand"]
    h, lens = hcp(hand), lengths(hand)
    legal_set = set(legal)
    auction = view["auction"]
    bids = [a for a in auction if a["call"] == "bid"]
    ours = [a for a in bids if a["seat"] % 2 == me % 2]
    theirs = [a for a in bids if a["seat"] % 2 != me % 2]
    last = bids[-1] if bids else None

    def can(level: int, strain: str) -> bool:
        return f"bid {level}{strain}" in legal_set

    def cheapest(strain: str) -> int | None:
        for level in range(1, 8):
            if can(level, strain):
                return level
        return None

    length_pts = h + sum(max(0, n - 4) for n in lens.values())

    # ---- our side has not bid yet
    if not ours:
        if "double" in legal_set and _penalty_double(last, h, lens):
            return "double"
        if not theirs:
            if balanced(lens) and 15 <= h <= 17 and can(1, "NT"):
                return "bid 1NT"
            if balanced(lens) and 20 <= h <= 21 and can(2, "NT"):
                return "bid 2NT"
            if length_pts >= 13:
                suit = _opening_suit(lens)
                level = cheapest(suit)
                if level is not None and level <= 1:
                    return f"bid {level}{suit}"
            long = [s for s in SUITS if lens[s] >= 7]
            if long and 5 <= h <= 10 and can(3, long[0]):
                return f"bid 3{long[0]}"
            return "pass"
        suit = max(SUITS, key=lambda s: (lens[s], s in "SH"))
        if lens[suit] >= 5:
            level = cheapest(suit)
            if level == 1 and h >= 9 or level == 2 and h >= 12:
                return f"bid {level}{suit}"
        if balanced(lens) and 15 <= h <= 18 and cheapest("NT") == 1:
            return "bid 1NT"
        return "pass"

    # ---- our side is in the auction
    partner_bids = [a for a in ours if a["seat"] == partner]
    my_bids = [a for a in ours if a["seat"] == me]
    partner_called_after_me = bool(my_bids) and any(
        a["seat"] == partner for a in auction[auction.index(my_bids[0]) + 1 :]
    )
    est = _partner_points(auction, bids, partner_bids, my_bids, partner_called_after_me)
    strain, fit = _best_strain(lens, partner_bids, my_bids)
    mine = h + (_shortness(lens, strain) if fit and strain != "NT" else sum(max(0, n - 4) for n in lens.values()))
    combined = mine + est
    game = GAME_LEVEL[strain]
    if combined >= 38:
        target = 7
    elif combined >= 34:
        target = 6
    elif combined >= (26 if strain in ("NT", "H", "S") else 29):
        target = game
    elif combined >= 23:
        target = min(3, game - 1) if strain != "NT" else 2
    elif combined >= 20:
        target = 2
    else:
        target = 1
    if strain in ("C", "D") and 26 <= combined < 29 and (balanced(lens) or not fit):
        strain, target = "NT", 3

    if "redouble" in legal_set and combined >= 28:
        return "redouble"
    # partner placed the contract at game or higher: leave it unless a slam is there
    if last is not None and last["seat"] == partner and last["level"] >= GAME_LEVEL[last["strain"]] and combined < 34:
        return "pass"
    if can(target, strain):
        level = cheapest(strain)
        if level is not None and level <= target:
            return f"bid {target}{strain}"
    if "double" in legal_set and (
        _penalty_double(last, h, lens)
        or (last is not None and last["level"] >= 3 and combined >= 26 and last["level"] >= target)
    ):
        return "double"
    return "pass"


def _partner_points(
    auction: list[JsonDict],
    bids: list[JsonDict],
    partner_bids: list[JsonDict],
    my_bids: list[JsonDict],
    partner_called_after_me: bool,
) -> int:
    """What partner's bids promise, as a rough points count."""
    if not partner_bids:
        return 3 if partner_called_after_me else 0
    first = partner_bids[0]
    opened = first is bids[0]
    responded = bool(my_bids) and auction.index(first) > auction.index(my_bids[0])
    if opened:
        if first["strain"] == "NT":
            est = {1: 16, 2: 20}.get(first["level"], 8)
        else:
            est = 13 if first["level"] == 1 else 7
    elif responded:
        raised = any(b["strain"] == first["strain"] for b in my_bids)
        if raised:
            est = {2: 7, 3: 10}.get(first["level"], 12)
        else:
            est = {1: 7, 2: 10, 3: 11}.get(first["level"], 12)
    else:
        est = 10 if first["level"] == 1 else 12
    latest = partner_bids[-1]
    if (
        latest is not first
        and responded is False
        and opened
        and latest["level"] >= 3
        and latest["strain"] != first["strain"]
    ):
        est += 3  # opener bidding on at the three level shows extras
    return est


def _opening_suit(lens: dict[str, int]) -> str:
    for s in ("S", "H"):
        if lens[s] >= 5 and lens[s] >= max(lens.values()):
            return s
    best = max(lens.values())
    if best >= 5:
        return next(s for s in SUITS if lens[s] == best)
    return "D" if lens["D"] >= 4 and lens["D"] >= lens["C"] else "C"


def _shortness(lens: dict[str, int], trump: str) -> int:
    return sum({0: 3, 1: 2, 2: 1}.get(n, 0) for s, n in lens.items() if s != trump)


def _best_strain(lens: dict[str, int], partner_bids: list[JsonDict], my_bids: list[JsonDict]) -> tuple[str, bool]:
    """The strain to aim for and whether it is a trump fit (8+ cards as far as known)."""
    partner_len = {s: 2 for s in SUITS}
    partner_nt = False
    for b in partner_bids:
        if b["strain"] == "NT":
            partner_nt = True
        else:
            partner_len[b["strain"]] = 4 if partner_len[b["strain"]] < 4 else 6
    for b in my_bids:
        if b["strain"] != "NT" and any(p["strain"] == b["strain"] for p in partner_bids):
            partner_len[b["strain"]] = max(partner_len[b["strain"]], 3)
    if partner_nt:
        partner_len = {s: max(v, 3) for s, v in partner_len.items()}
    fits = [(lens[s] + partner_len[s], s in "SH", s) for s in SUITS]
    total, major, suit = max(fits)
    if total >= 8 and (major or total >= 9 or not partner_nt):
        return suit, True
    if partner_nt or balanced(lens):
        return "NT", False
    long = max(SUITS, key=lambda s: (lens[s], s in "SH"))
    return long, lens[long] >= 6


def _penalty_double(last: JsonDict | None, h: int, lens: dict[str, int]) -> bool:
    if last is None or last["level"] < 3:
        return False
    if last["strain"] == "NT":
        return h >= 15
    return lens[last["strain"]] >= 4 and h >= 10


# ------------------------------------------------------------------------- play
def _ours(view: JsonDict) -> tuple[list[str], list[str]]:
    """The hand due to play now and its partner hand as far as this seat can see."""
    me, due = view["seat"], view["turn"]
    hand = view["hand"]
    dummy = view.get("dummy_hand") or []
    if view.get("dummy") is not None and due == view["dummy"] and me == view["declarer"]:
        return dummy, hand
    if me == view.get("declarer"):
        return hand, dummy
    return hand, []


def _outstanding(view: JsonDict, mine: list[str], partner: list[str]) -> set[str]:
    """Cards this seat cannot place: not played, not in the trick, not in a hand it sees."""
    seen = set(view["played"]) | {c for _, c in view["trick"]} | set(mine) | set(partner)
    seen |= set(view.get("dummy_hand") or []) | set(view.get("declarer_hand") or [])
    return {c for c in FULL if c not in seen}


def _is_master(card: str, outstanding: set[str]) -> bool:
    return not any(c[1] == card[1] and RV[c[0]] > RV[card[0]] for c in outstanding)


def _low(cards: list[str]) -> str:
    return min(cards, key=lambda c: (RV[c[0]], c))


def _high(cards: list[str]) -> str:
    return max(cards, key=lambda c: (RV[c[0]], c))


def choose_play(view: JsonDict, legal: list[str]) -> str:
    claim = next((a for a in legal if a.startswith("claim ")), None)
    if claim is not None and view["tricks_played"] < 12 and _all_winners(view):
        return claim  # the first claim offered is all the remaining tricks
    cards = [a.split()[1] for a in legal if a.startswith("play ")]
    if not cards:
        return legal[0]
    contract = view["contract"]
    trump = None if contract["strain"] == "NT" else contract["strain"]
    mine, partner = _ours(view)
    out = _outstanding(view, mine, partner)
    due = view["turn"]
    declaring = view["declarer"] is not None and due % 2 == view["declarer"] % 2
    trick = view["trick"]
    if not trick:
        return "play " + _lead(cards, mine, out, trump, declaring)
    led = trick[0][1][1]
    played = [c for _, c in trick]
    w = winning_index(played, trump)
    win_seat, win_card = trick[w]
    partner_wins = win_seat % 2 == due % 2
    follow = [c for c in cards if c[1] == led]
    if follow:
        if partner_wins:
            return "play " + _low(follow)
        can_beat = win_card[1] == led
        beaters = [c for c in follow if can_beat and RV[c[0]] > RV[win_card[0]]]
        if beaters and len(trick) >= 2:
            return "play " + _low(beaters)
        if beaters and len(trick) == 1 and _is_master(_high(beaters), out):
            return "play " + _high(beaters)
        return "play " + _low(follow)
    trumps = [c for c in cards if trump and c[1] == trump]
    others = [c for c in cards if not (trump and c[1] == trump)]
    if partner_wins or not trumps:
        return "play " + _low(others or cards)
    if win_card[1] == trump:
        over = [c for c in trumps if RV[c[0]] > RV[win_card[0]]]
        if over:
            return "play " + _low(over)
        return "play " + _low(others or cards)
    return "play " + _low(trumps)


def _lead(cards: list[str], hand: list[str], out: set[str], trump: str | None, declaring: bool) -> str:
    if declaring and trump:
        out_trumps = [c for c in out if c[1] == trump]
        my_trumps = sorted((c for c in cards if c[1] == trump), key=lambda c: -RV[c[0]])
        if out_trumps and my_trumps and len(out_trumps) <= 6:
            top = my_trumps[0]
            touching = len(my_trumps) > 1 and RV[top[0]] - RV[my_trumps[1][0]] == 1
            if _is_master(top, out) or (touching and RV[top[0]] >= RV["J"]):
                return top
            return my_trumps[-1]
    masters = [c for c in cards if c[1] != trump and _is_master(c, out) and any(o[1] == c[1] for o in out)]
    if masters:
        return _high(masters)
    lens = lengths(cards)
    suits = [s for s in SUITS if lens[s] and s != trump] or [s for s in SUITS if lens[s]]
    suit = max(suits, key=lambda s: (lens[s], -SUITS.index(s)))
    in_suit = [c for c in cards if c[1] == suit]
    by_rank = sorted(in_suit, key=lambda c: -RV[c[0]])
    if (
        not declaring
        and len(by_rank) >= 2
        and RV[by_rank[0][0]] >= RV["Q"]
        and RV[by_rank[0][0]] - RV[by_rank[1][0]] == 1
    ):
        return by_rank[0]  # top of touching honours
    return _low(in_suit)


def _all_winners(view: JsonDict) -> bool:
    """The declaring side's every remaining card beats every defenders' card of its suit,
    and (in a suit contract) the defenders hold no trump: every trick is won, whoever leads."""
    ours = set(view["hand"]) | set(view.get("dummy_hand") or [])
    return _sure(view, ours)


def _sure(view: JsonDict, ours: set[str]) -> bool:
    contract = view["contract"]
    trump = None if contract["strain"] == "NT" else contract["strain"]
    played = set(view["played"]) | {c for _, c in view["trick"]}
    theirs = [c for c in FULL if c not in ours and c not in played]
    if trump and any(c[1] == trump for c in theirs):
        return False
    top: dict[str, str] = {}  # suit -> the defenders' highest card of it
    for c in theirs:
        if c[1] not in top or RV[c[0]] > RV[top[c[1]][0]]:
            top[c[1]] = c
    return all(c[1] not in top or RV[c[0]] > RV[top[c[1]][0]] for c in ours)


CLAIM_SEARCH_BUDGET = 20_000  # cards tried; beyond it a defender plays on (rejects)


def claim_is_sound(view: JsonDict) -> bool:
    """A defender's answer to a claim of k tricks. With the declarer's and dummy's cards
    face up, his own hand and the played cards, he also knows his partner's cards (the
    rest), so he checks exactly that the declaring side can take k tricks against any
    defence (a small double-dummy search). Accept at once when all the declaring side's
    cards are winners; reject (play on) when the position is too big to check."""
    claim = view.get("claim") or {}
    ours = set(view.get("declarer_hand") or []) | set(view.get("dummy_hand") or [])
    if _sure(view, ours):
        return True
    hands = _claim_hands(view)
    if hands is None:
        return False
    contract = view["contract"]
    trump = None if contract["strain"] == "NT" else contract["strain"]
    try:
        return can_take(
            hands, view["trick_leader"], trump, view["declarer"] % 2, claim.get("tricks", 0), CLAIM_SEARCH_BUDGET
        )
    except _TooBig:
        return False


def _claim_hands(view: JsonDict) -> Hands | None:
    """The four remaining hands as a defender sees them during a claim (partner's = the rest),
    or None when the view does not add up (then nothing is accepted)."""
    seat, declarer, dummy = view.get("seat"), view.get("declarer"), view.get("dummy")
    if seat is None or declarer is None or view.get("trick"):
        return None
    assert dummy is not None, "a view with a declarer shows the dummy seat"
    hands: list[set[str]] = [set(), set(), set(), set()]
    hands[declarer] = set(view.get("declarer_hand") or [])
    hands[dummy] = set(view.get("dummy_hand") or [])
    hands[seat] = set(view.get("hand") or [])
    known = set().union(*hands) | set(view["played"])
    hands[(seat + 2) % 4] = {c for c in FULL if c not in known}
    if len({len(h) for h in hands}) != 1:
        return None
    return tuple(frozenset(h) for h in hands)


# a claim's four hands, seats 0..3, and a trick's (seat, card) plays so far
Hands = tuple[frozenset[str], ...]
Plays = tuple[tuple[int, str], ...]


class _TooBig(Exception):
    pass


def can_take(
    hands: Hands,
    leader: int,
    trump: str | None,
    side: int,
    need: int,
    budget: int = CLAIM_SEARCH_BUDGET,
) -> bool:
    """Whether side ``side`` (0 = N–S, 1 = E–W) wins at least ``need`` of the remaining tricks
    against the best play of the other side, all four hands known (no trick in progress).
    Raises ``_TooBig`` after ``budget`` cards tried."""
    memo: dict[tuple[Hands, int, int], bool] = {}
    count = [0]

    def options(hands: Hands, seat: int, plays: Plays) -> list[str]:
        led = plays[0][1][1] if plays else None
        cards = [c for c in hands[seat] if c[1] == led] or list(hands[seat])
        # cards of one suit with no live card of another hand (or on the table) between them
        # are equivalent: keep the highest of each run
        live = {c for i, h in enumerate(hands) if i != seat for c in h} | {c for _, c in plays}
        out: list[str] = []
        for suit in {c[1] for c in cards}:
            mine = sorted((c for c in cards if c[1] == suit), key=lambda c: RV[c[0]], reverse=True)
            others = [RV[c[0]] for c in live if c[1] == suit]
            prev: str | None = None
            for c in mine:
                if prev is None or any(RV[c[0]] < r < RV[prev[0]] for r in others):
                    out.append(c)
                prev = c
        # try first the cards that would win the trick so far, high before low: a winning
        # line (or a refutation) is usually found among them, which cuts the search short
        table = [c for _, c in plays]

        def strength(card: str) -> tuple[bool, int]:
            wins = not table or winning_index(table + [card], trump) == len(table)
            return (not wins, -(RV[card[0]] + (20 if card[1] == trump else 0)))

        return sorted(out, key=strength)

    def win(hands: Hands, leader: int, need: int) -> bool:
        if need <= 0:
            return True
        if need > len(hands[0]):
            return False
        key = (hands, leader, need)
        if key in memo:
            return memo[key]
        memo[key] = result = trick(hands, leader, (), need)
        return result

    def trick(hands: Hands, leader: int, plays: Plays, need: int) -> bool:
        count[0] += 1
        if count[0] > budget:
            raise _TooBig
        if len(plays) == 4:
            winner = plays[winning_index([c for _, c in plays], trump)][0]
            return win(hands, winner, need - (1 if winner % 2 == side else 0))
        seat = (leader + len(plays)) % 4
        ours = seat % 2 == side
        for card in options(hands, seat, plays):
            rest = hands[:seat] + (hands[seat] - {card},) + hands[seat + 1 :]
            if trick(rest, leader, plays + ((seat, card),), need) == ours:
                return ours
        return not ours

    return win(tuple(frozenset(h) for h in hands), leader, need)
