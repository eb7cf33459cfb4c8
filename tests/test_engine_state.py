"""engine.state: the generic declarative state (clone, dump, load) and engine.actions'
shared apply preamble, on a made-up game."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.actions import Preamble
from engine.errors import EngineError, game_errors, split_action
from engine.state import DICT, DICT_LISTS, LIST, LISTS, SHARE, GameState, game_state, state_field


class Box:
    """An immutable non-JSON value with its own codec."""

    def __init__(self, n: int) -> None:
        self.n = n


@game_state
class Toy(GameState):
    HEADER = {"game": "toy", "rules_version": 1}
    PHASES = ("deal", "play", "over")
    OLD_DUMP_DEFAULTS = {"late": lambda data: [len(data["hands"])]}

    seats: int = state_field(key="players", load=lambda v, s: int(v))
    phase: str = state_field(default="deal")
    hands: list[list[str]] = state_field(copy=LISTS, init=False)
    pile: list[str] = state_field(default_factory=list, copy=LIST)
    stock: list[str] = state_field(default_factory=list, copy=SHARE)
    votes: dict[str, int] = state_field(default_factory=dict, copy=DICT)
    rows: dict[str, list[str]] = state_field(default_factory=dict, copy=DICT_LISTS)
    pairs: list[tuple[int, str]] = state_field(
        default_factory=list, copy=LIST, load=lambda v, s: [(int(a), b) for a, b in v]
    )
    box: Box = state_field(default=Box(0), dump=lambda b: b.n, load=lambda v, s: Box(v + 0 * s.seats))
    late: list[int] = state_field(default_factory=list, copy=LIST)
    twice: int = state_field(init=False, dumped=False)

    def __post_init__(self) -> None:
        self.hands = [[] for _ in range(self.seats)]
        self.twice = 2 * self.seats


def test_construction_sizes_the_per_seat_fields():
    t = Toy(3)
    assert t.hands == [[], [], []] and t.twice == 6 and t.phase == "deal"


def test_clone_copies_the_mutable_containers_and_shares_the_rest():
    t = Toy(2)
    t.hands = [["AS"], ["KH"]]
    t.pile, t.stock = ["7C"], ["8C"]
    t.votes, t.rows = {"a": 1}, {"S": ["7", "A"]}
    t.box = Box(5)
    c = t.clone()
    assert type(c) is Toy and c is not t
    c.hands[0].append("QS")
    c.pile.append("9C")
    c.votes["b"] = 2
    c.rows["S"].append("K")
    assert t.hands == [["AS"], ["KH"]] and t.pile == ["7C"] and t.votes == {"a": 1} and t.rows == {"S": ["7", "A"]}
    assert c.stock is t.stock and c.box is t.box and c.twice == 4


def test_dump_is_json_and_load_reads_it_back():
    t = Toy(2)
    t.phase = "play"
    t.pairs = [(0, "AS")]
    t.box = Box(7)
    data = json.loads(json.dumps(t.dump()))
    assert data["game"] == "toy" and data["players"] == 2 and data["box"] == 7 and "twice" not in data
    back = Toy.load(data)
    assert back.pairs == [(0, "AS")] and back.box.n == 7 and back.twice == 4
    assert back.dump() == data
    back.hands[0].append("x")  # the loaded state does not alias the snapshot
    assert data["hands"] == [[], []]


def test_a_field_missing_from_an_old_snapshot_takes_its_declared_value():
    data = Toy(3).dump()
    del data["late"]
    assert Toy.load(data).late == [3]
    del data["pile"]  # no declared value: the snapshot is broken
    with pytest.raises(KeyError):
        Toy.load(data)


def test_an_unknown_phase_is_refused():
    data = Toy(2).dump()
    data["phase"] = "nap"
    with pytest.raises(ValueError):
        Toy.load(data)


def test_an_unknown_copy_is_refused():
    with pytest.raises(ValueError):
        state_field(copy="deep")


_, error = game_errors({"players_only": (EngineError, "Only a player can {verb}.")})


def parse(action: Any) -> tuple[str, list[str]]:
    parts = split_action(action)
    if parts[0] not in ("deal", "forfeit", "play"):
        raise error("bad_syntax", action=action, detail="unknown")
    return parts[0], parts[1:]


def code(preamble: Preamble, over: bool, seat: Any, action: Any) -> str | None:
    try:
        preamble.check(over, seat, action, 3)
    except EngineError as e:
        return e.code
    return None


@pytest.mark.parametrize("players_only", [False, True])
def test_the_preamble_refuses_what_no_rule_accepts(players_only):
    p = Preamble(parse, error, players_only=players_only)
    assert p.check(False, None, "deal 1 2", 3) == ("deal", ["1", "2"])
    assert p.check(False, 2, "play AS", 3) == ("play", ["AS"])
    assert code(p, False, 0, "") == "bad_syntax"
    assert code(p, False, 0, "dance") == "bad_syntax"
    assert code(p, True, 0, "dance") == "bad_syntax"  # unreadable first
    assert code(p, True, 0, "play AS") == "game_over"
    assert code(p, True, None, "deal") == "game_over"
    assert code(p, False, 1, "deal") == "system_only"
    assert code(p, False, 1, "forfeit 2") == "system_only"
    assert code(p, False, 3, "play AS") == "bad_syntax"
    assert code(p, False, -1, "play AS") == "bad_syntax"
    assert code(p, False, True, "play AS") == "bad_syntax"
    # a player's verb from the system: refused here, or left to the game's turn check
    assert code(p, False, None, "play AS") == ("players_only" if players_only else None)
