"""The "🔍 The deal" message of a finished Balkan preferans hand: the hands and the talon,
the bidding, the contract and the defence, the tricks, and the double-dummy figures. A
pure function of one hand's analysis (``engine.games.preferans.analysis``), the names (seats
A, B, C) and the language."""

from __future__ import annotations

from bot.i18n import t
from bot.render.deal_record import open_trick
from bot.render.preferans_family import preferans_family_text
from engine.cards import SUIT_SYMBOL
from engine.jsondata import JsonDict
from engine.tricks import winning_index


def contract_text(contract: str, lang: str) -> str:
    """``"S"`` -> ``"♠"``; Bettel and sans in words."""
    if contract in SUIT_SYMBOL:
        return SUIT_SYMBOL[contract]
    return t(lang, f"deal_record.contract.{contract}")


def deal_record_text(deal: JsonDict, names: list[str], lang: str) -> str:
    return preferans_family_text(
        deal, names, lang, "ABC", lambda c: contract_text(c, lang), "dd_by_contract", "defence"
    )


def tricks_so_far(view: JsonDict) -> list[JsonDict]:
    """📜 Tricks (bot.trick_view): this hand's tricks from a seat's view (``played``: the
    finished tricks with who played each card), the trick on the table last."""
    done = []
    for trick in view["played"]:
        winner = trick[winning_index([c for _, c in trick], view["trump"])][0]
        done.append({"leader": trick[0][0], "cards": [list(p) for p in trick], "winner": winner})
    return done + open_trick(view["trick"], view["trick_leader"])
