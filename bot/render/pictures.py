"""Score sheets as pictures, drawn like the paper ones: the paper, the ink, the fonts and
the text helpers each game's drawing uses (``GameUI.draw_picture`` in the game's module:
the preferans пулька, the bridge We/They sheet, the King grid). Pillow with the bundled
DejaVu Sans (``fonts/``, Cyrillic and the card suits ♠♥♦♣; its licence beside it).

Input is a *picture spec*: a small JSON-able dict the game UI makes from an engine view
(``GameUI.picture``) and the outbox carries to the sender, which draws it at send time:
``{"game": <the game that draws it>, "lang", "title", "names", "sheet", ...}``.
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

from bot.game_registry import ui_for

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
    ui = ui_for(spec["game"])  # KeyError: no such game
    with _DRAWING:
        return _png(ui.draw_picture(spec))
