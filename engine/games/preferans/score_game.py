"""``preferans_score``: the score-only sheet for people who play with real cards.

A pure data-entry wizard. The state is the confirmed hand entries plus one pending
entry; each action is one wizard step, and ``legal_actions`` offers only the choices
that can still make a valid hand (the same for every seat; every seat may enter).
Scoring goes through the same :func:`scoring.normalise` / :func:`scoring.apply_entry`
as the played engine. The sheet ends only when the contract columns reach zero.

Steps (seats are letters A B C = seats 1 2 3 of the table)::

    declarer B | allpass | undo          a new entry (undo drops the last confirmed one)
    contract S|D|H|C|BETTEL|SANS
    igra yes|no
    d1 play|pass                         the defender on the declarer's left (not in bettel)
    d2 play|pass|invite                  the defender on his right (invite: after d1 passed)
    kontra none|A|B|C|both               who said kontra (only playing, not invited defenders)
    level 1..                            the kontra level reached (1 kontra, 2 rekontra, ...)
    tricks N                             the declarer's tricks, then each defender's as needed
    confirm | cancel                     write the entry / drop it
"""

from __future__ import annotations

from typing import Any

from engine.jsondata import JsonDict
from engine.preferans_family.facade import SheetGame
from engine.preferans_family.numbers import fnum

from .errors import error
from .options import PreferansOptions, parse_options
from .rules import sheet_json  # the same public sheet as the played game's
from .scoring import (
    BETTEL,
    CONTRACTS,
    NAME_OF,
    EntryError,
    Pull,
    apply_entry,
    apply_forfeit,
    defenders,
    normalise,
    settlement,
    two_check,
)

LETTERS = "ABC"
MAX_LEVEL_BUTTONS = 8  # with an unlimited chain the wizard offers levels 1..8


def entry_to_json(e: JsonDict) -> JsonDict:
    if e.get("all_pass"):
        return {"all_pass": True}
    return {
        "declarer": e["declarer"],
        "number": e["number"],
        "igra": e["igra"],
        "defence": {str(k): v for k, v in e["defence"].items()},
        "kontra": list(e["kontra"]),
        "level": e["level"],
        "tricks": None if e["tricks"] is None else [e["tricks"].get(x, 0) for x in range(3)],
    }


def entry_from_json(d: JsonDict) -> JsonDict:
    if d.get("all_pass"):
        return {"all_pass": True}
    return {
        "declarer": d["declarer"],
        "number": d["number"],
        "igra": d["igra"],
        "defence": {int(k): v for k, v in d["defence"].items()},
        "kontra": list(d["kontra"]),
        "level": d["level"],
        "tricks": None if d["tricks"] is None else {x: d["tricks"][x] for x in range(3)},
    }


class ScoreState:
    __slots__ = ("options", "started", "entries", "pending", "pull", "last_row", "result")
    players = 3

    def __init__(self, options: PreferansOptions) -> None:
        self.options = options
        self.started = False
        self.entries: list[JsonDict] = []  # JSON entries (entry_to_json)
        self.pending: JsonDict | None = None  # {"step": ..., fields so far}
        self.pull = Pull.start(options.bula)
        self.last_row: JsonDict | None = None
        self.result: JsonDict | None = None

    def clone(self) -> "ScoreState":
        s = ScoreState.__new__(ScoreState)
        for name in self.__slots__:
            setattr(s, name, getattr(self, name))
        s.entries = list(self.entries)
        s.pending = dict(self.pending) if self.pending is not None else None
        return s

    def dump(self) -> JsonDict:
        return {
            "game": "preferans_score",
            "rules_version": 1,
            "options": self.options.model_dump(),
            "started": self.started,
            "entries": [dict(e) for e in self.entries],
            "pending": dict(self.pending) if self.pending is not None else None,
            "last_row": self.last_row,
            "result": self.result,
        }

    @classmethod
    def load(cls, data: JsonDict) -> "ScoreState":
        s = cls(parse_options(data["options"]))
        s.started = data["started"]
        s.entries = [dict(e) for e in data["entries"]]
        s.pending = dict(data["pending"]) if data["pending"] is not None else None
        s.pull = rebuild(s.options, s.entries)
        s.last_row = data["last_row"]
        s.result = data["result"]
        return s


def rebuild(options: PreferansOptions, entries: list[JsonDict]) -> Pull:
    pull = Pull.start(options.bula)
    for e in entries:
        if e.get("forfeit") is not None:
            pull, _ = apply_forfeit(pull, e["forfeit"])
            continue
        pull, _ = apply_entry(pull, normalise(pull, entry_from_json(e), options), options)
    return pull


# ------------------------------------------------------------------------------ the wizard
def _eligible(p: JsonDict) -> list[int]:
    d1, d2 = defenders(p["declarer"])
    return [x for x in (d1, d2) if p["defence"][str(x)] in ("play", "invite")]


def _participants(p: JsonDict) -> list[int]:
    d = p["declarer"]
    return [d] + [x for x in defenders(d) if p["defence"][str(x)] != "pass"]


def _entry_of(p: JsonDict, tricks: dict[int, int] | None) -> JsonDict:
    return {
        "declarer": p["declarer"],
        "number": p["number"],
        "igra": p["igra"],
        "defence": {int(k): v for k, v in p["defence"].items()},
        "kontra": list(p.get("kontra", [])),
        "level": p.get("level", 0),
        "tricks": tricks,
    }


def _after_kontra(s: ScoreState, p: JsonDict) -> None:
    """Kontra known: maybe no play (both passed / unkontra'd two), else the tricks."""
    entry = _entry_of(p, None)
    defs = defenders(p["declarer"])
    if all(p["defence"][str(x)] == "pass" for x in defs) or two_check(s.pull, entry, s.options):
        p["tricks"] = None
        p["step"] = "confirm"
        return
    p["tricks"] = {}
    p["step"], p["tseat"] = "tricks", p["declarer"]


def _defenders_total(p: JsonDict) -> int | None:
    """The defenders' total once the declarer's tricks are known (None: free, bettel failed)."""
    dt = p["tricks"][str(p["declarer"])]
    if p["number"] == BETTEL:
        return 10 if dt == 0 else None
    return 10 - dt if dt >= 6 else 5


def _tricks_choices(p: JsonDict) -> list[int]:
    d = p["declarer"]
    if p["tseat"] == d:
        return [0, 1] if p["number"] == BETTEL else list(range(11))
    total = _defenders_total(p)
    if total is not None:
        return list(range(total + 1))
    got = sum(v for k, v in p["tricks"].items() if int(k) != d)
    return list(range(10 - 1 - got + 1))


def _tricks_next(p: JsonDict) -> None:
    d = p["declarer"]
    defs = [x for x in _participants(p) if x != d]
    todo = [x for x in defs if str(x) not in p["tricks"]]
    total = _defenders_total(p)
    if len(todo) == 1 and total is not None:
        got = sum(v for k, v in p["tricks"].items() if int(k) != d)
        p["tricks"][str(todo[0])] = total - got
        todo = []
    if todo:
        p["tseat"] = todo[0]
    else:
        p["step"] = "confirm"
        p.pop("tseat", None)


def score_legal(s: ScoreState) -> list[str]:
    if not s.started or s.result is not None:
        return []
    p = s.pending
    if p is None:
        out = [f"declarer {c}" for c in LETTERS] + ["allpass"]
        if s.entries:
            out.append("undo")
        return out
    step = p["step"]
    if step == "contract":
        out = [f"contract {NAME_OF[n]}" for n in range(2, 8)]
    elif step == "igra":
        out = ["igra no", "igra yes"]
    elif step == "d1":
        out = ["d1 play", "d1 pass"]
    elif step == "d2":
        d1 = defenders(p["declarer"])[0]
        out = ["d2 play", "d2 pass"] + (["d2 invite"] if p["defence"][str(d1)] == "pass" else [])
    elif step == "kontra":
        elig = _eligible(p)
        out = ["kontra none"] + [f"kontra {LETTERS[x]}" for x in elig]
        if len(elig) == 2:
            out.append("kontra both")
    elif step == "level":
        cap = s.options.kontra_cap
        top = cap if cap is not None else MAX_LEVEL_BUTTONS
        out = [f"level {n}" for n in range(1, top + 1)]
    elif step == "tricks":
        out = [f"tricks {n}" for n in _tricks_choices(p)]
    else:  # confirm
        out = ["confirm"]
    return out + ["cancel"]


def _step(s: ScoreState, verb: str, arg: str | None, events: list[JsonDict]) -> ScoreState:
    t = s.clone()
    p = dict(t.pending) if t.pending is not None else None
    if verb == "cancel":
        t.pending = None
        events.append({"type": "entry_cancelled"})
        return t
    if verb == "undo":
        t.entries = t.entries[:-1]
        t.pull = rebuild(t.options, t.entries)
        t.last_row = t.pull.rows[-1] if t.pull.rows else None
        events.append({"type": "entry_undone", "entries": len(t.entries)})
        events.append({"type": "sheet", "sheet": sheet_json(t), "row": None})
        return t
    if verb == "allpass":
        t.pending = {"step": "confirm", "all_pass": True}
        return t
    if verb == "declarer":
        assert arg is not None, "legal_actions: declarer <letter>"
        t.pending = {"step": "contract", "declarer": LETTERS.index(arg), "defence": {}}
        return t
    assert p is not None
    if verb == "contract":
        assert arg is not None, "legal_actions: contract <name>"
        p["number"] = CONTRACTS[arg]
        p["step"] = "igra"
    elif verb == "igra":
        p["igra"] = arg == "yes"
        if p["number"] == BETTEL:
            d1, d2 = defenders(p["declarer"])
            p["defence"] = {str(d1): "play", str(d2): "play"}
            p["step"] = "kontra"
        else:
            p["step"] = "d1"
    elif verb == "d1":
        d1 = defenders(p["declarer"])[0]
        p["defence"] = {str(d1): arg}
        p["step"] = "d2"
    elif verb == "d2":
        d1, d2 = defenders(p["declarer"])
        p["defence"] = dict(p["defence"])
        if arg == "invite":
            p["defence"][str(d1)], p["defence"][str(d2)] = "invited", "invite"
        else:
            p["defence"][str(d2)] = arg
        p["step"] = "kontra" if _eligible(p) else None
        if p["step"] is None:
            p["kontra"], p["level"] = [], 0
            _after_kontra(t, p)
    elif verb == "kontra":
        elig = _eligible(p)
        assert arg is not None, "legal_actions: kontra <who>"
        k = [] if arg == "none" else elig if arg == "both" else [LETTERS.index(arg)]
        p["kontra"] = k
        p["defence"] = dict(p["defence"])
        for x in k:  # a lone defender's kontra invites the passed one
            other = [y for y in defenders(p["declarer"]) if y != x][0]
            if p["defence"][str(x)] == "play" and p["defence"][str(other)] == "pass":
                p["defence"][str(x)], p["defence"][str(other)] = "invite", "invited"
        cap = t.options.kontra_cap
        if k and cap != 1:
            p["level"] = 1
            p["step"] = "level"
        else:
            p["level"] = 1 if k else 0
            _after_kontra(t, p)
    elif verb == "level":
        assert arg is not None, "legal_actions: level <n>"
        p["level"] = int(arg)
        _after_kontra(t, p)
    elif verb == "tricks":
        assert arg is not None, "legal_actions: tricks <n>"
        p["tricks"] = dict(p["tricks"])
        p["tricks"][str(p["tseat"])] = int(arg)
        _tricks_next(p)
    elif verb == "confirm":
        if p.get("all_pass"):
            entry = {"all_pass": True}
        else:
            tricks = None if p["tricks"] is None else {x: p["tricks"].get(str(x), 0) for x in range(3)}
            entry = _entry_of(p, tricks)
        entry = normalise(t.pull, entry, t.options)
        t.pull, row = apply_entry(t.pull, entry, t.options)
        row = dict(row, hand_no=len(t.entries) + 1)
        t.entries = t.entries + [entry_to_json(entry)]
        t.pending = None
        t.last_row = row
        events.append({"type": "deal_scored", "hand_no": len(t.entries), "row": row, "sheet": sheet_json(t)})
        if t.pull.finished:
            _over(t, events)
        return t
    t.pending = p
    return t


def _over(t: ScoreState, events: list[JsonDict], forfeit: int | None = None) -> None:
    p = t.pull
    t.pending = None
    t.result = {
        "finished": p.finished,
        "forfeit": forfeit,
        "hands": len(t.entries),
        "contract": [fnum(c) for c in p.contract],
        "soups": [[fnum(x) for x in r] for r in p.soups],
        "settlement": [fnum(x) for x in settlement(p)],
    }
    events.append({"type": "game_over", "result": dict(t.result)})


class PreferansScoreGame(SheetGame):
    name = "preferans_score"
    rules_version = 1
    Options = PreferansOptions
    State = ScoreState
    seats = (3, 3)
    parse_options = staticmethod(parse_options)
    step_verbs = frozenset(
        {
            "declarer",
            "allpass",
            "undo",
            "contract",
            "igra",
            "d1",
            "d2",
            "kontra",
            "level",
            "tricks",
            "confirm",
            "cancel",
        }
    )

    def initial_state(self, options: Any, players: int = 3) -> ScoreState:
        if players != 3:
            raise error("bad_options", detail="a preferans sheet has exactly 3 players")
        return ScoreState(parse_options(options))

    def steps(self, s: ScoreState) -> list[str]:
        return score_legal(s)

    def step(self, s: ScoreState, verb: str, arg: str | None, events: list[JsonDict]) -> ScoreState:
        try:
            return _step(s, verb, arg, events)
        except EntryError as exc:  # cannot happen: legal steps only build valid entries
            raise error("bad_deal", detail=str(exc)) from None

    def forfeit(self, t: ScoreState, seat: int, events: list[JsonDict]) -> None:
        t.pull, row = apply_forfeit(t.pull, seat)
        t.entries = t.entries + [{"forfeit": seat}]
        t.last_row = row
        _over(t, events, forfeit=seat)

    def view(self, s: ScoreState, seat: int | None) -> JsonDict:
        v = {
            "game": "preferans_score",
            "seat": seat,
            "started": s.started,
            "to_act": self.to_act(s),
            "entries": len(s.entries),
            "pending": dict(s.pending) if s.pending is not None else None,
            "bula": s.options.bula,
            "options": {"display_rounding": s.options.display_rounding, "kontra_cap": s.options.kontra_cap},
            "refe": list(s.pull.refe),
            "sheet": sheet_json(s),
            "last_row": s.last_row,
            "result": dict(s.result) if s.result else None,
        }
        if seat is not None:
            v["hand"] = []
        return v


SCORE_GAME = PreferansScoreGame()
