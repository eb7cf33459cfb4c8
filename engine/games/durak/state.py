"""Durak's game state: plain lists, tuples and ints, cheap to clone and to dump.

Seats are numbered 0..n-1 clockwise (seat ``i + 1`` sits on seat ``i``'s left).
Lists held by a state are never changed in place once the state has been returned
from ``apply`` (engine/state.py): ``clone`` copies the per-seat lists and the table, while
the stock, the discard pile, the candidates, the out order and the face-up discards are
replaced (never mutated), so they are shared.
"""

from __future__ import annotations

from typing import Any

from engine.jsondata import JsonDict
from engine.state import LIST, LISTS, GameState, game_state, state_field

from .options import DurakOptions, parse_options

# One pair on the table: (attack card, its owner, cover or None, face-down?, who covered).
Pair = tuple[str, int, str | None, bool, int | None]

PHASES = ("deal", "open", "defend", "verdict", "throw", "final", "over")


class Rules:
    """The options boiled down to what the hot paths read."""

    __slots__ = (
        "throw_all",
        "transfer",
        "trumps",
        "two_decks",
        "loss_at",
        "blind",
        "limit",
        "first_limit",
        "high_from",
        "leader_left",
        "deck_size",
        "copies",
    )

    def __init__(self, o: DurakOptions) -> None:
        self.throw_all = o.base_game != "prostoy"
        self.transfer = {"perevodnoy": 1, "perevodnoy_after_beating": 2}.get(o.base_game, 0)
        self.trumps = o.trumps
        self.two_decks = o.two_decks
        self.loss_at = o.two_deck_loss_at
        self.blind = o.blind_beating
        self.limit = o.max_attack_cards
        self.first_limit = min(5, o.max_attack_cards) if o.first_bout_five else o.max_attack_cards
        self.high_from = o.high_trump_from
        self.leader_left = o.next_game_leader == "dealer_left"
        self.deck_size = o.deck_size
        self.copies = 2 if o.two_decks else 1


_RULES_CACHE: dict[DurakOptions, Rules] = {}


def rules_for(options: DurakOptions) -> Rules:
    r = _RULES_CACHE.get(options)
    if r is None:
        if len(_RULES_CACHE) > 256:
            _RULES_CACHE.clear()
        r = _RULES_CACHE[options] = Rules(options)
    return r


def _dump_out(out: list[list[int]] | None) -> list[list[int]] | None:
    return [list(g) for g in out] if out is not None else None


def _load_out(out: list[list[Any]] | None, s: Any) -> list[list[int]] | None:
    return [[int(x) for x in g] for g in out] if out is not None else None


def _old_gone(data: JsonDict) -> list[str]:
    # without blind covers every discard was face up
    return [] if parse_options(data["options"]).blind_beating else list(data["discard"])


@game_state
class State(GameState):
    HEADER = {"game": "durak", "rules_version": 1}
    PHASES = PHASES
    OLD_DUMP_DEFAULTS = {
        # an older dump has no order: exact while nobody is out (the bot's snapshots are
        # taken at the deal and at the end), unknown otherwise
        "out": lambda data: None if any(data["finished"]) else [],
        # dumps from before the public memory: who picked up what is lost (an empty memory
        # is only less informed)
        "gone": _old_gone,
        "known": lambda data: [[] for _ in range(int(data["players"]))],
    }

    options: DurakOptions = state_field(dump=lambda o: o.model_dump(), load=lambda v, s: parse_options(v))
    n: int = state_field(key="players", load=lambda v, s: int(v))
    rules: Rules = state_field(init=False, dumped=False)  # from the options
    phase: str = state_field(default="deal")
    dealer: int | None = state_field(default=None)
    lead: str | None = state_field(default=None)  # "rule" | "left", from the deal action
    trump: str | None = state_field(default=None)  # trump suit
    trump_card: str | None = state_field(default=None)  # the turned card (public all game)
    stock: list[str] = state_field(default_factory=list)  # top first; the trump card is last
    discard: list[str] = state_field(default_factory=list)
    hands: list[list[str]] = state_field(copy=LISTS, init=False)
    table: list[Pair] = state_field(default_factory=list, copy=LIST, load=lambda v, s: [tuple(p) for p in v])
    attacker: int | None = state_field(default=None)  # M
    defender: int | None = state_field(default=None)  # D
    bout: int = state_field(default=0)
    cands: list[int] = state_field(default_factory=list)  # throw-in candidates of the current round
    ci: int = state_field(default=0)  # index of the candidate to act
    taking: bool = state_field(default=False)  # D said TAKE (FINAL round)
    verdict: int | None = state_field(default=None)  # index of the blind pair awaiting a verdict
    decider: int | None = state_field(default=None)
    finished: list[bool] = state_field(copy=LIST, init=False)
    # who went out, in order; the seats that went out on one action share a group.
    # None: unknown (a dump from before the order was kept, taken after someone went out)
    out: list[list[int]] | None = state_field(default_factory=list, dump=_dump_out, load=_load_out)
    result: JsonDict | None = state_field(default=None)
    # Public memory (what every player at the table saw, so a player may remember it):
    gone: list[str] = state_field(default_factory=list)  # cards discarded face up (never the blind covers)
    known: list[list[str]] = state_field(copy=LISTS, init=False)  # cards seen going into each hand

    def __post_init__(self) -> None:
        self.rules = rules_for(self.options)
        self.hands = [[] for _ in range(self.n)]
        self.finished = [False] * self.n
        self.known = [[] for _ in range(self.n)]
