"""Engine speed with random legal players, every game, and bridge next to RLCard.

    python -m bench.engine_selfplay                 # ~30 s: 2000 deals per game
    python -m bench.engine_selfplay --deals 10000   # more deals, steadier figures
    python -m bench.engine_selfplay --profile       # + cProfile of our bridge loop

Random players: ``rng.choice(legal_actions(state, seat))`` for whoever is to act; the
system's next-deal shuffles (``system_action``) are applied as the bot applies them.
A match (a durak game, a King game, a preferans pool, a bridge rubber, a whist session)
that ends is followed by a new one of the same series (``new_deal`` with the history).

Bridge vs RLCard (goal: ours >= 3x RLCard's environment). Like with like: one deal =
the shuffle, the auction and, unless all four pass, all 52 cards, every call and card
drawn uniformly from the legal ones. RLCard has no claims or concessions, so our random
bridge players here never claim or concede (in the per-game table they may, which ends
deals early). RLCard keeps no score across deals, so each of our deals here is the first
deal of a fresh rubber (rubber scoring of that deal included). RLCard is timed twice:
``env.run`` (the RLCard environment with RandomAgents, as RL users run it: it also
encodes an observation per step) and its bare ``BridgeGame`` (judger legal actions +
``step``, no observation encoding) — the stricter comparison.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # `python bench/engine_selfplay.py`
    sys.path.insert(0, str(Path(__file__).absolute().parent.parent))

from bench.common import header, verdict
from bot.game_registry import playable
from engine.base import get_game

# what one "deal" of a game is, for the report (a game not here is "one deal")
DEALS = {
    "durak": "one game: the deal, then bouts until one player is left holding cards (or a draw)",
    "king": "one of the twelve deals of a King game: choices of the deal + 8 tricks",
    "preferans": "one hand: deal, auction, talon/discard, contract, defence, 10 tricks (or all-pass)",
    "preferans_ru": "one hand: deal, auction, talon/discard, contract, whists, 10 tricks (or all-pass)",
    "bridge": "one deal of a rubber: auction + play; random players may also claim/concede",
    "whist": "one deal: trump (turn-up or declaration) + 13 tricks",
}
# game -> (players, what one "deal" is): every game with a table, at its bench players
GAMES: dict[str, tuple[int, str]] = {ui.name: (ui.bench_players, DEALS.get(ui.name, "one deal")) for ui in playable()}
GOAL_RATIO = 3.0


def play_random(
    name: str, players: int, deals: int, seed: int, *, playout: bool = False, fresh_match: bool = False
) -> dict[str, Any]:
    """``deals`` deals of ``name`` with random legal players. ``playout``: never choose a
    claim or a concession (bridge like RLCard). ``fresh_match``: each deal starts a new match."""
    game = get_game(name)
    opts = game.Options()
    rng = random.Random(seed)
    initial, apply, to_act, legal_actions, is_over = (
        game.initial_state,
        game.apply,
        game.to_act,
        game.legal_actions,
        game.is_over,
    )
    system_action = getattr(game, "system_action", None)
    choice = rng.choice
    history: list[dict] = []
    done_deals = actions = matches = 0
    state = None
    start = time.perf_counter()
    while True:
        if state is None or is_over(state) or (fresh_match and done_deals and _deal_done(name, state)):
            if state is not None and is_over(state):
                history.append(game.result(state))
                matches += 1
            if done_deals >= deals:
                break
            state = initial(opts, players)
            state, _ = apply(state, None, game.new_deal(opts, players, rng, history))
            done_deals += 1
            continue
        dealt = system_action(state, rng) if system_action else None
        if dealt is not None:
            if done_deals >= deals:
                break
            state, _ = apply(state, None, dealt)
            done_deals += 1
            continue
        seat = to_act(state)[0]
        legal = legal_actions(state, seat)
        if playout and legal[-1][:2] in ("cl", "co"):  # claims and concessions come last
            legal = [a for a in legal if not a.startswith(("claim", "concede"))] or legal
        state, _ = apply(state, seat, choice(legal))
        actions += 1
    return rates(done_deals, actions, time.perf_counter() - start, matches=matches)


def rates(deals: int, actions: int, seconds: float, **extra: Any) -> dict[str, Any]:
    """One measurement: the counts, the time and the deals and actions per second."""
    return {
        "deals": deals,
        "actions": actions,
        **extra,
        "seconds": seconds,
        "deals_per_s": deals / seconds,
        "actions_per_s": actions / seconds,
    }


def _deal_done(name: str, state: Any) -> bool:
    """Bridge: the current deal is over (the rubber waits for the next shuffle)."""
    return getattr(state, "phase", None) == "deal"


def rlcard_env(deals: int, seed: int) -> dict[str, Any] | None:
    try:
        import numpy as np
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    np.random.seed(seed)
    env = rlcard.make("bridge", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    actions = 0
    start = time.perf_counter()
    for _ in range(deals):
        env.run(is_training=False)
        actions += len(env.game.actions)
    return rates(deals, actions, time.perf_counter() - start)


def rlcard_bare(deals: int, seed: int) -> dict[str, Any] | None:
    try:
        from rlcard.games.bridge.game import BridgeGame
    except ImportError:
        return None
    game = BridgeGame()
    game.np_random.seed(seed)
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    for _ in range(deals):
        game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.judger.get_legal_actions()))
            actions += 1
    return rates(deals, actions, time.perf_counter() - start)


def row(label: str, r: dict[str, Any], extra: str = "") -> str:
    per = r["actions"] / r["deals"] if r["deals"] else 0
    return (
        f"  {label:<26} {r['deals_per_s']:>9.0f} deals/s {r['actions_per_s']:>9.0f} actions/s "
        f"{per:>6.1f} actions/deal  ({r['deals']} deals in {r['seconds']:.2f} s){extra}"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.engine_selfplay", description=__doc__.split("\n")[0])
    p.add_argument("--deals", type=int, default=2000, help="deals per game (default 2000)")
    p.add_argument("--bridge-deals", type=int, default=None, help="deals for the RLCard comparison (default: --deals)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--games", default=",".join(GAMES), help="comma-separated subset")
    p.add_argument("--no-rlcard", action="store_true", help="skip the RLCard comparison")
    p.add_argument("--profile", action="store_true", help="cProfile our bridge play-out loop")
    a = p.parse_args(argv)

    header("engine self-play, random legal players")
    print(f"   {a.deals} deals per game, seed {a.seed}")
    for name in a.games.split(","):
        players, what = GAMES[name]
        r = play_random(name, players, a.deals, a.seed)
        print(row(f"{name} ({players} players)", r, f", {r['matches']} matches finished"))
        print(f"      a deal = {what}")

    if a.no_rlcard:
        return 0
    n = a.bridge_deals or a.deals
    print()
    print(
        f"== bridge vs RLCard, {n} deals each: a deal = shuffle + auction + all 52 cards "
        f"(or four passes), uniform random calls and cards, no claims/concessions"
    )
    ours = play_random("bridge", 4, n, a.seed, playout=True, fresh_match=True)
    print(row("cardbot engine", ours))
    env = rlcard_env(n, a.seed)
    if env is None:
        print("  RLCard is not installed: pip install -e '.[bench]' (comparison skipped)")
        return 0
    bare = rlcard_bare(n, a.seed)
    print(row("RLCard env.run", env, " (encodes an observation per step)"))
    print(row("RLCard bare BridgeGame", bare, " (judger + step only)"))
    ratio_env = ours["deals_per_s"] / env["deals_per_s"]
    ratio_bare = ours["deals_per_s"] / bare["deals_per_s"]
    print(
        f"  ratio vs RLCard environment: {ratio_env:.2f}x   goal >= {GOAL_RATIO:.0f}x: "
        f"{verdict(ratio_env >= GOAL_RATIO)}"
    )
    print(f"  ratio vs RLCard bare game:   {ratio_bare:.2f}x   (no goal; the stricter comparison)")

    if a.profile:
        print()
        print("== cProfile of our bridge play-out loop (top 20 by own time)")
        prof = cProfile.Profile()
        prof.enable()
        play_random("bridge", 4, min(n, 1000), a.seed, playout=True, fresh_match=True)
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(20)
        print(out.getvalue())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
