"""The strong bridge card player: double-dummy sampling (engine/ddplay).

From its own seat's view only, the player knows its hand, dummy once it is down, every
card played and by whom (the view's ``played`` list is in play order: the first trick is
led by the declarer's left-hand opponent and each trick's winner leads the next), and the
auction. It deals the cards it cannot see to the hidden hands many times — keeping hand
sizes, the suits a player showed out of, the cards a follower cannot hold (he would
have played the cheaper of two equal cards), and (softly) what the auction promised
(``inference.auction_inferences``) — solves each deal double dummy with DDS and plays the
card with the best total. The declarer plays dummy's cards the same way, from his seat.

The number of deals is fixed by the position (more cards left = dearer DDS calls = fewer
deals), never by a clock, so a decision is reproducible for a given ``rng``.
Known weaknesses of the method, accepted: the declarer "guesses" like a sampler (no
reading of defenders' signals), and defenders play as if partner's cards were known.
"""
from __future__ import annotations

import random

from engine.cards import make_deck
from engine.ddplay.chooser import STRONG_BUDGET, choose_card, samples_for
from engine.ddplay.sampler import Hands, cheapest_of_equals, sample_hands, voids
from engine.tricks import winning_index

from .ai_easy import HCP
from .inference import HandRange, auction_inferences

FULL = frozenset(make_deck(52))
CALLS = {"pass": "P", "double": "X", "redouble": "XX"}


def seats_of_played(view: dict, trump: str | None) -> list[tuple[int, str]]:
    """(seat, card) for every card of the finished tricks, from the ordered ``played`` list."""
    out: list[tuple[int, str]] = []
    leader = (view["declarer"] + 1) % 4
    played = view["played"]
    for start in range(0, len(played) - len(played) % 4, 4):
        cards = played[start:start + 4]
        out += [((leader + i) % 4, c) for i, c in enumerate(cards)]
        leader = (leader + winning_index(cards, trump)) % 4
    return out


def _calls(view: dict) -> list[str]:
    out = []
    for a in view.get("auction") or []:
        out.append(CALLS.get(a["call"]) or f"{a['level']}{a['strain']}")
    return out


def _fits(cards: list[str], wanted: HandRange) -> bool:
    hcp = sum(HCP.get(c[0], 0) for c in cards)
    if not wanted.hcp[0] <= hcp <= wanted.hcp[1]:
        return False
    for suit, (lo, hi) in wanted.length.items():
        if not lo <= sum(1 for c in cards if c[1] == suit) <= hi:
            return False
    return True


def choose_play(view: dict, legal: list[str], rng: random.Random, budget=STRONG_BUDGET) -> str:
    """A ``play <card>`` action of ``legal`` (claims and concessions are decided elsewhere)."""
    plays = [a for a in legal if a.startswith("play ")]
    cards = [a.split()[1] for a in plays]
    if len(cards) <= 1:
        return plays[0] if plays else legal[0]
    me, declarer, dummy = view["seat"], view["declarer"], view["dummy"]
    strain = view["contract"]["strain"]
    trump = None if strain == "NT" else strain

    history = seats_of_played(view, trump)
    trick = [(s, c) for s, c in view["trick"]]
    known: Hands = {me: list(view["hand"])}
    if view.get("dummy_hand") is not None:
        known[dummy] = list(view["dummy_hand"])
    if view.get("declarer_hand") is not None:
        known[declarer] = list(view["declarer_hand"])
    counts = view["hand_counts"]
    seen = {c for h in known.values() for c in h} | {c for _, c in history} | {c for _, c in trick}
    pool = [c for c in FULL if c not in seen]
    need = {s: counts[s] for s in range(4) if s not in known}
    tricks = [history[i:i + 4] for i in range(0, len(history), 4)] + [trick]
    void = voids(tricks)
    bans = cheapest_of_equals(tricks)

    # the auction's promises are about the hands as dealt: hidden cards + cards played
    ranges = auction_inferences(_calls(view), view["dealer"]) if view.get("auction") else {}
    played_by = {s: [c for p, c in history + trick if p == s] for s in range(4)}

    def accept(hands: Hands) -> bool:
        return all(_fits(hands[s] + played_by[s], r) for s, r in ranges.items() if s in hands)

    def sample(r: random.Random) -> Hands:
        return sample_hands(pool, need, void, r, accept if ranges else None, bans)

    cards_left = sum(counts)
    leader = view["trick_leader"]
    card = choose_card(cards, known, sample, samples_for(cards_left, budget), leader, trump,
                       [c for _, c in trick], rng)
    return "play " + card
