"""What every game must do, checked over the whole registry: a new game registered with
``register_ui`` is checked here without a line added (CONTRIBUTING.md, "Add a game").

Engine cases, for every playable game at the fewest and the most seats it takes, and for
each of its table presets (``/chicago``, ``/sochi`` ...): a game played from its first deal
to its end, uniformly random moves first and the easy computer's after (random play alone
never finishes a preferans pulka), checking after every action

- ``apply`` never changes the state it is given, and a dump loads back to the same dump
  (the action log and the snapshots are the truth: tests/test_snapshots.py);
- whoever is to act has a legal action, and the game ends;
- no seat's view holds a card of another hand that the public view does not show (the
  leak check of tests/e2e.py, on every state rather than on what reached a chat);
- every line of a ``<pre>`` block in a post fits a phone held upright, with the longest
  names Telegram allows, and a game that posts shows its sheet in a ``<pre>`` block;
- the group's message is redrawn now and then but not after every card ("play" is no
  milestone: a group gets about 20 messages a minute).

Then ``forfeit <seat>`` (what bot/timers.py sends when a turn's minute runs out) in the
middle of a deal ends the game, the group hears of it, and a rated game ranks the seat
that left last; ``result_line`` is given names already escaped and escapes nothing twice.

Bot cases (tests/test_conformance_e2e.py) play each game through the emulator."""

from __future__ import annotations

import html
import json
import random
import re
from typing import Any

import pytest

from bot.game_registry import playable
from bot.game_ui import GameUI
from engine.base import get_game
from engine.ratings import standings
from engine.text import PHONE_WIDTH, display_width
from tests.e2e import hidden_cards_in_views
from tests.test_phone_sheets import long_names

PRE = re.compile(r"<pre>(.*?)</pre>", re.S)
RANDOM_ACTIONS = 300  # then the easy computer plays on to the end
MAX_ACTIONS = 20_000
# the most actions in a row after which the group's table message is not redrawn: a
# bridge deal's auction and first trick, a durak bout of six pairs thrown in and covered
LONGEST_QUIET = 40
# the share of the actions after which the costly checks run (the views' leaks, apply on a
# copy, a dump's round trip): a pulka is a few thousand actions, and the suite has a budget
SAMPLED = 0.1


def cases() -> list[Any]:
    """(game, options, players) for every playable game: its default options at the fewest
    and the most seats, and each of its table presets at its benchmarks' seats (but the
    preset that is the default, played already)."""
    found = []
    for ui in playable():
        game = get_game(ui.name)
        low, high = game.seat_range(game.Options())
        for players in sorted({low, high}):
            found.append(pytest.param(ui, {}, players, id=f"{ui.name}-{players}"))
        for preset, options in ui.table_presets.items():
            if game.Options(**options) != game.Options() or ui.bench_players not in (low, high):
                found.append(pytest.param(ui, options, ui.bench_players, id=f"{ui.name}-{preset}"))
    return found


CASES = cases()


def as_json(data: Any) -> Any:
    return json.loads(json.dumps(data))


class Run:
    """One game played on from its first deal, checked after every action."""

    def __init__(self, ui: GameUI, options: dict, players: int, seed: int, lang: str) -> None:
        self.ui, self.game, self.players, self.lang = ui, get_game(ui.name), players, lang
        self.rng = random.Random(seed)
        self.checks = random.Random(seed + 1)  # which actions get the costly checks
        self.names = long_names(players)
        self.options = self.game.Options(**options)
        self.history: list[dict] = []
        self.actions = 0
        self.sheets = 0  # posts with a <pre> sheet
        self.quiet = self.longest_quiet = 0  # actions since the group's message was redrawn
        self.state, events = self.game.apply(
            self.game.initial_state(self.options, players),
            None,
            self.game.new_deal(self.options, players, self.rng, []),
        )
        self.check(events)

    def step(self) -> None:
        game, state = self.game, self.state
        sampled = self.checks.random() < SAMPLED
        before = as_json(game.dump(state)) if sampled else None
        system = getattr(game, "system_action", None)
        action = system(state, self.rng) if system else None
        seat = None
        if action is None:
            actors = game.to_act(state)
            assert actors, "nobody is to act and the game is not over"
            seat = actors[0]
            legal = game.legal_actions(state, seat)
            assert legal, f"seat {seat} is to act and has no legal action"
            if self.actions < RANDOM_ACTIONS:
                action = self.rng.choice(legal)
            else:
                action = game.computer_action(game.view(state, seat), legal, self.rng, "easy")
        self.state, events = game.apply(state, seat, action)
        self.actions += 1
        if sampled:
            assert as_json(game.dump(state)) == before, f"apply({seat}, {action!r}) changed the state it was given"
        self.check(events, sampled)

    def check(self, events: list[dict], sampled: bool = True) -> None:
        game, state = self.game, self.state
        if sampled:
            dump = as_json(game.dump(state))  # JSON, and it loads back to itself
            assert as_json(game.dump(game.load(dump))) == dump
            views = {seat: game.view(state, seat) for seat in [None, *range(self.players)]}
            leaked = hidden_cards_in_views(views)
            assert not leaked, f"{self.ui.name}: views hold hidden cards {leaked}"
        over = game.is_over(state)
        if over:
            self.history = [*self.history, game.result(state)]
        posts = self.ui.posts(events, game.view(state, None), self.names, self.lang, self.history)
        for post in posts:
            blocks = PRE.findall(post)
            self.sheets += bool(blocks)
            for block in blocks:
                for line in html.unescape(block).split("\n"):
                    assert display_width(line) <= PHONE_WIDTH, f"{self.ui.name}: {display_width(line)} columns:\n{line}"
        self.quiet = 0 if self.ui.refreshes_group(events, len(posts), over) or posts else self.quiet + 1
        self.longest_quiet = max(self.longest_quiet, self.quiet)

    def play_to_the_end(self) -> None:
        while not self.game.is_over(self.state):
            assert self.actions < MAX_ACTIONS, f"{self.ui.name} did not end in {MAX_ACTIONS} actions"
            self.step()

    def play_into_a_deal(self, actions: int) -> None:
        """On for about ``actions`` actions, stopping where a seat is to act."""
        while self.actions < actions or not self.game.to_act(self.state):
            assert not self.game.is_over(self.state), "the game ended before the forfeit"
            self.step()


@pytest.mark.parametrize("ui,options,players", CASES)
def test_a_random_game_keeps_the_rules_of_every_game(ui, options, players):
    run = Run(ui, options, players, seed=players, lang=("ru", "en")[players % 2])
    run.play_to_the_end()
    result = run.game.result(run.state)
    assert result is not None and not run.game.to_act(run.state)
    found = standings(ui.name, result, players)
    if found is not None:  # a rated game places every seat once
        assert sorted(s for team in found.teams for s in team) == list(range(players))
    assert run.sheets, f"{ui.name} posted no <pre> sheet"
    assert run.longest_quiet <= LONGEST_QUIET, f"{ui.name}: {run.longest_quiet} actions without a redraw"
    assert "play" not in ui.group_milestones, "a group would be redrawn after every card"


@pytest.mark.parametrize("ui,options,players", CASES)
def test_a_forfeit_mid_deal_ends_the_game_with_the_seat_that_left_last(ui, options, players):
    run = Run(ui, options, players, 3, "ru")
    run.play_into_a_deal(random.Random(ui.name).randrange(5, 60))
    seat = run.game.to_act(run.state)[0]
    after, events = run.game.apply(run.state, None, f"forfeit {seat}")
    assert run.game.is_over(after) and not run.game.to_act(after)
    result = run.game.result(after)
    posts = ui.posts(events, run.game.view(after, None), run.names, "ru", [result])
    assert posts or ui.refreshes_group(events, 0, True), "the group is not told of the forfeit"
    found = standings(ui.name, result, players)
    if found is not None:
        rank = next(r for team, r in zip(found.teams, found.ranks) if seat in team)
        assert rank == max(found.ranks) > min(found.ranks), (seat, found)
    names = [html.escape(f"<b>{name}&") for name in run.names]
    line = ui.result_line(result, names, "ru")
    assert "&amp;amp;" not in line and "&amp;lt;" not in line, f"names escaped twice: {line}"
    assert "<b>" + run.names[0] not in line, f"a raw name: {line}"
