"""``cardbot score`` for Russian preferans (docs/rules/preferans_ru.md §9).

``score(record)`` returns the JSON sheet, ``text(record, lang)`` the пулька as the bot posts
it. Both write every hand through ``scoring.apply_hand`` (the played game's code) and raise
``engine.score.ScoreError`` naming the bad hand (1-based; 0 = the record itself).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pydantic import ValidationError

from engine.jsondata import JsonDict
from engine.options import record_options
from engine.score import ScoreError

from .hand import DECISIONS, AllPassHand, Decision, GameHand, Hand, MisereHand, parse_contract
from .options import PreferansRuOptions
from .scoring import Gain, ScoringError, Sheet, apply_hand, finished, fnum, settlement
from .sheet import HandLine, sheet_text

# the shortest valid record: a sheet with nothing written yet (tests/test_hostile_cli.py)
EMPTY = {"game": "preferans_ru", "players": ["A", "B", "C"], "hands": []}
HAND_KEYS = {"declarer", "contract", "whist", "tricks", "all_pass", "dealer"}
RECORD_KEYS = {"game", "options", "players", "start", "hands"}


@dataclass(frozen=True)
class Played:
    """A record written onto the sheet: every hand with what it gained."""

    options: PreferansRuOptions
    players: tuple[str, ...]
    sheet: Sheet
    lines: tuple[HandLine, ...]


def _options(record: JsonDict) -> PreferansRuOptions:
    try:
        raw = record_options(record)
    except ValueError as exc:
        raise ScoreError(0, str(exc)) from None
    try:
        return PreferansRuOptions.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "options"
        if first.get("type") == "extra_forbidden":
            raise ScoreError(0, f"unknown option {where!r}") from None
        raise ScoreError(0, f"bad option {where}: {first.get('msg', 'invalid')}") from None


def _players(raw: Any) -> tuple[str, ...]:
    if (
        not isinstance(raw, list)
        or len(raw) not in (3, 4)
        or not all(isinstance(p, str) and p.strip() for p in raw)
        or len(set(raw)) != len(raw)
    ):
        raise ScoreError(0, "players must be a list of 3 or 4 different names, clockwise")
    return tuple(raw)


def _number(v: Any, what: str) -> Fraction:
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise ScoreError(0, f"start: {what} must be a number")
    try:
        return Fraction(v)
    except (ValueError, ZeroDivisionError):
        raise ScoreError(0, f"start: {what} must be a number") from None


def _start(raw: Any, players: tuple[str, ...], options: PreferansRuOptions) -> Sheet:
    """§9 ``start``: a paper sheet to continue; missing values are 0."""
    sheet = Sheet.new(players)
    if raw is None:
        return sheet
    if not isinstance(raw, dict) or set(raw) - {"pool", "mountain", "whists", "raspasy_series"}:
        raise ScoreError(0, "start has pool, mountain, whists and raspasy_series only")
    area: dict[str, dict[str, Fraction]] = {}
    for key in ("pool", "mountain"):
        given = raw.get(key) or {}
        if not isinstance(given, dict) or set(given) - set(players):
            raise ScoreError(0, f"start.{key} must map players to numbers")
        area[key] = {p: _number(given.get(p, 0), f"{key} of {p}") for p in players}
    for p, x in area["pool"].items():
        if x < 0 or x > options.pool:
            raise ScoreError(0, f"start pool of {p} is {fnum(x)}, outside 0..{options.pool}")
    whists = {p: dict(row) for p, row in sheet.whists.items()}
    given_w = raw.get("whists") or {}
    if not isinstance(given_w, dict) or set(given_w) - set(players):
        raise ScoreError(0, "start.whists must map players to {opponent: number}")
    for p, row in given_w.items():
        if not isinstance(row, dict) or set(row) - (set(players) - {p}):
            raise ScoreError(0, f"start.whists.{p} must map {p}'s opponents to numbers")
        for q, x in row.items():
            whists[p][q] = _number(x, f"whists of {p} on {q}")
            if whists[p][q] < 0:
                raise ScoreError(0, f"start: whists of {p} on {q} cannot be negative")
    series = raw.get("raspasy_series", 0)
    if isinstance(series, bool) or not isinstance(series, int) or series < 0:
        raise ScoreError(0, "start.raspasy_series must be a whole number ≥ 0")
    return Sheet(players, area["pool"], area["mountain"], whists, series)


def _tricks(n: int, raw: Any, players: tuple[str, ...]) -> dict[str, int] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise ScoreError(n, "tricks must be an object {player: tricks} or null")
    for p, t in raw.items():
        if p not in players:
            raise ScoreError(n, f"tricks of {p!r}: not one of the players")
        if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= 10:
            raise ScoreError(n, f"tricks of {p} must be a whole number 0-10")
    return dict(raw)


def _hand(n: int, raw: Any, players: tuple[str, ...], options: PreferansRuOptions) -> Hand:
    """One §9 hand, checked for form (the rules are checked by ``apply_hand``)."""
    if not isinstance(raw, dict):
        raise ScoreError(n, "a hand must be an object")
    unknown = set(raw) - HAND_KEYS
    if unknown:
        raise ScoreError(n, f"unknown key(s) {', '.join(sorted(unknown))}")
    dealer = raw.get("dealer")
    if dealer is not None and dealer not in players:
        raise ScoreError(n, f"dealer {dealer!r} is not one of the players")
    tricks = _tricks(n, raw.get("tricks"), players)
    if raw.get("all_pass") is not None:
        if raw["all_pass"] is not True or set(raw) - {"all_pass", "tricks", "dealer"}:
            raise ScoreError(n, 'an all-pass hand is {"all_pass": true, "tricks": {...}}')
        if tricks is None:
            raise ScoreError(n, "tricks are missing for the распасы")
        return AllPassHand(tricks, dealer)
    declarer = raw.get("declarer")
    if declarer not in players:
        raise ScoreError(n, f"declarer {declarer!r} is not one of the players")
    try:
        contract = parse_contract(raw.get("contract"))  # type: ignore[arg-type]
    except ValueError as exc:
        raise ScoreError(n, str(exc)) from None
    if contract.misere:
        if "whist" in raw:
            raise ScoreError(n, "a мизер is not whisted: no whist")
        if tricks is None:
            raise ScoreError(n, "tricks are missing for the мизер")
        return MisereHand(declarer, tricks, dealer)
    whist_raw = raw.get("whist")
    if whist_raw is None:
        if not (options.ten_checked and contract.level == 10):
            raise ScoreError(n, "whist is missing: the decision of each defender")
        whist_raw = {}
    if not isinstance(whist_raw, dict):
        raise ScoreError(n, "whist must be an object {defender: whist|pass|half}")
    whist: dict[str, Decision] = {}
    for p, d in whist_raw.items():
        if p not in players:
            raise ScoreError(n, f"whist of {p!r}: not one of the players")
        if d not in DECISIONS:
            raise ScoreError(n, f"whist of {p} is {d!r}: whist, pass or half")
        whist[p] = d
    return GameHand(declarer, contract, whist, tricks, dealer)


def play(record: Any) -> Played:
    """Write every hand of the record; ``ScoreError`` at the first bad one."""
    if not isinstance(record, dict):
        raise ScoreError(0, "the record must be a JSON object")
    unknown = set(record) - RECORD_KEYS
    if unknown:
        raise ScoreError(0, f"unknown key(s) {', '.join(sorted(unknown))}")
    options = _options(record)
    players = _players(record.get("players"))
    if options.first_dealer is not None and options.first_dealer not in players:
        raise ScoreError(0, f"first_dealer {options.first_dealer!r} is not one of the players")
    sheet = _start(record.get("start"), players, options)
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise ScoreError(0, "hands must be a list")
    dealer = options.first_dealer or players[-1]  # §3.5: the first listed player leads
    lines: list[HandLine] = []
    for n, raw in enumerate(hands, 1):
        hand = _hand(n, raw, players, options)
        if hand.dealer is not None:
            dealer = hand.dealer
        try:
            sheet, gain = apply_hand(sheet, hand, options, dealer)
        except ScoringError as exc:
            raise ScoreError(n, str(exc)) from None
        lines.append(HandLine(n, hand, dealer if len(players) == 4 else None, gain, sheet.raspasy_series))
        dealer = sheet.left_of(dealer)
    return Played(options, players, sheet, tuple(lines))


def gain_json(n: int, gain: Gain) -> dict[str, Any]:
    return {"n": n, **gain.to_json()}


def score(record: Any) -> dict[str, Any]:
    """The §9 output."""
    done = play(record)
    sheet = done.sheet
    return {
        "game": "preferans_ru",
        "system": done.options.system,
        "pool_target": done.options.pool,
        "hands": [gain_json(line.n, line.gain) for line in done.lines],
        "players": {
            p: {
                "pool": fnum(sheet.pool[p]),
                "mountain": fnum(sheet.mountain[p]),
                "whists": {q: fnum(x) for q, x in sheet.whists[p].items()},
            }
            for p in done.players
        },
        "raspasy_series": sheet.raspasy_series,
        "finished": finished(sheet, done.options),
        "settlement": {p: fnum(x) for p, x in settlement(sheet, done.options).items()},
    }


def text(record: Any, lang: str = "ru") -> str:
    """The пулька as the bot posts it (§6, docs/rules/preferans_ru.md)."""
    done = play(record)
    last = done.lines[-1] if done.lines else None
    return sheet_text(done.sheet, done.options, lang, last, len(done.lines))
