"""The Balkan preferans пулька as a picture, drawn like the paper sheet."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.render.pictures import FAINT, INK, LINE, PAPER, _text_at, drawable, fitted, font, shortened
from engine.games.preferans.scoring import parse_fnum, shown
from engine.rounding import rounded_shares


def _num(v: Any) -> str:
    return shown(parse_fnum(v), "int")


def _signed(v: Any) -> str:
    s = _num(v)
    return s if s.startswith("−") or s == "0" else "+" + s


def preferans_picture(spec: dict[str, Any]) -> Image.Image:
    """The пулька: a square, the bula in a circle at its centre, three sectors (seat 1
    left, seat 2 top, seat 3 right: clockwise) split by lines from the circle to the top
    corners and to the middle of the bottom side. Each sector has three bands from the
    edge inwards: whists (an L for the side players, one arm on each neighbour: the arm
    that touches the neighbour's sector), the contract column, the refe and hat marks.
    Names and the settlement are written outside the square, by each side."""
    lang, sheet, names = spec["lang"], spec["sheet"], spec["names"]
    size, margin, top_room = 720, 60, 56
    band = 84
    img = Image.new("RGB", (size + 2 * margin, size + 2 * margin + top_room), PAPER)
    d = ImageDraw.Draw(img)
    x0, y0 = margin, margin + top_room
    x1, y1 = x0 + size, y0 + size
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    _text_at(img, (cx, 28), *shortened(drawable(spec["title"]), 28, size, True), INK)
    for k in range(3):  # the three bands' rectangles, as printed on the paper
        inset = k * band
        d.rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset), outline=LINE, width=3 if k == 0 else 2)
    radius = 70
    d.line((x0, y0, cx - radius * 0.7, cy - radius * 0.7), fill=LINE, width=2)
    d.line((x1, y0, cx + radius * 0.7, cy - radius * 0.7), fill=LINE, width=2)
    d.line((cx, y1, cx, cy + radius), fill=LINE, width=2)
    d.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=PAPER, outline=LINE, width=3)
    _text_at(img, (cx, cy), str(spec["bula"]), font(44, bold=True), LINE)
    # the whists arms: the top player's band is split in the middle; a side player's L
    # is split where his vertical arm meets the bottom band
    d.line((cx, y0, cx, y0 + band), fill=LINE, width=2)
    small = font(17)

    def cell(center: tuple[float, float], caption: str, value: str, angle: int, room: float) -> None:
        dx, dy = {0: (0, 1), 90: (1, 0), -90: (-1, 0)}[angle]
        _text_at(img, (center[0] - dx * 15, center[1] - dy * 15), caption, small, FAINT, angle)
        _text_at(img, (center[0] + dx * 12, center[1] + dy * 12), value, fitted(value, 26, room, True), INK, angle)

    def soup(writer: int, target: int) -> tuple[str, str]:
        return t(lang, "sheets.pic.whists_on", n=target + 1), _num(sheet["soups"][writer][target])

    def marks(i: int) -> str:
        refe = "─" * int(sheet["refe"][i]) + "╱" * int(sheet["refe_used"][i])
        hats = "".join("∧" if m == "^" else "∨" for m in sheet["hats"][i])
        return " ".join(x for x in (refe, hats) if x) or "·"

    contract_caption = t(lang, "sheets.pic.contract")
    marks_caption = t(lang, "sheets.pic.marks")
    half = band / 2
    # seat 2, top: whists on seat 1 (left half, touching seat 1's sector) and seat 3
    span = (size - 2 * band) / 2
    cell((x0 + band / 2 + span / 2 + half / 2, y0 + half), *soup(1, 0), 0, span - 20)
    cell((cx + span / 2 - half / 2, y0 + half), *soup(1, 2), 0, span - 20)
    cell((cx, y0 + band + half), contract_caption, _num(sheet["contract"][1]), 0, size - 4 * band)
    cell((cx, y0 + 2 * band + half), marks_caption, marks(1), 0, size - 6 * band)
    # seat 1, left (reads upwards) and seat 3, right (reads downwards)
    arm = (size - band) / 2  # the vertical arm, from the top corner to the bottom band
    for i, (xe, angle, sign) in enumerate([(x0, 90, 1), (x1, -90, -1)]):
        seat = 0 if i == 0 else 2
        up_target = 1  # the vertical arm touches the top player's sector
        down_target = 2 if seat == 0 else 0  # the bottom arm touches the other side player
        cell((xe + sign * half, y0 + band + arm / 2), *soup(seat, up_target), angle, arm - 40)
        bottom_x = (x0 + cx) / 2 if seat == 0 else (cx + x1) / 2
        caption, value = soup(seat, down_target)
        cell((bottom_x + sign * half / 2, y1 - half), caption, value, 0, size / 2 - band - 20)
        d.line((xe, y1 - band, xe + sign * band, y1 - band), fill=LINE, width=2)
        cell((xe + sign * (band + half), cy), contract_caption, _num(sheet["contract"][seat]), angle, size - 4 * band)
        cell((xe + sign * (2 * band + half), cy), marks_caption, marks(seat), angle, size - 6 * band)
    # names and the settlement outside the square
    settle = sheet.get("settlement")
    # rounded like the text sheet's result row: adding up to zero, as the exact ones do
    rounded = rounded_shares([parse_fnum(v) for v in settle]) if settle is not None else []

    def label(i: int) -> str:
        name = drawable(names[i]) if i < len(names) else ""
        value = f"  {_signed(rounded[i])}" if settle is not None else ""
        return f"{i + 1}. {name}{value}"

    labels = [shortened(label(i), 24, size - 20, True, 16) for i in range(3)]
    _text_at(img, (x0 - margin / 2, cy), *labels[0], INK, 90)
    _text_at(img, (cx, y0 - 18), *labels[1], INK)
    _text_at(img, (x1 + margin / 2, cy), *labels[2], INK, -90)
    return img
