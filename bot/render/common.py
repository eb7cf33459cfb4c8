"""Small pieces every renderer uses: HTML escaping, card labels, keyboards."""
from __future__ import annotations

import html

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine.cards import SUIT_SYMBOL, label
from engine.text import grid

esc = html.escape


def cards_text(cards: list[str]) -> str:
    return " ".join(label(c) for c in cards) if cards else "—"


def suit_text(suit: str | None) -> str:
    return SUIT_SYMBOL[suit] if suit else "—"


def keyboard(rows: list[list[tuple[str, str]]]) -> InlineKeyboardMarkup | None:
    """Rows of (label, callback_data | "url:<link>") → markup; None when empty."""
    built = []
    for row in rows:
        buttons = []
        for text, data in row:
            if data.startswith("url:"):
                buttons.append(InlineKeyboardButton(text, url=data[4:]))
            else:
                buttons.append(InlineKeyboardButton(text, callback_data=data))
        if buttons:
            built.append(buttons)
    return InlineKeyboardMarkup(built) if built else None


def chunk(items: list, size: int) -> list[list]:
    return [items[i:i + size] for i in range(0, len(items), size)]


def pre_table(rows: list[list[str]], align_right: set[int] = frozenset()) -> str:
    """A monospaced table for an HTML <pre> block (cells already plain text)."""
    return "<pre>" + esc(grid(rows, align_right)) + "</pre>"
