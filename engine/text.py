"""Monospaced text tables: pad by the width a cell takes on screen, not by its length.
Emoji and CJK characters (a computer player is "🤖 1") take two columns in a
monospaced font, combining marks none; plain ``str.ljust`` would misalign the sheet."""

from __future__ import annotations

import unicodedata
from collections.abc import Container


def display_width(text: str) -> int:
    width = 0
    for char in text:
        if unicodedata.combining(char) or char in "\u200d\ufe0f":
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def ljust(text: str, width: int) -> str:
    return text + " " * max(width - display_width(text), 0)


def rjust(text: str, width: int) -> str:
    return " " * max(width - display_width(text), 0) + text


def grid(rows: list[list[str]], align_right: Container[int] = frozenset(), gap: str = "  ") -> str:
    """Rows of cells as aligned lines (trailing spaces dropped)."""
    widths = [max(display_width(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [rjust(c, widths[i]) if i in align_right else ljust(c, widths[i]) for i, c in enumerate(row)]
        lines.append(gap.join(cells).rstrip())
    return "\n".join(lines)
