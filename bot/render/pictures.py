"""Score sheets as pictures, drawn like the paper ones: the preferans пулька (three
sectors round the bula with whists, contract column and refe/hats bands), the bridge
We/They sheet with its line, the King grid. Pillow with the bundled DejaVu Sans
(``fonts/``, Cyrillic and the card suits ♠♥♦♣; its licence beside it).

Input is a *picture spec*: a small JSON-able dict the game UI makes from an engine view
(``GameUI.picture``) and the outbox carries to the sender, which draws it at send time:
``{"game": "preferans" | "bridge" | "king", "lang", "title", "names", "sheet", ...}``.
``draw(spec)`` returns PNG bytes; it raises on a spec it cannot draw (the sender then
sends the text sheet instead).
"""

from __future__ import annotations

import io
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import t
from engine.bridge.sheet import per_deal
from engine.king.scoring import CONTRACTS
from engine.preferans.scoring import parse_fnum, shown
from engine.rounding import rounded_shares

FONTS = Path(__file__).parent / "fonts"
PAPER = (252, 250, 240)  # the sheet's paper
INK = (25, 35, 90)  # blue ink for what is written
LINE = (150, 40, 40)  # the printed red lines of the sheet
FAINT = (120, 120, 130)  # captions

Font = ImageFont.FreeTypeFont


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False) -> Font:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


@lru_cache(maxsize=4096)
def _has_glyph(char: str) -> bool:
    """The font draws ``char`` (emoji and rare scripts it lacks would show as boxes)."""
    f = font(20)
    return char.isspace() or bytes(f.getmask(char)) != bytes(
        f.getmask("\u0378")
    )  # U+0378 is unassigned: the font's "no glyph" box


def drawable(text: str) -> str:
    """``text`` without the characters the bundled font cannot draw."""
    return "".join(c for c in text if _has_glyph(c)).strip()


def _width(text: str, f: Font) -> float:
    return f.getlength(text)


def fitted(text: str, size: int, room: float, bold: bool = False) -> Font:
    """The largest font up to ``size`` in which ``text`` fits ``room`` pixels."""
    while size > 8 and _width(text, font(size, bold)) > room:
        size -= 1
    return font(size, bold)


def shortened(text: str, size: int, room: float, bold: bool = False, smallest: int = 14) -> tuple[str, Font]:
    """``text`` in the largest font from ``size`` down to ``smallest`` that fits ``room``
    pixels; cut with "…" when even the smallest does not (a 64-letter name)."""
    f = fitted(text, size, room, bold)
    if f.size >= smallest:
        return text, f
    f = font(smallest, bold)
    while text and _width(text + "…", f) > room:
        text = text[:-1]
    return text.rstrip() + "…", f


def _text_at(img: Image.Image, center: tuple[float, float], text: str, f: Font, fill: tuple, angle: int = 0) -> None:
    """``text`` centred on ``center``, turned by ``angle`` degrees (90: reads upwards)."""
    if not text:
        return
    left, top, right, bottom = f.getbbox(text)
    pad = 2
    tile = Image.new("RGBA", (int(right - left) + 2 * pad, int(bottom - top) + 2 * pad), (0, 0, 0, 0))
    ImageDraw.Draw(tile).text((pad - left, pad - top), text, font=f, fill=fill)
    if angle:
        tile = tile.rotate(angle, expand=True)
    img.paste(tile, (int(center[0] - tile.width / 2), int(center[1] - tile.height / 2)), tile)


def _png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()


_DRAWING = threading.Lock()  # the cached FreeType faces are shared: one drawing at a time


def draw(spec: dict[str, Any]) -> bytes:
    """The picture of a sheet spec as PNG bytes (safe to call from several threads)."""
    from bot.render.pulka_ru import preferans_ru_picture  # it draws with this module's helpers

    drawers = {
        "preferans": preferans_picture,
        "preferans_ru": preferans_ru_picture,
        "bridge": bridge_picture,
        "king": king_picture,
    }
    with _DRAWING:
        return _png(drawers[spec["game"]](spec))


# ------------------------------------------------------------------------ preferans
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


# ------------------------------------------------------------------------ bridge
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


# ------------------------------------------------------------------------ King
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
