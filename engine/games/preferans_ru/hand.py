"""One hand of Russian preferans as the sheet sees it (docs/rules/preferans_ru.md §9).

The game engine builds these after a played deal; the score-only record parses them
from JSON. Scoring (``scoring.apply_hand``) takes nothing else."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Strain = Literal["S", "C", "D", "H", "NT"]
STRAINS: tuple[Strain, ...] = ("S", "C", "D", "H", "NT")
Decision = Literal["whist", "pass", "half"]
DECISIONS: tuple[Decision, ...] = ("whist", "pass", "half")

# §4: pool value by level; мизер is worth 10.
VALUE = {6: 2, 7: 4, 8: 6, 9: 8, 10: 10}
MISERE_VALUE = 10
# §4: the defenders' quota, and its split (first whister, second whister) with two whisters.
QUOTA = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}
QUOTA_SPLIT = {6: (2, 2), 7: (1, 1), 8: (0, 1), 9: (0, 1), 10: (0, 1)}


@dataclass(frozen=True)
class Contract:
    """A game contract (``level`` 6-10, ``strain``) or мизер (``misere``; level and strain None)."""

    level: int | None
    strain: Strain | None

    @property
    def misere(self) -> bool:
        return self.level is None

    @property
    def value(self) -> int:
        return MISERE_VALUE if self.level is None else VALUE[self.level]

    def __str__(self) -> str:
        return "MISERE" if self.level is None else f"{self.level}{self.strain}"


MISERE = Contract(None, None)


def parse_contract(text: str) -> Contract:
    """``6S``…``10NT`` or ``MISERE`` (case-insensitive); ``ValueError`` otherwise."""
    t = text.strip().upper() if isinstance(text, str) else ""
    if t == "MISERE":
        return MISERE
    for strain in STRAINS:
        if t.endswith(strain) and t[: -len(strain)].isdigit():
            level = int(t[: -len(strain)])
            if level in VALUE:
                return Contract(level, strain)
    raise ValueError(f"unknown contract {text!r} (6S..10NT or MISERE)")


@dataclass(frozen=True)
class GameHand:
    """A game 6-10 (§6.2). ``whist`` maps each defender to his final decision (§5.3: a first
    defender who whists after the second's half is ``whist``/``pass``). ``tricks`` of the three
    active players when the hand was played; None when both passed or the half-whist stood.
    ``dealer``: needed with 4 players (who sat out); None = the rotation."""

    declarer: str
    contract: Contract
    whist: dict[str, Decision]
    tricks: dict[str, int] | None
    dealer: str | None = None


@dataclass(frozen=True)
class MisereHand:
    """Мизер (§6.2): the declarer's and the catchers' tricks."""

    declarer: str
    tricks: dict[str, int]
    dealer: str | None = None

    @property
    def contract(self) -> Contract:
        return MISERE


@dataclass(frozen=True)
class AllPassHand:
    """Распасы (§6.3): every active player's tricks."""

    tricks: dict[str, int]
    dealer: str | None = None


Hand = GameHand | MisereHand | AllPassHand
