"""``cardbot score`` for Тысяча (docs/rules/records.md §6): a paper game's deals in, the
sheet out, scored by the same :func:`~engine.games.thousand.scoring.score_deal` as a
played deal. Players are the letters A B C (D), clockwise; A deals first unless
``first_dealer`` says otherwise.

Input::

    {"game": "thousand", "players": 3, "options": {...},
     "deals": [{"declarer": "A", "contract": 120, "made": true, "points": {"B": 20, "C": "bolt"}},
               {"declarer": "B", "contract": 100, "conceded": true}, ...]}

``points``: each opponent's card points plus its marriages as counted (the sheet rounds
them); ``"bolt"``: it took no trick. An opponent on the бочка, whose points do not count,
may be left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import product
from typing import Any

from engine.errors import EngineError
from engine.jsondata import JsonDict
from engine.options import record_options
from engine.score import ScoreError

from .cards import MARRIAGE
from .options import ThousandOptions, parse_options
from .rules import MAX_BID
from .scoring import game_result, score_deal
from .sheet import sheet_text

# the shortest valid record: a sheet with nothing written yet (tests/test_hostile_cli.py)
EMPTY = {"game": "thousand", "deals": []}
LETTERS = "ABCD"
DEAL_KEYS = frozenset({"declarer", "contract", "made", "conceded", "dark", "points"})
BOLT = "bolt"


class DealError(ValueError):
    """A deal that cannot be written on the sheet as it stands; the message says why."""


@dataclass
class Played:
    """A sheet after its deals: per seat the totals, болты and бочка tries, and the lines."""

    options: ThousandOptions
    players: int
    first_dealer: int = 0
    entries: list[JsonDict] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    bolts: list[int] = field(default_factory=list)
    barrel: list[int | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.totals:
            self.totals = [0] * self.players
            self.bolts = [0] * self.players
            self.barrel = [None] * self.players

    @property
    def letters(self) -> str:
        return LETTERS[: self.players]

    @property
    def over(self) -> bool:
        return max(self.totals) >= self.options.target

    @property
    def dealer(self) -> int:
        """Who deals the next deal: the deal passes to the left (rules §1.4)."""
        return (self.first_dealer + len(self.entries)) % self.players

    @property
    def active(self) -> list[int]:
        """The three dealt in next, from the dealer's left (the forehand first)."""
        n, dealer = self.players, self.dealer
        order = [(dealer + k) % n for k in range(1, n + 1)]
        return [p for p in order if not (n == 4 and p == dealer)][:3]

    def copy(self) -> Played:
        """A sheet to write on, this one left as it is (the entries themselves are never changed)."""
        return replace(
            self, entries=list(self.entries), totals=list(self.totals), bolts=list(self.bolts), barrel=list(self.barrel)
        )

    def on_barrel(self, seat: int) -> bool:
        return self.options.barrel and self.barrel[seat] is not None

    def result(self, **extra: Any) -> JsonDict:
        """The game's result, as the played game writes it."""
        return game_result(self.totals, len(self.entries), self.dealer, **extra)


def possible(contract: int, made: bool, points: list[int | str | None], rounding: int) -> bool:
    """Can one deal end so: the opponents wrote ``points`` (None: not counted, ``"bolt"``:
    no trick) and the declarer made or failed ``contract``? 120 card points in the deck,
    each marriage held by one player at most, a written number up to half a rounding step
    off the points counted."""
    slack = rounding // 2
    values = list(MARRIAGE.values())
    # each marriage: nobody's (0), the declarer's (1) or an opponent's (2, 3)
    for owners in product(range(len(points) + 2), repeat=len(values)):
        married = [0] * (len(points) + 1)
        for value, owner in zip(values, owners):
            if owner:
                married[owner - 1] += value
        low = high = 0
        for i, written in enumerate(points):
            own = married[i + 1]
            if written == BOLT:
                if own:
                    break  # a marriage is announced on a lead: after a trick taken
                continue
            if written is None:
                lo, hi = 0, 120
            else:
                assert isinstance(written, int)
                lo, hi = max(0, written - own - slack), min(120, written - own + slack)
            if lo > hi:
                break
            low, high = low + lo, high + hi
        else:
            if low > 120:
                continue
            declarer_most, declarer_least = 120 - low, max(0, 120 - high)
            if made and declarer_most + married[0] >= contract:
                return True
            if not made and declarer_least + married[0] < contract:
                return True
    return False


def _seat(played: Played, value: Any, what: str) -> int:
    if not isinstance(value, str) or value not in played.letters:
        raise DealError(f"{what} must be one of {', '.join(played.letters)}, not {value!r}")
    return played.letters.index(value)


def _flag(deal: JsonDict, key: str) -> bool:
    value = deal.get(key, False)
    if not isinstance(value, bool):
        raise DealError(f"{key} must be true or false")
    return value


def check_deal(played: Played, deal: Any) -> JsonDict:
    """The next deal of ``played`` as ``score_deal`` takes it; DealError if it is not one."""
    o = played.options
    if played.over:
        raise DealError(f"the game was over after deal {len(played.entries)}")
    if not isinstance(deal, dict):
        raise DealError("a deal must be a JSON object")
    unknown = sorted(set(deal) - DEAL_KEYS)
    if unknown:
        raise DealError(f"unknown key {unknown[0]!r}")
    active = played.active
    declarer = _seat(played, deal.get("declarer"), "declarer")
    if declarer not in active:
        raise DealError(f"{played.letters[declarer]} deals and sits this deal out")
    contract = deal.get("contract")
    if not isinstance(contract, int) or isinstance(contract, bool):
        raise DealError("contract must be a number")
    if not 100 <= contract <= MAX_BID or (contract - 100) % o.bid_step:
        raise DealError(f"a contract is 100 to {MAX_BID} in steps of {o.bid_step}, not {contract}")
    dark, conceded = _flag(deal, "dark"), _flag(deal, "conceded")
    if dark and not o.dark:
        raise DealError("this table plays without тёмная (options: dark)")
    if dark and (declarer != active[0] or contract != 100):
        raise DealError("only the forehand bids blind, and a blind contract is 100")
    if conceded and (not o.concede or dark):
        raise DealError("распишись is off at this table" if not o.concede else "a blind contract is not conceded")
    defenders = [p for p in active if p != declarer]
    out: JsonDict = {"declarer": declarer, "contract": contract, "dark": dark, "conceded": conceded, "active": active}
    n = played.players
    taken, tricks = [0] * n, [0] * n
    if conceded:
        if "made" in deal or "points" in deal:
            raise DealError("a conceded deal has no made and no points")
        return {**out, "made": False, "taken": taken, "married": [0] * n, "tricks": tricks}
    made = deal.get("made")
    if not isinstance(made, bool):
        raise DealError("made must be true or false")
    given = deal.get("points", {})
    if not isinstance(given, dict):
        raise DealError('points must be an object: an opponent\'s letter -> its points or "bolt"')
    written: list[int | str | None] = []
    for seat in defenders:
        letter = played.letters[seat]
        value = given.get(letter)
        if value is None and played.on_barrel(seat):
            written.append(None)
            continue
        if value is None:
            raise DealError(f"no points for {letter}")
        if value != BOLT and (not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_BID):
            raise DealError(f'{letter}\'s points must be 0 to {MAX_BID} or "bolt", not {value!r}')
        written.append(value)
        taken[seat] = 0 if value == BOLT else int(value)
        tricks[seat] = 0 if value == BOLT else 1
    opponents = {played.letters[p] for p in defenders}
    for letter in given:
        if letter not in opponents:
            raise DealError(f"points for {letter!r}, who is not an opponent in this deal")
    if not possible(contract, made, written, o.rounding):
        raise DealError(
            "no deal ends so: 120 card points and the marriages ♥100 ♦80 ♣60 ♠40 "
            f"cannot give these points with the contract {'made' if made else 'lost'}"
        )
    return {**out, "made": made, "taken": taken, "married": [0] * n, "tricks": tricks}


def write(played: Played, deal: Any) -> JsonDict:
    """Write the next deal on ``played`` (in place) and return its line."""
    checked = check_deal(played, deal)
    dealer = played.dealer
    entry, played.totals, played.bolts, played.barrel = score_deal(
        played.options, played.totals, played.bolts, played.barrel, checked
    )
    entry = {**entry, "n": len(played.entries) + 1, "dealer": dealer, "active": checked["active"], "marriages": []}
    played.entries.append(entry)
    return entry


def start(record: Any) -> tuple[Played, list[Any]]:
    """The empty sheet of a record and its deals, unchecked; ScoreError for a bad header."""
    if not isinstance(record, dict):
        raise ScoreError(0, "the record must be a JSON object")
    if record.get("game") != "thousand":
        raise ScoreError(0, f"this is not a Тысяча record (game {record.get('game')!r})")
    try:
        options = parse_options(record_options(record))
    except ValueError as exc:
        raise ScoreError(0, str(exc)) from None
    except EngineError as exc:
        raise ScoreError(0, exc.reason) from None
    players = record.get("players", 3)
    if players not in (3, 4) or isinstance(players, bool):
        raise ScoreError(0, f"Тысяча is played by 3 or 4 players, not {players!r}")
    first = record.get("first_dealer", "A")
    if not isinstance(first, str) or first not in LETTERS[:players]:
        raise ScoreError(0, f"first_dealer must be one of {', '.join(LETTERS[:players])}")
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise ScoreError(0, "deals must be a list")
    return Played(options, players, LETTERS.index(first)), deals


def play(record: Any) -> Played:
    played, deals = start(record)
    for n, deal in enumerate(deals, 1):
        try:
            write(played, deal)
        except DealError as exc:
            raise ScoreError(n, str(exc)) from None
    return played


def _by_letter(played: Played, values: list[Any]) -> JsonDict:
    return {played.letters[p]: values[p] for p in range(played.players)}


def score(record: Any) -> JsonDict:
    played = play(record)
    deals = []
    for entry in played.entries:
        deals.append(
            {
                "n": entry["n"],
                "dealer": played.letters[entry["dealer"]],
                "declarer": played.letters[entry["declarer"]],
                "contract": entry["contract"],
                "dark": entry["dark"],
                "conceded": entry["conceded"],
                "made": entry["made"],
                "delta": {played.letters[p]: entry["delta"][p] for p in sorted(entry["active"])},
                "totals": _by_letter(played, entry["totals"]),
                "marks": {played.letters[int(p)]: marks for p, marks in sorted(entry["marks"].items())},
            }
        )
    result = played.result() if played.over else None
    winner = result["winner"] if result else None
    return {
        "game": "thousand",
        "players": list(played.letters),
        "deals": deals,
        "totals": _by_letter(played, played.totals),
        "bolts": _by_letter(played, played.bolts),
        "barrel": _by_letter(played, played.barrel),
        "finished": played.over,
        "winner": played.letters[winner] if winner is not None else None,
    }


def text(record: Any, lang: str = "en") -> str:
    return sheet_text(play(record), lang)
