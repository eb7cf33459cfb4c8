"""``bridge_score``: the score-only sheet for a rubber played with real cards.

A pure data-entry wizard. The state is the confirmed deals of the rubber plus one pending
entry; every seat (the people keeping the sheet) may press any step. The sheet is
computed by the same code as the played engine and ``cardbot score`` (``record.py``).

Notation:
  deal dealer=<N|E|S|W>          system, first: who deals the first deal
  declarer <N|E|S|W> | passed_out   start an entry
  level <1-7>, strain <C|D|H|S|NT>, doubling <none|X|XX>, tricks <0-13>,
  honours <none | NS 4 | NS 5 | EW 4 | EW 5>   (only with score_honours; 4 aces in NT)
  confirm | cancel               write / drop the pending entry
  undo                           drop the last confirmed deal
  stop                           end the rubber now (then confirm): settled as unfinished
  forfeit <seat>                 system: same as a confirmed stop
The match ends when a side has won two games (or after a stop).
"""

from __future__ import annotations

import random
from typing import Any

from engine.deadline import NEVER, Deadline
from engine.facade import RulesFacade
from engine.jsondata import JsonDict

from .errors import error
from .options import BridgeOptions, parse_options, scoring_table
from .record import check_honours, write_entry
from .scoring import SEATS, STRAINS, Sheet, number_json, parse_contract, side_of

STEPS = ("declarer", "level", "strain", "doubling", "tricks", "honours", "confirm")
DOUBLING = {"none": 0, "X": 1, "XX": 2}
DOUBLING_NAME = {0: "", 1: "X", 2: "XX"}


class ScoreState:
    __slots__ = ("options", "table", "n", "phase", "first_dealer", "deals", "pending", "sheet", "result", "last")

    def __init__(self, options: BridgeOptions, n: int) -> None:
        self.options = options
        self.table = scoring_table(options)
        self.n = n
        self.phase = "deal"  # deal -> entry -> over
        self.first_dealer = 0
        self.deals: list[JsonDict] = []  # confirmed deals in the records.md format
        self.pending: JsonDict | None = None
        self.sheet = Sheet(self.table)
        self.result: JsonDict | None = None
        self.last: JsonDict | None = None

    @property
    def dealer(self) -> int:
        # Chicago by the laws: a passed-out deal is redealt by the same dealer
        return (self.first_dealer + len(self.deals) - self.sheet.redeals) % 4

    def clone(self) -> "ScoreState":
        s = ScoreState.__new__(ScoreState)
        s.options, s.table, s.n, s.phase = self.options, self.table, self.n, self.phase
        s.first_dealer = self.first_dealer
        s.deals = self.deals[:]
        s.pending = dict(self.pending) if self.pending is not None else None
        s.sheet = self.sheet
        s.result = self.result
        s.last = self.last
        return s

    def dump(self) -> JsonDict:
        return {
            "game": "bridge_score",
            "rules_version": 1,
            "options": self.options.model_dump(),
            "players": self.n,
            "phase": self.phase,
            "first_dealer": self.first_dealer,
            "deals": [dict(d) for d in self.deals],
            "pending": dict(self.pending) if self.pending is not None else None,
            "sheet": self.sheet.dump(),
            "result": self.result,
            "last": self.last,
        }

    @classmethod
    def load(cls, data: JsonDict) -> "ScoreState":
        s = cls(parse_options(data["options"]), int(data["players"]))
        s.phase = data["phase"]
        s.first_dealer = data["first_dealer"]
        s.deals = [dict(d) for d in data["deals"]]
        s.pending = dict(data["pending"]) if data["pending"] is not None else None
        s.sheet = Sheet.load(data["sheet"], s.table)
        s.result = data["result"]
        s.last = data["last"]
        return s


def _entry_of(deal: JsonDict) -> JsonDict | None:
    """A confirmed records.md deal as ``record.check_entry`` returns it (already valid)."""
    if deal.get("passed_out"):
        return None
    honours = deal.get("honours")
    return {
        "declarer": SEATS.index(deal["declarer"]),
        "contract": parse_contract(deal["contract"]),
        "tricks": deal["tricks"],
        "honours": (honours["side"], honours["held"]) if honours else None,
    }


def step(s: ScoreState) -> str | None:
    """The step the pending entry waits for (None: no entry is pending)."""
    p = s.pending
    if p is None:
        return None
    if p.get("passed_out") or p.get("stop"):
        return "confirm"
    for name in STEPS[1:]:
        if name == "honours" and not s.options.score_honours:
            continue
        if name == "confirm" or name not in p:
            return name
    return "confirm"  # pragma: no cover


def legal(s: ScoreState) -> list[str]:
    if s.phase != "entry":
        return []
    st = step(s)
    if st is None:
        out = [f"declarer {d}" for d in SEATS] + ["passed_out"]
        if s.deals:
            out += ["undo", "stop"]
        return out
    if st == "level":
        out = [f"level {n}" for n in range(1, 8)]
    elif st == "strain":
        out = [f"strain {x}" for x in STRAINS]
    elif st == "doubling":
        out = ["doubling none", "doubling X", "doubling XX"]
    elif st == "tricks":
        out = [f"tricks {n}" for n in range(14)]
    elif st == "honours":
        assert s.pending is not None, "a step belongs to an entry"
        held = (4,) if s.pending["strain"] == "NT" else (4, 5)
        out = ["honours none"] + [f"honours {side} {h}" for side in ("NS", "EW") for h in held]
    else:
        out = ["confirm"]
    return out + ["cancel"]


def initial_state(options: Any, players: int) -> ScoreState:
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 4:
        raise error("bad_options", detail="a score sheet is kept by 1 to 4 people")
    return ScoreState(parse_options(options), players)


def new_deal(options: Any, players: int, rng: random.Random, history: list[JsonDict]) -> str:
    opts = parse_options(options)
    dealer = SEATS.index(opts.first_dealer)
    for entry in reversed(history or []):
        res = entry.get("result") if isinstance(entry.get("result"), dict) else entry
        if isinstance(res, dict) and isinstance(res.get("next_dealer"), int):
            dealer = res["next_dealer"] % 4
            break
    return f"deal dealer={SEATS[dealer]}"


def to_act(s: ScoreState) -> list[int]:
    return list(range(s.n)) if s.phase == "entry" else []


def apply(state: ScoreState, seat: int | None, action: str) -> tuple[ScoreState, list[JsonDict]]:
    if not isinstance(action, str) or not action.split():
        raise error("bad_syntax", action=action, detail="the action is empty")
    s = state
    verb, *args = action.split()
    if s.phase == "over":
        raise error("game_over")
    events: list[JsonDict] = []
    if verb in ("deal", "forfeit"):
        if seat is not None:
            raise error("system_only", verb=verb)
        if verb == "deal":
            if s.phase != "deal":
                raise error("wrong_phase", verb=verb)
            if len(args) != 1 or not args[0].startswith("dealer=") or args[0][7:] not in SEATS or len(args[0]) != 8:
                raise error("bad_syntax", action=action, detail="expected 'deal dealer=<N|E|S|W>'")
            t = s.clone()
            t.first_dealer = SEATS.index(args[0][7:])
            t.phase = "entry"
            events.append({"type": "sheet_open", "dealer": t.first_dealer})
            return t, events
        if s.phase == "deal" or len(args) != 1 or not args[0].isdigit():
            raise error("bad_syntax", action=action, detail="expected 'forfeit <seat>'")
        t = s.clone()
        _stop(t, events, forfeit=int(args[0]))
        return t, events
    if s.phase != "entry":
        raise error("wrong_phase", verb=verb)
    if seat is None or not 0 <= seat < s.n:
        raise error("not_your_turn", waiting="a person keeping the sheet")
    if action not in legal(s):
        st = step(s)
        if verb == "undo" and not s.deals:
            raise error("nothing_to_undo")
        if verb == "honours" and st == "honours":
            raise error("bad_honours", detail=f"{' '.join(args)!r} do not fit this contract")
        if verb not in (
            "declarer",
            "passed_out",
            "level",
            "strain",
            "doubling",
            "tricks",
            "honours",
            "confirm",
            "cancel",
            "undo",
            "stop",
        ):
            raise error("bad_syntax", action=action, detail=f"unknown action {verb!r}")
        raise error("entry_step", expected=st or "a declarer, passed_out, undo or stop")
    t = s.clone()
    if verb == "cancel":
        t.pending = None
        events.append({"type": "entry_cancelled"})
    elif verb == "declarer":
        t.pending = {"declarer": args[0]}
    elif verb == "passed_out":
        t.pending = {"passed_out": True}
    elif verb == "stop":
        t.pending = {"stop": True}
    elif verb in ("level", "strain", "doubling", "tricks", "honours"):
        assert t.pending is not None, "legal_actions: the next step of an entry"
        if verb == "level":
            t.pending["level"] = int(args[0])
        elif verb == "strain":
            t.pending["strain"] = args[0]
        elif verb == "doubling":
            t.pending["doubling"] = args[0]
        elif verb == "tricks":
            t.pending["tricks"] = int(args[0])
        else:
            t.pending["honours"] = None if args[0] == "none" else {"side": args[0], "held": int(args[1])}
    elif verb == "undo":
        _undo(t, events)
    elif verb == "confirm":
        assert t.pending is not None, "legal_actions: confirm ends an entry"
        if t.pending.get("stop"):
            t.pending = None
            _stop(t, events)
        else:
            _confirm(t, events)
    return t, events


def _record_of(p: JsonDict) -> JsonDict:
    if p.get("passed_out"):
        return {"passed_out": True}
    deal = {
        "declarer": p["declarer"],
        "contract": f"{p['level']}{p['strain']}{DOUBLING_NAME[DOUBLING[p['doubling']]]}",
        "tricks": p["tricks"],
    }
    if p.get("honours"):
        deal["honours"] = dict(p["honours"])
    return deal


def _confirm(t: ScoreState, events: list[JsonDict]) -> None:
    assert t.pending is not None, "confirm ends an entry"
    deal = _record_of(t.pending)
    entry = _entry_of(deal)
    if entry is not None and entry["honours"] is not None:
        check_honours(len(t.deals) + 1, entry["contract"], deal["honours"])
    dealer = t.dealer
    vulnerable = entry is not None and t.sheet.vulnerable(side_of(entry["declarer"]))
    t.sheet = t.sheet.clone()
    entries = write_entry(t.sheet, entry, t.options.score_honours)
    t.deals = t.deals + [deal]
    t.pending = None
    if entry is None:
        t.last = {"board": None, "dealer": dealer, "passed_out": True, "deal_no": t.sheet.deals}
    else:
        c = entry["contract"]
        t.last = {
            "board": None,
            "dealer": dealer,
            "passed_out": False,
            "deal_no": t.sheet.deals,
            "declarer": entry["declarer"],
            "contract": c.to_dict(),
            "tricks": entry["tricks"],
            "result": entry["tricks"] - c.need,
            "vulnerable": vulnerable,
            "honours": deal.get("honours"),
            "how": {"paper": True},
            "points": t.sheet.deal_points(t.sheet.deals),
        }
    events.append({"type": "deal_scored", **t.last, "entries": entries, "sheet": t.sheet.public()})
    if t.sheet.complete:
        _over(t, events)


def _rebuild(t: ScoreState) -> None:
    sheet = Sheet(t.table)
    for deal in t.deals:
        write_entry(sheet, _entry_of(deal), t.options.score_honours)
    t.sheet = sheet


def _undo(t: ScoreState, events: list[JsonDict]) -> None:
    dropped = t.deals[-1]
    t.deals = t.deals[:-1]
    _rebuild(t)
    t.last = None
    events.append({"type": "undone", "deal": dict(dropped), "deal_no": len(t.deals) + 1, "sheet": t.sheet.public()})


def _stop(t: ScoreState, events: list[JsonDict], forfeit: int | None = None) -> None:
    t.sheet = t.sheet.clone()
    entries = t.sheet.stop(t.options.unfinished_rubber_bonus)
    events.append({"type": "stopped", "entries": entries, "sheet": t.sheet.public()})
    _over(t, events, forfeit)


def _over(t: ScoreState, events: list[JsonDict], forfeit: int | None = None) -> None:
    settle = t.sheet.settlement(t.options.rounding)
    k = settle["units"]["NS"]
    result = {
        "complete": t.sheet.complete,
        "winner": t.sheet.winner,
        "games": dict(t.sheet.games),
        "totals": t.sheet.totals(),
        "diff": settle["diff"],
        "units": {side: number_json(v) for side, v in settle["units"].items()},
        "sides": {"NS": number_json(k), "EW": number_json(-k)},
        "deals": t.sheet.deals,
        "next_dealer": t.dealer,
    }
    if forfeit is not None:
        result["forfeit"] = forfeit
    t.result = result
    t.phase = "over"
    t.pending = None
    events.append({"type": "game_over", "result": dict(result)})


def view(s: ScoreState, seat: int | None) -> JsonDict:
    v = {
        "game": "bridge_score",
        "seat": seat,
        "phase": s.phase,
        "people": s.n,
        "dealer": s.dealer,
        "pending": dict(s.pending) if s.pending else None,
        "step": step(s),
        "deals": len(s.deals),
        "to_act": to_act(s),
        "sheet": s.sheet.public(),
        "last": s.last,
        "score_honours": s.options.score_honours,
        "result": s.result,
    }
    if seat is not None:
        v["hand"] = []
    return v


class BridgeScoreGame(RulesFacade):
    name = "bridge_score"
    rules_version = 1
    Options = BridgeOptions
    State = ScoreState

    def seat_range(self, options: Any) -> tuple[int, int]:
        return 1, 4

    initial_state = staticmethod(initial_state)
    new_deal = staticmethod(new_deal)
    apply = staticmethod(apply)
    to_act = staticmethod(to_act)
    view = staticmethod(view)

    def legal_actions(self, state: ScoreState, seat: int) -> list[str]:
        return legal(state) if 0 <= seat < state.n else []

    def computer_action(
        self, view: JsonDict, legal_actions: list[str], rng: random.Random, level: str = "", deadline: Deadline = NEVER
    ) -> str:
        """Nobody computes at a paper table; a timer's stand-in cancels the pending entry."""
        # level: every game takes one (engine.base.Game); no computer plays a score sheet
        if "cancel" in legal_actions:
            return "cancel"
        return legal_actions[-1] if legal_actions else ""


SCORE_GAME = BridgeScoreGame()
