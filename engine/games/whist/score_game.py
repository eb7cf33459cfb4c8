"""``whist_score``: the score sheet of a whist match played with real cards.

A pure data-entry wizard over the same :class:`~engine.games.whist.scoring.Sheet` as the
played game. Seats are the people keeping the sheet (1–4); any of them may enter.

Actions::

    deal              system: opens the sheet (the first action of the match)
    tricks <n>        the tricks of N–S (We) in this deal, 0–13 (E–W get 13 − n)
    honours <n>       the trump honours of N–S (We), 0 … number of honour ranks
                      (E–W get the rest); only counts possible with those tricks are offered
    confirm           write the deal on the sheet
    cancel            drop the entry being made
    undo              strike out the last written deal
    forfeit <seat>    system (turn timer): closes the sheet as it stands

It ends only when the match is over (a side has won ``match_rubbers_to_win`` rubbers).
"""

from __future__ import annotations

import random
from typing import Any

from engine.deadline import NEVER, Deadline
from engine.base import register
from engine.facade import RulesFacade
from engine.jsondata import JsonDict

from .errors import error
from .options import WhistOptions, parse_options
from .rules import honours_not_written
from .scoring import SIDES, EntryError, Sheet, check_entry


class ScoreState:
    __slots__ = ("options", "players", "opened", "pending", "sheet", "result")

    def __init__(self, options: WhistOptions, players: int) -> None:
        self.options = options
        self.players = players
        self.opened = False
        self.pending: JsonDict | None = None  # {"tricks": {...}} then also {"honours": {...}}
        self.sheet = Sheet(options)
        self.result: JsonDict | None = None

    def clone(self) -> "ScoreState":
        s = ScoreState.__new__(ScoreState)
        for name in self.__slots__:
            setattr(s, name, getattr(self, name))
        return s

    @property
    def over(self) -> bool:
        return self.result is not None

    def dump(self) -> JsonDict:
        return {
            "game": "whist_score",
            "rules_version": 1,
            "players": self.players,
            "options": self.options.dump(),
            "opened": self.opened,
            "pending": _copy(self.pending),
            "entries": [_copy(e) for e in self.sheet.entries],
            "result": _copy(self.result),
        }

    @classmethod
    def load(cls, data: JsonDict) -> "ScoreState":
        s = cls(parse_options(data["options"]), int(data["players"]))
        s.opened = bool(data["opened"])
        s.pending = _copy(data["pending"])
        s.sheet = Sheet.replay(s.options, data["entries"])
        s.result = _copy(data["result"])
        return s


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def honour_choices(options: WhistOptions, tricks: dict[str, int]) -> list[int]:
    """The N–S honour counts possible with these tricks (EW hold the rest)."""
    n = len(options.honour_ranks)
    out = []
    for h in range(n + 1):
        entry = {"tricks": tricks, "honours": {"NS": h, "EW": n - h}}
        try:
            check_entry(options, entry)
        except EntryError:
            continue
        out.append(h)
    return out


def _result(s: ScoreState, **extra: Any) -> JsonDict:
    sheet = s.sheet
    out = {
        "winner": sheet.winner,
        "rubbers": sheet.rubbers_won,
        "credited": sheet.credited,
        "balance": sheet.balance,
        "deals": len(sheet.entries),
        "unfinished_rubber": sheet.running_rubber() is not None,
    }
    out.update(extra)
    return out


class WhistScoreGame(RulesFacade):
    name = "whist_score"
    rules_version = 1
    Options = WhistOptions
    State = ScoreState

    def seat_range(self, options: Any) -> tuple[int, int]:
        return 1, 4

    def new_deal(self, options: Any, players: int, rng: random.Random, history: list[JsonDict]) -> str:
        return "deal"

    def initial_state(self, options: Any, players: int) -> ScoreState:
        if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 4:
            raise error("bad_options", detail=f"a score sheet is kept by 1 to 4 people, not {players}")
        return ScoreState(parse_options(options), players)

    # ------------------------------------------------------------------ queries
    def to_act(self, state: ScoreState) -> list[int]:
        if state.over or not state.opened:
            return []
        return list(range(state.players))

    def legal_actions(self, state: ScoreState, seat: int) -> list[str]:
        if state.over or not state.opened or not 0 <= seat < state.players:
            return []
        p = state.pending
        if p is None:
            out = [f"tricks {n}" for n in range(14)]
            if state.sheet.entries:
                out.append("undo")
            return out
        if "honours" not in p:
            return [f"honours {h}" for h in honour_choices(state.options, p["tricks"])] + ["cancel"]
        return ["confirm", "cancel"]

    def view(self, state: ScoreState, seat: int | None) -> JsonDict:
        sheet = state.sheet
        o = state.options
        v = {
            "seat": seat,
            "phase": "over" if state.over else "entry",
            "pending": _copy(state.pending),
            "to_act": self.to_act(state),
            "honour_count": len(o.honour_ranks),
            "score": {
                "current": dict(sheet.current),
                "games": dict(sheet.rubber_games),
                "rubbers": sheet.rubbers_won,
                "credited": sheet.credited,
                "rubber_no": sheet.rubber_no,
                "game_no": sheet.game_no,
                "target": o.game_target,
                "match_rubbers_to_win": o.match_rubbers_to_win,
            },
            "options": o.dump(),
            "entries": [_copy(e) for e in sheet.entries],
            "result": _copy(state.result),
        }
        if seat is not None:
            v["hand"] = []
        return v

    # the sheet has no phase, and its result is copied deeply (dump/load: RulesFacade's)
    def is_over(self, state: ScoreState) -> bool:
        return state.over

    def result(self, state: ScoreState) -> JsonDict | None:
        result: JsonDict | None = _copy(state.result)
        return result

    def computer_action(
        self, view: JsonDict, legal: list[str], rng: random.Random, level: str = "", deadline: Deadline = NEVER
    ) -> str:
        # level: every game takes one (engine.base.Game); no computer plays a score sheet
        # nobody plays a score sheet by computer; a timer's "auto" move keeps the sheet as is
        for safe in ("cancel", "confirm"):
            if safe in legal:
                return safe
        return legal[0]

    # ------------------------------------------------------------------ apply
    def apply(self, state: ScoreState, seat: int | None, action: str) -> tuple[ScoreState, list[JsonDict]]:
        if not isinstance(action, str) or not action.strip():
            raise error("bad_syntax", action=action, detail="empty action")
        verb, *args = action.split()
        if verb in ("deal", "forfeit"):
            if seat is not None:
                raise error("system_only", verb=verb)
            if state.over:
                raise error("game_over")
            if verb == "deal":
                if args:
                    raise error("bad_syntax", action=action, detail="deal takes nothing here")
                if state.opened:
                    raise error("wrong_phase", verb="open the sheet again")
                s = state.clone()
                s.opened = True
                return s, [{"type": "opened"}]
            if len(args) != 1 or not args[0].isdigit() or int(args[0]) >= state.players:
                raise error("bad_syntax", action=action, detail="forfeit takes a seat number")
            s = state.clone()
            s.pending = None
            s.result = _result(s, forfeit=int(args[0]))
            return s, [{"type": "game_over", "result": s.result}]
        if verb not in ("tricks", "honours", "confirm", "cancel", "undo"):
            raise error("bad_syntax", action=action, detail=f"unknown verb {verb!r}")
        if seat is None:
            raise error("players_only", verb=verb)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
            raise error("bad_syntax", action=action, detail=f"no seat {seat!r}")
        if state.over:
            raise error("game_over")
        if not state.opened:
            raise error("wrong_phase", verb=verb)
        number = 0  # the argument of "tricks" and "honours"
        if verb in ("tricks", "honours"):
            if len(args) != 1 or not args[0].isdigit():
                raise error("bad_syntax", action=action, detail=f"{verb} takes a number")
            number = int(args[0])
        elif args:
            raise error("bad_syntax", action=action, detail=f"{verb} takes no arguments")
        p = state.pending
        if verb == "tricks":
            if p is not None:
                raise error("wrong_phase", verb="enter the tricks again (cancel first)")
            if number > 13:
                raise error("bad_entry", detail="there are 13 tricks")
            s = state.clone()
            s.pending = {"tricks": {"NS": number, "EW": 13 - number}}
            return s, [{"type": "pending", "seat": seat}]
        if verb == "honours":
            if p is None or "honours" in p:
                raise error("wrong_phase", verb="enter the honours")
            n = len(state.options.honour_ranks)
            if number not in honour_choices(state.options, p["tricks"]):
                raise error(
                    "bad_entry", detail=f"N–S cannot have {number} of {n} honours with {p['tricks']['NS']} tricks"
                )
            s = state.clone()
            s.pending = {"tricks": dict(p["tricks"]), "honours": {"NS": number, "EW": n - number}}
            return s, [{"type": "pending", "seat": seat}]
        if verb == "cancel":
            if p is None:
                raise error("wrong_phase", verb="cancel")
            s = state.clone()
            s.pending = None
            return s, [{"type": "pending", "seat": seat}]
        if verb == "undo":
            if p is not None:
                raise error("wrong_phase", verb="undo while an entry is being made")
            if not state.sheet.entries:
                raise error("nothing_to_undo")
            s = state.clone()
            s.sheet = Sheet.replay(state.options, state.sheet.entries[:-1])
            return s, [{"type": "undone", "seat": seat, "deal": len(state.sheet.entries)}]
        # confirm
        if p is None or "honours" not in p:
            raise error("wrong_phase", verb="confirm")
        sheet = Sheet.replay(state.options, state.sheet.entries)
        try:
            deal = sheet.add(p)
        except EntryError as exc:  # pragma: no cover - the choices were checked already
            raise error("bad_entry", detail=str(exc)) from None
        s = state.clone()
        s.sheet = sheet
        s.pending = None
        events: list[JsonDict] = [
            {
                "type": "deal_scored",
                "seat": seat,
                "deal": deal["n"],
                "entry": _copy(p),
                "written": {x: deal[x] for x in SIDES},
                "game_won": deal.get("game_won"),
                "rubber_won": deal.get("rubber_won"),
                **honours_not_written(deal, sheet.options),
            }
        ]
        if sheet.finished:
            s.result = _result(s)
            events.append({"type": "game_over", "result": s.result})
        return s, events


GAME = WhistScoreGame()
register(GAME)
