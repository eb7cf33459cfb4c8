"""Rubber bridge scoring (rules §5–§7): one deal's points, the We/They sheet of a rubber,
honours from the hands as dealt, and the settlement. Pure functions and plain data,
shared by the played engine, the score-only table and ``cardbot score``.

Seats 0..3 are N, E, S, W; sides are "NS" (We) and "EW" (They).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.jsondata import JsonDict

SEATS = "NESW"
STRAINS = ("C", "D", "H", "S", "NT")
SIDES = ("NS", "EW")
HONOUR_RANKS = "AKQJT"


def side_of(seat: int) -> str:
    return "NS" if seat % 2 == 0 else "EW"


def other(side: str) -> str:
    return "EW" if side == "NS" else "NS"


@dataclass(frozen=True)
class Contract:
    level: int  # 1..7
    strain: str  # C D H S NT
    doubling: int  # 0 undoubled, 1 doubled (X), 2 redoubled (XX)

    def __str__(self) -> str:
        return f"{self.level}{self.strain}{'X' * self.doubling}"

    @property
    def need(self) -> int:
        return 6 + self.level

    @property
    def trump(self) -> str | None:
        return None if self.strain == "NT" else self.strain

    def to_dict(self) -> JsonDict:
        return {"level": self.level, "strain": self.strain, "doubling": self.doubling}

    @classmethod
    def from_dict(cls, data: JsonDict) -> "Contract":
        return cls(int(data["level"]), data["strain"], int(data["doubling"]))


def parse_contract(text: Any) -> Contract:
    """``"4S"``, ``"3NT"``, ``"4SX"``, ``"6HXX"`` -> Contract; ValueError otherwise."""
    if not isinstance(text, str) or len(text) < 2 or not text[0].isdigit():
        raise ValueError(f"unknown contract {text!r}")
    level = int(text[0])
    rest = text[1:]
    doubling = 0
    if rest.endswith("XX"):
        doubling, rest = 2, rest[:-2]
    elif rest.endswith("X"):
        doubling, rest = 1, rest[:-1]
    if not 1 <= level <= 7 or rest not in STRAINS:
        raise ValueError(f"unknown contract {text!r}")
    return Contract(level, rest, doubling)


# ------------------------------------------------------------------------- one deal
def trick_points(contract: Contract) -> int:
    """§5.1: the contracted tricks' value below the line (made contracts only)."""
    level, strain = contract.level, contract.strain
    if strain in ("C", "D"):
        base = 20 * level
    elif strain in ("H", "S"):
        base = 30 * level
    else:
        base = 40 + 30 * (level - 1)
    return base * (1, 2, 4)[contract.doubling]


def undertrick_points(contract: Contract, down: int, vulnerable: bool, table: JsonDict) -> int:
    """§5.3: the penalty for ``down`` undertricks."""
    vul = "v" if vulnerable else "nv"
    if contract.doubling == 0:
        return int(down * table["undertrick_undoubled"][vul])
    steps = table["undertrick_doubled"][vul]
    doubled = sum(steps[min(i, len(steps) - 1)] for i in range(down))
    return int(doubled * (table["redouble_factor"] if contract.doubling == 2 else 1))


def deal_items(contract: Contract, tricks: int, vulnerable: bool, table: JsonDict) -> list[JsonDict]:
    """The entries one played deal writes (honours aside), in the order of §5.6 step 1.
    Each item: ``{"to": "declarer"|"defenders", "line": "below"|"above", "kind", "points"}``."""
    if not 0 <= tricks <= 13:
        raise ValueError(f"tricks must be 0..13, not {tricks}")
    vul = "v" if vulnerable else "nv"
    need = contract.need
    if tricks < need:
        return [
            {
                "to": "defenders",
                "line": "above",
                "kind": "undertricks",
                "points": undertrick_points(contract, need - tricks, vulnerable, table),
            }
        ]
    items = [{"to": "declarer", "line": "below", "kind": "contract", "points": trick_points(contract)}]
    over = tricks - need
    if over:
        if contract.doubling == 0:
            each = 20 if contract.strain in ("C", "D") else 30
        else:
            each = table["overtrick_doubled"][vul] * (table["redouble_factor"] if contract.doubling == 2 else 1)
        items.append({"to": "declarer", "line": "above", "kind": "overtricks", "points": over * each})
    if contract.doubling:
        items.append(
            {
                "to": "declarer",
                "line": "above",
                "kind": "insult",
                "points": table["insult"]["X" if contract.doubling == 1 else "XX"],
            }
        )
    if contract.level == 6:
        items.append({"to": "declarer", "line": "above", "kind": "small_slam", "points": table["small_slam"][vul]})
    elif contract.level == 7:
        items.append({"to": "declarer", "line": "above", "kind": "grand_slam", "points": table["grand_slam"][vul]})
    return items


def honours_held(strain: str, hands: list[list[str]]) -> tuple[int, int] | None:
    """§5.5 from the hands as dealt: ``(seat, held)`` of the one hand that qualifies —
    4 or 5 trump honours in a suit contract, all 4 aces in NT — or None."""
    for seat, hand in enumerate(hands):
        if strain == "NT":
            if sum(1 for c in hand if c[0] == "A") == 4:
                return seat, 4
        else:
            held = sum(1 for c in hand if c[1] == strain and c[0] in HONOUR_RANKS)
            if held >= 4:
                return seat, held
    return None


def honours_points(strain: str, held: int, table: JsonDict) -> int:
    """Points for ``held`` honours in one hand (4/5 trump honours; 4 aces in NT)."""
    if strain == "NT":
        if held != 4:
            raise ValueError("in NT only all 4 aces score")
        return int(table["honours"]["four_aces_nt"])
    if held == 4:
        return int(table["honours"]["four_trump"])
    if held == 5:
        return int(table["honours"]["five_trump"])
    raise ValueError("honours are 4 or 5 trump honours")


def units(diff: int, rounding: str) -> int | Fraction:
    """§7.3: the settlement units for a point difference ``diff`` (signed)."""
    sign = -1 if diff < 0 else 1
    d = abs(diff)
    if rounding == "half_up":
        return sign * ((d + 50) // 100)
    if rounding == "down":
        return sign * (d // 100)
    value = Fraction(diff, 100)
    return int(value) if value.denominator == 1 else value


def number_json(value: int | Fraction) -> int | str:
    """An integer, or a fraction as the string ``"a/b"`` (records.md)."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return value


# ------------------------------------------------------------------------- the sheet
class Sheet:
    """The We/They sheet of ONE rubber. ``entries`` are what is written, in order:
    ``{"deal": n, "side", "line": "above"|"below", "kind", "points", "game": g}`` where
    ``g`` is the index of the game block a below-the-line entry belongs to."""

    __slots__ = (
        "table",
        "chicago",
        "entries",
        "games",
        "game",
        "below",
        "deals",
        "redeals",
        "complete",
        "winner",
        "unfinished",
        "_public",
    )

    def __init__(self, table: JsonDict) -> None:
        self.table = table
        self.chicago: JsonDict | None = table.get("chicago")  # §7.8: a round of four deals
        self.entries: list[JsonDict] = []
        self.games = {"NS": 0, "EW": 0}
        self.game = 0  # index of the current game block
        self.below = {"NS": 0, "EW": 0}  # below-the-line total of the current game
        self.deals = 0  # deals written, passed-out ones included
        self.redeals = 0  # Chicago by the laws: passed-out deals, redealt, not of the four
        self.complete = False  # a side won two games
        self.winner: str | None = None  # the side that won two games (or the forfeit)
        self.unfinished = False  # settled before the end (§7.6 / a forfeit)
        self._public: JsonDict | None = None  # cache of public(); every write clears it

    # ---- reading
    def round_deals(self) -> int:
        """The deals that count towards a Chicago round (by the laws a passed-out deal is
        redealt and is not one of the four); in a rubber every deal written."""
        return self.deals - self.redeals

    def redeals_passed_out(self) -> bool:
        """Chicago by the laws: the same dealer deals again after four passes (§7.8)."""
        return self.chicago is not None and self.chicago["scheme"] == "laws"

    def vulnerable(self, side: str) -> bool:
        """Rubber: after a game won. Chicago (§7.8), by the deal of the round: the first
        none, the second and third the dealer's side, the fourth both."""
        if self.chicago is None:
            return self.games[side] >= 1
        played = self.round_deals()
        position = played % self.chicago["deals"]
        if position == 0:
            return False
        if position == self.chicago["deals"] - 1:
            return True
        return side_of((self.chicago["first_dealer"] + played) % 4) == side

    def vul(self) -> dict[str, bool]:
        return {s: self.vulnerable(s) for s in SIDES}

    def total(self, side: str, line: str | None = None) -> int:
        return sum(e["points"] for e in self.entries if e["side"] == side and (line is None or e["line"] == line))

    def totals(self) -> dict[str, int]:
        return {s: self.total(s) for s in SIDES}

    def deal_points(self, deal: int) -> dict[str, dict[str, int]]:
        """What deal ``deal`` wrote for each side: {"NS": {"above", "below"}, "EW": ...}."""
        out = {s: {"above": 0, "below": 0} for s in SIDES}
        for e in self.entries:
            if e["deal"] == deal:
                out[e["side"]][e["line"]] += e["points"]
        return out

    def settlement(self, rounding: str) -> dict[str, Any]:
        """§7: the difference and each side's units (a player of a side wins/loses that)."""
        totals = self.totals()
        diff = totals["NS"] - totals["EW"]
        k = units(diff, rounding)
        return {"diff": diff, "units": {"NS": k, "EW": -k}}

    # ---- writing
    def _write(self, side: str, line: str, kind: str, points: int) -> JsonDict:
        self._public = None
        entry = {"deal": self.deals, "side": side, "line": line, "kind": kind, "points": points, "game": self.game}
        self.entries.append(entry)
        return entry

    def add_passed_out(self) -> list[JsonDict]:
        if self.complete:
            raise ValueError("the rubber is over")
        self.deals += 1
        self._public = None
        if self.redeals_passed_out():  # redealt by the same dealer: not one of the four
            self.redeals += 1
        elif self.chicago is not None:  # the clubs' scheme: a passed-out deal is one of the four
            self.game += 1
            self._end_of_round()
        return []

    def add_deal(
        self, declarer: int, contract: Contract, tricks: int, honours: tuple[str, int] | None = None
    ) -> list[JsonDict]:
        """Write one played deal (§5.6). ``honours`` = (side, held) or None. Returns the
        entries written (the game premium and the rubber bonus included)."""
        if self.complete:
            raise ValueError("the rubber is over")
        side = side_of(declarer)
        vulnerable = self.vulnerable(side)
        self.deals += 1
        self._public = None
        start = len(self.entries)
        for item in deal_items(contract, tricks, vulnerable, self.table):
            to = side if item["to"] == "declarer" else other(side)
            self._write(to, item["line"], item["kind"], item["points"])
            if item["line"] == "below":
                self.below[to] += item["points"]
        if honours is not None:
            hside, held = honours
            self._write(hside, "above", "honours", honours_points(contract.strain, held, self.table))
        if self.chicago is not None:
            made = any(e["line"] == "below" for e in self.entries[start:])
            self._chicago_bonus(side, vulnerable, made)
            return self.entries[start:]
        if self.below[side] >= self.table["game_threshold"]:
            self.games[side] += 1
            self.below = {"NS": 0, "EW": 0}
            self.game += 1
            if self.table["per_game_bonus"]:
                self._write(side, "above", "game_bonus", self.table["per_game_bonus"])
            if self.games[side] == 2:
                self._finish(side)
        return self.entries[start:]

    def _chicago_bonus(self, side: str, vulnerable: bool, made: bool) -> None:
        """§7.8 after a deal of ``side``'s contract (``made``: it wrote trick points). By the
        laws, part-scores carry over: the side whose trick points reach a game gets 300 / 500
        by its vulnerability on this deal and both part-scores are wiped; a part-score on
        the fourth deal that completes no game gets 100, any other none. The clubs' scheme:
        each deal alone, its own game (300 / 500) or part-score (50), nothing carried."""
        chicago = self.chicago
        assert chicago is not None, "a Chicago sheet"
        game = self.below[side] >= self.table["game_threshold"]
        if game:
            self.games[side] += 1
            self._write(side, "above", "chicago_game", chicago["game"]["v" if vulnerable else "nv"])
        elif made:
            fourth = self.round_deals() % chicago["deals"] == 0
            premium = chicago["fourth_deal_part_score" if fourth else "part_score"]
            if premium:
                self._write(side, "above", "chicago_part", premium)
        if game or chicago["scheme"] == "each_deal":
            self.below = {"NS": 0, "EW": 0}
            self.game += 1
        self._end_of_round()

    def _end_of_round(self) -> None:
        """Chicago: the round is over after its four deals; the higher total wins it."""
        if self.chicago is None or self.round_deals() < self.chicago["deals"]:
            return
        self.complete = True
        totals = self.totals()
        if totals["NS"] != totals["EW"]:
            self.winner = "NS" if totals["NS"] > totals["EW"] else "EW"

    def _finish(self, side: str) -> None:
        bonus = self.table["rubber_bonus"]["2-0" if self.games[other(side)] == 0 else "2-1"]
        self._write(side, "above", "rubber_bonus", bonus)
        self.complete = True
        self.winner = side

    def stop(self, bonus: bool) -> list[JsonDict]:
        """§7.6: play stops mid-rubber. With ``bonus``: 300 to a side with the only game,
        100 to a side with the only partscore of the unfinished game."""
        if self.complete:
            raise ValueError("the rubber is over")
        start = len(self.entries)
        if bonus and self.chicago is None:  # a Chicago deal never leaves a game unfinished
            ns, ew = self.games["NS"], self.games["EW"]
            if ns != ew and min(ns, ew) == 0:
                self._write("NS" if ns else "EW", "above", "unfinished_game", 300)
            pns, pew = self.below["NS"], self.below["EW"]
            if (pns > 0) != (pew > 0):
                self._write("NS" if pns else "EW", "above", "unfinished_part", 100)
        self.unfinished = True
        self._public = None
        return self.entries[start:]

    def forfeit(self, side: str) -> list[JsonDict]:
        """``side`` abandons the rubber (a turn timer ran out): the other side is written
        the rubber bonus it would get by winning now (700, or 500 if ``side`` has a game)."""
        if self.complete:
            raise ValueError("the rubber is over")
        start = len(self.entries)
        winner = other(side)
        bonus = self.table["rubber_bonus"]["2-0" if self.games[side] == 0 else "2-1"]
        self._write(winner, "above", "rubber_bonus", bonus)
        self.winner = winner
        self.unfinished = True
        self._public = None
        return self.entries[start:]

    # ---- serialisation
    def dump(self) -> JsonDict:
        return {
            "entries": [dict(e) for e in self.entries],
            "games": dict(self.games),
            "game": self.game,
            "below": dict(self.below),
            "deals": self.deals,
            "complete": self.complete,
            "winner": self.winner,
            "unfinished": self.unfinished,
            # only once a Chicago deal was passed out: older snapshots dump as they were
            **({"redeals": self.redeals} if self.redeals else {}),
        }

    @classmethod
    def load(cls, data: JsonDict, table: JsonDict) -> "Sheet":
        s = cls(table)
        s.entries = [dict(e) for e in data["entries"]]
        s.games = dict(data["games"])
        s.game = data["game"]
        s.below = dict(data["below"])
        s.deals = data["deals"]
        s.redeals = data.get("redeals", 0)  # a snapshot from before the laws' redeal
        s.complete = data["complete"]
        s.winner = data["winner"]
        s.unfinished = data["unfinished"]
        s._public = None
        return s

    def clone(self) -> "Sheet":
        return Sheet.load(self.dump(), self.table)

    def public(self) -> JsonDict:
        """What a view shows of the sheet (no cards in it). Callers must not mutate it."""
        if self._public is None:
            self._public = {
                **self.dump(),
                "vulnerable": self.vul(),
                "chicago": self.chicago is not None,
                # Chicago: "laws" (part-scores carry over) or "each_deal"; None in a rubber
                "chicago_scoring": None if self.chicago is None else self.chicago["scheme"],
                # Chicago: the deal of the round to come (1-4), None in a rubber
                "chicago_deal": None if self.chicago is None else self.round_deals() % self.chicago["deals"] + 1,
                "totals": self.totals(),
                "above": {s: self.total(s, "above") for s in SIDES},
                "below_total": {s: self.total(s, "below") for s in SIDES},
            }
        return self._public
