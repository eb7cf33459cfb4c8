"""The King score grid as a picture, drawn like the paper one."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.render.pictures import FAINT, INK, LINE, PAPER, _text_at, drawable, fitted, font, shortened
from engine.games.king.scoring import CONTRACTS


def king_picture(spec: dict[str, Any]) -> Image.Image:
    """The King grid: a row per deal (its name, the dealer, the trump of deals 9–12), a
    column per player headed by his name, the row's sum, the totals at the foot."""
    lang, names = spec["lang"], spec["names"]
    by_no = {e["no"]: e for e in spec["sheet"]}
    widths = [46, 190, 50, 120, 120, 120, 120, 80]
    row, head = 40, 100
    width = sum(widths) + 20
    height = head + row * 14 + 20
    img = Image.new("RGB", (width, height), PAPER)
    d = ImageDraw.Draw(img)
    _text_at(img, (width / 2, 26), *shortened(drawable(spec["title"]), 26, width - 20, True), INK)
    xs = [10]
    for w in widths:
        xs.append(xs[-1] + w)
    top = head - row * 1.5
    rows_y = [top + row * 1.5 + row * i for i in range(14)]
    bottom = rows_y[-1]
    for x in xs:
        d.line((x, top, x, bottom), fill=LINE, width=2)
    d.line((xs[0], top, xs[-1], top), fill=LINE, width=2)
    for i, y in enumerate(rows_y):
        d.line((xs[0], y, xs[-1], y), fill=LINE, width=3 if i in (0, 12) else 1)

    def centre(col: int, r: int) -> tuple[float, float]:
        y_top = top if r < 0 else rows_y[r]
        y_bottom = rows_y[0] if r < 0 else rows_y[r + 1]
        return ((xs[col] + xs[col + 1]) / 2, (y_top + y_bottom) / 2)

    caption = font(16)
    heads = ["#", t(lang, "king.sheet.contract"), t(lang, "king.sheet.dealer")]
    for col, text in enumerate(heads):
        _text_at(img, centre(col, -1), text, caption, FAINT)
    for s in range(4):
        name = drawable(names[s]) if s < len(names) else ""
        _text_at(img, centre(3 + s, -1), *shortened(f"{s + 1}. {name}", 17, widths[3 + s] - 8, smallest=13), INK)
    _text_at(img, centre(7, -1), "Σ", caption, FAINT)
    first = spec.get("first_dealer")
    value_font = font(20, True)
    for no in range(1, 13):
        r = no - 1
        e = by_no.get(no)
        dealer = e["dealer"] if e else (None if first is None else (first + no - 1) % 4)
        name = t(lang, f"king.short.{CONTRACTS[no]}")
        if no >= 9 and e and e.get("trump"):
            name += " " + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[e["trump"]]
        _text_at(img, centre(0, r), str(no), caption, FAINT)
        _text_at(img, centre(1, r), name, fitted(name, 19, widths[1] - 10), INK)
        _text_at(img, centre(2, r), "" if dealer is None else str(dealer + 1), caption, FAINT)
        if e:
            for s, score in enumerate(e["scores"]):
                _text_at(img, centre(3 + s, r), str(score), value_font, INK)
            _text_at(img, centre(7, r), str(sum(e["scores"])), caption, FAINT)
    totals = spec["totals"]
    _text_at(img, centre(1, 12), t(lang, "king.sheet.total"), font(20, True), LINE)
    for s, total in enumerate(totals):
        _text_at(img, centre(3 + s, 12), str(total), font(22, True), LINE)
    _text_at(img, centre(7, 12), str(sum(totals)), caption, FAINT)
    return img
