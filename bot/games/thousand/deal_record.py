"""The "🔍 The deal" message of a finished Тысяча deal: the contract, the hands as dealt,
the прикуп, the gifts, the final hands and the play trick by trick (marriages marked).
A pure function of one deal's analysis (``engine.games.thousand.analysis``), the names
(by seat) and the language. No double-dummy figures: every player plays for himself."""

from __future__ import annotations

from bot.i18n import t
from bot.render.common import cards_text, display_name, esc
from bot.render.deal_record import hand_line, open_trick, section, trick_lines
from engine.cards import label
from engine.jsondata import JsonDict


def deal_record_text(deal: JsonDict, names: list[str], lang: str) -> str:
    def name(seat: object) -> str:
        index = int(str(seat))
        return esc(display_name(names[index], 12)) if index < len(names) else str(seat)

    lines = [t(lang, "thousand.record.title", no=deal["no"])]
    if deal["declarer"] is not None:
        amount = t(lang, "thousand.dark_amount", n=deal["contract"]) if deal["dark"] else str(deal["contract"])
        lines.append(t(lang, "thousand.record.contract", name=name(deal["declarer"]), n=amount))
    lines.append(section(lang, "thousand.record.dealt"))
    lines += [f"{name(seat)}: {hand_line(hand)}" for seat, hand in deal["hands"].items()]
    lines.append(t(lang, "thousand.talon", cards=cards_text(deal["talon"])))
    for to, card in deal["gifts"]:
        lines.append(t(lang, "thousand.record.gift", card=label(card), name=name(to)))
    if deal["marriages"]:
        said = ", ".join(f"{name(seat)} 💍{label('K' + suit)}" for seat, suit in deal["marriages"])
        lines.append(t(lang, "thousand.record.marriages", list=said))
    if deal["conceded"]:
        lines.append(t(lang, "thousand.conceded"))
    elif deal["tricks"]:
        lines.append(section(lang, "deal_record.play"))
        lines += trick_lines(deal["tricks"], name, lang)
    return "\n".join(lines)


def tricks_so_far(view: JsonDict) -> list[JsonDict]:
    """📜 Tricks (bot.trick_view): this deal's tricks from a seat's view, the trick on the
    table last."""
    if view["phase"] != "play":
        return []
    played = view["played"]
    done = []
    for i in range(0, len(played), 3):
        trick = [list(p) for p in played[i : i + 3]]
        nxt = played[i + 3][0] if i + 3 < len(played) else (view["trick"][0][0] if view["trick"] else view["leader"])
        done.append({"leader": trick[0][0], "cards": trick, "winner": nxt})
    return done + open_trick(view["trick"], view["leader"])
