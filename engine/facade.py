"""The part of an ``engine.base.Game`` facade that every game writes the same way.

A game's facade subclasses :class:`RulesFacade`, names its ``State`` class and passes
its rules module: ``class DurakGame(RulesFacade, rules=rules)``. The rules functions are
bound to the subclass as plain staticmethods, so the hot paths (``apply``, ``view``,
``legal_actions`` ...) stay direct calls into the rules module, with no extra layer.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType
from typing import Any, ClassVar

from engine.jsondata import JsonDict

# the Game methods a rules module provides under the same name
RULES_FUNCTIONS = ("new_deal", "initial_state", "apply", "legal_actions", "to_act", "view")
# optional: only games of several deals have it (base.Game: a game without it is one deal)
OPTIONAL_RULES_FUNCTIONS = ("system_action",)


class RulesFacade:
    """is_over/result/dump/load over a ``State`` with ``phase``, ``result``, ``dump()`` and
    ``load()``; a game whose state differs overrides the method concerned."""

    State: ClassVar[Any]

    # bound from the rules module by __init_subclass__ (annotations only, for engine.base.Game)
    new_deal: Callable[[Any, int, random.Random, list[JsonDict]], str]
    initial_state: Callable[[Any, int], Any]
    apply: Callable[[Any, int | None, str], tuple[Any, list[JsonDict]]]
    legal_actions: Callable[[Any, int], list[str]]
    to_act: Callable[[Any], list[int]]
    view: Callable[[Any, int | None], JsonDict]

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
