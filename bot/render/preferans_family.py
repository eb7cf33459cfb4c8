"""The "🔍 The deal" message of a preferans hand, Balkan or Russian: the one renderer the
two preferans games share (``bot/games/preferans/deal_record.py`` and
``bot/games/preferans_ru/deal_record.py`` give it their seats, contracts and field names),
as ``engine/preferans_family`` is their shared engine. Its words are in
``bot/locales/<lang>/preferans_family.json``."""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import t
from bot.render.common import display_name, esc
from bot.render.deal_record import costly_lines, hand_line, section, trick_lines
from engine.cards import SUIT_SYMBOL, label
from engine.jsondata import JsonDict


def symbols(text: str) -> str:
    """Suit letters after a level as symbols: ``"bid 6S"`` -> ``"bid 6♠"``, ``"8NT"`` stays."""
    out = []
    for word in text.split():
        if len(word) >= 2 and word[:-1].isdigit() and word[-1] in SUIT_SYMBOL:
            word = word[:-1] + SUIT_SYMBOL[word[-1]]
        out.append(word)
    return " ".join(out)


def preferans_family_text(
    deal: JsonDict,
    names: list[str],
    lang: str,
    seats: str,
    contract_text: Callable[[str], str],
    by_contract_key: str,
    choices_key: str,
) -> str:
    """The message of a preferans hand (Balkan or Russian): hands one per line and the
    talon, the bidding, the contract and the defenders' choices, the tricks, and the
    double-dummy figures the analysis holds. ``seats``: the analysis's seat letters in
    seat order (names are read by that index); ``contract_text`` writes a contract;
    ``by_contract_key``: the analysis field of the declarer's tricks per contract;
    ``choices_key``: the field of the defenders' choices."""

    def name(seat: object) -> str:
        index = seats.index(str(seat))
        return esc(display_name(names[index], 12)) if index < len(names) else str(seat)

    lines = [t(lang, "deal_record.pref_title", deal=deal["deal"], dealer=name(deal["dealer"]))]
    lines += [f"{name(seat)}: {hand_line(hand)}" for seat, hand in deal["hands"].items()]
    if deal.get("talon"):
        lines.append(t(lang, "deal_record.talon", cards=" ".join(label(c) for c in deal["talon"])))
    if deal.get("discards"):
        lines.append(t(lang, "deal_record.discards", cards=" ".join(label(c) for c in deal["discards"])))
    lines.append(section(lang, "deal_record.bidding"))
    lines.append(", ".join(f"{name(c['seat'])} {_call(c['call'], lang)}" for c in deal["bidding"]) or "—")
    if deal.get("contract"):
        if deal.get("declarer"):
            lines.append(
                t(
                    lang,
                    "deal_record.pref_contract",
                    contract=contract_text(deal["contract"]),
                    name=name(deal["declarer"]),
                )
            )
        else:
            lines.append(contract_text(deal["contract"]))
    choices = deal.get(choices_key) or {}
    lines += [
        t(lang, "deal_record.defence", name=name(seat), choice=t(lang, f"deal_record.choice.{choice}"))
        for seat, choice in choices.items()
    ]
    lines.append(section(lang, "deal_record.play"))
    lines += trick_lines(deal["tricks"], name, lang)
    if deal.get("result"):
        lines.append(t(lang, "deal_record.took", tricks=", ".join(f"{name(s)} {n}" for s, n in deal["result"].items())))
    if deal.get("dd_tricks") is not None:
        lines.append(section(lang, "deal_record.double_dummy"))
        if deal.get(by_contract_key) is None:  # мизер, Bettel: the catchers' figure
            lines.append(t(lang, "deal_record.misere_dd", n=deal["dd_tricks"]))
        else:
            lines.append(t(lang, "deal_record.pref_dd", n=deal["dd_tricks"]))
            figures = ", ".join(f"{contract_text(c)} {n}" for c, n in deal[by_contract_key].items())
            lines.append(figures)
            best = deal.get("best_contract")
            lines.append(
                t(lang, "deal_record.best_contract", contract=contract_text(best))
                if best
                else t(lang, "deal_record.no_best_contract")
            )
        if deal.get("whist_right") is not None:
            lines.append(t(lang, "deal_record.whist_right" if deal["whist_right"] else "deal_record.whist_wrong"))
        lines.append(section(lang, "deal_record.costly"))
        lines += costly_lines(deal["costly"], name, lang)
    return "\n".join(lines)


def _call(call: str, lang: str) -> str:
    word = call.split()[0]
    if word in ("pass", "bid") and call.split()[1:]:
        return esc(symbols(" ".join(call.split()[1:])))
    return t(lang, f"deal_record.call.{word}") if word in ("pass",) else esc(symbols(call))
