"""Computer self-play, for speed measurements and smoke tests.

    python -m engine.selfplay durak --games 1000 --seed 1 --players 3

Each game of a run belongs to one series (the dealer rules see the earlier results).
Deterministic for a seed.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from engine.base import get_game
from engine.jsondata import JsonDict


def selfplay(
    game_name: str,
    games: int,
    seed: int,
    players: int = 2,
    options: Any = None,
    policy: str = "computer",
    max_actions: int = 100_000,
    level: str = "easy",
) -> JsonDict:
    """Play ``games`` games; ``policy`` is ``computer`` (``computer_action`` from each
    seat's own view, at ``level``: easy by default, so self-play measures the engine
    rather than a search) or ``random`` (uniform among the legal actions)."""
    if policy not in ("computer", "random"):
        raise ValueError("policy is 'computer' or 'random'")
    game = get_game(game_name)
    opts = game.Options.model_validate(options or {})
    rng = random.Random(seed)
    history: list[JsonDict] = []
    actions = 0
    initial, apply, to_act, legal_actions = (game.initial_state, game.apply, game.to_act, game.legal_actions)
    view, choose, is_over = game.view, game.computer_action, game.is_over
    start = time.perf_counter()
    for _ in range(games):
        state = initial(opts, players)
        state, _ = apply(state, None, game.new_deal(opts, players, rng, history))
        steps = 0
        system_action = getattr(game, "system_action", None)
        while not is_over(state):
            dealt = system_action(state, rng) if system_action else None
            if dealt is not None:  # a match of several deals: shuffle the next one
                state, _ = apply(state, None, dealt)
                continue
            seat = to_act(state)[0]
            legal = legal_actions(state, seat)
            if policy == "computer":
                action = choose(view(state, seat), legal, rng, level=level)
            else:
                action = rng.choice(legal)
            state, _ = apply(state, seat, action)
            steps += 1
            if steps > max_actions:
                raise RuntimeError(f"a game ran over {max_actions} actions")
        actions += steps
        result = game.result(state)
        assert result is not None, "a game that is over has a result"
        history.append(result)
    seconds = time.perf_counter() - start
    return {
        "game": game_name,
        "games": games,
        "players": players,
        "policy": policy,
        "seconds": round(seconds, 4),
        "games_per_second": round(games / seconds, 1) if seconds else None,
        "actions": actions,
        "results": history,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m engine.selfplay")
    p.add_argument("game")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--options", default="{}", help="options as JSON")
    p.add_argument("--policy", default="computer", choices=["computer", "random"])
    p.add_argument("--level", default="easy", help="the computer's level: easy, normal, strong")
    a = p.parse_args(argv)
    out = selfplay(
        a.game, a.games, a.seed, players=a.players, options=json.loads(a.options), policy=a.policy, level=a.level
    )
    out.pop("results")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
