"""The contract every game engine fulfils, and the registry of games.

Engines are pure and synchronous: no I/O, no clocks, no global randomness.
Actions are short text strings in the game's move notation (see docs/notation.md);
the first action of every game is a *deal* action, applied by ``seat=None``, that
records the shuffled deck, so replaying a log never depends on an RNG.

``view(state, seat)`` is the only way state leaves an engine: ``seat=None`` is the
public view (the group chat), a seat number is that player's view. Events returned
by ``apply`` are public: they never carry a card that not everyone at the table sees.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from typing import Any, Protocol

from pydantic import BaseModel

from engine.deadline import Deadline
from engine.jsondata import JsonDict


class Game(Protocol):
    name: str  # "durak"
    rules_version: int  # bump when a rule change makes old logs replay differently

    @property
    def Options(self) -> type[BaseModel]:  # a class attribute in each game: read-only here
        """The game's options model (pydantic)."""

    def seat_range(self, options: BaseModel) -> tuple[int, int]:
        """Minimum and maximum number of players these options allow."""

    def new_deal(self, options: BaseModel, players: int, rng: random.Random, history: list[JsonDict]) -> str:
        """A deal action for the next game: shuffle with ``rng``; ``history`` is the
        list of ``result(...)`` dicts of earlier games of the series (dealer rules)."""

    def initial_state(self, options: BaseModel, players: int) -> Any:
        """A state waiting for its deal action."""

    def apply(self, state: Any, seat: int | None, action: str) -> tuple[Any, list[JsonDict]]:
        """Check and apply one action; return the new state and public events.
        Raises an ``engine.errors.EngineError`` and leaves ``state`` untouched on bad input."""

    def legal_actions(self, state: Any, seat: int) -> list[str]:
        """The actions ``seat`` may take now (what the DM keyboard offers), in a stable order."""

    def to_act(self, state: Any) -> list[int]:
        """Seats whose action the game waits for now (empty when over)."""

    def view(self, state: Any, seat: int | None) -> JsonDict:
        """A JSON-able dict of what ``seat`` (``None`` = everyone) may see."""

    def is_over(self, state: Any) -> bool: ...

    def result(self, state: Any) -> JsonDict | None:
        """The game's result once over, e.g. ``{"durak": 2, "by_52": False}`` or ``{"draw": True}``."""

    def dump(self, state: Any) -> JsonDict: ...

    def load(self, data: JsonDict) -> Any: ...

    def computer_action(
        self, view: JsonDict, legal: list[str], rng: random.Random, level: str = ..., deadline: Deadline = ...
    ) -> str:
        """A computer player's choice, from that seat's own view only (no peeking), at
        ``level`` (engine/ai_levels.py; each game has its own default), answered by the
        caller's ``deadline`` (engine/deadline.py; default ``NEVER``: budgets of work only,
        reproducible by the seed)."""

    # Optional. Games of several deals (preferans, King, bridge) wait for the system
    # between deals: return the next deal action (shuffled with ``rng``) when the state
    # waits for one, else None. The bot applies it with ``seat=None`` and logs it, so the
    # log still replays without an RNG. A game without it is one deal long (durak).
    # def system_action(self, state: Any, rng: random.Random) -> str | None: ...

    # Optional. A rated game says how its result placed the seats (OpenSpiel's
    # ``returns()`` in spirit): ``engine.standings.Standings``, one side per player or the
    # partnerships. A ``forfeit`` seat in the result is put last by ``engine.ratings``.
    # A game without it (a score-only sheet) is not rated.
    # def standings(self, result: JsonDict, players: int) -> Standings: ...

    # Optional. A game with a score-only record (``engine.score``, docs/rules/records.md)
    # names the module that scores it: ``score(record)`` and ``text(record, lang)``.
    # record: ModuleType


_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    _GAMES[game.name] = game
    return game


def get_game(name: str) -> Game:
    """The registered game ``name``; ``engine.games.<name>`` registers itself on import."""
    # the package is the longest prefix of the name: preferans_ru_score -> engine.games.preferans_ru,
    # preferans_score -> engine.games.preferans
    parts = name.split("_")
    for k in range(len(parts), 0, -1):
        if name in _GAMES:
            break
        try:
            importlib.import_module(f"engine.games.{'_'.join(parts[:k])}")
        except ModuleNotFoundError:
            pass
    try:
        return _GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}") from None


def games() -> list[Game]:
    """Every registered game: each package under ``engine.games`` registers its games on import."""
    import engine.games

    for module in pkgutil.iter_modules(engine.games.__path__):
        importlib.import_module(f"engine.games.{module.name}")
    return list(_GAMES.values())
