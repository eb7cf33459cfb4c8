"""The "🔍 The deal" message of a finished Balkan preferans hand: the hands and the talon,
the bidding, the contract and the defence, the tricks, and the double-dummy figures. A
pure function of one hand's analysis (``engine.preferans.analysis``), the names (seats
A, B, C) and the language."""

from __future__ import annotations

from bot.i18n import t
from bot.render.deal_record import preferans_family_text
from engine.cards import SUIT_SYMBOL
from engine.jsondata import JsonDict


def contract_text(contract: str, lang: str) -> str:
    """``"S"`` -> ``"♠"``; Bettel and sans in words."""
    if contract in SUIT_SYMBOL:
        return SUIT_SYMBOL[contract]
    return t(lang, f"deal_record.contract.{contract}")


def deal_record_text(deal: JsonDict, names: list[str], lang: str) -> str:
    return preferans_family_text(
        deal, names, lang, "ABC", lambda c: contract_text(c, lang), "dd_by_contract", "defence"
    )
