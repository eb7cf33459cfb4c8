"""The bridge ``engine.base.Game``: a thin facade over ``rules``. One match = one rubber."""
from __future__ import annotations

from typing import Any

from . import rules
from .ai import computer_action as _computer_action
from .options import BridgeOptions
from .state import State


class BridgeGame:
    name = "bridge"
    rules_version = 1
    Options = BridgeOptions

    def seat_range(self, options: Any) -> tuple[int, int]:
        return 4, 4

    new_deal = staticmethod(rules.new_deal)
    initial_state = staticmethod(rules.initial_state)
    apply = staticmethod(rules.apply)
    legal_actions = staticmethod(rules.legal_actions)
    to_act = staticmethod(rules.to_act)
    view = staticmethod(rules.view)
    system_action = staticmethod(rules.system_action)
    computer_action = staticmethod(_computer_action)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def result(self, state: State) -> dict | None:
        return dict(state.result) if state.result is not None else None

    def dump(self, state: State) -> dict:
        return state.dump()

    def load(self, data: dict) -> State:
        return State.load(data)


GAME = BridgeGame()
