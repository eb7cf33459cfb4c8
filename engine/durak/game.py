"""The durak ``engine.base.Game``: a thin facade over ``rules``."""
from __future__ import annotations

import random
from typing import Any

from . import rules
from .ai import computer_action as _computer_action
from .options import DurakOptions, parse_options
from .state import State


class DurakGame:
    name = "durak"
    rules_version = 1
    Options = DurakOptions

    def seat_range(self, options: Any) -> tuple[int, int]:
        return 2, parse_options(options).max_players

    def new_deal(self, options: Any, players: int, rng: random.Random,
                 history: list[dict]) -> str:
        return rules.new_deal(options, players, rng, history)

    def initial_state(self, options: Any, players: int) -> State:
        return rules.initial_state(options, players)

    def apply(self, state: State, seat: int | None, action: str) -> tuple[State, list[dict]]:
        return rules.apply(state, seat, action)

    def legal_actions(self, state: State, seat: int) -> list[str]:
        return rules.legal_actions(state, seat)

    def to_act(self, state: State) -> list[int]:
        return rules.to_act(state)

    def view(self, state: State, seat: int | None) -> dict:
        return rules.view(state, seat)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def result(self, state: State) -> dict | None:
        return dict(state.result) if state.result is not None else None

    def dump(self, state: State) -> dict:
        return state.dump()

    def load(self, data: dict) -> State:
        return State.load(data)

    def computer_action(self, view: dict, legal: list[str], rng: random.Random) -> str:
        return _computer_action(view, legal, rng)


GAME = DurakGame()
