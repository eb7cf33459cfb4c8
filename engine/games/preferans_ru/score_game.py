"""``preferans_ru_score``: the пулька for people who play Russian preferans with real cards.

A data-entry wizard: the state is the written hands (in the §9 record form of
docs/rules/preferans_ru.md, players as the seat letters A B C D) plus one pending entry.
Every action is one step, and ``legal_actions`` offers only choices that make a valid hand
(the same for every seat: anybody at the table may enter). The sheet is the score-only
record replayed through ``record.play``, the same scoring as the played game.

Steps::

    declarer X | allpass | undo     a new hand (X an active player; undo drops the last one)
    contract 6S .. 10NT | MISERE
    first whist|pass                the defender on the declarer's left
    second whist|pass|half          the other one (half: after a pass, on a level in half_whist)
    again whist|pass                the first defender after a half: play alone, or let it stand
    tricks N                        the declarer's (or first player's) tricks, then one defender's
    confirm | cancel
"""

from __future__ import annotations

from typing import Any

from engine.errors import common_error
from engine.preferans_family.facade import SheetGame
from engine.preferans_family.numbers import fnum

from .hand import STRAINS, VALUE
from .options import PreferansRuOptions, parse_options
from .record import Played, play
from .scoring import finished, settlement

LETTERS = "ABCD"
CONTRACTS = [f"{level}{strain}" for level in VALUE for strain in STRAINS] + ["MISERE"]


def error(code: str, **params: Any) -> Exception:
    return common_error(code, **params)


class ScoreState:
    """Options, seat count, the written hands, the pending entry and the result."""

    __slots__ = ("options", "players", "started", "hands", "pending", "result", "played")

    def __init__(self, options: PreferansRuOptions, players: int) -> None:
        self.options = options
        self.players = players
        self.started = False
        self.hands: list[dict[str, Any]] = []
        self.pending: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None
        self.played = replay(options, players, [])

    def clone(self) -> ScoreState:
        s = ScoreState.__new__(ScoreState)
        for name in self.__slots__:
            setattr(s, name, getattr(self, name))
        s.hands = list(self.hands)
        s.pending = dict(self.pending) if self.pending is not None else None
        return s

    def dump(self) -> dict[str, Any]:
        return {
            "game": "preferans_ru_score",
            "rules_version": 1,
            "options": self.options.model_dump(mode="json"),
            "players": self.players,
            "started": self.started,
            "hands": [dict(h) for h in self.hands],
            "pending": dict(self.pending) if self.pending is not None else None,
            "result": self.result,
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> ScoreState:
        s = cls(parse_options(data["options"]), data["players"])
        s.started = data["started"]
        s.hands = [dict(h) for h in data["hands"]]
        s.pending = dict(data["pending"]) if data["pending"] is not None else None
        s.result = data["result"]
        s.played = replay(s.options, s.players, s.hands)
        return s

    @property
    def letters(self) -> list[str]:
        return list(LETTERS[: self.players])

    def record(self) -> dict[str, Any]:
        """The §9 score-only record of the hands written so far."""
        return record_of(self.options, self.players, self.hands)


def record_of(options: PreferansRuOptions, players: int, hands: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "game": "preferans_ru",
        "options": options.model_dump(mode="json"),
        "players": list(LETTERS[:players]),
        "hands": hands,
    }


def replay(options: PreferansRuOptions, players: int, hands: list[dict[str, Any]]) -> Played:
    return play(record_of(options, players, hands))


def dealer_now(s: ScoreState) -> str:
    """Who deals the next hand: the rotation from ``first_dealer`` (default the last seat)."""
    letters = s.letters
    first = s.options.first_dealer if s.options.first_dealer in letters else letters[-1]
    return letters[(letters.index(first) + len(s.hands)) % len(letters)]


def active_now(s: ScoreState) -> list[str]:
    """The three who play the next hand, from the first hand (the dealer's left) clockwise."""
    letters = s.letters
    dealer = dealer_now(s)
    order = [letters[(letters.index(dealer) + k) % len(letters)] for k in range(1, len(letters) + 1)]
    return [p for p in order if len(letters) == 3 or p != dealer]


def defenders(s: ScoreState, declarer: str) -> tuple[str, str]:
    active = active_now(s)
    i = active.index(declarer)
    return active[(i + 1) % 3], active[(i + 2) % 3]


# ------------------------------------------------------------------------------ the wizard
def _level(p: dict[str, Any]) -> int | None:
    c = p["contract"]
    return None if c == "MISERE" else int(c[:-2] if c.endswith("NT") else c[:-1])


def _ask_tricks(s: ScoreState, p: dict[str, Any], order: list[str]) -> None:
    """Ask the tricks of ``order[0]`` and ``order[1]``; the third gets the rest."""
    p["tricks"], p["ask"] = {}, order[:2]
    p["rest"] = order[2]
    p["step"] = "tricks"


def _after_whist(s: ScoreState, p: dict[str, Any]) -> None:
    first, second = defenders(s, p["declarer"])
    decisions = p["whist"]
    if "whist" in decisions.values():
        _ask_tricks(s, p, [p["declarer"], first, second])
    else:
        p["tricks"] = None
        p["step"] = "confirm"


def legal(s: ScoreState) -> list[str]:
    if not s.started or s.result is not None:
        return []
    p = s.pending
    if p is None:
        return [f"declarer {x}" for x in active_now(s)] + ["allpass"] + (["undo"] if s.hands else [])
    step = p["step"]
    if step == "contract":
        out = [f"contract {c}" for c in CONTRACTS]
    elif step == "first":
        out = ["first whist", "first pass"]
    elif step == "second":
        level = _level(p)
        half = p["whist"][defenders(s, p["declarer"])[0]] == "pass" and level in s.options.half_whist
        out = ["second whist", "second pass"] + (["second half"] if half else [])
    elif step == "again":
        out = ["again whist", "again pass"]
    elif step == "tricks":
        left = 10 - sum(p["tricks"].values())
        out = [f"tricks {n}" for n in range(left + 1)]
    else:
        out = ["confirm"]
    return out + ["cancel"]


def _step(s: ScoreState, verb: str, arg: str | None, events: list[dict[str, Any]]) -> ScoreState:
    t = s.clone()
    p = dict(t.pending) if t.pending is not None else None
    if verb == "cancel":
        t.pending = None
        events.append({"type": "entry_cancelled"})
        return t
    if verb == "undo":
        t.hands = t.hands[:-1]
        t.played = replay(t.options, t.players, t.hands)
        events.append({"type": "entry_undone", "hands": len(t.hands)})
        return t
    if verb == "allpass":
        t.pending = {"step": "tricks", "all_pass": True}
        _ask_tricks(t, t.pending, active_now(t))
        return t
    if verb == "declarer":
        t.pending = {"step": "contract", "declarer": arg, "whist": {}}
        return t
    assert p is not None  # legal() offers the other steps only with a pending entry
    first, second = defenders(t, p["declarer"]) if "declarer" in p else ("", "")
    if verb == "contract":
        p["contract"] = arg
        level = _level(p)
        if level is None:  # мизер: no whist, the catchers' tricks
            _ask_tricks(t, p, [p["declarer"], first, second])
        elif level == 10 and t.options.ten_checked:
            _ask_tricks(t, p, [p["declarer"], first, second])
        else:
            p["step"] = "first"
    elif verb == "first":
        p["whist"] = {first: arg}
        p["step"] = "second"
    elif verb == "second":
        p["whist"] = {**p["whist"], second: arg}
        if arg == "half":
            p["step"] = "again"
        else:
            _after_whist(t, p)
    elif verb == "again":  # §5.3: the first defender after a half
        p["whist"] = {first: "whist", second: "pass"} if arg == "whist" else {first: "pass", second: "half"}
        _after_whist(t, p)
    elif verb == "tricks":
        p["tricks"] = {**p["tricks"], p["ask"][0]: int(arg or 0)}
        p["ask"] = p["ask"][1:]
        if not p["ask"]:
            p["tricks"][p.pop("rest")] = 10 - sum(p["tricks"].values())
            p["step"] = "confirm"
            p.pop("ask")
    elif verb == "confirm":
        return _write(t, p, events)
    t.pending = p
    return t


def _write(t: ScoreState, p: dict[str, Any], events: list[dict[str, Any]]) -> ScoreState:
    if p.get("all_pass"):
        hand: dict[str, Any] = {"all_pass": True, "tricks": p["tricks"]}
    else:
        hand = {"declarer": p["declarer"], "contract": p["contract"]}
        if p["whist"]:
            hand["whist"] = p["whist"]
        hand["tricks"] = p["tricks"]
    if len(t.letters) == 4:
        hand["dealer"] = dealer_now(t)
    t.hands = t.hands + [hand]
    t.played = replay(t.options, t.players, t.hands)  # ScoreError here would be a wizard bug
    t.pending = None
    events.append({"type": "deal_scored", "hand_no": len(t.hands), "hand": hand})
    if finished(t.played.sheet, t.options):
        _over(t, events)
    return t


def _over(t: ScoreState, events: list[dict[str, Any]], forfeit: int | None = None) -> None:
    sheet = t.played.sheet
    t.pending = None
    t.result = {
        "finished": finished(sheet, t.options),
        "forfeit": forfeit,
        "hands": len(t.hands),
        "settlement": [fnum(settlement(sheet, t.options)[x]) for x in t.letters],
    }
    events.append({"type": "game_over", "result": dict(t.result)})


class PreferansRuScoreGame(SheetGame):
    name = "preferans_ru_score"
    rules_version = 1
    Options = PreferansRuOptions
    State = ScoreState
    seats = (3, 4)
    parse_options = staticmethod(parse_options)
    step_verbs = frozenset(
        {"declarer", "allpass", "undo", "contract", "first", "second", "again", "tricks", "confirm", "cancel"}
    )

    def initial_state(self, options: Any, players: int = 3) -> ScoreState:
        if players not in (3, 4):
            raise error("bad_options", detail="a пулька has 3 or 4 players")
        return ScoreState(parse_options(options), players)

    def steps(self, s: ScoreState) -> list[str]:
        return legal(s)

    def step(self, s: ScoreState, verb: str, arg: str | None, events: list[dict[str, Any]]) -> ScoreState:
        return _step(s, verb, arg, events)

    def forfeit(self, t: ScoreState, seat: int, events: list[dict[str, Any]]) -> None:
        _over(t, events, forfeit=seat)

    def view(self, s: ScoreState, seat: int | None) -> dict[str, Any]:
        sheet = s.played.sheet
        v: dict[str, Any] = {
            "game": "preferans_ru_score",
            "seat": seat,
            "started": s.started,
            "to_act": self.to_act(s),
            "players": s.players,
            "entries": len(s.hands),
            "pending": dict(s.pending) if s.pending is not None else None,
            "dealer": dealer_now(s),
            "active": active_now(s),
            "options": s.options.model_dump(mode="json"),
            "record": s.record(),
            "sheet": sheet.to_json(),
            "settlement": {p: fnum(x) for p, x in settlement(sheet, s.options).items()},
            "finished": finished(sheet, s.options),
            "result": dict(s.result) if s.result else None,
        }
        if s.pending is not None and s.pending.get("declarer"):
            v["defenders"] = list(defenders(s, s.pending["declarer"]))
        if seat is not None:
            v["hand"] = []
        return v


SCORE_GAME = PreferansRuScoreGame()
