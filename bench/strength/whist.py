"""Whist card play of the strong computer, measured double dummy.

Four strong computers play deals with the default options (the ``seed`` preset: trump by
turn-up, ``must_trump``). Every card is charged the drop in its side's double-dummy tricks
(DDS on the true deal); summed per deal per pair (goal <= 0.8 tricks per pair per deal;
the first computer 2.4), and the strong player's time per decision (wall clock and CPU,
as in bench/strength/bridge.py).

Last full run (seed 1, 100 deals): 1.13 ± 0.16 tricks lost per pair per deal (1.23 ±
0.16 before the play inferences of engine/whist/ai_infer.py, the weighted deals of
ai_sample.py and the larger budget; 1.17 ± 0.15 without the weights); CPU per decision
p99 0.67 s, mean 0.072 s. Most of the loss is on leads: in whist every other hand is
hidden, and a lead stays a guess.

Where the loss is (the same 100 deals and charges rerun, seed 1: 1.13 again): leads
158 of the 226 tricks lost, follows 68; by trick the leads lost 23 (opening lead), 16,
20, 27, 19, 15, 8, 14, 9, 5, 1, 1, 0 — so the opening lead is 0.12 per pair per deal and the leads of
tricks 2–9 the bulk. Tried and dropped (each re-measured on these deals, none helped
beyond the interval):
- lead conventions as tie-breaks among leads within the sampling noise (paired standard
  error of the weighted means): on the 440 later leads of 40 deals, where the budget
  draws ~120 deals, none of top of a sequence, length, shortness, partner's suit, not an
  opponent's suit, trumps or no trumps lost fewer DD tricks than the best mean (-1 to +11
  tricks); the loss there is the hidden hands, not the noise;
- at the opening lead (12 deals drawn), preferring the top of an honour sequence within
  0.5 standard errors: -0.04 ± 0.03 tricks per opening lead on the 240 leads it was
  chosen on, 0.00 ± 0.02 on 300 new ones; a whole run with it 1.10 (paired -0.03 ±
  0.13);
- leading the top of equal cards and reading a led honour as denying the next higher
  card (never wrong in 777 checks in our play): 1.20 (paired +0.07 ± 0.16).

Reading the other players' plays, tried next (none kept). The baseline rerun: seed 1
1.13 ± 0.16 (CPU p99 0.49 s, mean 0.053 s), seed 2 1.17 ± 0.15 (p99 0.48 s, mean
0.056 s), 100 deals each; paired differences below are ± one standard error.
- weighing each sampled deal by how well it explains the recent leads and discards of
  the other seats (this trick and the last one; positions of 44 cards or fewer): DDS on
  the deal rebuilt at that moment, and a deal in which the card played was not among the
  best (of the cards the rules allowed) counts 0.3. 40 deals: 1.28 against 1.16 (paired
  +0.11 ± 0.09), CPU mean 0.14 s, p99 0.99 s. The play holds little: the real deal
  explains 89 % of those leads and 99 % of the discards, the sampled deals already 83 %
  and 98 %. On 1198 fixed positions (30 other deals, the same draws for both choosers)
  it changed 7 decisions: 76 tricks lost against 75 (+1 ± 2.2); a softer reading (a
  card's likelihood ∝ e^(2 × its DD tricks)) 74 (−1 ± 2.6); the player's own reading —
  the tricks of each card averaged over the sampled deal and 4 re-deals of the cards he
  could not see (positions of 40 cards or fewer) — 75 (0 ± 1.4, 2 decisions changed, CPU
  mean 0.47 s). Also checking trick 1 at the leads of tricks 2–3 (13-card solves, CPU
  p99 2.6 s): 13 tricks lost on those 60 leads against 13 (the softer reading 11,
  −2 ± 2.5);
- four times the deals at the leads of tricks 2–3 (where 19 of the 75 were lost): 15
  tricks against 13 on those 60 leads — the sampling noise is not the loss;
- a discard convention: among DD-equal discards the weakest side suit (fewest honour
  points, then shortest), and each ace or king a discarder holds in his discard suit
  counting 0.5 in a sampled deal's weight: seed 1 1.12 (paired −0.01 ± 0.02; counting
  0.2 instead 1.12, −0.01 ± 0.02), seed 2 1.19 (+0.025 ± 0.021). It changes little: the
  loss differed in 8 of the 100 deals of seed 1.

How much is partner's hand worth (bench/strength/whist_limit.py, seed 1, 300 deals):
the same player shown its partner's cards loses 0.44 ± 0.05 against 1.17 ± 0.09 (leads
0.26 against 0.86). The hidden opponents cost little; the goal needs about half of what
partner's hand is worth, which reading plays did not recover — a signalling convention
between partners is the likelier way. The first one tried did not help: the opening lead
from the leader's longest side suit, read by all (deals that break it redrawn), +0.002 ±
0.062 over 300 paired deals (leads -0.02, follows +0.02); from the longest suit counting
trumps +0.04 ± 0.08 (181 deals). Knowing one long suit of the opening leader does not
guide the later leads (branch whist-lead, not merged).

Knowing only where partner's aces, kings and queens are would meet the goal (0.74, paired
-0.45 ± 0.15 over 70 deals; his suit lengths alone 0.89, see whist_limit.py), so an
honour-showing signal was tried next: the attitude signal of bridge and whist players.
A player following suit under the trick's winner with a choice of equally good cards
played his highest spot card when he held the ace, king or queen of the suit and his
lowest when he did not; every computer gave it and weighed each sampled deal by the
signals it explained (0.25 for each it did not; the "cheapest loser" inferences were
not drawn from those follows). Whole deals: +0.05 ± 0.13 (66 paired deals, seed 1; 1.30
against 1.25). On the leads of tricks 2-10 of 100 deals played with the signal (seed 1,
deals 200-299), reading it or not with the same draws: 127 against 126 tricks lost on
720 leads (138 leads changed). A signal about the suit being played tells the leader
nothing he needs: the honours that matter are in the suits not yet led. Not merged.
A suit-preference signal instead (the same follows: the highest spot card when the
higher-ranking of the two other side suits holds more honour points, A 4 K 3 Q 2 J 1,
than the lower one; none in trumps), read the same way: 153 against 148 tricks lost on
900 leads (100 deals, 170 leads changed; ± 9.5). A reader cannot tell a signal from a
card the follower had to play (his equal cards are equal only in his own sampled deals),
and one bit per follow is far from the honour map that was worth 0.45. Not merged.
The reading itself works: on 275 signals seen at the leads of tricks 3-9 (6 deals), the
sampled deals' chance that the signaller still held the ace, king or queen of his suit
had a Brier score of 0.104 with the attitude signal read, 0.138 without.

DDS does not know ``must_trump``. To show it is close enough, the last figure compares
its value of positions met in play (five tricks or fewer left, every 7th card) with an
exact solver that keeps the rule: the share of positions where the two differ (5.7 %
± 2.7 in that run). The loss above is charged by DDS too, so an exact endgame would not
show here.
"""

from __future__ import annotations

import random

from bench.strength.bridge import CpuTimer
from bench.strength.common import Figure, at_most, rate_ci
from engine.ddplay.solver import solve
from engine.tricks import playable, winning_index
from engine.whist import ai_strong, rules

FULL_DEALS, QUICK_DEALS = 100, 15  # 200 pair figures: ~17 CPU-minutes


def exact_value(hands: list[list[str]], leader: int, trump: str | None, trick: list[str]) -> int:
    """Tricks the side on play takes from here with best play, ``must_trump`` kept
    (alpha-beta over the remaining tricks with a table of solved positions)."""
    memo: dict = {}
    on_play = (leader + len(trick)) % 4

    def search(hands, leader, plays, side_tricks_needed_side):
        # value: tricks of side ``on_play % 2`` from this point
        seat = (leader + len(plays)) % 4
        if not plays:
            if not hands[seat]:
                return 0
            key = (tuple(frozenset(h) for h in hands), leader)
            if key in memo:
                return memo[key]
        led = plays[0][1] if plays else None
        options = playable(sorted(hands[seat]), led, trump, must_trump=True)
        mine = seat % 2 == on_play % 2
        best = None
        for card in options:
            rest = [h if i != seat else [c for c in h if c != card] for i, h in enumerate(hands)]
            now = plays + [card]
            if len(now) == 4:
                winner = (leader + winning_index(now, trump)) % 4
                value = (winner % 2 == on_play % 2) + search(rest, winner, [], None)
            else:
                value = search(rest, leader, now, None)
            if best is None or (value > best if mine else value < best):
                best = value
        if not plays:
            memo[(tuple(frozenset(h) for h in hands), leader)] = best
        return best

    return search([list(h) for h in hands], leader, list(trick), None)


def play_deal(deal_no: int, seed: int, choose, checks: list[bool]) -> tuple[int, int]:
    """DD tricks lost by N–S and by E–W in one deal."""
    rng = random.Random(seed * 100_003 + deal_no)
    state = rules.initial_state({}, 4)
    state, _ = rules.apply(state, None, rules.deal_action(deal_no % 4, rng))
    loss = [0, 0]
    n = 0
    while state.phase == "play":
        seat = rules.to_act(state)[0]
        legal = rules.legal_actions(state, seat)
        action = choose(rules.view(state, seat), legal, rng)
        trick = [c for _, c in state.plays]
        scores = solve(state.hands, state.leader, state.trump, trick)
        allowed = [a.split()[1] for a in legal]
        loss[seat % 2] += max(scores[c] for c in allowed) - scores[action.split()[1]]
        cards_left = sum(len(h) for h in state.hands)
        n += 1
        if cards_left <= 20 and n % 7 == 0:
            checks.append(max(scores[c] for c in allowed) == exact_value(state.hands, state.leader, state.trump, trick))
        state, _ = rules.apply(state, seat, action)
    return loss[0], loss[1]


def run(quick: bool, seed: int) -> list[Figure]:
    deals = QUICK_DEALS if quick else FULL_DEALS
    timer = CpuTimer(ai_strong.computer_action)
    per_pair: list[float] = []
    checks: list[bool] = []
    for i in range(deals):
        per_pair.extend(play_deal(i, seed, timer, checks))
    differ, half = rate_ci(sum(not ok for ok in checks), len(checks))
    return [
        at_most("whist", "DD tricks lost per pair per deal", per_pair, 0.8),
        *timer.figures("whist"),
        *timer.cpu_figures("whist"),
        Figure(
            "whist",
            "DDS value differs from the must_trump value (<= 5 tricks)",
            differ,
            half,
            "<= 0.1",
            differ <= 0.1,
            "",
            len(checks),
        ),
    ]
