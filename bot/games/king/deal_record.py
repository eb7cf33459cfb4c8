"""The "🔍 The deal" message of a finished King deal: the contract, the hands as dealt,
and the play trick by trick (the seventh and eighth deals: the cards laid in order).
King has no double-dummy figures (every player for himself), and the message says so.
A pure function of one deal's analysis (``engine.games.king.analysis``), the names (by seat)
and the language."""

from __future__ import annotations

from bot.i18n import t
from bot.render.common import display_name, esc
from bot.render.deal_record import hand_line, open_trick, section, trick_lines
from engine.cards import SUIT_SYMBOL, label
from engine.jsondata import JsonDict


def deal_record_text(deal: JsonDict, names: list[str], lang: str) -> str:
    def name(seat: object) -> str:
        index = int(str(seat))
        return esc(display_name(names[index], 12)) if index < len(names) else str(seat)

    lines = [t(lang, "deal_record.king_title", no=deal["no"], contract=t(lang, f"king.contract.{deal['contract']}"))]
    if deal["trump"]:
        lines.append(t(lang, "deal_record.king_trump", trump=SUIT_SYMBOL[deal["trump"]]))
    lines += [f"{name(seat)}: {hand_line(hand)}" for seat, hand in deal["hands"].items()]
    if deal["laid"]:
        lines.append(section(lang, "deal_record.laid"))
        lines.append(", ".join(f"{name(seat)} {_laid(action, lang)}" for seat, action in deal["laid"]))
    else:
        lines.append(section(lang, "deal_record.play"))
        lines += trick_lines(deal["tricks"], name, lang)
    lines.append(t(lang, "deal_record.king_no_dd"))
    return "\n".join(lines)


def _laid(action: str, lang: str) -> str:
    """``"play 7S"`` -> ``"7♠"``; any other word of the seventh and eighth deals as said."""
    words = action.split()
    if len(words) == 2 and words[0] == "play":
        return label(words[1])
    return esc(action)


def tricks_so_far(view: JsonDict) -> list[JsonDict]:
    """📜 Tricks (bot.trick_view): this deal's tricks from a seat's view, the trick on the
    table last; none in the seventh and eighth deals, which are not played in tricks."""
    if view.get("kind") != "tricks":
        return []
    done = [
        {"leader": x["leader"], "cards": [list(p) for p in x["plays"]], "winner": x["winner"]} for x in view["played"]
    ]
    return done + open_trick(view["trick"], view["leader"])
