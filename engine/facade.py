"""The part of an ``engine.base.Game`` facade that every game writes the same way.

A game's facade subclasses :class:`RulesFacade`, names its ``State`` class and passes
its rules module: ``class DurakGame(RulesFacade, rules=rules)``. The rules functions are
bound to the subclass as plain staticmethods, so the hot paths (``apply``, ``view``,
``legal_actions`` ...) stay direct calls into the rules module, with no extra layer.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from engine.jsondata import JsonDict

# the Game methods a rules module provides under the same name
RULES_FUNCTIONS = ("new_deal", "initial_state", "apply", "legal_actions", "to_act", "view")
# optional: only games of several deals have it (base.Game: a game without it is one deal)
OPTIONAL_RULES_FUNCTIONS = ("system_action",)


class RulesFacade:
    """is_over/result/dump/load over a ``State`` with ``phase``, ``result``, ``dump()`` and
    ``load()``; a game whose state differs overrides the method concerned."""

    State: ClassVar[Any]

    if TYPE_CHECKING:  # bound from the rules module by __init_subclass__; typed for engine.base.Game

        def new_deal(self, options: Any, players: int, rng: random.Random, history: list[JsonDict]) -> str: ...
        def initial_state(self, options: Any, players: int) -> Any: ...
        def apply(self, state: Any, seat: int | None, action: str) -> tuple[Any, list[JsonDict]]: ...
        def legal_actions(self, state: Any, seat: int) -> list[str]: ...
        def to_act(self, state: Any) -> list[int]: ...
        def view(self, state: Any, seat: int | None) -> JsonDict: ...

    def __init_subclass__(cls, rules: ModuleType | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if rules is None:
            return
        for name in RULES_FUNCTIONS + OPTIONAL_RULES_FUNCTIONS:
            # a name the subclass defines itself wins; an optional one may be missing
            if name in cls.__dict__ or (name in OPTIONAL_RULES_FUNCTIONS and not hasattr(rules, name)):
                continue
            setattr(cls, name, staticmethod(getattr(rules, name)))

    def is_over(self, state: Any) -> bool:
        return bool(state.phase == "over")

    def result(self, state: Any) -> JsonDict | None:
        return dict(state.result) if state.result is not None else None

    def dump(self, state: Any) -> JsonDict:
        dumped: JsonDict = state.dump()
        return dumped

    def load(self, data: JsonDict) -> Any:
        return self.State.load(data)
