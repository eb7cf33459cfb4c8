"""The turned talon is known (issue 45): everyone saw it go to the declarer, so the
computer's sampler never deals one of its cards to the other defender — not part-way
through its draws, not in its fallback (engine/ddplay/sampler.py ``hard_bans``)."""

from __future__ import annotations

import random

import pytest

from engine.base import get_game
from engine.ddplay.sampler import sample_fitting, sample_hands
from engine.games.preferans_ru.ai_decide import whist_layout
from engine.games.preferans_ru.ai_play import promised
from engine.games.preferans_ru.ai_view import PILE, Seen

G = get_game("preferans_ru")
TALON = {"AS", "KS"}


def test_a_misfit_never_buys_a_talon_card_for_the_other_defender():
    """The declarer (seat 0) must hold both talon cards (no pile here), and his misfit
    punishes exactly that: the only deals that fit give a talon card to seat 2. They must
    never be drawn, however many draws the fit takes."""
    pool = ["AS", "KS"] + [r + s for s in "CDH" for r in "789TJQ"]
    need = {0: 10, 2: 10}

    def misfit(cards: list[str]) -> int:
        return 10 * len(TALON & set(cards))

    for seed in range(300):
        rng = random.Random(seed)
        dealt = sample_fitting(pool, need, {}, rng, {0: misfit}, tries=40, hard_bans={2: TALON})
        assert TALON <= set(dealt[0])
        dealt = sample_hands(pool, need, {}, rng, accept=lambda h: misfit(h[0]) == 0, hard_bans={2: TALON})
        assert TALON <= set(dealt[0])


def test_the_fallback_keeps_the_talon_where_the_voids_do_not_add_up():
    """Voids no deal can keep (seat 2 void in every suit) send the sampler to its last
    resort; the talon still goes to the declarer or the pile only."""
    pool = sorted(TALON | {r + s for s in "CDH" for r in "789TJQ"})
    need = {0: 10, 2: 8, PILE: 2}
    voids = {2: set("SCDH")}
    for seed in range(200):
        dealt = sample_hands(pool, need, voids, random.Random(seed), hard_bans={2: TALON})
        assert not TALON & set(dealt[2]) and sorted(c for h in dealt.values() for c in h) == pool


def talon_violations(players: int, seed: int, hands: int, per_decision: int) -> dict[str, list[int]]:
    """Easy computers play ``hands`` deals of a pulka. At every decision of a defender after
    the talon was turned, ``per_decision`` layouts are drawn as the computer draws them (the
    whist decision's ``whist_layout``, the card play's ``promised`` hands). Per kind:
    [layouts drawn, layouts giving a talon card to a hand other than the declarer's]."""
    counts = {"whist": [0, 0], "play": [0, 0]}
    rng = random.Random(seed)
    opts = G.Options(pool=50)
    state = G.initial_state(opts, players)
    state, _ = G.apply(state, None, G.new_deal(opts, players, rng, []))
    while not G.is_over(state) and state.hand_no <= hands:
        deal = G.system_action(state, rng)
        if deal:
            state = G.apply(state, None, deal)[0]
            continue
        seat = G.to_act(state)[0]
        legal = G.legal_actions(state, seat)
        view = G.view(state, seat)
        seen = Seen.of(view)
        if seen.talon and seen.declarer is not None and seen.seat != seen.declarer and not seen.raspasy:
            kind = "play" if state.phase == "play" else "whist" if state.phase == "whist" else None
            for k in range(per_decision if kind else 0):
                draw = random.Random(k)
                layout = whist_layout(seen, draw) if kind == "whist" else seen.sample(draw, promised(seen))
                others = {c for s, h in layout.items() if s not in (seen.declarer, PILE) for c in h}
                counts[kind][0] += 1
                counts[kind][1] += bool(set(seen.talon) & others)
        action = G.computer_action(view, legal, random.Random(rng.random()), "easy")
        state = G.apply(state, seat, action)[0]
    return counts


@pytest.mark.parametrize("players,seed", [(3, 1), (4, 2)])
def test_no_layout_of_the_computer_gives_the_talon_to_a_defender(players: int, seed: int):
    counts = talon_violations(players, seed, hands=40, per_decision=25)
    assert counts["whist"][0] >= 500 and counts["play"][0] >= 1000, counts
    assert counts["whist"][1] == counts["play"][1] == 0, counts
