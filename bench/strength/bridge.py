"""Bridge card play of the strong computer, measured double dummy.

Four strong computers bid (the strong bidding system, what a player meets at the table)
and play each deal; passed-out deals are skipped. Every card is charged its cost: the
drop in its side's double-dummy tricks (DDS on the true deal: the best card's value minus
the played card's). An accepted claim costs the claiming side what it left on the table
and the defenders what they gave. Summed per deal per side:
- the declaring side's tricks lost per played deal (goal <= 0.6),
- the defenders' tricks given away per played deal (goal <= 0.7, issue 31),
and the strong player's time per decision (``DecisionTimer``): wall clock, the share that
ran to the search deadline, and CPU time (what a decision costs on a free core). Every
decision is taken under the bot's deadline (``common.as_bot``) unless ``--no-deadline``.

    python -m bench.ai_strength bridge --seed 1      # 100 played deals, 2 processes

The deal set is fixed by the seed (deal n of seed s: ``Random(s * 100003 + n)``); the
deals are played in ``JOBS`` worker processes, each decision timed in its own process.
"""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor

from bench.strength import common
from bench.strength.common import DecisionTimer, Figure, as_bot, at_most
from engine.games.bridge import ai, rules
from engine.ddplay.solver import solve

FULL_DEALS, QUICK_DEALS = 100, 20
JOBS = 2  # deals played in parallel processes; each decision is timed in its own process
strong = as_bot(ai.computer_action, "strong")  # under the bot's deadline (common.UNDER_DEADLINE)


def play_deal(deal_no: int, seed: int, choose) -> tuple[float, float] | None:
    """(declaring side's DD loss, defenders' DD loss) of one deal, or None if passed out."""
    rng = random.Random(seed * 100_003 + deal_no)
    state = rules.initial_state({})
    state, _ = rules.apply(state, None, rules.deal_action(deal_no % 4, 1, rng))
    loss = [0, 0]  # per side: N–S, E–W
    while state.phase in ("auction", "play", "claim"):
        seat = rules.to_act(state)[0]
        legal = rules.legal_actions(state, seat)
        view = rules.view(state, seat)
        if state.phase == "auction":
            action = strong(view, legal, rng)
        else:
            action = choose(view, legal, rng)
        if state.phase == "play" and action.startswith(("play ", "claim ")):
            trick = state.trick
            scores = solve(state.hands, trick.leader, state.contract.trump, [c for _, c in trick.plays])
            due = rules.turn(state)
            best = max(scores.values())
            if action.startswith("play "):
                loss[due % 2] += best - scores[action.split()[1]]
            else:  # a claim by the declarer on lead: judged against the DD value
                k = int(action.split()[1])
                side = state.declarer % 2
                loss[side] += max(0, best - k)
                loss[1 - side] += max(0, k - best)
        state, _ = rules.apply(state, seat, action)
        if state.phase == "deal" and state.contract is None:
            return None  # passed out
    side = state.declarer % 2
    return loss[side], loss[1 - side]


def _played(args: tuple[int, int, bool]) -> tuple[tuple[float, float] | None, list[float], list[float]]:
    """One deal in a worker process: its result and the decisions' wall and CPU times."""
    deal_no, seed, common.UNDER_DEADLINE = args  # the worker measures as the caller does
    timer = DecisionTimer(strong)
    return play_deal(deal_no, seed, timer), timer.seconds, timer.cpu


def run(quick: bool, seed: int, jobs: int = JOBS) -> list[Figure]:
    """The first ``deals`` deals of the seed that were not passed out (deal numbers 0, 1, …:
    the same set whatever ``jobs`` is)."""
    deals = QUICK_DEALS if quick else FULL_DEALS
    timer = DecisionTimer(strong)
    declaring, defending = [], []
    first = 0
    with ProcessPoolExecutor(jobs) as pool:
        while len(declaring) < deals:
            batch = [(first + k, seed, common.UNDER_DEADLINE) for k in range(jobs * 2)]
            first += len(batch)
            for result, seconds, cpu in pool.map(_played, batch):
                if result is None or len(declaring) == deals:
                    continue
                declaring.append(result[0])
                defending.append(result[1])
                timer.add(seconds, cpu)
    return [
        at_most("bridge", "declaring side's DD tricks lost per deal", declaring, 0.6),
        at_most("bridge", "defenders' DD tricks given away per deal", defending, 0.7),
        *timer.figures("bridge"),
    ]
