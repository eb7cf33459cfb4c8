"""Russian preferans scoring: the пулька (docs/rules/preferans_ru.md §6).

One pure function, :func:`apply_hand`, writes one hand onto the sheet; the played game and
the score-only record (``record.py``) both go through it. Players are names, clockwise;
with 4 players the dealer of a hand sits it out. All numbers are ``fractions.Fraction``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .hand import QUOTA, QUOTA_SPLIT, VALUE, AllPassHand, GameHand, Hand, MisereHand
from .options import PreferansRuOptions

Numbers = dict[str, Fraction]
Whists = dict[str, dict[str, Fraction]]
ZERO = Fraction(0)


class ScoringError(ValueError):
    """An impossible hand for this sheet; the message says what is wrong."""


def fnum(x: Fraction | int) -> int | str:
    """JSON form of an exact number: an int, or ``"a/b"``."""
    x = Fraction(x)
    return x.numerator if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def parse_fnum(v: Any) -> Fraction:
    """An exact number from JSON (int or ``"a/b"``); ``ValueError`` otherwise."""
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise ValueError(f"not a number: {v!r}")
    return Fraction(v)


@dataclass(frozen=True)
class Gain:
    """What the sheet gained from one hand (§9 ``hands[i]``): help and write-offs included."""

    pool: Numbers
    mountain: Numbers
    whists: Whists

    def to_json(self) -> dict[str, Any]:
        return {
            "pool": {p: fnum(x) for p, x in self.pool.items()},
            "mountain": {p: fnum(x) for p, x in self.mountain.items()},
            "whists": {p: {q: fnum(x) for q, x in row.items()} for p, row in self.whists.items()},
        }


@dataclass(frozen=True)
class Sheet:
    """The пулька (§6.1): per player пуля and гора, висты writer -> target, the распасы series
    (§5.5). Treated as immutable: :func:`apply_hand` returns a new one."""

    players: tuple[str, ...]
    pool: Numbers
    mountain: Numbers
    whists: Whists
    raspasy_series: int = 0

    @classmethod
    def new(cls, players: tuple[str, ...] | list[str]) -> Sheet:
        ps = tuple(players)
        if len(ps) not in (3, 4) or len(set(ps)) != len(ps):
            raise ScoringError("a пулька needs 3 or 4 different players")
        return cls(
            ps,
            {p: ZERO for p in ps},
            {p: ZERO for p in ps},
            {p: {q: ZERO for q in ps if q != p} for p in ps},
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "pool": {p: fnum(x) for p, x in self.pool.items()},
            "mountain": {p: fnum(x) for p, x in self.mountain.items()},
            "whists": {p: {q: fnum(x) for q, x in row.items()} for p, row in self.whists.items()},
            "raspasy_series": self.raspasy_series,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Sheet:
        sheet = cls.new(data["players"])
        pool = {p: parse_fnum(data["pool"][p]) for p in sheet.players}
        mountain = {p: parse_fnum(data["mountain"][p]) for p in sheet.players}
        whists = {p: {q: parse_fnum(data["whists"][p][q]) for q in row} for p, row in sheet.whists.items()}
        return cls(sheet.players, pool, mountain, whists, int(data.get("raspasy_series", 0)))

    def left_of(self, player: str) -> str:
        return self.players[(self.players.index(player) + 1) % len(self.players)]


def finished(sheet: Sheet, options: PreferansRuOptions) -> bool:
    """§6.4.2: every pool has reached the target."""
    return all(sheet.pool[p] == options.pool for p in sheet.players)


def settlement(sheet: Sheet, options: PreferansRuOptions) -> Numbers:
    """§6.5: whists netted pairwise, pools and mountains against the table's averages.
    Exact; sums to zero."""
    n = len(sheet.players)
    mean_pool = sum(sheet.pool.values(), ZERO) / n
    mean_mountain = sum(sheet.mountain.values(), ZERO) / n
    result: Numbers = {}
    for i in sheet.players:
        net = sum((sheet.whists[i][j] - sheet.whists[j][i] for j in sheet.players if j != i), ZERO)
        result[i] = net + options.pool_point * (sheet.pool[i] - mean_pool) + 10 * (mean_mountain - sheet.mountain[i])
    return result


def active_players(sheet: Sheet, dealer: str | None) -> tuple[str, ...]:
    """The three who play the hand (§3.1): with 4 players everybody but the dealer."""
    if len(sheet.players) == 3:
        return sheet.players
    if dealer is None:
        raise ScoringError("with 4 players the hand needs its dealer")
    if dealer not in sheet.players:
        raise ScoringError(f"the dealer {dealer!r} is not at the table")
    return tuple(p for p in sheet.players if p != dealer)


class _Writer:
    """Mutable working copy of a sheet while one hand is written."""

    def __init__(self, sheet: Sheet, options: PreferansRuOptions) -> None:
        self.sheet = sheet
        self.options = options
        self.pool = dict(sheet.pool)
        self.mountain = dict(sheet.mountain)
        self.whists = {p: dict(row) for p, row in sheet.whists.items()}

    def write(self, writer: str, target: str, amount: Fraction | int) -> None:
        if amount:
            self.whists[writer][target] += amount

    def to_mountain(self, player: str, amount: Fraction | int) -> None:
        self.mountain[player] += amount

    def to_pool(self, scorer: str, points: Fraction | int) -> None:
        """§6.4.1: fill the scorer's pool up to the target; the overflow helps the others
        clockwise (a pool point of whists on each helped player), what is still left comes
        off the scorer's mountain."""
        target = self.options.pool
        put = min(Fraction(points), target - self.pool[scorer])
        self.pool[scorer] += put
        overflow = Fraction(points) - put
        if overflow <= 0:
            return
        if self.options.pool_overflow == "help":
            other = self.sheet.left_of(scorer)
            while other != scorer and overflow > 0:
                helped = min(overflow, target - self.pool[other])
                if helped > 0:
                    self.pool[other] += helped
                    self.write(scorer, other, self.options.pool_point * helped)
                    overflow -= helped
                other = self.sheet.left_of(other)
        if overflow > 0:
            self.mountain[scorer] -= overflow * Fraction(self.options.pool_point, 10)

    def done(self, series: int) -> tuple[Sheet, Gain]:
        new = Sheet(self.sheet.players, self.pool, self.mountain, self.whists, series)
        old = self.sheet
        gain = Gain(
            {p: new.pool[p] - old.pool[p] for p in old.players},
            {p: new.mountain[p] - old.mountain[p] for p in old.players},
            {p: {q: new.whists[p][q] - old.whists[p][q] for q in row} for p, row in old.whists.items()},
        )
        return new, gain


def _check_tricks(tricks: dict[str, int] | None, active: tuple[str, ...]) -> dict[str, int]:
    if tricks is None:
        raise ScoringError("tricks are missing for a played hand")
    if set(tricks) != set(active):
        raise ScoringError(f"tricks must name exactly the active players {', '.join(active)}")
    for p, t in tricks.items():
        if isinstance(t, bool) or not isinstance(t, int) or t < 0:
            raise ScoringError(f"tricks of {p} must be a whole number 0-10")
    if sum(tricks.values()) != 10:
        raise ScoringError(f"tricks add up to {sum(tricks.values())}, not 10")
    return tricks


def _raspasy_price(options: PreferansRuOptions, series: int) -> int:
    """§6.3: the price of one trick in the ``series``-th распасы in a row."""
    step = min(series, options.raspasy_cap)
    multiplier = {"none": 1, "arithmetic": step, "geometric": 1 << (step - 1)}[options.raspasy_progression]
    return options.raspasy_price * multiplier


def _all_pass(w: _Writer, hand: AllPassHand, active: tuple[str, ...], series: int) -> None:
    """§6.3: распасы into the mountain (Сочи, Ленинград) or on whists (Ростов)."""
    options = w.options
    tricks = _check_tricks(hand.tricks, active)
    price = _raspasy_price(options, series)
    if options.raspasy == "mountain":
        for p in active:
            if tricks[p] > 0:
                w.to_mountain(p, price * tricks[p])
        bonus = price
    else:
        least = min(tricks.values())
        lowest = [p for p in active if tricks[p] == least]
        # raspasy_tie: two tied at the fewest each write the full amount, or share it.
        share = Fraction(1, len(lowest)) if options.raspasy_tie == "split" else Fraction(1)
        for p in lowest:
            for q in active:
                if tricks[q] > least:
                    w.write(p, q, price * tricks[q] * share)
        bonus = 1
    if options.raspasy_zero_bonus:
        for p in w.sheet.players:  # pool entries in players order (§6.4.1)
            if p in active and tricks[p] == 0:
                w.to_pool(p, bonus)


def _misere(w: _Writer, hand: MisereHand, active: tuple[str, ...]) -> bool:
    """§6.2: a clean мизер is 10 in the pool; each trick taken costs 10 (×remise) in the mountain.
    True when it was made."""
    tricks = _check_tricks(hand.tricks, active)
    taken = tricks[hand.declarer]
    if taken == 0:
        w.to_pool(hand.declarer, hand.contract.value)
    else:
        w.to_mountain(hand.declarer, w.options.remise_factor * hand.contract.value * taken)
    return taken == 0


def _defenders(declarer: str, active: tuple[str, ...]) -> tuple[str, str]:
    """(first, second) defender: the first sits on the declarer's left (§4)."""
    i = active.index(declarer)
    return active[(i + 1) % 3], active[(i + 2) % 3]


def _decisions(hand: GameHand, first: str, second: str, options: PreferansRuOptions) -> tuple[str, str]:
    """The defenders' final decisions, checked against §5.3 (``whist`` for both with a checked ten)."""
    level = hand.contract.level
    assert level is not None
    if options.ten_checked and level == 10:
        if hand.whist:
            raise ScoringError("with ten_checked a 10 has no whist decisions")
        return "whist", "whist"
    if set(hand.whist) != {first, second}:
        raise ScoringError(f"whist must give the decisions of exactly the defenders {first} and {second}")
    d1, d2 = hand.whist[first], hand.whist[second]
    for who, d in ((first, d1), (second, d2)):
        if d not in ("whist", "pass", "half"):
            raise ScoringError(f"{who}'s decision {d!r} is not whist, pass or half")
    if d1 == "half":
        raise ScoringError(f"{first} is the first defender and cannot say half (only the second can)")
    if d2 == "half" and d1 == "whist":
        raise ScoringError(f"{second} cannot say half after {first} whisted")
    if d2 == "half" and level not in options.half_whist:
        raise ScoringError(f"half-whist is not allowed on a {level}")
    return d1, d2


def _game(w: _Writer, hand: GameHand, active: tuple[str, ...]) -> bool:
    """§6.2: a game 6-10. True when it was made (a game nobody whisted is made)."""
    options = w.options
    declarer, level = hand.declarer, hand.contract.level
    assert level is not None
    v = VALUE[level]
    wv = options.whist_factor * v
    checked = options.ten_checked and level == 10
    quota = 0 if checked else QUOTA[level]
    first, second = _defenders(declarer, active)
    d1, d2 = _decisions(hand, first, second, options)
    if d1 == "pass" and d2 in ("pass", "half"):
        if hand.tricks is not None:
            raise ScoringError("tricks are given for a hand that was not played (both passed or half-whist)")
        w.to_pool(declarer, v)
        if d2 == "half":
            w.write(second, declarer, Fraction(quota, 2) * wv)
        return True
    tricks = _check_tricks(hand.tricks, active)
    taken = tricks[declarer]
    defence = 10 - taken
    whisters = [p for p, d in ((first, d1), (second, d2)) if d == "whist"]
    undertricks = level - taken
    if undertricks > 0:
        w.to_mountain(declarer, options.remise_factor * v * undertricks)
        if options.consolation:
            rate = wv if options.consolation_rate == "price" else 10
            for p in w.sheet.players:
                sitting_out = p not in active
                if p != declarer and (not sitting_out or options.consolation_dealer):
                    w.write(p, declarer, rate * undertricks)
    else:
        w.to_pool(declarer, v)
    pen = Fraction(v) if options.whist_responsibility == "full" else Fraction(wv, 2)
    if len(whisters) == 2:
        for p in whisters:
            w.write(p, declarer, tricks[p] * wv)
        if undertricks <= 0:
            split = (0, 0) if checked else QUOTA_SPLIT[level]
            own = {first: split[0], second: split[1]}
            # §7.1 whist_quota on a 6 or 7. personal: a partner's extra tricks do not cover
            # you. personal_if_short (PyPref, kpref): nobody pays when the two together took
            # the quota, else each pays for his own half, uncovered.
            alone = options.whist_quota != "shared" and level in (6, 7)
            if options.whist_quota == "personal_if_short" and defence >= quota:
                own = {first: 0, second: 0}
            for a, b in ((first, second), (second, first)):
                cover = 0 if alone else max(0, tricks[b] - own[b])
                short = max(0, own[a] - tricks[a] - cover)
                w.to_mountain(a, short * pen)
        return undertricks <= 0
    (whister,) = whisters
    passer = second if whister == first else first
    if undertricks > 0 and options.whist_sharing == "gentleman":
        w.write(whister, declarer, Fraction(defence * wv, 2))
        w.write(passer, declarer, Fraction(defence * wv, 2))
    else:
        w.write(whister, declarer, defence * wv)
    if undertricks <= 0:
        w.to_mountain(whister, max(0, quota - defence) * pen)
    return undertricks <= 0


def _ends_series(options: PreferansRuOptions, hand: GameHand | MisereHand, made: bool) -> bool:
    """§5.5 with ``raspasy_reset``: does this deal end a run of распасы?"""
    if options.raspasy_reset == "any_deal":
        return True
    if options.raspasy_reset == "made_game":
        return made
    level = hand.contract.level
    return made and (level is None or level >= 8)


def apply_hand(sheet: Sheet, hand: Hand, options: PreferansRuOptions, dealer: str | None = None) -> tuple[Sheet, Gain]:
    """Write one hand (§6.2-§6.4) and return the new sheet and what it gained.

    ``dealer`` (or ``hand.dealer``) is who dealt it: required with 4 players, where the
    dealer sits out. ``ScoringError`` for an impossible hand; the sheet is then unchanged."""
    if finished(sheet, options):
        raise ScoringError("the game is already finished (every pool is full)")
    active = active_players(sheet, hand.dealer if hand.dealer is not None else dealer)
    w = _Writer(sheet, options)
    if isinstance(hand, AllPassHand):
        series = sheet.raspasy_series + 1
        _all_pass(w, hand, active, series)
        return w.done(series)
    if hand.declarer not in active:
        why = "sits out as the dealer" if hand.declarer in sheet.players else "is not at the table"
        raise ScoringError(f"the declarer {hand.declarer!r} {why}")
    if isinstance(hand, MisereHand):
        made = _misere(w, hand, active)
    else:
        if hand.contract.misere:
            raise ScoringError("a мизер is a MisereHand")
        made = _game(w, hand, active)
    return w.done(0 if _ends_series(options, hand, made) else sheet.raspasy_series)
