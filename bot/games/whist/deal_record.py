"""The "🔍 The deal" message of a finished whist deal: the compass diagram of the hands,
the trump, the play trick by trick, the tricks each side took, the double-dummy table
and each side's tricks at the opening lead, and the costly cards. A pure function of one
deal's analysis (``engine.games.whist.analysis``), the names (seats N, E, S, W) and the language."""

from __future__ import annotations

from bot.i18n import t
from bot.render.common import display_name, pre_table
from bot.render.deal_record import compass, costly_lines, open_trick, section, trick_lines
from engine.analysis_core import tricks_of
from engine.cards import SUIT_SYMBOL
from engine.jsondata import JsonDict

SEATS = "NESW"
STRAINS_SHOWN = ("C", "D", "H", "S", "NT")


def deal_record_text(deal: JsonDict, names: list[str], lang: str) -> str:
    def letter(seat: object) -> str:
        return t(lang, f"deal_record.seat.{seat}")

    titles = {s: f"{letter(s)} {display_name(names[i], 14)}" for i, s in enumerate(SEATS)}
    trump = SUIT_SYMBOL[deal["trump"]] if deal["trump"] else t(lang, "deal_record.no_trump")
    lines = [
        t(lang, "deal_record.whist_title", deal=deal["deal"], dealer=letter(deal["dealer"]), trump=trump),
        compass(deal["hands"], titles),
        section(lang, "deal_record.play"),
    ]
    lines += trick_lines(deal["tricks"], letter, lang)
    if deal["result"] is not None:
        lines.append(t(lang, "deal_record.side_tricks", ns=deal["result"]["NS"], ew=deal["result"]["EW"]))
    if deal["dd"] is not None:
        lines.append(section(lang, "deal_record.double_dummy"))
        rows = [[""] + ["NT" if s == "NT" else SUIT_SYMBOL[s] for s in STRAINS_SHOWN]]
        rows += [[letter(seat)] + [str(deal["dd"][seat][s]) for s in STRAINS_SHOWN] for seat in SEATS]
        lines.append(pre_table(rows, align_right=frozenset(range(1, 6))))
        lines.append(t(lang, "deal_record.dd_sides", ns=deal["dd_tricks"]["NS"], ew=deal["dd_tricks"]["EW"]))
        lines.append(section(lang, "deal_record.costly"))
        lines += costly_lines(deal["costly"], letter, lang)
    return "\n".join(lines)


def tricks_so_far(view: JsonDict) -> list[JsonDict]:
    """📜 Tricks (bot.trick_view): this deal's tricks from a seat's view (``played``: the
    finished tricks' cards with who played each, in order), the trick on the table last."""
    done = tricks_of([(seat, card) for seat, card in view["played"]], 4, view["trump"])
    return done + open_trick(view["trick"], view["leader"])
