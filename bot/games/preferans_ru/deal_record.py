"""The "🔍 The deal" message of a finished Russian preferans deal: the hands and the
talon, the bidding, the contract and the whists, the tricks, and the double-dummy
figures. A pure function of one deal's analysis (``engine.games.preferans_ru.analysis``), the
names (seats A, B, C, D in seat order) and the language."""

from __future__ import annotations

from bot.i18n import t
from bot.render.deal_record import open_trick
from bot.render.preferans_family import preferans_family_text
from engine.cards import SUIT_SYMBOL
from engine.jsondata import JsonDict
from engine.tricks import winning_index


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


def tricks_so_far(view: JsonDict) -> list[JsonDict]:
    """📜 Tricks (bot.trick_view): this deal's tricks from a seat's view (``played``: the
    finished tricks with who played each card), the trick on the table last. In распасы
    the first tricks start with the talon card turned face up (seat None): it fixes the
    suit and never wins (rules §5.4)."""
    turned = view["turned"] if view["raspasy"] else []

    def talon(k: int) -> list[list]:
        return [[None, turned[k]]] if k < len(turned) else []

    out = []
    for k, trick in enumerate(view["played"]):
        cards = [c for _, c in trick]
        winner = trick[winning_index(cards, view["trump"])][0]
        if talon(k):  # the highest card of the talon card's suit wins
            following = [(seat, c) for seat, c in trick if c[1] == turned[k][1]]
            if following:
                winner = following[winning_index([c for _, c in following], None)][0]
        out.append({"leader": trick[0][0], "cards": talon(k) + [list(p) for p in trick], "winner": winner})
    on_table = talon(len(view["played"])) + [list(p) for p in view["trick"]]
    leader = view["trick"][0][0] if view["trick"] else None
    return out + open_trick(on_table, leader)
