"""The "🔍 The deal" message of a finished Russian preferans deal: the hands and the
talon, the bidding, the contract and the whists, the tricks, and the double-dummy
figures. A pure function of one deal's analysis (``engine.preferans_ru.analysis``), the
names (seats A, B, C, D in seat order) and the language."""

from __future__ import annotations

from bot.i18n import t
from bot.render.deal_record import preferans_family_text
from engine.cards import SUIT_SYMBOL
from engine.jsondata import JsonDict


def contract_text(contract: str, lang: str) -> str:
    """``"6S"`` -> ``"6♠"``, a strain alone (the per-strain figures) -> ``"♠"``;
    мизер and распасы in words."""
    if contract in ("MISERE", "MISERE_NOTALON", "raspasy"):
        return t(lang, f"deal_record.contract.{contract}")
    if contract.endswith("NT"):
        return contract
    return contract[:-1] + SUIT_SYMBOL[contract[-1]]


def deal_record_text(deal: JsonDict, names: list[str], lang: str) -> str:
    return preferans_family_text(deal, names, lang, "ABCD", lambda c: contract_text(c, lang), "dd_by_strain", "whist")
