"""Monospaced text tables: pad by the width a cell takes on screen, not by its length.
Emoji and CJK characters (a computer player is "🤖 1") take two columns in a
monospaced font, combining marks none; plain ``str.ljust`` would misalign the sheet."""

from __future__ import annotations

import unicodedata
from collections.abc import Collection


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


def grid(rows: list[list[str]], align_right: Collection[int] = frozenset(), gap: str = "  ") -> str:
    """Rows of cells as aligned lines (trailing spaces dropped)."""
    widths = [max(display_width(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [rjust(c, widths[i]) if i in align_right else ljust(c, widths[i]) for i, c in enumerate(row)]
        lines.append(gap.join(cells).rstrip())
    return "\n".join(lines)


PHONE_WIDTH = 40  # columns a <pre> block shows on a phone held upright: every sheet line fits


def wrap(text: str, width: int = PHONE_WIDTH) -> list[str]:
    """One line of prose as lines of at most ``width`` screen columns, broken at spaces
    (a word longer than a whole line, such as a 64-character name, is cut where it must)."""
    if display_width(text) <= width:
        return [text]
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if display_width(candidate) <= width:
            line = candidate
            continue
        if display_width(word) <= width:
            lines.append(line)
            line = word
            continue
        line = f"{line} " if line else ""  # a word that never fits: fill lines with it
        for char in word:
            if display_width(line + char) > width:
                lines.append(line)
                line = ""
            line += char
    lines.append(line)
    return lines


def wrap_lines(text: str, width: int = PHONE_WIDTH) -> str:
    """Every line of ``text`` wrapped to ``width`` columns (lines that fit stay as they are)."""
    return "\n".join(part for line in text.split("\n") for part in wrap(line, width))


def phone_grid(rows: list[list[str]], align_right: Collection[int] = frozenset(), width: int = PHONE_WIDTH) -> str:
    """``grid`` with two spaces between columns, or one when two would pass ``width``."""
    text = grid(rows, align_right)
    if max(display_width(line) for line in text.split("\n")) > width:
        text = grid(rows, align_right, gap=" ")
    return text
