"""The "🔍 The deal" message of a finished bridge deal: the compass diagram of the hands
as dealt, the auction, the contract and result, the play trick by trick, the
double-dummy table, the par, and the costly cards. A pure function of one deal's
analysis (``engine.games.bridge.analysis``), the players' names (seats N, E, S, W) and the
language."""

from __future__ import annotations

from bot.i18n import t
from bot.render.common import display_name, esc, pre_table
from bot.render.deal_record import compass, costly_lines, open_trick, section, trick_lines
from engine.cards import SUIT_SYMBOL
from engine.jsondata import JsonDict
from engine.tricks import winning_index

SEATS = "NESW"
STRAINS_SHOWN = ("C", "D", "H", "S", "NT")


def strain_symbol(strain: str) -> str:
    return "NT" if strain == "NT" else SUIT_SYMBOL[strain]


def contract_symbols(contract: str) -> str:
    """``"3NTX"`` -> ``"3NTX"``, ``"4S"`` -> ``"4♠"``."""
    level, rest = contract[0], contract[1:]
    if rest.startswith("NT"):
        return contract
    return level + SUIT_SYMBOL[rest[0]] + rest[1:]


def seat_letter(seat: object, lang: str) -> str:
    return t(lang, f"deal_record.seat.{seat}")


def deal_record_text(deal: JsonDict, names: list[str], lang: str) -> str:
    letter = lambda seat: seat_letter(seat, lang)  # noqa: E731
    titles = {s: f"{letter(s)} {display_name(names[i], 14)}" for i, s in enumerate(SEATS)}
    vul = deal["vulnerable"]
    vul_key = "both" if vul["NS"] and vul["EW"] else "ns" if vul["NS"] else "ew" if vul["EW"] else "none"
    lines = [
        t(lang, "deal_record.bridge_title", board=deal["board"], dealer=letter(deal["dealer"]))
        + " · "
        + t(lang, f"deal_record.vul.{vul_key}"),
        compass(deal["hands"], titles),
        section(lang, "deal_record.auction"),
        ", ".join(f"{letter(c['seat'])} {_call(c['call'], lang)}" for c in deal["auction"]) or "—",
    ]
    if deal["contract"] is None:
        lines.append(t(lang, "deal_record.passed_out"))
    else:
        lines.append(
            t(
                lang,
                "deal_record.contract_by",
                contract=contract_symbols(deal["contract"]),
                seat=letter(deal["declarer"]),
            )
        )
        if deal["result"] is not None:
            lines.append(t(lang, "deal_record.declarer_took", n=deal["result"]))
        lines.append(section(lang, "deal_record.play"))
        lines += trick_lines(deal["tricks"], letter, lang)
    lines.append(section(lang, "deal_record.double_dummy"))
    rows = [[""] + [strain_symbol(s) for s in STRAINS_SHOWN]]
    rows += [[letter(seat)] + [str(deal["dd"][seat][s]) for s in STRAINS_SHOWN] for seat in SEATS]
    lines.append(pre_table(rows, align_right=frozenset(range(1, 6))))
    par = deal["par"]
    lines.append(
        t(
            lang,
            "deal_record.par",
            score=par["score"],
            contracts=", ".join(_par_text(c, lang) for c in par["contracts"]),
        )
    )
    if deal["dd_tricks"] is not None:
        lines.append(t(lang, "deal_record.dd_tricks", n=deal["dd_tricks"]))
        lines.append(section(lang, "deal_record.costly"))
        lines += costly_lines(deal["costly"], letter, lang)
    return "\n".join(lines)


def _call(call: str, lang: str) -> str:
    if call in ("Pass", "X", "XX"):
        return t(lang, f"deal_record.call.{call}")
    return esc(contract_symbols(call))


def _par_text(contract: str, lang: str) -> str:
    """``"4SNX-1"``: level, strain, X, declarer, result — the strain as a symbol and the
    declarer in the reader's letters."""
    level = contract[0]
    strain = "NT" if contract[1:3] == "NT" else contract[1]
    rest = contract[1 + len(strain) :]
    doubled = "X" if rest.startswith("X") else ""
    rest = rest[len(doubled) :]
    return f"{level}{strain_symbol(strain)}{doubled} {seat_letter(rest[0], lang)}{rest[1:]}"


def tricks_so_far(view: JsonDict) -> list[JsonDict]:
    """📜 Tricks (bot.trick_view): this deal's tricks from a seat's view, the trick on the
    table last (``winner`` None). The view lists the finished tricks' cards in play order
    (``played``); who played each follows from the opening leader, the declarer's left
    hand, and each trick's winner leading the next."""
    contract, declarer = view.get("contract"), view.get("declarer")
    if not contract or declarer is None:
        return []
    trump = None if contract["strain"] == "NT" else contract["strain"]
    played, leader, out = view["played"], (declarer + 1) % 4, []
    for start in range(0, len(played) - len(played) % 4, 4):
        cards = played[start : start + 4]
        winner = (leader + winning_index(cards, trump)) % 4
        out.append({"leader": leader, "cards": [[(leader + i) % 4, c] for i, c in enumerate(cards)], "winner": winner})
        leader = winner
    return out + open_trick(view["trick"], view["trick_leader"])
