"""The strong (and normal) whist computer: double-dummy sampling card play (engine/ddplay).

From its own view the player knows its hand, every card of the finished tricks and who
played it (``played``), the trick on the table, the turned-up trump (in the dealer's hand
until he plays it) and the table's ``must_trump`` rule. It deals the 39-odd cards it
cannot see to the three other hands many times — keeping hand sizes, the suits a player
showed out of, under ``must_trump`` a player's trump void when he showed out of the suit
led without trumping, and the cards the plays say a player does not hold (``ai_infer``:
the cheaper of two equal cards, the cheapest loser, the last hand's cheapest winner) —
weighs each deal so that the deals are uniform over those consistent with all that
(``ai_sample``), solves each deal double dummy with DDS and plays the card with the best
weighted total.

DDS knows no ``must_trump``: it lets a void hand discard where the rule forces a trump.
Our own choice is always among ``legal`` (which keeps the rule); the other hands' future
plays are judged by DDS as if they could discard. The benchmark (bench/strength/whist.py)
measures how often that changes a position's value; it is rare and small, so we keep DDS
(a Python solver for the rule would be ~1000x slower at 13 cards).

Trump naming (``dealer_names``) and the vote after a rubber stay with ``ai_easy``.
``normal`` is the same player with a much smaller sampling budget.
"""

from __future__ import annotations

import random

from endplay._dds import DDSError

from engine.cards import make_deck
from engine.ddplay.chooser import NORMAL_BUDGET, Budget, samples_for
from engine.ddplay.sampler import Hands, voids
from engine.deadline import NEVER, Deadline, OutOfTime
from engine.jsondata import JsonDict

from . import ai_easy, ai_sample
from .ai_infer import inferred_bans
from .ai_sample import sample_weighted

FULL = frozenset(make_deck(52))

# Deals solved per decision by cards still in the four hands (bridge's budget in
# engine/ddplay/chooser.py is for a dummy's game; whist has no dummy and its leads are
# guesses, so it takes more deals). A 13-card DDS solve costs ~35 ms of CPU on average,
# up to ~0.15 s; 12 cards ~16 ms, 11 ~10 ms, 10 ~3 ms, from 9 on ~1 ms: a first-trick
# decision stays well under a second and the mean under 0.1 s.
STRONG_BUDGET = ((48, 12), (44, 20), (40, 32), (36, 64), (28, 128), (0, 160))


def tricks_seen(view: JsonDict) -> list[list[tuple[int, str]]]:
    """The finished tricks of this deal and the trick on the table, as (seat, card)."""
    played = [(p, c) for p, c in view.get("played", [])]
    return [played[i : i + 4] for i in range(0, len(played), 4)] + [[(p, c) for p, c in view["trick"]]]


def known_voids(view: JsonDict) -> dict[int, set[str]]:
    tricks = tricks_seen(view)
    out = voids(tricks)
    trump = view.get("trump")
    if view.get("must_trump") and trump:
        # showing out of the suit led with a non-trump: no trump left either
        for t in tricks:
            led = t[0][1][1] if t else None
            for seat, card in t[1:]:
                if card[1] != led and card[1] != trump:
                    out[seat].add(trump)
    return out


def choose_play(
    view: JsonDict,
    legal: list[str],
    rng: random.Random,
    budget: Budget = STRONG_BUDGET,
    shown: Hands | None = None,
    deadline: Deadline = NEVER,
) -> str:
    """The card with the best weighted double-dummy total over sampled deals. ``shown``:
    other seats' hands to treat as known — only bench/strength/whist_limit.py passes it, to
    measure what partner's cards would be worth; real play never does."""
    cards = [a.split()[1] for a in legal]
    if len(cards) == 1:
        return legal[0]
    me, trump = view["seat"], view.get("trump")
    played = [(p, c) for p, c in view.get("played", [])]
    trick = [(p, c) for p, c in view["trick"]]
    counts = view["hand_counts"]
    known: Hands = {**(shown or {}), me: list(view["hand"])}
    seen = {c for hand in known.values() for c in hand} | {c for _, c in played} | {c for _, c in trick}
    dealer, turned = view.get("dealer"), view.get("turn_up")
    # the turned-up card, while the view shows it (until the dealer's first play: the
    # project keeps it hidden afterwards), is in the dealer's hand
    fixed: list[str] = []
    if turned and turned not in seen and dealer is not None and dealer not in known:
        fixed = [turned]
        seen.add(turned)
    pool = [c for c in FULL if c not in seen]
    need = {s: counts[s] - (len(fixed) if s == dealer else 0) for s in range(4) if s not in known}
    void = known_voids(view)
    bans = inferred_bans(tricks_seen(view), trump)

    def sample(r: random.Random) -> tuple[Hands, float]:
        hands, log_weight = sample_weighted(pool, need, void, bans, r)
        if fixed and dealer is not None:
            hands[dealer] = hands[dealer] + fixed
        return hands, log_weight

    card = ai_sample.choose_card(
        cards,
        known,
        sample,
        samples_for(sum(counts), budget),
        view["leader"],
        trump,
        [c for _, c in trick],
        rng,
        deadline,
    )
    return "play " + card


def _action(view: JsonDict, legal: list[str], rng: random.Random, budget: Budget, deadline: Deadline) -> str:
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1 or not legal[0].startswith("play "):
        return ai_easy.computer_action(view, legal, rng)
    try:
        action = choose_play(view, legal, rng, budget, deadline=deadline)
    # a view that does not add up: never stall the table; no deal solved in time
    except (ValueError, DDSError, OutOfTime):
        action = ai_easy.computer_action(view, legal, rng)
    return action if action in legal else legal[0]


def computer_action(view: JsonDict, legal: list[str], rng: random.Random, deadline: Deadline = NEVER) -> str:
    return _action(view, legal, rng, STRONG_BUDGET, deadline)


def computer_action_normal(view: JsonDict, legal: list[str], rng: random.Random, deadline: Deadline = NEVER) -> str:
    return _action(view, legal, rng, NORMAL_BUDGET, deadline)
