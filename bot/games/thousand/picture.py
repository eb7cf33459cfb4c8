"""The Тысяча sheet as a picture, drawn like the paper one: a column per player with the
running total under each deal, a болт marked with a stroke beside the number, a deal on
the бочка with the number boxed, a самосвал crossed out to 0."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.render.pictures import FAINT, INK, LINE, PAPER, _text_at, drawable, font, shortened

MAX_ROWS = 40  # a long game shows its last deals; the totals stay at the foot


def thousand_picture(spec: dict[str, Any]) -> Image.Image:
    lang, names = spec["lang"], spec["names"]
    entries = spec["entries"][-MAX_ROWS:]
    players = len(names)
    col0, col, row, head = 80, 170, 34, 100
    width = col0 + col * players + 20
    height = head + row * (len(entries) + 1) + 60
    img = Image.new("RGB", (width, height), PAPER)
    d = ImageDraw.Draw(img)
    _text_at(img, (width / 2, 26), *shortened(drawable(spec["title"]), 26, width - 20, True), INK)
    xs = [10, 10 + col0] + [10 + col0 + col * (i + 1) for i in range(players)]
    top = head - row
    bottom = head + row * (len(entries) + 1)
    for x in xs:
        d.line((x, top, x, bottom), fill=LINE, width=2)
    d.line((xs[0], top, xs[-1], top), fill=LINE, width=2)
    d.line((xs[0], head, xs[-1], head), fill=LINE, width=3)
    d.line((xs[0], bottom - row, xs[-1], bottom - row), fill=LINE, width=3)
    caption, value = font(16), font(20, True)
    _text_at(img, ((xs[0] + xs[1]) / 2, top + row / 2), "#", caption, FAINT)
    for s in range(players):
        cx = (xs[s + 1] + xs[s + 2]) / 2
        _text_at(img, (cx, top + row / 2), *shortened(f"{s + 1}. {drawable(names[s])}", 17, col - 8, smallest=13), INK)
    for r, entry in enumerate(entries):
        cy = head + row * r + row / 2
        contract = f"{entry['n']}"
        _text_at(img, ((xs[0] + xs[1]) / 2, cy), contract, caption, FAINT)
        for s in range(players):
            cx = (xs[s + 1] + xs[s + 2]) / 2
            marks = entry["marks"].get(str(s), [])
            text = str(entry["totals"][s])
            if s == entry["declarer"]:
                text += f" ({'+' if entry['made'] else '−'}{entry['contract']})"
            _text_at(img, (cx, cy), text, value if s == entry["declarer"] else font(18), INK)
            if "bolt" in marks:  # the paper's stroke beside the number
                d.line((xs[s + 2] - 22, cy + 10, xs[s + 2] - 10, cy - 10), fill=LINE, width=3)
            if "barrel_on" in marks or _on_barrel(spec, entries, r, s):
                d.rectangle((cx - 40, cy - 14, cx + 40, cy + 14), outline=LINE, width=2)
            if "samosval" in marks:
                d.line((cx - 40, cy, cx + 40, cy), fill=LINE, width=2)
    cy = bottom - row / 2
    _text_at(img, ((xs[0] + xs[1]) / 2, cy), "Σ", caption, LINE)
    for s, total in enumerate(spec["totals"]):
        _text_at(img, ((xs[s + 1] + xs[s + 2]) / 2, cy), str(total), font(22, True), LINE)
    legend = t(lang, "thousand.pic.legend")
    _text_at(img, (width / 2, bottom + 28), *shortened(legend, 15, width - 20), FAINT)
    return img


def _on_barrel(spec: dict[str, Any], entries: list[dict[str, Any]], r: int, seat: int) -> bool:
    """The seat was on the бочка when this deal was written (its idle mark says so)."""
    return "barrel_idle" in entries[r]["marks"].get(str(seat), [])
