"""Decision positions for the computer players' tests: seats' views met in easy
self-play (seeded), a few per game, at the points where a choice exists.

    python -m tests.ai_positions   # rewrites tests/data/ai_never_baseline.json

The baseline file pins what the normal and strong players choose there for a fixed seed
with no deadline: a change to the deadline's plumbing must not change a single choice.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from engine.base import get_game

BASELINE = Path(__file__).parent / "data" / "ai_never_baseline.json"
GAMES = {"durak": 3, "preferans": 3, "preferans_ru": 3, "king": 4, "bridge": 4, "whist": 4}
PER_GAME = 6
LEVELS = ("normal", "strong")


def positions(game_name: str, players: int, count: int = PER_GAME, seed: int = 7) -> list[dict[str, Any]]:
    """``count`` positions (view, legal) spread over the phases of a few deals."""
    game = get_game(game_name)
    opts = game.Options()
    rng = random.Random(seed)
    found: list[dict[str, Any]] = []
    kinds: dict[str, int] = {}
    for _ in range(20):  # deals, until ``count`` positions are found
        if len(found) >= count:
            break
        state = game.initial_state(opts, players)
        state, _ = game.apply(state, None, game.new_deal(opts, players, rng, []))
        system_action = getattr(game, "system_action", None)
        step = 0
        while not game.is_over(state) and len(found) < count:
            dealt = system_action(state, rng) if system_action else None
            if dealt is not None:
                break  # one deal is enough
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            kind = legal[0].split()[0]
            step += 1
            # each kind of decision (bid, play, ...) at most twice, plays more, spread out
            if len(legal) > 1 and kinds.get(kind, 0) < 2 + 3 * (kind == "play") and step % 3 == 0:
                kinds[kind] = kinds.get(kind, 0) + 1
                found.append({"view": game.view(state, seat), "legal": legal})
            state, _ = game.apply(state, seat, game.computer_action(game.view(state, seat), legal, rng, level="easy"))
    return found


def baseline() -> list[dict[str, Any]]:
    out = []
    for name, players in GAMES.items():
        game = get_game(name)
        for i, pos in enumerate(positions(name, players)):
            for level in LEVELS:
                seed = 1000 + i
                action = game.computer_action(pos["view"], pos["legal"], random.Random(seed), level=level)
                out.append({"game": name, "level": level, "seed": seed, **pos, "action": action})
    return out


if __name__ == "__main__":  # pragma: no cover
    BASELINE.write_text(json.dumps(baseline(), sort_keys=True) + "\n")
    print(f"wrote {BASELINE}")
