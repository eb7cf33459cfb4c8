""" "📜 Tricks" screen (bot/trick_view.py) from engine views alone, for every game played in
tricks: seeded games are played by the engine up to the last card of a deal, where the
list is longest; there every seat's ``tricks_so_far`` must be the same public list, equal
to what the log says (read as the deal analyses read it) (who played which card, who
won), and the screen must fit in one Telegram message even with long, HTML-heavy names."""

from __future__ import annotations

import random

import pytest

from bot import trick_view
from bot.game_registry import ui_for
from bot.render.common import fit_message
from engine.analysis_core import deals_of, tricks_by_counts, tricks_of
from engine.base import get_game
from engine.records import make_record
from storage.models import PLAYING, TableRow

GAMES = [("bridge", 4), ("whist", 4), ("king", 4), ("preferans", 3), ("preferans_ru", 3), ("preferans_ru", 4)]


def hands(state) -> list[list[str]]:
    return state.hands


def _counts(of_seat):
    return lambda state: [of_seat(state, seat) for seat in range(len(state.hands))]


# The tricks as the log has them (engine.analysis_core, as the deal analyses read them,
# without their double-dummy part): the cards with who held each, cut where the engine
# gave a seat a trick, or every four cards in the games of four.
REFERENCE = {
    "bridge": lambda deal, state: tricks_by_counts(
        deal, hands, _counts(lambda s, seat: sum(t["winner"] == seat for t in s.tricks))
    ),
    "whist": lambda deal, state: tricks_of(deal.plays(hands), 4, state.trump),
    "king": lambda deal, state: tricks_by_counts(deal, hands, _counts(lambda s, seat: s.winners.count(seat))),
    "preferans": lambda deal, state: tricks_by_counts(deal, hands, lambda s: s.won),
    "preferans_ru": lambda deal, state: tricks_by_counts(deal, hands, lambda s: s.won),
}
TELEGRAM_LIMIT = 4096


def pick(legal: list[str], rng: random.Random) -> str:
    """Cards when there are any; otherwise mostly a pass, so auctions end; never a claim
    or a concession (they end a deal before its last trick)."""
    plays = [a for a in legal if a.startswith("play")]
    if plays:
        return rng.choice(plays)
    calm = [a for a in legal if not a.startswith(("claim", "concede"))] or legal
    if "pass" in calm and rng.random() < 0.7:
        return "pass"
    return rng.choice(calm)


def last_card_of_a_deal(name: str, players: int, seed: int):
    """The state (and log) just before the last card of the first deal with play in it."""
    game = get_game(name)
    options = game.Options()
    rng = random.Random(seed)
    state = game.initial_state(options, players)
    deal = game.new_deal(options, players, rng, [])
    state, _ = game.apply(state, None, deal)
    log: list[tuple[int | None, str]] = [(None, deal)]
    best = None
    for _ in range(5000):
        if game.is_over(state):
            break
        system_action = getattr(game, "system_action", None)
        action = system_action(state, rng) if system_action else None
        if action is not None:
            if action.startswith("deal") and best is not None:
                return best
            state, _ = game.apply(state, None, action)
            log.append((None, action))
            continue
        seat = game.to_act(state)[0]
        action = pick(game.legal_actions(state, seat), rng)
        if len(action.split()) == 2 and action.startswith("play "):  # a card ("play" alone: a defence)
            best = (state, list(log))
        state, _ = game.apply(state, seat, action)
        log.append((seat, action))
    assert best is not None, "no deal was played"
    return best


@pytest.mark.parametrize("name,players", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_seat_sees_the_tricks_the_log_has(name, players, seed):
    game, ui = get_game(name), ui_for(name)
    state, log = last_card_of_a_deal(name, players, seed)
    lists = [ui.tricks_so_far(game.view(state, seat)) for seat in range(players)]
    assert all(other == lists[0] for other in lists), "every seat sees the same public tricks"
    assert lists[0] == ui.tricks_so_far(game.view(state, None))
    _, deals = deals_of(make_record(name, players, {}, log))
    expected = REFERENCE[name](deals[-1], state)
    ours = [{**t, "cards": [c for c in t["cards"] if c[0] is not None]} for t in lists[0]]  # распасы's talon card
    assert ours and ours[-1]["winner"] is None  # (a Bettel may end at its first trick)
    assert [t["cards"] for t in ours] == [t["cards"] for t in expected]
    assert [t["winner"] for t in ours] == [t["winner"] for t in expected]

    # the screen of the longest list, with the longest names people can have
    table = TableRow(1, -100, 0, name, {}, PLAYING, 1, 10, 1, None, "ru")
    names = ["&<>" * 30 + str(i) for i in range(players)]
    text = trick_view.text(table, names, lists[0], "Бридж — " + "&" * 64)
    assert fit_message(text, TELEGRAM_LIMIT) == text  # not cut: its visible text fits
    assert text.count("\n") >= len(lists[0])
