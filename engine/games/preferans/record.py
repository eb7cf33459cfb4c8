"""``cardbot score`` for preferans (docs/rules/records.md §3).

``score(record)`` returns the JSON sheet; ``text(record, lang)`` the sheet exactly as the
bot posts it (HTML-free). Both go through the same scoring code as the played game
(``scoring.normalise`` + ``scoring.apply_entry``) and raise ``engine.score.ScoreError``
naming the bad hand (1-based) for a malformed or impossible record.
"""

from __future__ import annotations

from typing import Any

from engine.jsondata import JsonDict
from engine.options import record_options
from engine.preferans_family.numbers import fnum
from engine.score import ScoreError

from .options import PreferansOptions
from .scoring import CONTRACTS, EntryError, Pull, apply_entry, normalise, settlement
from .sheet import sheet_text

# the shortest valid record: a sheet with nothing written yet (tests/test_hostile_cli.py)
EMPTY = {"game": "preferans", "hands": []}
HAND_KEYS = {"declarer", "contract", "igra", "defence", "kontra", "tricks", "all_pass"}


def _options(record: JsonDict) -> PreferansOptions:
    try:
        raw = record_options(record)
    except ValueError as exc:
        raise ScoreError(0, str(exc)) from None
    try:
        return PreferansOptions.model_validate(raw)
    except Exception as exc:  # pydantic's message names the bad option
        first = exc.errors()[0] if hasattr(exc, "errors") else {}
        where = ".".join(str(p) for p in first.get("loc", ())) or "options"
        raise ScoreError(0, f"bad option {where}: {first.get('msg', exc)}") from None


def _players(record: JsonDict) -> list[str]:
    players = record.get("players", ["A", "B", "C"])
    if (
        not isinstance(players, list)
        or len(players) != 3
        or not all(isinstance(p, str) and p for p in players)
        or len(set(players)) != 3
    ):
        raise ScoreError(0, "players must be a list of three different names")
    return players


def _entry(n: int, hand: Any, players: list[str]) -> JsonDict:
    """A record hand -> a raw engine entry (seats as numbers), checked for form."""
    if not isinstance(hand, dict):
        raise ScoreError(n, "a hand must be an object")
    unknown = set(hand) - HAND_KEYS
    if unknown:
        raise ScoreError(n, f"unknown key(s) {', '.join(sorted(unknown))}")
    if hand.get("all_pass"):
        if set(hand) - {"all_pass"}:
            raise ScoreError(n, "an all-pass hand has nothing else")
        return {"all_pass": True}
    seat = {name: i for i, name in enumerate(players)}

    def who(name: Any, what: str) -> int:
        if name not in seat:
            raise ScoreError(n, f"{what} {name!r} is not one of the players")
        return seat[name]

    declarer = who(hand.get("declarer"), "declarer")
    contract = hand.get("contract")
    if not isinstance(contract, str) or contract.upper() not in CONTRACTS:
        raise ScoreError(n, f"unknown contract {contract!r} (S, D, H, C, BETTEL or SANS)")
    igra = hand.get("igra", False)
    if not isinstance(igra, bool):
        raise ScoreError(n, "igra must be true or false")
    defence_raw = hand.get("defence") or {}
    if not isinstance(defence_raw, dict):
        raise ScoreError(n, "defence must be an object")
    defence = {}
    for name, decision in defence_raw.items():
        x = who(name, "defender")
        if x == declarer:
            raise ScoreError(n, f"{name} is the declarer and cannot also be a defender")
        defence[x] = decision
    kontra, level = [], 0
    k = hand.get("kontra")
    if k is not None:
        if not isinstance(k, dict):
            raise ScoreError(n, 'kontra must be {"by": ..., "level": ...}')
        by = k.get("by")
        by = by if isinstance(by, list) else [by]
        kontra = [who(b, "kontra by") for b in by]
        level = k.get("level", 1)
    tricks = hand.get("tricks", "missing")
    if tricks == "missing":
        raise ScoreError(n, "tricks are missing (null when the hand was not played)")
    if tricks is not None:
        if not isinstance(tricks, dict):
            raise ScoreError(n, "tricks must be an object or null")
        tricks = {who(name, "tricks of"): v for name, v in tricks.items()}
    return {
        "declarer": declarer,
        "number": CONTRACTS[contract.upper()],
        "igra": igra,
        "defence": defence,
        "kontra": kontra,
        "level": level,
        "tricks": tricks,
    }


def play(record: Any) -> tuple[PreferansOptions, list[str], Pull]:
    """Write every hand of the record; return the options, the names and the sheet."""
    if not isinstance(record, dict):
        raise ScoreError(0, "the record must be a JSON object")
    options = _options(record)
    players = _players(record)
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise ScoreError(0, "hands must be a list")
    pull = Pull.start(options.bula)
    for n, hand in enumerate(hands, 1):
        entry = _entry(n, hand, players)
        try:
            entry = normalise(pull, entry, options)
        except EntryError as exc:
            raise ScoreError(n, str(exc)) from None
        pull, _ = apply_entry(pull, entry, options)
    return options, players, pull


def score(record: Any) -> JsonDict:
    options, players, pull = play(record)
    settle = settlement(pull)
    out_players = {}
    for i, name in enumerate(players):
        out_players[name] = {
            "contract": fnum(pull.contract[i]),
            "soups": {players[j]: fnum(pull.soups[i][j]) for j in range(3) if j != i},
            "refe": pull.refe[i],
            "hat": pull.contract[i] >= 0,
            "hats": pull.hats[i],
            "refe_used": pull.refe_used[i],
        }
    return {
        "game": "preferans",
        "players": out_players,
        "finished": pull.finished,
        "settlement": {name: fnum(settle[i]) for i, name in enumerate(players)},
        "hands": [dict(r) for r in pull.rows],
        "refe_rounds": pull.refe_rounds,
    }


def sheet_of(pull: Pull) -> JsonDict:
    return {
        "contract": [fnum(c) for c in pull.contract],
        "soups": [[fnum(x) for x in r] for r in pull.soups],
        "refe": list(pull.refe),
        "refe_used": list(pull.refe_used),
        "hats": list(pull.hats),
        "finished": pull.finished,
        "settlement": [fnum(x) for x in settlement(pull)],
    }


def text(record: Any, lang: str = "ru") -> str:
    options, players, pull = play(record)
    last = pull.rows[-1] if pull.rows else None
    return sheet_text(
        sheet_of(pull),
        list(pull.rows),
        players,
        lang,
        options.bula,
        len(pull.rows) or None,
        options.display_rounding,
        last,
    )
