"""A simple computer player for preferans. It reads only its own ``view`` and the
``legal`` actions, and always returns one of ``legal``.

- auction: estimates its tricks for each trump suit and for sans; bids (the lowest
  number that is enough) up to the best contract worth 6 tricks, says "moje" when it
  may, igra only with a very strong hand;
- talon: discards the two cheapest cards of its shortest side suits, then announces
  the contract with the best estimate;
- defence: plays only with a safe two tricks (see ``WHIST_MIN``), kontras with four
  (three against a "two");
  the kontra chain goes on only with a much stronger hand, so it always ends;
- play: wins a trick cheaply when the other defender is not already winning it,
  otherwise plays low; in bettel the declarer ducks and the defenders play low.
"""

from __future__ import annotations

import random

from engine.cards import RANK_VALUE as RV
from engine.tricks import winning_index
from engine.jsondata import JsonDict

SUIT_NUMBER = {"S": 2, "D": 3, "H": 4, "C": 5}
NUMBER_SUIT = {n: s for s, n in SUIT_NUMBER.items()}
NAME_NUMBER = {"S": 2, "D": 3, "H": 4, "C": 5, "BETTEL": 6, "SANS": 7}
BID_BONUS = 1.5  # tricks the talon is hoped to bring when bidding
# A defender below his quota pays v in his contract column, which the settlement counts
# ten times, while each trick brings only v of soup: whist only with a safe two tricks
# (an estimate of 2 falls short half the time). Whisting on weak hands also made a
# pulka of 30 last about 90 hands; with these thresholds it is about 30.
WHIST_MIN = 2.5
INVITE_MIN = 3.5  # the inviter answers for the pair's four tricks


def _by_suit(hand: list[str]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {s: [] for s in "SDHC"}
    for c in hand:
        out[c[1]].append(RV[c[0]])
    for s in out:
        out[s].sort(reverse=True)
    return out


def _side_tricks(ranks: list[int]) -> float:
    if not ranks:
        return 0.0
    t = 0.0
    if ranks[0] == 14:
        t += 1
        if len(ranks) > 1 and ranks[1] == 13:
            t += 1
            if len(ranks) > 2 and ranks[2] == 12:
                t += 0.5
    elif ranks[0] == 13 and len(ranks) >= 2:
        t += 0.5
        if len(ranks) >= 3 and ranks[1] == 12:
            t += 0.5
    return t


def estimate(hand: list[str], trump: str | None) -> float:
    """Rough tricks this hand takes as declarer with ``trump`` (None: sans)."""
    suits = _by_suit(hand)
    total = 0.0
    for s, ranks in suits.items():
        if s == trump:
            honours = sum(1 for r in ranks if r >= 12)
            total += min(len(ranks), honours + max(0, len(ranks) - 3))
            if len(ranks) >= 5:
                total += 0.5
        else:
            total += _side_tricks(ranks)
            if trump is None and ranks and ranks[0] == 14 and len(ranks) >= 5:
                total += len(ranks) - 4
            if trump is not None and len(ranks) <= 1 and len(suits[trump]) >= 4:
                total += 0.5  # a void or singleton to ruff
    return total


def bettel_ok(hand: list[str]) -> bool:
    suits = _by_suit(hand)
    return all(not ranks or (ranks[-1] <= 8 and ranks[0] <= 11) for ranks in suits.values())


def best_target(hand: list[str], bonus: float) -> int | None:
    """The contract number this hand would like to play (None: none)."""
    best, best_est = None, 0.0
    for s, n in SUIT_NUMBER.items():
        e = estimate(hand, s) + bonus
        if e >= 6 and (best is None or e > best_est + 0.01):
            best, best_est = n, e
    if estimate(hand, None) + bonus >= 7:
        best = 7
    if best is None and bettel_ok(hand):
        best = 6
    return best


def defence_estimate(hand: list[str], trump: str | None) -> float:
    suits = _by_suit(hand)
    t = 0.0
    for s, ranks in suits.items():
        if s == trump:
            t += min(len(ranks), sum(1 for r in ranks if r >= 13)) + (1 if len(ranks) >= 3 else 0)
        else:
            t += _side_tricks(ranks)
    return t


def _choose_contract(hand: list[str], legal: list[str]) -> str:
    options = [a for a in legal if a.split()[1] in NAME_NUMBER]
    scored = []
    for a in options:
        name = a.split()[1]
        n = NAME_NUMBER[name]
        if n == 6:
            e = 6.5 if bettel_ok(hand) else -1
        else:
            e = estimate(hand, NUMBER_SUIT.get(n))
        scored.append((e, -n, a))
    scored.sort(reverse=True)
    return scored[0][2]


def computer_action(view: JsonDict, legal: list[str], rng: random.Random) -> str:
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1:
        return legal[0]
    hand = view.get("hand", [])
    phase = view["phase"]
    seat = view["seat"]
    if phase == "auction":
        target = best_target(hand, BID_BONUS)
        if target is None:
            return "pass"
        if "igra" in legal and best_target(hand, 0.0) is not None and estimate(hand, None) >= 8:
            return "igra"
        if "moje" in legal and view["high"] is not None and view["high"] <= target:
            return "moje"
        bids = [a for a in legal if a.startswith("bid ") and int(a.split()[1]) <= target]
        return bids[0] if bids else "pass"
    if phase == "naming":
        target = best_target(hand, 0.0) or 2
        names = [a for a in legal if a.startswith("name ") and NAME_NUMBER[a.split()[1]] <= target]
        if "hold" in legal and view["named"] is not None and view["named"] <= target:
            return "hold"
        if names:
            return _choose_contract(hand, names) if view["named"] is None else names[0]
        return "concede" if "concede" in legal else legal[0]
    if phase == "discard":
        counts = _by_suit(hand)
        target = best_target(hand, 0.0)
        trump = NUMBER_SUIT.get(target or 0)

        def cost(a: str) -> tuple[bool, bool, int, int]:
            c = a.split()[1]
            return (c[1] == trump, RV[c[0]] == 14, len(counts[c[1]]), RV[c[0]])

        return min(legal, key=cost)
    if phase == "contract":
        return _choose_contract(hand, legal)
    trump = view.get("trump")
    if phase == "defence":
        e = defence_estimate(hand, trump)
        if "invite" in legal and e >= INVITE_MIN:
            return "invite" if rng.random() < 0.5 else "play"
        return "play" if e >= WHIST_MIN else "pass"
    if phase == "kontra":
        level = view.get("level", 0)
        if "kontra" in legal:
            e = defence_estimate(hand, trump)
            two = view.get("number") == 2 and not view.get("igra")
            return "kontra" if e >= (3 if two else 4.5) else "no"
        if seat == view.get("declarer"):
            strong = estimate(hand, trump) >= 8
            return "raise" if strong and level < 3 and rng.random() < 0.5 else "stop"
        return "raise" if defence_estimate(hand, trump) >= 6 and level < 3 else "stop"
    if phase == "play":
        return _play(view, legal, rng)
    return rng.choice(legal)


def _play(view: JsonDict, legal: list[str], rng: random.Random) -> str:
    cards = [a.split()[1] for a in legal]
    trump = view.get("trump")
    seat, declarer = view["seat"], view["declarer"]
    bettel = view.get("number") == 6
    trick = view.get("trick") or []
    low = sorted(cards, key=lambda c: (c[1] == trump, RV[c[0]]))
    if not trick:
        if bettel:
            return "play " + low[0]
        if seat == declarer:
            suits = _by_suit(cards)
            if trump and suits.get(trump):
                return "play " + max((c for c in cards if c[1] == trump), key=lambda c: RV[c[0]])
            best = max(cards, key=lambda c: (RV[c[0]] == 14, len(suits[c[1]]), RV[c[0]]))
            return "play " + best
        aces = [c for c in cards if c[0] == "A" and c[1] != trump]
        return "play " + (aces[0] if aces else low[0])
    played = [c for _, c in trick]
    winner_seat = trick[winning_index(played, trump)][0]

    def wins(c: str) -> bool:
        return winning_index(played + [c], trump) == len(played)

    if bettel:
        if seat == declarer:
            ducks = [c for c in cards if not wins(c)]
            if ducks:
                return "play " + max(ducks, key=lambda c: RV[c[0]])
        return "play " + low[0]
    partner_wins = seat != declarer and winner_seat != declarer
    if not partner_wins:
        winners = [c for c in low if wins(c)]
        if winners:
            return "play " + winners[0]
    return "play " + low[0]
