"""The bridge We/They score sheet as a picture, drawn like the paper one."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.render.pictures import FAINT, INK, LINE, PAPER, _text_at, drawable, font, shortened
from engine.games.bridge.sheet import per_deal


def bridge_picture(spec: dict[str, Any]) -> Image.Image:
    """The We/They sheet: two columns under "We" and "They", the line across the middle;
    above it the bonus points deal by deal, written upwards from the line (as on paper),
    below it the trick points, with a line under each won game; the totals at the foot."""
    lang, sheet = spec["lang"], spec["sheet"]
    above = per_deal(sheet["entries"], "above")
    below = per_deal(sheet["entries"], "below")
    row, width, head = 40, 560, 110
    above_rows = max(len(above), 3)
    below_rows = max(len(below), 3)
    foot = 3 * row + 20
    height = head + (above_rows + below_rows) * row + 30 + foot
    img = Image.new("RGB", (width, height), PAPER)
    d = ImageDraw.Draw(img)
    mid = width / 2
    we_x, they_x = mid / 2 + 40, mid + mid / 2  # the centres of the two columns' numbers
    _text_at(img, (mid, 26), *shortened(drawable(spec["title"]), 26, width - 20, True), INK)
    we, they = t(lang, "bridge.we"), t(lang, "bridge.they")
    _text_at(img, (we_x, 80), we, font(30, True), LINE)
    _text_at(img, (they_x, 80), they, font(30, True), LINE)
    top = head
    line_y = top + above_rows * row
    d.line((20, top - 4, width - 20, top - 4), fill=LINE, width=2)
    d.line((mid, 56, mid, line_y + below_rows * row + 10), fill=LINE, width=3)
    d.line((20, line_y, width - 20, line_y), fill=LINE, width=5)  # the line
    value_font, deal_font = font(26, True), font(15)

    def write(y: float, deal: int, ns: int, ew: int) -> None:
        _text_at(img, (32, y), f"{deal}.", deal_font, FAINT)
        if ns:
            _text_at(img, (we_x, y), str(ns), value_font, INK)
        if ew:
            _text_at(img, (they_x, y), str(ew), value_font, INK)

    for i, (deal, ns, ew, _) in enumerate(above):  # the first entry sits on the line
        write(line_y - row * (i + 0.5), deal, ns, ew)
    games_done = sheet["game"]
    for i, (deal, ns, ew, game) in enumerate(below):
        y = line_y + row * (i + 0.5)
        write(y, deal, ns, ew)
        nxt = below[i + 1][3] if i + 1 < len(below) else games_done
        if game < nxt:  # a game won: a line under it across both columns
            d.line((60, y + row / 2, width - 40, y + row / 2), fill=LINE, width=2)
    y = line_y + below_rows * row + 20
    d.line((20, y, width - 20, y), fill=LINE, width=2)
    small = font(19)
    for k, (key, field) in enumerate(
        [("bridge.sheet.games", "games"), ("bridge.sheet.above", "above"), ("bridge.sheet.total", "totals")]
    ):
        yy = y + row * (k + 0.6)
        _text_at(img, (100, yy), t(lang, key), small, FAINT)
        _text_at(img, (we_x, yy), str(sheet[field]["NS"]), font(22, True), INK)
        _text_at(img, (they_x, yy), str(sheet[field]["EW"]), font(22, True), INK)
    return img
