"""How close to double-dummy par can any auction get? (the auction goal is 3.0)

The auction bench (bridge_auction.py) measures the contract reached against par. Par knows
all 52 cards; a bidder sees its own 13. This bench measures two bidders that know MORE
than any real one, on the same boards as the auction bench:

- *partner's hand known*: the side with more HCP sees both its hands (not the opponents'),
  deals the opponents' 26 cards ``--samples`` times, solves each deal with DDS and plays
  the contract (level, strain, the better declarer) with the best mean score. The
  opponents never bid. This is the single-dummy limit of hand evaluation: no system can
  judge a contract better without seeing the opponents' cards.
- *all four hands known*: the same side picks its best double-dummy contract; the
  opponents still never bid (what is left is competition: sacrifices and doubles).

Each is scored at the true double-dummy tricks and compared with par as in the auction
bench (mean |IMPs|, 95 % interval).

    python -m bench.strength.auction_limit [--seed 1] [--boards 80] [--samples 16]

The boards are the auction match's (``bridge_auction.boards``); ``partner_seen`` is the
reference the auction bench prints beside its |IMPs| from par, split the same way
(constructive / competitive boards).

Last runs (on the auction bench's boards before issue 31, the stream ``seed * 7919 + 11``) (16 samples; ~7 CPU-seconds a board): seed 3, 80 boards: partner's hand known
3.48 ± 0.96, all four hands known 1.73 ± 0.78, the strong bidder 4.75 ± 1.08 on the same
boards; seed 4, 120 boards: 3.38 ± 0.77, 1.64 ± 0.55, the strong bidder 5.05 ± 0.88.
Over the 200 boards 3.42 against the bidder's 4.93: the goal of 3.0 lies below what
knowing partner's whole hand gives (a bidder that competes could still gain over this one,
which never meets the opponents' bids).

More layouts do not move that limit: on the first 60 boards of seed 3, 16 layouts give
3.12 ± 1.02, 64 layouts 3.40 ± 1.13 (paired +0.28 ± 0.78) and 128 layouts 3.17 ± 1.11
(paired +0.05 ± 0.76); each changed the contract on 8 boards. What is left is the
opponents' unseen cards, not the sampling.
"""

from __future__ import annotations

import argparse
import random
import statistics

from bench.strength.bridge_auction import Board, boards, contract_score, imps
from engine.games.bridge.bidding.dd import DENOMS, check_deal, pbn
from engine.games.bridge.bidding.hand import Hand

score = contract_score  # duplicate score of an undoubled contract for the declaring side


def tables_with_their_cards_dealt(hands: list[list[str]], side: int, samples: int, rng: random.Random) -> list:
    """DD tables of ``samples`` deals: our two hands as dealt, the opponents' 26 cards shuffled."""
    from endplay.dds import calc_all_tables
    from endplay.types import Deal

    theirs = hands[1 - side] + hands[3 - side]
    deals = []
    for _ in range(samples):
        rng.shuffle(theirs)
        sampled = [list(h) for h in hands]
        sampled[1 - side], sampled[3 - side] = theirs[:13], theirs[13:]
        check_deal(sampled)
        deals.append(Deal.from_pbn(pbn(sampled)))
    # DDS solves at most 40 tables per call ("Too many DD tables requested")
    return [t.to_list() for i in range(0, len(deals), 32) for t in calc_all_tables(deals[i : i + 32])]


def single_dummy_choice(tables: list, side: int, vulnerable: bool) -> tuple[int, str, int]:
    """(level, strain, declarer) with the best mean score over the sampled tables."""
    best: tuple[float, int, str, int] | None = None
    for i, strain in enumerate(DENOMS):
        declarer = max((side, side + 2), key=lambda p: sum(t[i][p] for t in tables))
        for level in range(1, 8):
            mean = sum(score(level, strain, t[i][declarer], vulnerable) for t in tables) / len(tables)
            if best is None or mean > best[0]:
                best = (mean, level, strain, declarer)
    assert best is not None
    return best[1], best[2], best[3]


def _side(board: Board) -> tuple[int, bool]:
    hands = board.hands
    hcp = [Hand(hands[0]).hcp + Hand(hands[2]).hcp, Hand(hands[1]).hcp + Hand(hands[3]).hcp]
    side = 0 if hcp[0] >= hcp[1] else 1
    return side, board.vul in ("All", "NS" if side == 0 else "EW")


def partner_seen(some: list[Board], seed: int, samples: int = 16) -> list[int]:
    """|IMPs| from par per board of the bidder that sees partner's hand (the side with
    more HCP declares its best single-dummy contract; the opponents never bid)."""
    rng = random.Random(seed)
    out = []
    for board in some:
        side, vulnerable = _side(board)
        level, strain, declarer = single_dummy_choice(
            tables_with_their_cards_dealt(board.hands, side, samples, rng), side, vulnerable
        )
        known = (1 if side == 0 else -1) * score(level, strain, board.table[DENOMS.index(strain)][declarer], vulnerable)
        out.append(abs(imps(known - board.par)))
    return out


def all_four_seen(some: list[Board]) -> list[int]:
    """|IMPs| from par per board when the side with more HCP plays its best DD contract."""
    out = []
    for board in some:
        side, vulnerable = _side(board)
        full = (1 if side == 0 else -1) * max(
            score(lv, s, max(board.table[d][side], board.table[d][side + 2]), vulnerable)
            for lv in range(1, 8)
            for d, s in enumerate(DENOMS)
        )
        out.append(abs(imps(full - board.par)))
    return out


def run(seed: int, n: int, samples: int) -> dict[str, list[int]]:
    some = boards(seed, n)
    return {"partner's hand known": partner_seen(some, seed, samples), "all four hands known": all_four_seen(some)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--boards", type=int, default=80)
    parser.add_argument("--samples", type=int, default=16)
    args = parser.parse_args()
    for name, values in run(args.seed, args.boards, args.samples).items():
        mean = statistics.mean(values)
        half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
        print(f"bridge auction, {name}: mean |IMPs| from par {mean:.2f} ± {half:.2f} ({len(values)} boards)")


if __name__ == "__main__":
    main()
