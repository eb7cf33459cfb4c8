"""The strong durak player: determinized search on the pure engine.

It decides from its own seat's view only (ai_world.Knowledge), which carries the
public memory a player keeps at the table (cards discarded face up, cards seen going
into a hand, the drawn trump card):
1. Candidates: the legal actions worth weighing: every attack and throw-in; for a
   defence, taking, transfers, and the cheapest cover of each suit for each open card
   (while the stock lasts, no trump where a plain card covers).
2. Endgame: heads-up with the stock gone (or only the known trump card left) every
   unseen card is in the other hand: a game of perfect information, solved exactly by
   alpha-beta on the engine (ai_search.Solver) when the node budget allows.
3. Otherwise Monte Carlo over sampled worlds: deal the unseen cards at random
   consistently with what the seat saw, apply each candidate with the engine, and play
   the world out with the heuristic for everybody (ai_fastsim.py heads-up, the engine
   itself with more players). Every candidate meets the same worlds. The best total
   wins; the heuristic's own choice (ai_policy.py) starts with a head start, because
   playouts are noisy and the heuristic is a sound default.
Budgets count worlds and nodes, never seconds, so a decision is reproducible from the
rng seed. ``Budget`` sets how hard it looks: ``normal`` is the same method with a much
smaller one (ai.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.cards import RANK_VALUE as RV
from engine.deadline import NEVER, Deadline
from engine.errors import EngineError
from engine.jsondata import JsonDict

from . import ai_fastsim, ai_policy
from . import rules as R
from .ai_search import OutOfBudget, Solver, outcome, rollout
from .ai_world import Knowledge
from .state import State


@dataclass(frozen=True)
class Budget:
    rollouts: int = 192  # playouts per decision, shared by the candidates
    min_worlds: int = 8  # ... but at least this many sampled worlds per candidate
    max_worlds: int = 48
    solve_nodes: int = 3000  # exact endgame search
    prior: float = 0.15  # head start of the heuristic's choice, a share of the worlds:
    # playouts are noisy, so the search must be clearly better


STRONG = Budget()
ENGINE_SLOWER = 8  # engine playouts (more than two players) against ai_fastsim's


def computer_action(
    view: JsonDict, legal: list[str], rng: random.Random, budget: Budget = STRONG, deadline: Deadline = NEVER
) -> str:
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1:
        return legal[0]
    guess = ai_policy.choose(view, legal)
    if legal[0] in ("accept", "challenge"):
        return guess  # who covered what is unknown: nothing to search
    know = Knowledge(view)
    if know.perfect and know.n == 2:
        best = _solve(know, legal, guess, rng, budget, deadline)
        if best is not None:
            return best
    cands = candidates(view, legal, guess)
    if len(cands) == 1:
        return cands[0]
    return _monte_carlo(know, cands, guess, rng, budget, deadline)


def candidates(view: JsonDict, legal: list[str], guess: str) -> list[str]:
    """The legal actions worth a search, the heuristic's choice first."""
    verb = legal[0].split(" ", 1)[0]
    if verb in ("attack", "throw", "pass"):
        out = legal
    else:
        trump = view.get("trump")
        cheapest: dict[tuple[str, str], tuple[int, str]] = {}
        out = []
        for a in legal:
            p = a.split()
            if p[0] == "beat":
                key = (p[1], p[2][1])  # cheapest cover of each suit for each attack card
                v = RV[p[2][0]]
                if key not in cheapest or v < cheapest[key][0]:
                    cheapest[key] = (v, a)
            elif p[0] in ("transfer", "take"):
                out.append(a)
        if view.get("stock", 0) > 0:
            # while the stock lasts, a trump never covers a card a plain cover can beat
            plain = {k[0] for k in cheapest if k[1] != trump}
            cheapest = {k: v for k, v in cheapest.items() if k[1] != trump or k[0] not in plain}
        out += [a for _, a in cheapest.values()]
        if not out:  # only blind covers (and no take): the heuristic decides
            out = [guess]
    return [guess] + [a for a in out if a != guess]


def _monte_carlo(
    know: Knowledge, cands: list[str], guess: str, rng: random.Random, budget: Budget, deadline: Deadline = NEVER
) -> str:
    me = know.me
    worlds = max(budget.min_worlds, min(budget.max_worlds, budget.rollouts // len(cands)))
    if know.n > 2:  # playouts run on the engine itself, several times slower
        worlds = max(2, worlds // ENGINE_SLOWER)
    score = {a: 0.0 for a in cands}
    score[guess] += 0.5 + budget.prior * worlds  # ties (and near-ties) go to the heuristic
    for _ in range(worlds):
        if deadline.expired():  # the worlds played so far decide (none: the heuristic)
            break
        world = know.sample(rng)
        for a in cands:
            try:
                s, _ = R.apply(world, me, a)
            except EngineError:  # a world the view cannot rule out but the engine can
                continue
            score[a] += _playout(s, me)
    return max(cands, key=score.__getitem__)


def _playout(s: State, me: int) -> int:
    if s.phase == "over":
        return outcome(s, me)
    pos = ai_fastsim.from_state(s, me)
    return rollout(s, me) if pos is None else ai_fastsim.playout(pos, me)


def _solve(
    know: Knowledge, legal: list[str], guess: str, rng: random.Random, budget: Budget, deadline: Deadline = NEVER
) -> str | None:
    """The exact best action in a perfect-information heads-up endgame, or None when
    the position is too big for the node budget."""
    world = know.sample(rng)
    solver = Solver(know.me, budget.solve_nodes, deadline)
    order = [guess] + [a for a in legal if a != guess]
    best, best_v = None, -2
    try:
        for a in order:
            v = solver.value(R.apply(world, know.me, a)[0], best_v, 1)
            if v > best_v:
                best, best_v = a, v
            if best_v == 1:
                break
    except OutOfBudget:
        return None
    return best
