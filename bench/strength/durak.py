"""Durak strength: the strong computer against two weak opponents.

Podkidnoy, 36 cards, heads-up. Games come in pairs: the same deal twice with the
seats swapped, so the dealer's and the first attacker's edge cancel out and the luck
of the cards is shared. A draw counts as not a win. Fixed seeds: reproducible.

- "cheapest-card player" (below): attacks and covers with its cheapest card, takes
  only when it cannot cover, throws in its cheapest matching non-trump;
- "today's computer": the frozen copy in bench/baseline/durak_ai.py.
"""

from __future__ import annotations

import random
from typing import Callable

from bench.baseline import durak_ai as baseline
from bench.strength.common import DecisionTimer, Figure, as_bot, rate_ci
from engine.cards import RANK_VALUE as RV
from engine.games.durak import ai
from engine.games.durak import rules as R
from engine.games.durak.options import parse_options

GAME = "durak"
Player = Callable[[dict, list, random.Random], str]


def cheapest(view: dict, legal: list[str], rng: random.Random) -> str:
    """The cheapest-card player: non-trumps before trumps, low ranks first."""
    trump = view.get("trump")

    def cost(card: str) -> tuple:
        return (card[1] == trump, RV[card[0]])

    verb = legal[0].split()[0]
    if verb == "accept":
        return "accept"
    if verb in ("attack", "throw"):
        singles = [a for a in legal if len(a.split()) == 2]
        if verb == "throw":
            singles = [a for a in singles if a.split()[1][1] != trump]
        if not singles:
            return "pass"
        return min(singles, key=lambda a: cost(a.split()[1]))
    # defend: cover the first open card with its cheapest cover; take if any cannot
    covers: dict[str, list[str]] = {}
    for a in legal:
        p = a.split()
        if p[0] == "beat":
            covers.setdefault(p[1], []).append(a)
    open_cards = [e["attack"] for e in view["table"] if e["cover"] is None and not e["hidden"]]
    if not open_cards or any(c not in covers for c in open_cards):
        return "take"
    return min(covers[open_cards[0]], key=lambda a: cost(a.split()[2]))


strong = as_bot(ai.computer_action, "strong")  # under the bot's deadline (common.UNDER_DEADLINE)


def play(players: list[Player], deal: str, options, seed: int) -> dict:
    """One game from ``deal``; ``players[seat]`` chooses for that seat."""
    s = R.initial_state(options, len(players))
    s, _ = R.apply(s, None, deal)
    rngs = [random.Random(seed * 7 + i) for i in range(len(players))]
    steps = 0
    while s.phase != "over":
        seat = R.to_act(s)[0]
        legal = R.legal_actions(s, seat)
        action = players[seat](R.view(s, seat), legal, rngs[seat])
        s, _ = R.apply(s, seat, action)
        steps += 1
        if steps > 5000:
            raise RuntimeError("a game ran over 5000 actions")
    return s.result


def match(me: Player, other: Player, games: int, seed: int, players: int = 2, options: dict | None = None) -> dict:
    """``games`` games (in seat-swapped pairs of one deal for heads-up; rotating seats
    for more players) of ``me`` against copies of ``other``. Counts for ``me``."""
    opts = parse_options(options or {"base_game": "podkidnoy", "deck_size": 36})
    wins = losses = draws = 0
    rng = random.Random(seed)
    deal = None
    for g in range(games):
        if g % players == 0:
            deal = R.new_deal(opts, players, rng, [])
        mine = g % players
        table = [me if i == mine else other for i in range(players)]
        res = play(table, deal, opts, seed * 100_003 + g)
        if res.get("draw"):
            draws += 1
        elif res["durak"] == mine:
            losses += 1
        else:
            wins += 1  # with more players: not the fool
    return {"games": games, "wins": wins, "losses": losses, "draws": draws}


def _rate(measure: str, r: dict, goal: float | None) -> Figure:
    p, half = rate_ci(r["wins"], r["games"])
    if goal is None:
        return Figure(GAME, measure, p, half, "(informative)", True, "", r["games"])
    return Figure(GAME, measure, p, half, f">= {goal:g}", p >= goal, "", r["games"])


def run(quick: bool, seed: int) -> list[Figure]:
    # a strong game costs a few seconds (dozens of searched decisions): the full run
    # stays near ten minutes on a shared two-core machine, quick well under one
    games = 24 if quick else 150
    timer = DecisionTimer(strong)
    vs_cheap = match(timer, cheapest, games, seed)
    vs_base = match(timer, baseline.computer_action, games, seed + 1)
    figs = [
        _rate("strong win rate vs cheapest-card player (2p)", vs_cheap, 0.60),
        _rate("strong win rate vs today's computer (2p)", vs_base, 0.65),
    ]
    if not quick:
        three = match(strong, cheapest, 30, seed + 2, players=3)
        p, half = rate_ci(three["losses"], three["games"])
        figs.append(
            Figure(
                GAME,
                "strong fool rate vs 2 cheapest (3p; 1/3 if equal)",
                p,
                half,
                "(informative)",
                True,
                "",
                three["games"],
            )
        )
    return figs + timer.figures(GAME)
