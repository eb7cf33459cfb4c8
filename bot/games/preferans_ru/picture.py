"""The Russian пулька as a picture, drawn like the paper sheet (docs/rules/preferans_ru.md
§6.1): a square with a circle in the centre (the pool target, and the exact settlement once
the пулька is closed), split into one sector per player by lines from the circle: for 3
players the "Mercedes" (to the two top corners and to the middle of the bottom side), for 4
the two diagonals. Each sector has three bands, from the edge inwards: the висты he writes
on each opponent (one column per opponent, the column touching that opponent's side where
the paper has it), his пуля, his гора. Every cell is written as players write it, the running
total after each hand that changed it ("2.4.6.10", the last one bold); the oldest numbers
give way to "…" when a long game fills the cell. Names and the rounded settlement are
written outside the square.

Spec (``bot.games.preferans_ru.score.sheet_picture``): ``{"game": "preferans_ru", "lang",
"title", "names", "pool", "system", "seats": [{"pool": [...], "mountain": [...],
"whists": {"<seat>": [...]}}], "settlement": [fnum], "finished"}``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import t
from bot.render.pictures import FAINT, INK, LINE, PAPER, Font, _text_at, drawable, font, shortened
from engine.games.preferans_ru.sheet import WORDS, shown
from engine.rounding import rounded_shares

SIZE, MARGIN, TOP_ROOM = 840, 64, 60
BAND = 104  # each band's depth: висты, пуля, гора
RADIUS = 112
SEP = "."  # between the numbers of a progression, as players write them


def _tile(parts: list[tuple[str, Font, tuple[int, int, int]]]) -> Image.Image:
    """Texts in several fonts on one baseline (the history small, the total bold)."""
    widths = [f.getlength(text) for text, f, _ in parts]
    ascent = max(f.getmetrics()[0] for _, f, _ in parts)
    descent = max(f.getmetrics()[1] for _, f, _ in parts)
    tile = Image.new("RGBA", (int(sum(widths)) + 6, ascent + descent + 4), (0, 0, 0, 0))
    d = ImageDraw.Draw(tile)
    x = 3.0
    for (text, f, fill), width in zip(parts, widths, strict=True):
        d.text((x, 2 + ascent), text, font=f, fill=fill, anchor="ls")
        x += width
    return tile


def _paste(img: Image.Image, tile: Image.Image, center: tuple[float, float], angle: int) -> None:
    if angle:
        tile = tile.rotate(angle, expand=True)
    img.paste(tile, (int(center[0] - tile.width / 2), int(center[1] - tile.height / 2)), tile)


def progression_parts(numbers: list[str], room: float) -> list[tuple[str, Font, tuple[int, int, int]]]:
    """``2.4.6.`` in ink and the running total bold, fitted to ``room`` pixels: the oldest
    numbers give way to "…" first, then the fonts get smaller."""
    if not numbers:
        return [("—", font(24), FAINT)]
    for big, small in ((32, 23), (29, 21), (26, 19), (22, 16)):
        for start in range(len(numbers)):
            history = SEP.join(numbers[start:-1])
            head = ("…" if start else "") + history + (SEP if history else "")
            parts = [(head, font(small), INK), (numbers[-1], font(big, True), INK)]
            if not head:
                parts = parts[1:]
            if sum(f.getlength(text) for text, f, _ in parts) <= room:
                return parts
    return [("…", font(15), INK), (numbers[-1], font(21, True), INK)]


def _cell(
    img: Image.Image, center: tuple[float, float], caption: str, numbers: list[str], angle: int, room: float
) -> None:
    """A caption over a progression, both turned by ``angle`` (90 reads upwards)."""
    dx, dy = {0: (0.0, 1.0), 90: (1.0, 0.0), -90: (-1.0, 0.0)}[angle]
    _text_at(img, (center[0] - dx * 27, center[1] - dy * 27), caption, font(19), FAINT, angle)
    _paste(img, _tile(progression_parts(numbers, room)), (center[0] + dx * 12, center[1] + dy * 12), angle)


def _circle(img: Image.Image, spec: dict[str, Any], center: tuple[float, float]) -> None:
    """The pool target; at the end the exact settlement under it (§6.5)."""
    d = ImageDraw.Draw(img)
    cx, cy = center
    d.ellipse((cx - RADIUS, cy - RADIUS, cx + RADIUS, cy + RADIUS), fill=PAPER, outline=LINE, width=3)
    if not spec["finished"]:
        _text_at(img, (cx, cy - 8), str(spec["pool"]), font(52, True), LINE)
        _text_at(img, (cx, cy + 38), drawable(spec["system"]), font(18), FAINT)
        return
    rows = spec["settlement"]
    step = 30 if len(rows) == 3 else 26
    top = cy - step * len(rows) / 2 + 4
    _text_at(img, (cx, top - 16), f"{spec['pool']} · {t(spec['lang'], 'prefru_pic.exact')}", font(16), FAINT)
    for i, value in enumerate(rows):
        text = f"{i + 1}: {shown(Fraction(value), sign=True)}"
        _text_at(img, (cx, top + step * (i + 0.5) + 6), *shortened(text, 22, 2 * RADIUS - 34, True, 12), LINE)


def _labels(spec: dict[str, Any]) -> list[tuple[str, Font]]:
    """ "1. Аня  ≈ +12" for each seat: names outside, the settlement rounded; a long name is
    cut, never the number."""
    out = []
    rounded = rounded_shares([Fraction(v) for v in spec["settlement"]])  # adding up to zero, as the exact ones do
    for i, name in enumerate(spec["names"]):
        value = ("" if spec["finished"] else "≈ ") + shown(rounded[i], sign=True)
        f = font(24, True)
        room = SIZE - 20 - f.getlength(f"  {value}")
        text, _ = shortened(f"{i + 1}. {drawable(name)}", 24, room, True, 24)
        out.append((f"{text}  {value}", f))
    return out


def preferans_ru_picture(spec: dict[str, Any]) -> Image.Image:
    """The пулька for 3 or 4 players (seat 1 left, then clockwise: top, right, bottom)."""
    players = len(spec["seats"])
    if players not in (3, 4):
        raise ValueError(f"a пулька has 3 or 4 players, not {players}")
    bottom_room = MARGIN if players == 4 else 24
    img = Image.new("RGB", (SIZE + 2 * MARGIN, SIZE + MARGIN + TOP_ROOM + bottom_room), PAPER)
    d = ImageDraw.Draw(img)
    x0, y0 = MARGIN, MARGIN + TOP_ROOM
    x1, y1 = x0 + SIZE, y0 + SIZE
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    _text_at(img, (cx, 30), *shortened(drawable(spec["title"]), 28, SIZE + MARGIN, True), INK)
    for k in range(3):  # the bands as printed on the paper
        inset = k * BAND
        d.rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset), outline=LINE, width=5 if k == 0 else 3)
    w = WORDS.get(spec["lang"], WORDS["en"])
    lang, seats = spec["lang"], spec["seats"]

    def whists_on(target: int) -> str:
        return t(lang, "prefru_pic.whists_on", n=target + 1)

    if players == 3:
        _mercedes(img, d, seats, (x0, y0, x1, y1), whists_on)
    else:
        _cross(img, d, seats, (x0, y0, x1, y1), whists_on)
    # пуля (middle band) and гора (inner band), in the middle of each player's side
    sides = [(90, 1, 0), (0, 0, 1), (-90, -1, 0), (0, 0, -1)][:players]
    room_pool = SIZE - 4 * BAND  # the band's width where its numbers stand, less a margin
    room_mountain = SIZE - 6 * BAND + 24
    for seat, (angle, sx, sy) in enumerate(sides):
        edge = (x0 if sx > 0 else x1 if sx < 0 else cx, y0 if sy > 0 else y1 if sy < 0 else cy)
        for k, key, room in ((1, "pool", room_pool), (2, "mountain", room_mountain)):
            depth = k * BAND + BAND / 2
            center = (edge[0] + sx * depth, edge[1] + sy * depth)
            _cell(img, center, w[key], seats[seat][key], angle, room)
    _circle(img, spec, (cx, cy))
    labels = _labels(spec)
    _text_at(img, (x0 - MARGIN / 2, cy), *labels[0], INK, 90)
    _text_at(img, (cx, y0 - 20), *labels[1], INK)
    _text_at(img, (x1 + MARGIN / 2, cy), *labels[2], INK, -90)
    if players == 4:
        _text_at(img, (cx, y1 + MARGIN / 2), *labels[3], INK)
    return img


Box = tuple[float, float, float, float]


def _mercedes(img: Image.Image, d: ImageDraw.ImageDraw, seats: list[dict[str, Any]], box: Box, whists_on: Any) -> None:
    """3 players: lines from the circle to the top corners and to the middle of the bottom.
    The top player's висты band is split in the middle (left half on seat 1, right half on
    seat 3); a side player's is an L: the upright arm on the top player, the bottom arm on
    the other side player."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    near = RADIUS * 0.7071
    d.line((x0, y0, cx - near, cy - near), fill=LINE, width=3)
    d.line((x1, y0, cx + near, cy - near), fill=LINE, width=3)
    d.line((cx, y1, cx, cy + RADIUS), fill=LINE, width=3)
    d.line((cx, y0, cx, y0 + BAND), fill=LINE, width=3)
    half = BAND / 2
    span = (SIZE - 2 * BAND) / 2  # each half of the top band's inner edge
    whists = seats[1]["whists"]
    _cell(img, (x0 + BAND + span / 2, y0 + half), whists_on(0), whists["0"], 0, span - 24)
    _cell(img, (cx + span / 2, y0 + half), whists_on(2), whists["2"], 0, span - 24)
    arm = SIZE - 2 * BAND  # the upright arm, between the top corner's line and the bottom arm
    for seat, xe, angle, sign in ((0, x0, 90, 1), (2, x1, -90, -1)):
        other = 2 if seat == 0 else 0
        whists = seats[seat]["whists"]
        d.line((xe, y1 - BAND, xe + sign * BAND, y1 - BAND), fill=LINE, width=3)
        _cell(img, (xe + sign * half, y0 + BAND + arm / 2), whists_on(1), whists["1"], angle, arm - 60)
        bottom = (SIZE / 2 - BAND) / 2 + BAND  # the middle of the bottom arm past the corner
        _cell(img, (xe + sign * bottom, y1 - half), whists_on(other), whists[str(other)], 0, SIZE / 2 - BAND - 24)


def _cross(img: Image.Image, d: ImageDraw.ImageDraw, seats: list[dict[str, Any]], box: Box, whists_on: Any) -> None:
    """4 players: the diagonals. Each player's висты band is split in three columns, one per
    opponent: the column at each end of the side is on the neighbour whose sector it touches,
    the middle one on the player across."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    near = RADIUS * 0.7071
    for ex, ey, sx, sy in ((x0, y0, -1, -1), (x1, y0, 1, -1), (x1, y1, 1, 1), (x0, y1, -1, 1)):
        d.line((ex, ey, cx + sx * near, cy + sy * near), fill=LINE, width=3)
    third = (SIZE - 2 * BAND) / 3
    half = BAND / 2
    for seat in range(4):
        # from the end of the side where the right neighbour (seat - 1) sits, to the left one
        opponents = [(seat + k) % 4 for k in (3, 2, 1)]
        if seat == 3:  # the bottom side is drawn from its left end on screen, next to seat 1
            opponents.reverse()
        whists = seats[seat]["whists"]
        for col, target in enumerate(opponents):
            along = BAND + third * (col + 0.5)
            cut = BAND + third * col
            if seat == 0:  # left side, from the bottom (next to seat 4) upwards
                center, angle = (x0 + half, y1 - along), 90
                line = (x0, y1 - cut, x0 + BAND, y1 - cut)
            elif seat == 1:  # top, from the left (next to seat 1)
                center, angle = (x0 + along, y0 + half), 0
                line = (x0 + cut, y0, x0 + cut, y0 + BAND)
            elif seat == 2:  # right side, from the top (next to seat 2) downwards
                center, angle = (x1 - half, y0 + along), -90
                line = (x1, y0 + cut, x1 - BAND, y0 + cut)
            else:  # bottom, from the left (next to seat 1)
                center, angle = (x0 + along, y1 - half), 0
                line = (x0 + cut, y1, x0 + cut, y1 - BAND)
            if col:
                d.line(line, fill=LINE, width=3)
            _cell(img, center, whists_on(target), whists[str(target)], angle, third - 20)
