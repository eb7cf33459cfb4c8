"""Preferans scoring (rules §6.2, §6.3, §7): one pure function writes one hand onto
the pulka. The played engine, the score-only table (``preferans_score``) and
``cardbot score`` (``record.py``) all go through :func:`apply_entry`.

Seats are 0, 1, 2 (A, B, C), clockwise. All numbers are ``fractions.Fraction``;
JSON carries integers, or ``"12/5"`` strings for the rare scaled values.

A hand *entry* (what happened at the table), normalised::

    {"all_pass": True}
    {"declarer": 2, "number": 3, "igra": False,
     "defence": {0: "play", 1: "play"},      # play | pass | invite | invited
     "kontra": [0], "level": 1,              # K (who said kontra) and the level reached
     "tricks": {0: 2, 1: 2, 2: 6}}           # None when there was no play
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from fractions import Fraction
from typing import Any

from engine.jsondata import JsonDict
from engine.preferans_family.numbers import fnum

from .options import PreferansOptions

CONTRACTS = {"S": 2, "D": 3, "H": 4, "C": 5, "BETTEL": 6, "SANS": 7}
NAME_OF = {n: c for c, n in CONTRACTS.items()}
TRUMP_OF = {2: "S", 3: "D", 4: "H", 5: "C", 6: None, 7: None}
BETTEL, SANS = 6, 7
DECISIONS = ("play", "pass", "invite", "invited")
SEAT_LETTERS = "ABC"


class EntryError(ValueError):
    """An impossible hand entry; the message says what is wrong."""


def value(number: int, igra: bool) -> int:
    """§4: 2 × number with the talon, 2 × (number + 1) igra."""
    return 2 * (number + 1) if igra else 2 * number


def parse_fnum(v: Any) -> Fraction:
    if isinstance(v, bool):
        raise ValueError("not a number")
    if isinstance(v, (int, Fraction)):
        return Fraction(v)
    if isinstance(v, str):
        return Fraction(v)
    raise ValueError(f"not a number: {v!r}")


def shown(x: Fraction, rounding: str = "none") -> str:
    """Display form: ``-10``, ``12/5`` (or rounded half away from zero with ``int``)."""
    x = Fraction(x)
    if rounding == "int" and x.denominator != 1:
        n = abs(x)
        r = int(n + Fraction(1, 2))
        x = Fraction(r if x >= 0 else -r)
    s = str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
    return s.replace("-", "−")


def defenders(declarer: int) -> tuple[int, int]:
    """(D1, D2): D1 sits on the declarer's left (next clockwise), D2 on his right."""
    return (declarer + 1) % 3, (declarer + 2) % 3


# ------------------------------------------------------------------------------ the pulka
@dataclass(frozen=True)
class Pull:
    """The sheet: three contract columns, soups[writer][target], refe marks, hats."""

    bula: int
    contract: tuple[Fraction, ...]
    soups: tuple[tuple[Fraction, ...], ...]
    refe: tuple[int, ...] = (0, 0, 0)  # unused refe marks per player
    refe_used: tuple[int, ...] = (0, 0, 0)  # used (struck) refe marks per player
    refe_rounds: int = 0  # refe rounds granted in this pulka
    hats: tuple[str, ...] = ("", "", "")  # marks in order: "^" hat, "v" inverted hat
    rows: tuple[JsonDict, ...] = field(default_factory=tuple)  # one per written hand (JSON-able)
    finished: bool = False

    @classmethod
    def start(cls, bula: int) -> "Pull":
        b = Fraction(-bula)
        zero = Fraction(0)
        return cls(bula, (b, b, b), ((zero,) * 3,) * 3)

    @cached_property
    def total(self) -> Fraction:
        return sum(self.contract, Fraction(0))

    @cached_property
    def summary(self) -> JsonDict:
        """The public sheet as JSON (cached: a Pull never changes)."""
        return {
            "contract": [fnum(c) for c in self.contract],
            "soups": [[fnum(x) for x in r] for r in self.soups],
            "refe": list(self.refe),
            "refe_used": list(self.refe_used),
            "refe_rounds": self.refe_rounds,
            "hats": list(self.hats),
            "finished": self.finished,
            "settlement": [fnum(x) for x in settlement(self)],
        }

    def to_json(self) -> JsonDict:
        return {
            "bula": self.bula,
            "contract": [fnum(c) for c in self.contract],
            "soups": [[fnum(x) for x in row] for row in self.soups],
            "refe": list(self.refe),
            "refe_used": list(self.refe_used),
            "refe_rounds": self.refe_rounds,
            "hats": list(self.hats),
            "rows": [dict(r) for r in self.rows],
            "finished": self.finished,
        }

    @classmethod
    def from_json(cls, d: JsonDict) -> "Pull":
        return cls(
            int(d["bula"]),
            tuple(parse_fnum(c) for c in d["contract"]),
            tuple(tuple(parse_fnum(x) for x in row) for row in d["soups"]),
            tuple(d["refe"]),
            tuple(d["refe_used"]),
            int(d["refe_rounds"]),
            tuple(d["hats"]),
            tuple(dict(r) for r in d["rows"]),
            bool(d["finished"]),
        )


def settlement(pull: Pull) -> list[Fraction]:
    """§7: 10 × (column − mean) plus soups written minus soups suffered; sums to 0."""
    mean = pull.total / 3
    out = []
    for i in range(3):
        r = 10 * (pull.contract[i] - mean)
        for j in range(3):
            if j != i:
                r += pull.soups[i][j] - pull.soups[j][i]
        out.append(r)
    return out


def _grant_refe(pull: Pull, options: PreferansOptions) -> tuple[Pull, bool]:
    """§5.2: a refe round for everybody unless somebody is under the hat or the cap is reached."""
    if any(c >= 0 for c in pull.contract):
        return pull, False
    if options.max_refe is not None and pull.refe_rounds >= options.max_refe:
        return pull, False
    return replace(pull, refe=tuple(r + 1 for r in pull.refe), refe_rounds=pull.refe_rounds + 1), True


def _hats(
    before: tuple[Fraction, ...], after: tuple[Fraction, ...], hats: tuple[str, ...]
) -> tuple[tuple[str, ...], dict[int, str]]:
    new, marks = list(hats), {}
    for i in range(3):
        if before[i] < 0 <= after[i]:
            marks[i] = "^"
        elif after[i] < 0 <= before[i]:
            marks[i] = "v"
        if i in marks:
            new[i] += marks[i]
    return tuple(new), marks


# ------------------------------------------------------------------------------ checking
def participants(entry: JsonDict) -> list[int]:
    d = entry["declarer"]
    return [d] + [x for x in defenders(d) if entry["defence"][x] != "pass"]


def two_check(pull: Pull, entry: JsonDict, options: PreferansOptions) -> bool:
    """§5.6: a "two" (spades with the talon), no refe for the declarer, nobody kontra'd."""
    return (
        options.two_requires_kontra
        and entry["number"] == 2
        and not entry["igra"]
        and pull.refe[entry["declarer"]] == 0
        and not entry["kontra"]
    )


def normalise(pull: Pull, entry: JsonDict, options: PreferansOptions) -> JsonDict:
    """Check a hand entry against the rules and the sheet; return it normalised (a lone
    defender's kontra makes the passed defender his invited partner, §5.5).
    Raises :class:`EntryError`."""
    if pull.finished:
        raise EntryError("the game is already over (the contract columns sum to zero)")
    if entry.get("all_pass"):
        return {"all_pass": True}
    d = entry.get("declarer")
    if not isinstance(d, int) or isinstance(d, bool) or not 0 <= d < 3:
        raise EntryError("the declarer must be one of the three players")
    number = entry.get("number")
    if number not in NAME_OF:
        raise EntryError("unknown contract")
    igra = entry.get("igra", False)
    if not isinstance(igra, bool):
        raise EntryError("igra must be true or false")
    d1, d2 = defenders(d)
    defence = entry.get("defence") or {}
    if set(defence) - {d1, d2}:
        raise EntryError("the declarer cannot also be a defender")
    dec = {x: defence.get(x, "play" if number == BETTEL else None) for x in (d1, d2)}
    for x in (d1, d2):
        if dec[x] not in DECISIONS:
            raise EntryError(f"defence of {SEAT_LETTERS[x]} must be play, pass, invite or invited")
    kontra = entry.get("kontra") or []
    if isinstance(kontra, int):
        kontra = [kontra]
    kontra = sorted(set(kontra), key=lambda x: (x - d) % 3)
    level = entry.get("level", 1 if kontra else 0)
    if not isinstance(level, int) or isinstance(level, bool):
        raise EntryError("the kontra level must be a whole number")
    for x in kontra:
        if x not in (d1, d2):
            raise EntryError("only a defender can say kontra")
    # a lone defender who said kontra invites the passed one (§5.5)
    for x, y in ((d1, d2), (d2, d1)):
        if x in kontra and dec[x] == "play" and dec[y] == "pass":
            dec[x], dec[y] = "invite", "invited"
    pair = (dec[d1], dec[d2])
    if number == BETTEL and pair != ("play", "play"):
        raise EntryError("in bettel both defenders always play")
    valid = {
        ("play", "play"),
        ("play", "pass"),
        ("pass", "play"),
        ("pass", "pass"),
        ("invited", "invite"),
        ("invite", "invited"),
    }
    if pair not in valid:
        raise EntryError(f"impossible defence {pair[0]}/{pair[1]}")
    if pair == ("invite", "invited") and d1 not in kontra:
        raise EntryError("the first defender can only invite by saying kontra alone")
    for x in kontra:
        if dec[x] not in ("play", "invite"):
            raise EntryError(f"{SEAT_LETTERS[x]} did not play, so cannot kontra")
    if kontra:
        cap = options.kontra_cap
        if level < 1 or (cap is not None and level > cap):
            raise EntryError(f"kontra level must be 1 to {cap if cap is not None else 'any'}")
    elif level != 0:
        raise EntryError("a kontra level without anybody saying kontra")
    out = {"declarer": d, "number": number, "igra": igra, "defence": dec, "kontra": kontra, "level": level}
    no_play = pair == ("pass", "pass") or two_check(pull, out, options)
    tricks = entry.get("tricks")
    if no_play:
        if tricks is not None:
            raise EntryError(
                "this hand was not played (both defenders passed, or an unkontra'd two): tricks must be null"
            )
        out["tricks"] = None
        return out
    if not isinstance(tricks, dict):
        raise EntryError("tricks are missing")
    parts = participants(out)
    t = {}
    for x in range(3):
        v = tricks.get(x, 0)
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise EntryError("tricks must be whole numbers 0 to 10")
        if x not in parts and v:
            raise EntryError(f"{SEAT_LETTERS[x]} did not play and cannot have tricks")
        t[x] = v
    total = sum(t.values())
    dt = t[d]
    ds = total - dt
    if total > 10:
        raise EntryError(f"{total} tricks: there are only 10")
    if number == BETTEL:
        if dt == 0 and total != 10:
            raise EntryError("a made bettel is played to the end: the tricks must sum to 10")
        if dt > 1:
            raise EntryError("bettel stops at the declarer's first trick")
    else:
        if dt >= 6 and total != 10:
            raise EntryError("a made contract is played to the end: the tricks must sum to 10")
        if dt < 6 and ds != 5:
            raise EntryError("play stops when the defenders take their fifth trick: they must have 5")
    out["tricks"] = t
    return out


# ------------------------------------------------------------------------------ writing
def apply_entry(pull: Pull, entry: JsonDict, options: PreferansOptions) -> tuple[Pull, JsonDict]:
    """Write one hand (§5.2, §5.6, §6.2, §6.3). ``entry`` must come from :func:`normalise`
    (the engine builds valid ones). Returns the new sheet and the JSON row describing
    what was written (also appended to ``pull.rows``)."""
    if entry.get("all_pass"):
        new, granted = _grant_refe(pull, options)
        row: JsonDict = {"type": "all_pass", "refe": granted}
        return replace(new, rows=pull.rows + (row,)), row
    d, number, igra = entry["declarer"], entry["number"], entry["igra"]
    d1, d2 = defenders(d)
    dec, kontra, level, tricks = entry["defence"], entry["kontra"], entry["level"], entry["tricks"]
    v = value(number, igra)
    r = 2 if pull.refe[d] > 0 else 1
    big_m = 2**level
    row = {
        "type": "hand",
        "declarer": d,
        "number": number,
        "igra": igra,
        "defence": {str(k): x for k, x in dec.items()},
        "kontra": list(kontra),
        "level": level,
        "value": v,
        "refe_used": False,
        "tricks": None if tricks is None else [tricks[x] for x in range(3)],
    }
    if tricks is None and two_check(pull, entry, options) and options.slovenian_two_refe:
        new, granted = _grant_refe(pull, options)
        row.update(outcome="two_nothing", refe=granted, contract={}, soups={}, scale=None, hats={}, made=None)
        return replace(new, rows=pull.rows + (row,)), row

    def m_of(x: int) -> int:
        return big_m if (x in kontra or options.kontra_scope == "all") else 1

    soups: dict[tuple[int, int], Fraction] = {}
    penalties: dict[int, Fraction] = {}
    if tricks is None:
        made = True
        e = Fraction(v * r)
        row["outcome"] = "no_play"
    else:
        dt = tricks[d]
        made = dt == 0 if number == BETTEL else dt >= 6
        e = Fraction(v * r * big_m) * (1 if made else -1)
        row["outcome"] = "made" if made else "failed"
        pair_total = tricks[d1] + tricks[d2]
        for x in (d1, d2):
            role = dec[x]
            if role in ("pass", "invited"):
                continue
            other = d2 if x == d1 else d1
            m = m_of(x)
            if number == BETTEL:
                if not made:
                    soups[(x, d)] = Fraction(5 * v * r * m)
            else:
                took = pair_total if role == "invite" else tricks[x]
                if took:
                    soups[(x, d)] = Fraction(took * v * r * m)
            if x in kontra:
                penal = made
            elif number == BETTEL:
                penal = False
            elif role == "invite":
                penal = pair_total < 4
            elif dec[other] == "pass":
                penal = tricks[x] < options.lone_defender_quota
            else:
                penal = pair_total < 4 and tricks[x] < 2
            if penal:
                penalties[x] = Fraction(v * r * m)
    total_before = pull.total
    p = sum(penalties.values(), Fraction(0))
    scale = None
    if e > 0 and total_before + e - p > 0:
        e_written = p - total_before
        scale = e_written / e
        soups = {k: s * scale for k, s in soups.items()}
        e = e_written
    contract = list(pull.contract)
    contract[d] += e
    for x, pen in penalties.items():
        contract[x] -= pen
    soup_rows = [list(row_) for row_ in pull.soups]
    for (w, tgt), s in soups.items():
        soup_rows[w][tgt] += s
    hats, marks = _hats(pull.contract, tuple(contract), pull.hats)
    refe, used = list(pull.refe), list(pull.refe_used)
    if r == 2:
        refe[d] -= 1
        used[d] += 1
        row["refe_used"] = True
    finished = sum(contract, Fraction(0)) == 0
    row.update(
        made=made,
        r=r,
        multiplier=big_m,
        contract={str(d): fnum(e), **{str(x): fnum(-pen) for x, pen in penalties.items()}},
        soups={f"{w}{tgt}": fnum(s) for (w, tgt), s in soups.items()},
        scale=fnum(scale) if scale is not None else None,
        hats={str(k): m for k, m in marks.items()},
        finished=finished,
    )
    new = replace(
        pull,
        contract=tuple(contract),
        soups=tuple(tuple(x) for x in soup_rows),
        refe=tuple(refe),
        refe_used=tuple(used),
        hats=hats,
        finished=finished,
        rows=pull.rows + (row,),
    )
    return new, row


def apply_forfeit(pull: Pull, seat: int) -> tuple[Pull, JsonDict]:
    """A player ran out of time: he is written −bula in his contract column, and the
    game is then settled as an interrupted one (§7)."""
    contract = list(pull.contract)
    contract[seat] -= pull.bula
    hats, marks = _hats(pull.contract, tuple(contract), pull.hats)
    row = {
        "type": "forfeit",
        "seat": seat,
        "contract": {str(seat): fnum(-pull.bula)},
        "hats": {str(k): m for k, m in marks.items()},
    }
    return replace(pull, contract=tuple(contract), hats=hats, rows=pull.rows + (row,)), row
