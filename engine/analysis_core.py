"""What every game's after-the-deal analysis shares: a record cut into deals, and the
play of a deal trick by trick.

The action log is the truth: ``deals_of`` replays a game record (docs/records.md) through
the game's own engine and keeps, for every action, the state before and after it; a deal
runs from one ``deal …`` system action to the next. Who played a card is read from the
hands (the seat whose hand lost it), because in bridge the declarer acts for dummy.
The game modules (``engine/games/<game>/analysis.py``) read their own fields from those states
and add the double-dummy figures; nothing here knows a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from engine.base import Game, get_game
from engine.errors import EngineError
from engine.jsondata import JsonDict
from engine.options import record_options
from engine.records import RecordError, parse_entry
from engine.tricks import winning_index


@dataclass
class Step:
    """One action of a deal with the states around it."""

    seat: int | None
    action: str
    before: Any
    after: Any

    @property
    def played_card(self) -> str | None:
        """The card of a ``play <card>`` action (``play`` alone, a defender's choice, is not one)."""
        words = self.action.split()
        return words[1] if len(words) == 2 and words[0] == "play" else None


@dataclass
class DealLog:
    """The actions of one deal (its ``deal`` action first), numbered from 1 in the record."""

    number: int
    steps: list[Step] = field(default_factory=list)
    # the deal came to its end in the record (a record may stop in the middle of one):
    # only a finished deal may be shown to anyone who did not see its cards at the table
    finished: bool = True

    @property
    def dealt(self) -> Any:
        """The state right after the deal action: the hands as dealt."""
        return self.steps[0].after

    @property
    def final(self) -> Any:
        """The last state of the deal (the deal may have been cut short by the record)."""
        return self.steps[-1].after

    def plays(self, hands_of: Callable[[Any], Sequence[Sequence[str]]]) -> list[tuple[int, str]]:
        """Every card played in the deal as ``(holder, card)`` in order."""
        out = []
        for step in self.steps:
            card = step.played_card
            if card is None:
                continue
            before = hands_of(step.before)
            holder = next((s for s, hand in enumerate(before) if card in hand), None)
            if holder is None:
                raise ValueError(f"deal {self.number}: nobody held {card}")
            out.append((holder, card))
        return out

    def first_play(self) -> Step | None:
        return next((s for s in self.steps if s.played_card is not None), None)


def load_game(record: Any) -> Game:
    if not isinstance(record, dict):
        raise RecordError(None, "a record is a JSON object")
    name: Any = record.get("game")
    try:
        return get_game(name)
    except (KeyError, TypeError):
        raise RecordError(None, f"unknown game {name!r}") from None


def deals_of(record: Any) -> tuple[Game, list[DealLog]]:
    """Replay ``record`` and cut it into deals. Raises ``RecordError`` like
    ``engine.records.replay`` for a record that does not replay."""
    game = load_game(record)
    version = record.get("rules_version")
    if version is not None and version != game.rules_version:
        raise RecordError(None, f"rules_version {version} is not {game.rules_version}")
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise RecordError(None, "actions must be a list")
    try:
        given = record_options(record)
    except ValueError as exc:
        raise RecordError(None, str(exc)) from None
    try:
        options = game.Options.model_validate(given)
        state = game.initial_state(options, record.get("players"))
    except EngineError as exc:
        raise RecordError(None, exc.reason, code=exc.code) from None
    except Exception as exc:  # pydantic validation errors
        raise RecordError(None, f"bad options: {exc}") from None
    deals: list[DealLog] = []
    for i, entry in enumerate(actions):
        seat, action = parse_entry(i, entry)
        try:
            after, _ = game.apply(state, seat, action)
        except EngineError as exc:
            raise RecordError(i, exc.reason, action=action, code=exc.code) from None
        if seat is None and action.split()[:1] == ["deal"]:
            deals.append(DealLog(len(deals) + 1))
        if deals:
            deals[-1].steps.append(Step(seat, action, state, after))
        state = after
    if deals:
        deals[-1].finished = _deal_is_over(game, state)
    return game, deals


def _deal_is_over(game: Game, state: Any) -> bool:
    """The game is over, or it waits for the next deal (``system_action`` would deal:
    it draws a deck from the generator it is given, so any seed answers)."""
    if game.is_over(state):
        return True
    system_action = getattr(game, "system_action", None)
    if system_action is None:
        return False
    import random

    action = system_action(state, random.Random(0))
    return action is not None and action.split()[:1] == ["deal"]


def tricks_of(plays: Sequence[tuple[int, str]], size: int, trump: str | None) -> list[JsonDict]:
    """The plays cut into tricks of ``size`` cards: ``{"leader", "cards": [[seat, card]…],
    "winner"}``; a last trick not finished has ``"winner": None``."""
    out: list[JsonDict] = []
    for start in range(0, len(plays), size):
        chunk = list(plays[start : start + size])
        winner = chunk[winning_index([c for _, c in chunk], trump)][0] if len(chunk) == size else None
        out.append({"leader": chunk[0][0], "cards": [[s, c] for s, c in chunk], "winner": winner})
    return out


def tricks_by_counts(
    deal: DealLog, hands_of: Callable[[Any], Sequence[Sequence[str]]], counts_of: Callable[[Any], Sequence[int]]
) -> list[JsonDict]:
    """The play cut into tricks where the engine closed them: a trick ends with the card
    after which a seat's trick count (``counts_of``) grew, and that seat won it. For games
    where the first card does not always fix the suit (распасы's turned talon cards)."""
    out: list[JsonDict] = []
    current: list[list[Any]] = []
    for step in deal.steps:
        card = step.played_card
        if card is None:
            continue
        holder = next(s for s, hand in enumerate(hands_of(step.before)) if card in hand)
        current.append([holder, card])
        before, after = counts_of(step.before), counts_of(step.after)
        grew = [s for s in range(len(after)) if after[s] > before[s]]
        if grew:
            out.append({"leader": current[0][0], "cards": current, "winner": grew[0]})
            current = []
    if current:
        out.append({"leader": current[0][0], "cards": current, "winner": None})
    return out


def side_costs(
    position_values: Sequence[dict[str, int]],
    plays: Sequence[tuple[int, str]],
    wants_high: Callable[[int], bool] = lambda seat: True,
) -> list[tuple[int, int]]:
    """Costly cards from the solver's value of every legal card at each play.

    ``position_values[i]`` holds, for each card the player of ``plays[i]`` might have
    played there, the solver's figure from there on with best play afterwards;
    ``wants_high(seat)`` says whether that player wants the figure high (in preferans
    the declarer's tricks: only the declarer does). A card whose figure is ``k`` worse
    than the best card's costs ``k``. Returns ``(index in plays, loss)`` for every card
    with a loss."""
    out = []
    for i, ((seat, card), values) in enumerate(zip(plays, position_values)):
        if card not in values:
            continue
        best = max(values.values()) if wants_high(seat) else min(values.values())
        loss = abs(best - values[card])
        if loss:
            out.append((i, loss))
    return out


def analyse_record(record: Any) -> JsonDict:
    """``{"game": name, "deals": [one dict per deal]}`` from the game's own
    ``engine.games.<game>.analysis`` (loaded by name, as the registry loads games: no game is
    imported here). Raises ``RecordError`` for a record that does not replay or a game
    with no deal analysis (durak)."""
    import importlib

    game = load_game(record)
    try:
        module = importlib.import_module(f"engine.games.{game.name}.analysis")
    except ModuleNotFoundError:
        raise RecordError(None, f"{game.name} has no deal analysis") from None
    return {"game": game.name, "deals": module.analyse(record)}


def has_deal_analysis(game_name: str) -> bool:
    """Whether ``engine.games.<game>.analysis`` exists (durak and the score-only sheets: no)."""
    import importlib.util

    return importlib.util.find_spec(f"engine.games.{game_name}.analysis") is not None


def analyse_last_finished_deal(record: Any) -> JsonDict | None:
    """The analysis of the last deal of ``record`` that came to its end (a record may end
    in the first actions of the next deal), or None when none did. Only a finished deal
    is analysed: its hands may be shown to anyone who did not see them at the table.
    Raises ``RecordError`` like ``analyse_record``."""
    import importlib

    game, deals = deals_of(record)
    finished = [deal for deal in deals if deal.finished]
    if not finished:
        return None
    try:
        module = importlib.import_module(f"engine.games.{game.name}.analysis")
    except ModuleNotFoundError:
        raise RecordError(None, f"{game.name} has no deal analysis") from None
    return module.analyse_deal(finished[-1])  # type: ignore[no-any-return]
