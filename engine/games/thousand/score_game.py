"""``thousand_score``: the sheet of a Тысяча game played with real cards.

A data-entry wizard over the score-only record (``record``, docs/rules/records.md §6):
the state is the written deals plus one pending entry; the sheet is the record replayed
through ``record.play``, the same scoring as a played deal. Every action is one step, and
``legal_actions`` offers only the choices that can still make a valid deal (the same for
every seat: anybody at the table may enter).

Steps::

    declarer X | undo        a new deal: who won the auction (X a letter of a seat dealt in)
    contract N | band N      the final contract, 100..400, shown a hundred at a time (band)
    dark                     §6.5: the forehand's blind 100 (with the option)
    made | failed | concede  how it went (concede: распишись, with the option)
    points N | bolt | band N each opponent's points in turn (an opponent on the бочка is
                             not asked: its points do not count), N a multiple of the rounding
    confirm | cancel
"""

from __future__ import annotations

from typing import Any

from engine.jsondata import JsonDict, copy_json
from engine.preferans_family.facade import SheetGame

from .options import ThousandOptions, check_players, parse_options
from .record import BOLT, LETTERS, Played, possible, write
from .rules import MAX_BID

BANDS = (100, 200, 300)  # the contract buttons, a hundred at a time
POINT_BANDS = (0, 100, 200, 300)


class ScoreState:
    """Options, seat count, the written deals, the pending entry and the result."""

    __slots__ = ("options", "players", "started", "deals", "pending", "result", "played", "steps")

    def __init__(self, options: ThousandOptions, players: int) -> None:
        self.options = options
        self.players = players
        self.started = False
        self.deals: list[JsonDict] = []
        self.pending: JsonDict | None = None
        self.result: JsonDict | None = None
        self.played = replay(options, players, [])
        # the legal steps, once worked out: a state never changes after apply, and every
        # screen of a press (the group, each seat's) asks for them
        self.steps: list[str] | None = None

    def clone(self) -> ScoreState:
        s = ScoreState.__new__(ScoreState)
        for name in self.__slots__:
            setattr(s, name, getattr(self, name))
        s.deals = list(self.deals)
        s.pending = copy_json(self.pending)
        s.steps = None
        return s

    def dump(self) -> JsonDict:
        return {
            "game": "thousand_score",
            "rules_version": 1,
            "options": self.options.dump(),
            "players": self.players,
            "started": self.started,
            "deals": copy_json(self.deals),
            "pending": copy_json(self.pending),
            "result": copy_json(self.result),
        }

    @classmethod
    def load(cls, data: JsonDict) -> ScoreState:
        s = cls(parse_options(data["options"]), data["players"])
        s.started = data["started"]
        s.deals = copy_json(data["deals"])
        s.pending = copy_json(data["pending"])
        s.result = copy_json(data["result"])
        s.played = replay(s.options, s.players, s.deals)
        return s

    def record(self) -> JsonDict:
        """The records.md §6 record of the deals written so far."""
        return {
            "game": "thousand",
            "players": self.players,
            "options": self.options.dump(),
            "deals": copy_json(self.deals),
        }


def replay(options: ThousandOptions, players: int, deals: list[JsonDict]) -> Played:
    played = Played(options, players)
    for deal in deals:
        write(played, deal)  # a DealError here would be a wizard bug: each step was checked
    return played


# ------------------------------------------------------------------------------ the wizard
def opponents_asked(s: ScoreState, declarer: str) -> list[str]:
    """The opponents whose points count this deal, in play order (not those on the бочка)."""
    played = s.played
    seats = [p for p in played.active if LETTERS[p] != declarer]
    return [LETTERS[p] for p in seats if not played.on_barrel(p)]


def _written(s: ScoreState, p: JsonDict, ask: str | None = None, value: Any = None) -> list[Any]:
    """The opponents' points as ``record.possible`` takes them, with ``ask`` set to ``value``;
    an opponent not yet asked may have any points (None)."""
    out = []
    for seat in s.played.active:
        letter = LETTERS[seat]
        if letter == p["declarer"]:
            continue
        out.append(value if letter == ask else p["points"].get(letter))
    return out


def _fits(s: ScoreState, p: JsonDict, value: Any) -> bool:
    return possible(p["contract"], p["made"], _written(s, p, p["ask"], value), s.options.rounding)


def _point_band(band: int) -> range:
    top = band + 100 if band < POINT_BANDS[-1] else MAX_BID + 1
    return range(band, top)


def _contract_band(s: ScoreState, band: int) -> list[int]:
    step = s.options.bid_step
    top = band + 100 if band < BANDS[-1] else MAX_BID + 1
    return [n for n in range(band, top, step)]


def legal(s: ScoreState) -> list[str]:
    if s.steps is None:
        s.steps = _legal(s)
    return list(s.steps)


def _legal(s: ScoreState) -> list[str]:
    if not s.started or s.result is not None:
        return []
    p = s.pending
    if p is None:
        return [f"declarer {LETTERS[x]}" for x in s.played.active] + (["undo"] if s.deals else [])
    step = p["step"]
    if step == "contract":
        out = [f"contract {n}" for n in _contract_band(s, p["band"])]
        out += [f"band {b}" for b in BANDS if b != p["band"]]
        if s.options.dark and p["declarer"] == LETTERS[s.played.active[0]]:
            out.append("dark")
    elif step == "result":
        out = ["made", "failed"]
        if s.options.concede and not p["dark"]:
            out.append("concede")
    elif step == "points":
        step_by = s.options.rounding
        out = [f"points {n}" for n in _point_band(p["band"]) if n % step_by == 0 and _fits(s, p, n)]
        if p["band"] == 0 and s.options.bolts and _fits(s, p, BOLT):
            out.insert(0, "bolt")
        out += [f"band {b}" for b in POINT_BANDS if b != p["band"] and _band_fits(s, p, b)]
    else:
        out = ["confirm"]
    return out + ["cancel"]


def _band_fits(s: ScoreState, p: JsonDict, band: int) -> bool:
    return any(_fits(s, p, n) for n in _point_band(band) if n % s.options.rounding == 0)


def _ask_next(s: ScoreState, p: JsonDict) -> None:
    left = [x for x in opponents_asked(s, p["declarer"]) if x not in p["points"]]
    if left:
        p.update(step="points", ask=left[0], band=0)
    else:
        p.pop("ask", None)
        p.pop("band", None)
        p["step"] = "confirm"


def _step(s: ScoreState, verb: str, arg: str | None, events: list[JsonDict]) -> ScoreState:
    t = s.clone()
    p = t.pending
    if verb == "cancel":
        t.pending = None
        events.append({"type": "entry_cancelled"})
        return t
    if verb == "undo":
        t.deals = t.deals[:-1]
        t.played = replay(t.options, t.players, t.deals)
        events.append({"type": "entry_undone", "deals": len(t.deals)})
        return t
    if verb == "declarer":
        t.pending = {"step": "contract", "declarer": arg, "band": BANDS[0], "dark": False}
        return t
    assert p is not None  # legal() offers the other steps only with a pending entry
    if verb == "band":
        p["band"] = int(arg or 0)
    elif verb in ("contract", "dark"):
        p.pop("band")
        p.update(step="result", contract=int(arg) if arg else 100, dark=verb == "dark")
    elif verb in ("made", "failed"):
        p.update(made=verb == "made", points={})
        _ask_next(t, p)
    elif verb == "concede":
        p.update(conceded=True, step="confirm")
    elif verb in ("points", "bolt"):
        p["points"] = {**p["points"], p["ask"]: int(arg) if verb == "points" and arg else BOLT}
        _ask_next(t, p)
    elif verb == "confirm":
        return _write(t, p, events)
    return t


def deal_of(p: JsonDict) -> JsonDict:
    """The pending entry as a record's deal (records.md §6)."""
    deal: JsonDict = {"declarer": p["declarer"], "contract": p["contract"]}
    if p["dark"]:
        deal["dark"] = True
    if p.get("conceded"):
        deal["conceded"] = True
    else:
        deal["made"] = p["made"]
        deal["points"] = dict(p["points"])
    return deal


def _write(t: ScoreState, p: JsonDict, events: list[JsonDict]) -> ScoreState:
    deal = deal_of(p)
    t.played = t.played.copy()  # the old state keeps its own sheet
    entry = write(t.played, deal)
    t.deals = t.deals + [deal]
    t.pending = None
    events.append({"type": "deal_scored", "entry": entry, "deal": deal})
    if t.played.over:
        _over(t, events)
    return t


def _over(t: ScoreState, events: list[JsonDict], **extra: Any) -> None:
    t.pending = None
    t.result = t.played.result(**extra)
    events.append({"type": "game_over", "result": copy_json(t.result)})


class ThousandScoreGame(SheetGame):
    name = "thousand_score"
    rules_version = 1
    Options = ThousandOptions
    State = ScoreState
    seats = (3, 4)
    parse_options = staticmethod(parse_options)
    step_verbs = frozenset(
        {"declarer", "undo", "contract", "band", "dark", "made", "failed", "concede", "points", "bolt", "confirm"}
        | {"cancel"}
    )

    def initial_state(self, options: Any, players: int = 3) -> ScoreState:
        return ScoreState(parse_options(options), check_players(players))

    def steps(self, s: ScoreState) -> list[str]:
        return legal(s)

    def step(self, s: ScoreState, verb: str, arg: str | None, events: list[JsonDict]) -> ScoreState:
        return _step(s, verb, arg, events)

    def forfeit(self, t: ScoreState, seat: int, events: list[JsonDict]) -> None:
        _over(t, events, forfeit=seat)

    def view(self, s: ScoreState, seat: int | None) -> JsonDict:
        played = s.played
        v: JsonDict = {
            "game": "thousand_score",
            "seat": seat,
            "phase": "over" if s.result is not None else ("entry" if s.started else "deal"),
            "started": s.started,
            "to_act": self.to_act(s),
            "players": s.players,
            "pending": copy_json(s.pending),
            "dealer": played.dealer,
            "active": list(played.active),
            "options": s.options.dump(),
            "record": s.record(),
            "totals": list(played.totals),
            "bolts": list(played.bolts),
            "barrel": list(played.barrel),
            "entries": copy_json(played.entries),
            "result": copy_json(s.result),
        }
        if seat is not None:
            v["hand"] = []
        return v


SCORE_GAME = ThousandScoreGame()
