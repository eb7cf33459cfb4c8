"""Whist scoring (rules §5–§6), shared by the played game, the score-only sheet and
``cardbot score`` (engine/games/whist/record.py).

A deal enters the sheet as an *entry*, the same dict as a deal of a score record::

    {"tricks": {"NS": 9, "EW": 4}, "honours": {"NS": 3, "EW": 2}}

``honours`` counts the trump honours of each side: in its won tricks (``in_tricks``)
or in its two hands as dealt (``held``). :class:`Sheet` adds entries one by one and
keeps everything the sheet shows: the per-deal points, the games, the rubbers and the
match. It is rebuilt from the entries (``Sheet.replay``), so states dump only entries.
"""

from __future__ import annotations

from typing import Any

from engine.jsondata import JsonDict

from .options import WhistOptions

SIDES = ("NS", "EW")
TRICKS = 13


def other(side: str) -> str:
    return "EW" if side == "NS" else "NS"


def side_of(seat: int) -> str:
    """Seats 0..3 = N, E, S, W: N–S are partners, so are E–W."""
    return SIDES[seat % 2]


class EntryError(ValueError):
    """An entry that cannot be written: malformed or impossible."""


def _pair(value: Any, what: str) -> dict[str, int]:
    if not isinstance(value, dict) or set(value) != set(SIDES):
        raise EntryError(f"{what} must be an object with NS and EW")
    out = {}
    for side in SIDES:
        n = value[side]
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise EntryError(f"{what} of {side} must be a whole number ≥ 0, not {n!r}")
        out[side] = n
    return out


def check_entry(options: WhistOptions, entry: Any) -> JsonDict:
    """The entry in normal form, or ``EntryError`` saying what is wrong."""
    if not isinstance(entry, dict):
        raise EntryError("a deal is an object with tricks and honours")
    if "tricks" not in entry:
        raise EntryError("tricks are missing")
    if "honours" not in entry:
        raise EntryError("honours are missing")
    tricks = _pair(entry["tricks"], "tricks")
    if tricks["NS"] + tricks["EW"] != TRICKS:
        raise EntryError(f"tricks {tricks['NS']} + {tricks['EW']} are not 13")
    honours = _pair(entry["honours"], "honours")
    n = len(options.honour_ranks)
    if honours["NS"] + honours["EW"] != n:
        raise EntryError(f"honours {honours['NS']} + {honours['EW']} are not {n}")
    if options.honours_mode == "in_tricks":
        for side in SIDES:
            if honours[side] > 4 * tricks[side]:
                raise EntryError(f"{side} cannot hold {honours[side]} honours in {tricks[side]} trick(s)")
    return {"tricks": tricks, "honours": honours}


def trick_points(options: WhistOptions, tricks: dict[str, int]) -> tuple[str, int]:
    """§5.1: the side with 7+ tricks and its points (exactly one side scores)."""
    side = "NS" if tricks["NS"] > 6 else "EW"
    return side, options.points_per_odd_trick * (tricks[side] - 6)


def honour_points(options: WhistOptions, honours: dict[str, int]) -> tuple[str | None, int]:
    """§5.2: the side whose honours score, and how much (None, 0 when nobody does)."""
    for side in SIDES:
        points = options.honours_points.get(honours[side], 0)
        if points:
            return side, points
    return None, 0


def game_value(options: WhistOptions, losers: int) -> int:
    """§5.3 step 3: 3 (triple) when the losers have nothing, 2 below ``double_below``."""
    if losers <= 0 and options.triple_at_zero:
        return 3
    if losers < options.double_below:
        return 2
    return 1


class Sheet:
    """The score sheet of one match, fed one entry per deal."""

    def __init__(self, options: WhistOptions) -> None:
        self.options = options
        self.entries: list[JsonDict] = []
        self.deals: list[JsonDict] = []  # per deal: what it wrote (see add)
        self.games: list[JsonDict] = []  # finished games
        self.rubbers: list[JsonDict] = []  # finished rubbers
        self.current = {"NS": 0, "EW": 0}  # the game scores now
        self.rubber_games = {"NS": 0, "EW": 0}  # games won in the running rubber
        self.rubber_values = {"NS": 0, "EW": 0}  # their values
        self.rubber_deals = 0  # deals written in the running rubber
        self.winner: str | None = None  # the side that won the match

    @classmethod
    def replay(cls, options: WhistOptions, entries: list[JsonDict]) -> "Sheet":
        sheet = cls(options)
        for entry in entries:
            sheet.add(entry)
        return sheet

    # ------------------------------------------------------------------ numbers
    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def rubbers_won(self) -> dict[str, int]:
        won = {"NS": 0, "EW": 0}
        for r in self.rubbers:
            won[r["winner"]] += 1
        return won

    @property
    def credited(self) -> dict[str, int]:
        total = {"NS": 0, "EW": 0}
        for r in self.rubbers:
            for side in SIDES:
                total[side] += r["credited"][side]
        return total

    @property
    def balance(self) -> dict[str, int]:
        """§6 settlement: what each side wins (NS + EW = 0); unfinished rubbers count nothing."""
        c = self.credited
        return {"NS": c["NS"] - c["EW"], "EW": c["EW"] - c["NS"]}

    def players(self) -> list[int]:
        """Each seat (N, E, S, W) wins his side's balance from his counterpart."""
        b = self.balance
        return [b[side_of(seat)] for seat in range(4)]

    @property
    def game_no(self) -> int:
        """1-based number of the running game inside the running rubber."""
        return self.rubber_games["NS"] + self.rubber_games["EW"] + 1

    @property
    def rubber_no(self) -> int:
        return len(self.rubbers) + 1

    # ------------------------------------------------------------------ writing
    def add(self, entry: Any) -> JsonDict:
        """Write one deal; returns the deal record (also appended to ``deals``).
        Raises ``EntryError`` (nothing changes) for a bad entry or a finished match."""
        if self.finished:
            raise EntryError("the match is already over")
        o = self.options
        entry = check_entry(o, entry)
        start = dict(self.current)
        t_side, t_points = trick_points(o, entry["tricks"])
        h_side, h_points = honour_points(o, entry["honours"])
        barred = h_side is not None and o.honours_barred_from is not None and start[h_side] >= o.honours_barred_from
        if barred:
            h_points_now = 0
        else:
            h_points_now = h_points
        written = {"NS": 0, "EW": 0}
        tricks_w = {"NS": 0, "EW": 0}
        honours_w = {"NS": 0, "EW": 0}
        dropped = 0
        scores = dict(start)
        # 1. tricks first
        tricks_w[t_side] = t_points
        scores[t_side] += t_points
        game_winner = t_side if scores[t_side] >= o.game_target else None
        # 2. honours
        if h_side is not None and h_points_now:
            if game_winner is None or h_side == game_winner or o.honours_after_game_out:
                honours_w[h_side] = h_points_now
                scores[h_side] += h_points_now
                if game_winner is None and scores[h_side] >= o.game_target:
                    game_winner = h_side
            else:
                dropped = h_points_now
        for side in SIDES:
            written[side] = tricks_w[side] + honours_w[side]
        deal = {
            "n": len(self.deals) + 1,
            "NS": written["NS"],
            "EW": written["EW"],
            "tricks": tricks_w,
            "honours": honours_w,
            "scores": dict(scores),
            "rubber": len(self.rubbers) + 1,
            "game": self.game_no,
            "entry": entry,
        }
        if barred:
            deal["barred"] = h_side
        if dropped:
            deal["dropped"] = {"side": h_side, "points": dropped}
        self.entries.append(entry)
        self.deals.append(deal)
        self.rubber_deals += 1
        if game_winner is None:
            self.current = scores
            return deal
        # 3. the game, and maybe the rubber and the match
        loser = other(game_winner)
        value = game_value(o, scores[loser])
        game = {
            "winner": game_winner,
            "value": value,
            "points": dict(scores),
            "rubber": len(self.rubbers) + 1,
            "n": self.game_no,
            "deal": deal["n"],
        }
        self.games.append(game)
        deal["game_won"] = game
        self.current = {"NS": 0, "EW": 0}
        self.rubber_games[game_winner] += 1
        self.rubber_values[game_winner] += value
        if self.rubber_games[game_winner] < 2:
            return deal
        short = self.rubber_games[loser] == 0
        premium = o.rubber_premium["2-0" if short else "2-1"]
        total = dict(self.rubber_values)
        total[game_winner] += premium
        credited = {game_winner: total[game_winner] - (total[loser] if o.deduct_loser_games else 0), loser: 0}
        rubber = {
            "complete": True,
            "winner": game_winner,
            "premium": premium,
            "games": dict(self.rubber_games),
            "total": total,
            "credited": {s: credited[s] for s in SIDES},
            "n": len(self.rubbers) + 1,
            "deals": self.rubber_deals,
            "deal": deal["n"],
        }
        self.rubbers.append(rubber)
        deal["rubber_won"] = rubber
        self.rubber_games = {"NS": 0, "EW": 0}
        self.rubber_values = {"NS": 0, "EW": 0}
        self.rubber_deals = 0
        target = o.match_rubbers_to_win
        if target is not None and self.rubbers_won[game_winner] >= target:
            self.winner = game_winner
            deal["match_won"] = game_winner
        return deal

    def running_rubber(self) -> JsonDict | None:
        """The unfinished rubber, when a deal of it has been written."""
        if not self.rubber_deals:
            return None
        return {
            "complete": False,
            "games": dict(self.rubber_games),
            "total": dict(self.rubber_values),
            "n": len(self.rubbers) + 1,
            "deals": self.rubber_deals,
        }

    # ------------------------------------------------------------------ output
    def score(self) -> JsonDict:
        """The JSON of ``cardbot score`` (records.md, whist)."""
        rubbers = [dict(r) for r in self.rubbers]
        running = self.running_rubber()
        if running:
            rubbers.append(running)
        return {
            "game": "whist",
            "deals": [{k: v for k, v in d.items() if k not in ("entry", "game_won", "rubber_won")} for d in self.deals],
            "games": [dict(g) for g in self.games],
            "rubbers": rubbers,
            "current": dict(self.current),
            "match": {
                "rubbers": self.rubbers_won,
                "credited": self.credited,
                "balance": self.balance,
                "players": dict(zip("NESW", self.players())),
                "finished": self.finished,
                "winner": self.winner,
            },
        }
