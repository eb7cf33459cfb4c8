"""The two searches of the strong player, both on the pure engine (rules.py).

- ``rollout``: play a sampled world to its end, every seat following the heuristic
  (ai_policy.py); +1 when ``me`` is not the fool, -1 when it is, 0 for a draw.
- ``solve``: heads-up with the stock gone and every card known, durak is a small game
  of perfect information: alpha-beta over the engine's own legal actions, with a
  transposition table, under a node budget (``OutOfBudget`` past it).
"""

from __future__ import annotations

from engine.deadline import NEVER, Deadline
from engine.jsondata import JsonDict

from . import ai_policy
from . import rules as R
from .state import State


def outcome(s: State, me: int) -> int:
    r = s.result
    assert r is not None, "a game that is over has a result"
    if r.get("draw"):
        return 0
    return -1 if r["durak"] == me else 1


def policy_view(s: State, seat: int) -> JsonDict:
    """The few view keys ai_policy reads, straight from a (sampled) state."""
    return {
        "trump": s.trump,
        "stock": len(s.stock),
        "taking": s.taking,
        "defender": s.defender,
        "hand_counts": [len(h) for h in s.hands],
        "table": [{"attack": p[0], "cover": None if p[3] else p[2], "hidden": p[3]} for p in s.table],
        "hand": s.hands[seat],
    }


def rollout(s: State, me: int, max_steps: int = 600) -> int:
    steps = 0
    while s.phase != "over":
        seat = R._actor(s)
        assert seat is not None, "a game not over waits for a seat"
        legal = R.legal_actions(s, seat)
        s, _ = R.apply(s, seat, ai_policy.choose(policy_view(s, seat), legal))
        steps += 1
        if steps > max_steps:  # a take-take cycle of two simple policies: call it even
            return 0
    return outcome(s, me)


CHECK_EVERY = 256  # nodes between two looks at the deadline


class OutOfBudget(Exception):
    pass


class Solver:
    """Exact value (+1 win, 0 draw, -1 loss for ``me``) of heads-up perfect-information
    positions, searching at most ``budget`` nodes in all."""

    def __init__(self, me: int, budget: int, deadline: Deadline = NEVER) -> None:
        self.me = me
        self.budget = budget
        self.deadline = deadline  # asked every CHECK_EVERY nodes: past it, OutOfBudget too
        self.nodes = 0
        # (phase, hands, table, attacker, taking, candidate index) -> (lower, upper) bound
        self.tt: dict[tuple[object, ...], tuple[int, int]] = {}

    def value(self, s: State, alpha: int = -1, beta: int = 1) -> int:
        if s.phase == "over":
            return outcome(s, self.me)
        self.nodes += 1
        if self.nodes > self.budget or not self.nodes % CHECK_EVERY and self.deadline.expired():
            raise OutOfBudget
        key = (s.phase, frozenset(s.hands[0]), frozenset(s.hands[1]), tuple(s.table), s.attacker, s.taking, s.ci)
        lo, hi = self.tt.get(key, (-1, 1))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        seat = R._actor(s)
        assert seat is not None, "a game not over waits for a seat"
        mine = seat == self.me
        best = -2 if mine else 2
        for action in self.ordered(s, seat):
            v = self.value(R.apply(s, seat, action)[0], alpha, beta)
            if mine:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            else:
                if v < best:
                    best = v
                    beta = min(beta, v)
            if alpha >= beta:
                break
        if best <= a0:
            self.tt[key] = (lo, best)
        elif best >= b0:
            self.tt[key] = (best, hi)
        else:
            self.tt[key] = (best, best)
        return best

    @staticmethod
    def ordered(s: State, seat: int) -> list[str]:
        """Legal actions, the heuristic's choice first (good moves first cut more)."""
        legal = R.legal_actions(s, seat)
        first = ai_policy.choose(policy_view(s, seat), legal)
        return [first] + [a for a in legal if a != first]
