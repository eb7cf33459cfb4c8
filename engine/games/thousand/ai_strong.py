"""The strong Тысяча player: it samples the hidden cards consistent with what it has seen
(ai_sim.worlds) and plays each deal out by the easy policy. It bids the highest contract
it makes in most samples, raises the same way after the прикуп, concedes (распишись)
when that costs less than playing on, bids blind when blind deals make 100 often enough,
and plays the card whose playouts leave it furthest ahead of the others."""

from __future__ import annotations

import random
from statistics import mean

from engine.deadline import NEVER, Deadline, OutOfTime, anytime
from engine.jsondata import JsonDict

from . import ai_easy
from . import cards as C
from .ai_sim import playout, worlds
from .scoring import rounded

MAKE_TO_BID = 0.6  # the share of samples that must make a contract before it is bid
MAKE_TO_RAISE = 0.6
DARK_MAKES = 0.6


def _declarer_points(
    hand: list[str], unseen: list[str], talon: list[str] | None, o: JsonDict, rng: random.Random
) -> tuple[int, list[int]]:
    """One sampled deal from the declarer's seat (seat 0, defenders 1 and 2): its points
    and the defenders' after the easy play, ``hand`` before the прикуп when ``talon`` is None."""
    pool = list(unseen)
    rng.shuffle(pool)
    if talon is None:
        talon, pool = pool[:3], pool[3:]
        mine = hand + talon
    else:
        mine = list(hand)
    n = (len(pool) + 1) // 2 if len(mine) > 8 else len(pool) // 2
    d1, d2 = pool[:n], pool[n:]
    if len(mine) > 8:  # the two gifts, to each defender one
        give = ai_easy.gifts(mine, 2)
        mine = [c for c in mine if c not in give]
        d1, d2 = d1 + give[:1], d2 + give[1:]
    taken, married = playout(
        {0: mine, 1: d1, 2: d2},
        [0, 1, 2],
        0,
        [],
        None,
        [0, 0, 0],
        [0, 0, 0],
        [0, 0, 0],
        bool(o["marriage_after_trick"]),
        rng,
    )
    return taken[0] + married[0], [taken[s] + married[s] for s in (1, 2)]


def _samples(
    view: JsonDict, hand: list[str], n: int, rng: random.Random, deadline: Deadline
) -> list[tuple[int, list[int]]]:
    known = set(hand) | set(view["talon"] or [])
    unseen = [c for c in C.DECK if c not in known]
    talon: list[str] | None = None if view["phase"] == "bid" else []
    out: list[tuple[int, list[int]]] = []
    for _ in range(n):
        if deadline.expired() and out:
            break
        out.append(_declarer_points(hand, unseen, talon, view["options"], rng))
    return out


def _best_amount(amounts: list[int], samples: list[tuple[int, list[int]]], share: float) -> int | None:
    best = None
    for amount in amounts:
        if sum(1 for mine, _ in samples if mine >= amount) >= share * len(samples):
            best = amount
    return best


def _bid(view: JsonDict, legal: list[str], rng: random.Random, n: int, deadline: Deadline) -> str:
    if legal == ["dark", "look"]:
        # a blind 100 from a hand not seen: sample the hand too
        hands = [rng.sample(C.DECK, 7) for _ in range(n)]
        made = sum(1 for h in hands if _samples(view, h, 1, rng, deadline)[0][0] >= 100)
        return "dark" if made >= DARK_MAKES * n else "look"
    hand = view["hand"]
    bids = [int(a.split()[1]) for a in legal if a.startswith("bid ")]
    samples = _samples(view, hand, n, rng, deadline)
    best = _best_amount(bids, samples, MAKE_TO_BID)
    if best is not None:
        return f"bid {bids[0]}"  # climb one step at a time: the others may stop first
    return "pass" if "pass" in legal else f"bid {bids[0]}"


def _after_talon(view: JsonDict, legal: list[str], rng: random.Random, n: int, deadline: Deadline) -> str:
    hand = view["hand"]
    o = view["options"]
    if "concede" in legal:
        samples = _samples(view, hand, n, rng, deadline)
        high = view["high"]
        play_on = mean(
            (high if mine >= high else -high) - mean(rounded(p, o["rounding"]) for p in theirs)
            for mine, theirs in samples
        )
        if play_on < -high - o["concede_points"]:
            return "concede"
    if legal[0].startswith("give "):
        card = ai_easy.gifts(hand, 1)[0]
        return next(a for a in legal if a.split()[1] == card)
    amounts = [int(a.split()[1]) for a in legal]
    best = _best_amount(amounts, _samples(view, hand, n, rng, deadline), MAKE_TO_RAISE)
    return f"contract {best if best is not None else amounts[0]}"


def _utility(view: JsonDict, taken: list[int], married: list[int]) -> float:
    """How far ahead of the others' mean this deal leaves the seat (§5's scoring)."""
    me, declarer, contract = view["seat"], view["declarer"], view["high"]
    step = view["options"]["rounding"]
    deltas: dict[int, int] = {}
    for s in view["active"]:
        if s == declarer:
            made = taken[s] + married[s] >= contract
            value = contract * (2 if view["dark"] else 1)
            deltas[s] = value if made else -value
        else:
            deltas[s] = rounded(taken[s] + married[s], step)
    return float(deltas[me] - mean(v for s, v in deltas.items() if s != me))


def _card(view: JsonDict, legal: list[str], rng: random.Random, n: int, deadline: Deadline) -> str:
    if len(legal) == 1:
        return legal[0]
    totals = {a: 0.0 for a in legal}
    counted = 0
    for hands in worlds(view, rng):
        if counted >= n:
            break
        if deadline.expired():
            if not counted:
                raise OutOfTime
            break
        for action in legal:
            taken, married = playout(
                hands,
                view["active"],
                view["leader"],
                view["trick"],
                view["trump"],
                view["taken"],
                view["tricks"],
                view["married"],
                bool(view["options"]["marriage_after_trick"]),
                rng,
                action,
            )
            totals[action] += _utility(view, taken, married)
        counted += 1
    return max(legal, key=lambda a: (totals[a], a.startswith("marry")))


def _choose(view: JsonDict, legal: list[str], rng: random.Random, n: int, deadline: Deadline) -> str:
    verb = legal[0].split()[0]
    if verb in ("dark", "bid", "pass"):
        return _bid(view, legal, rng, n, deadline)
    if verb in ("give", "contract", "concede"):
        return _after_talon(view, legal, rng, n, deadline)
    return _card(view, legal, rng, n, deadline)


def computer_action(view: JsonDict, legal: list[str], rng: random.Random, deadline: Deadline = NEVER) -> str:
    return anytime(
        lambda: _choose(view, legal, rng, 200, deadline), lambda: ai_easy.computer_action(view, legal, rng), deadline
    )


def computer_action_normal(view: JsonDict, legal: list[str], rng: random.Random, deadline: Deadline = NEVER) -> str:
    return anytime(
        lambda: _choose(view, legal, rng, 12, deadline), lambda: ai_easy.computer_action(view, legal, rng), deadline
    )
