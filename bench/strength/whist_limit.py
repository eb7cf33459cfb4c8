"""How well could the whist computer play if it knew its partner's hand?

An upper bound for the whist computer's card play: the same player told more than the
rules allow (a measurement only; nothing in engine/ changes).

``partner`` mode: the strong computer's sampler (engine/games/whist/ai_strong.choose_play) is
given partner's true remaining hand as known, and deals only the two opponents' unseen
cards; budget, inferences, weights and tie-breaks are unchanged. ``baseline`` is
ai_strong.computer_action itself. Both play the deals of bench/strength/whist.py (the
same seed, the same random stream per deal, every card charged the drop in its side's
double-dummy tricks), interleaved deal by deal so a partial run stays paired. Each
deal's result is appended as one JSON line to ``--out``; the summary gives tricks lost
per pair per deal (95 % interval), the split leads / follows, and the paired difference
(± one standard error, over deals).

    python -m bench.strength.whist_limit --deals 100 --seed 1   # ~20 CPU-minutes
    python -m bench.strength.whist_limit --summary-only

Run (seed 1, deals 0-299, 600 pair figures): baseline 1.165 ± 0.091 tricks lost per pair
per deal (leads 0.86, follows 0.30; deals 0-99 alone 1.13 ± 0.16, as in
bench/strength/whist.py), partner seen 0.443 ± 0.054 (leads 0.26, follows 0.19); paired
-0.72 ± 0.058 (deals 0-99: -0.65 ± 0.11). Chooser CPU 23 and 21 minutes.

Partial knowledge (``--modes baseline,honours,lengths,partner``), to size what a signal
between partners could carry. ``honours``: the sampler knows where partner's aces, kings
and queens are (they go to him, no other one does); ``lengths``: how many cards he holds
in each suit. Seed 1, the 70 deals 0-52 and 75-91 played in all four modes: baseline
1.19 ± 0.21, partner seen 0.47 ± 0.12, honours 0.74 ± 0.16, lengths 0.89 ± 0.16 tricks
lost per pair per deal; paired against the baseline -0.71 ± 0.14, -0.45 ± 0.15 and
-0.30 ± 0.14 (1 s.e.). Where partner's honours are is most of what his hand is worth,
and alone it would meet the goal of 0.8.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import tempfile
import time
from pathlib import Path

from endplay._dds import DDSError

from bench.strength.common import mean_ci
from engine.ddplay.solver import solve
from engine.jsondata import JsonDict
from engine.games.whist import ai_easy, ai_sample, ai_strong, rules

MODES = ("baseline", "partner")
# partial knowledge of partner's hand, to size what a signalling convention could carry
PARTIAL_MODES = ("honours", "lengths")
HONOURS = "AKQ"


def constrained_sampler(partner: int, hand: list[str], mode: str):
    """ai_strong's sampler told part of partner's true hand: in ``honours`` mode where
    his aces, kings and queens are (they go to him, no other one does); in ``lengths``
    mode how many cards he holds in each suit (his hand is drawn suit by suit, weighed
    by the ways to draw it)."""
    original = ai_sample.sample_weighted

    def sample(pool, need, voids, bans, rng):
        if partner not in need:
            return original(pool, need, voids, bans, rng)
        if mode == "honours":
            mine = [c for c in pool if c in hand and c[0] in HONOURS]
            rest = [c for c in pool if c not in mine]
            bans = {**bans, partner: set(bans.get(partner, ())) | {c for c in rest if c[0] in HONOURS}}
            hands, log_w = original(rest, {**need, partner: need[partner] - len(mine)}, voids, bans, rng)
            hands[partner] = hands[partner] + mine
            return hands, log_w
        # lengths: the suits of partner's cards still unseen by this seat
        drawn: list[str] = []
        log_w = 0.0
        for suit in "SHDC":
            length = sum(1 for c in hand if c[1] == suit and c in pool)
            allowed = [c for c in pool if c[1] == suit and c not in bans.get(partner, ())]
            if len(allowed) < length:  # an inference was wrong: ignore it here
                allowed = [c for c in pool if c[1] == suit]
            log_w += math.log(math.comb(len(allowed), length))
            drawn += rng.sample(allowed, length)
        taken = set(drawn)
        others = {s: n for s, n in need.items() if s != partner}
        hands, w = original([c for c in pool if c not in taken], others, voids, bans, rng)
        hands[partner] = drawn
        return hands, log_w + w

    return sample


def informed_action(view: JsonDict, legal: list[str], rng: random.Random, partner_hand: list[str], mode: str) -> str:
    """ai_strong._action told partner's whole hand (``partner``) or part of it, through
    its sampler (``PARTIAL_MODES``)."""
    if len(legal) == 1 or not legal[0].startswith("play "):
        return ai_easy.computer_action(view, legal, rng)
    partner = (view["seat"] + 2) % 4
    original = ai_strong.sample_weighted
    if mode in PARTIAL_MODES:
        ai_strong.sample_weighted = constrained_sampler(partner, partner_hand, mode)
    shown = {partner: partner_hand} if mode == "partner" else None
    try:
        action = ai_strong.choose_play(view, legal, rng, shown=shown)
    except (ValueError, DDSError):
        action = ai_easy.computer_action(view, legal, rng)
    finally:
        ai_strong.sample_weighted = original
    return action if action in legal else legal[0]


def play_deal(deal_no: int, seed: int, mode: str) -> dict:
    """bench/strength/whist.play_deal with the leads and follows charged apart."""
    rng = random.Random(seed * 100_003 + deal_no)
    state = rules.initial_state({}, 4)
    state, _ = rules.apply(state, None, rules.deal_action(deal_no % 4, rng))
    lead, follow = [0, 0], [0, 0]
    cpu = 0.0
    while state.phase == "play":
        seat = rules.to_act(state)[0]
        legal = rules.legal_actions(state, seat)
        view = rules.view(state, seat)
        start = time.process_time()
        if mode == "baseline":
            action = ai_strong.computer_action(view, legal, rng)
        else:
            action = informed_action(view, legal, rng, list(state.hands[(seat + 2) % 4]), mode)
        cpu += time.process_time() - start
        trick = [c for _, c in state.plays]
        scores = solve(state.hands, state.leader, state.trump, trick)
        allowed = [a.split()[1] for a in legal]
        lost = max(scores[c] for c in allowed) - scores[action.split()[1]]
        (follow if trick else lead)[seat % 2] += lost
        state, _ = rules.apply(state, seat, action)
    return {"deal": deal_no, "seed": seed, "mode": mode, "lead": lead, "follow": follow, "cpu": cpu}


def summary(rows: list[dict]) -> str:
    """Each mode's figures over the deals every mode present has played, and its paired
    difference from ``baseline``."""
    by = {(r["seed"], r["deal"], r["mode"]): r for r in rows}
    modes = [m for m in (*MODES, *PARTIAL_MODES) if any(r["mode"] == m for r in rows)]
    deals = sorted({(s, d) for s, d, _ in by})
    paired = [k for k in deals if all((*k, m) in by for m in modes)]
    out = [f"deals played in every mode ({', '.join(modes)}): {len(paired)}"]
    per_deal: dict[str, list[float]] = {}
    for mode in modes:
        rs = [by[(*k, mode)] for k in paired]
        pairs = [r["lead"][i] + r["follow"][i] for r in rs for i in (0, 1)]
        leads = sum(sum(r["lead"]) for r in rs)
        follows = sum(sum(r["follow"]) for r in rs)
        mean, half, n = mean_ci(pairs)
        cpu = sum(r["cpu"] for r in rs)
        out.append(
            f"{mode:9s} {mean:.3f} ± {half:.3f} tricks lost per pair per deal (n={n} pair figures); "
            f"leads {leads}, follows {follows} tricks; chooser CPU {cpu / 60:.1f} min"
        )
        per_deal[mode] = [(sum(r["lead"]) + sum(r["follow"])) / 2 for r in rs]
    for mode in modes:
        if mode != "baseline" and "baseline" in per_deal and len(paired) > 1:
            diff = [p - b for b, p in zip(per_deal["baseline"], per_deal[mode])]
            se = statistics.stdev(diff) / math.sqrt(len(diff))
            out.append(f"paired {mode} - baseline: {statistics.fmean(diff):+.3f} ± {se:.3f} (1 s.e., over deals)")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=str(Path(tempfile.gettempdir()) / "whist_limit.jsonl"))
    ap.add_argument("--summary-only", action="store_true")
    ap.add_argument("--modes", default=",".join(MODES), help=f"of {MODES + PARTIAL_MODES}")
    args = ap.parse_args()
    path = Path(args.out)
    rows = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    if not args.summary_only:
        done = {(r["seed"], r["deal"], r["mode"]) for r in rows}
        for deal in range(args.first, args.first + args.deals):
            for mode in args.modes.split(","):
                if (args.seed, deal, mode) in done:
                    continue
                row = play_deal(deal, args.seed, mode)
                rows.append(row)
                with path.open("a") as f:
                    f.write(json.dumps(row) + "\n")
            print(f"deal {deal} done", flush=True)
    print(summary(rows))


if __name__ == "__main__":
    main()
