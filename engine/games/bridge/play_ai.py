"""The strong bridge card player: double-dummy sampling (engine/ddplay).

From its own seat's view only, the player knows its hand, dummy once it is down, every
card played and by whom (the view's ``played`` list is in play order: the first trick is
led by the declarer's left-hand opponent and each trick's winner leads the next), and the
auction. It deals the cards it cannot see to the hidden hands many times — keeping hand
sizes, the suits a player showed out of, the cards a follower cannot hold (he would
have played the cheaper of two equal cards), and what the auction promised
(``inference.auction_inferences``: each seat's hand is redrawn until it fits, and the
nearest miss is kept when a bid was wrong) — solves each deal double dummy with DDS and
plays the card with the best total. The declarer plays dummy's cards the same way, from
his seat.

The number of deals is set by the position (more cards left = dearer DDS calls = fewer
deals) and then raised within a budget of DDS search nodes, never by a clock, so a
decision is reproducible for a given ``rng``. The extra deals go where DDS is dear —
the opening lead and the first tricks, where the blind guesses lose most tricks.
Known weaknesses of the method, accepted: the declarer "guesses" like a sampler (no
reading of defenders' signals), and defenders play as if partner's cards were known.
"""

from __future__ import annotations

import random

from engine.cards import make_deck
from engine.deadline import NEVER, Deadline
from engine.ddplay.chooser import STRONG_BUDGET, Budget, choose_card, samples_for
from engine.ddplay.sampler import Hands, cheapest_of_equals, sample_fitting, sample_hands, voids
from engine.jsondata import JsonDict
from engine.tricks import winning_index

from .inference import HandRange, auction_inferences

FULL = frozenset(make_deck(52))
CALLS = {"pass": "P", "double": "X", "redouble": "XX"}


def seats_of_played(view: JsonDict, trump: str | None) -> list[tuple[int, str]]:
    """(seat, card) for every card of the finished tricks, from the ordered ``played`` list."""
    out: list[tuple[int, str]] = []
    leader = (view["declarer"] + 1) % 4
    played = view["played"]
    for start in range(0, len(played) - len(played) % 4, 4):
        cards = played[start : start + 4]
        out += [((leader + i) % 4, c) for i, c in enumerate(cards)]
        leader = (leader + winning_index(cards, trump)) % 4
    return out


def _calls(view: JsonDict) -> list[str]:
    out = []
    for a in view.get("auction") or []:
        out.append(CALLS.get(a["call"]) or f"{a['level']}{a['strain']}")
    return out


# Beyond the position's deals (``STRONG_BUDGET``), the strong player solves more, up to
# MOST_DEALS, while the DDS search stays within STRONG_NODES nodes (~0.35 us each on this
# machine): the opening lead, where one 13-card deal costs ~180 000 nodes, gets ~8 deals
# instead of 4, the second trick (~54 000 nodes a deal) ~28 instead of 8, and a decision
# stays near half a second of CPU (p99 goal: 1 s).
STRONG_NODES = 1_500_000
MOST_DEALS = 64

# Hand draws per decision spent on fitting the auction, shared by its sampled deals: a
# draw costs ~10 us, so 4000 stay well under the DDS time of even the cheapest decisions
FIT_DRAWS = 4000
FIT_DRAWS_PER_DEAL = (20, 400)


def _limits(ranges: dict[int, HandRange]) -> dict[int, HandRange]:
    """The ranges that say something (a seat that only passed may promise nothing)."""
    return {s: r for s, r in ranges.items() if r != HandRange()}


def choose_play(
    view: JsonDict,
    legal: list[str],
    rng: random.Random,
    budget: Budget = STRONG_BUDGET,
    nodes: int | None = None,
    deadline: Deadline = NEVER,
) -> str:
    """A ``play <card>`` action of ``legal`` (claims and concessions are decided elsewhere).
    ``nodes``: the DDS work allowed for extra deals (default: ``STRONG_NODES`` with the
    strong budget, none with any other)."""
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
    tricks = [history[i : i + 4] for i in range(0, len(history), 4)] + [trick]
    void = voids(tricks)
    bans = cheapest_of_equals(tricks)

    # the auction's promises are about the hands as dealt: hidden cards + cards played
    ranges = auction_inferences(_calls(view), view["dealer"]) if view.get("auction") else {}
    played_by = {s: [c for p, c in history + trick if p == s] for s in range(4)}

    fit = {s: (lambda hand, s=s, r=r: r.misfit(hand + played_by[s])) for s, r in _limits(ranges).items() if s in need}
    samples = samples_for(sum(counts), budget)
    draws = min(max(FIT_DRAWS // samples, FIT_DRAWS_PER_DEAL[0]), FIT_DRAWS_PER_DEAL[1])

    def sample(r: random.Random) -> Hands:
        if not fit:
            return sample_hands(pool, need, void, r, None, bans)
        return sample_fitting(pool, need, void, r, fit, bans, draws)

    leader = view["trick_leader"]
    if nodes is None:
        nodes = STRONG_NODES if budget is STRONG_BUDGET else 0
    card = choose_card(
        cards,
        known,
        sample,
        samples,
        leader,
        trump,
        [c for _, c in trick],
        rng,
        nodes,
        max(samples, MOST_DEALS),
        deadline,
    )
    return "play " + card
