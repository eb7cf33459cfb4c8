"""Small pieces every renderer uses: HTML escaping, card labels, keyboards."""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Collection
from fractions import Fraction

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine.cards import SUIT_SYMBOL, label
from engine.text import display_width, grid

esc = html.escape

NAME_WIDTH = 20  # screen columns a person's name takes on tables, sheets and toasts
TITLE_WIDTH = 40  # ... and a group's title in DMs
MESSAGE_LIMIT = 4096  # Telegram's limit on a message text, in UTF-16 units after parsing
COMPUTER_MARK = "🤖"  # a computer's seat is named "🤖 Ada": renderers may tell it by that
# Computers' names, per table language; short, so sheets still fit a phone. A durak table
# seats five computers at most, so a language needs at least five names.
COMPUTER_NAMES = {
    "en": ("Ada", "Alan", "Grace", "Linus", "Kate", "Max", "Nora", "Otto"),
    "ru": ("Маша", "Петя", "Катя", "Федя", "Оля", "Костя", "Нина", "Гриша"),
}


def computer_name(lang: str, names_at_table: Collection[str] = ()) -> str:
    """A new computer's name: "🤖 " and the first name of the table's language that no
    seat there has, computer or person ("Ada" is taken by a person named "Ada Smith" as
    well: "🤖 Ada" beside her would read as her seat). Names stored before (the old
    "🤖 1") stay as they are; they only count as taken."""
    taken = set()
    for name in names_at_table:
        bare = name.removeprefix(COMPUTER_MARK).strip().casefold()
        taken.update({bare, *bare.split()[:1]})
    for name in COMPUTER_NAMES.get(lang, COMPUTER_NAMES["en"]):
        if name.casefold() not in taken:
            return f"{COMPUTER_MARK} {name}"
    number = next(k for k in range(1, len(taken) + 2) if str(k) not in taken)  # every name taken
    return f"{COMPUTER_MARK} {number}"


# Bidirectional controls flip the text after them ("‮" turns a whole table line
# around): people's names and titles never need them on our screens.
_BIDI_CONTROLS = dict.fromkeys(map(ord, "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u061c"))


def display_name(name: str, width: int = NAME_WIDTH) -> str:
    """A name or title from people as our screens show it: one line, no control or
    bidi characters, at most ``width`` screen columns (cut with "…"). Plain text: the
    caller still escapes it for HTML."""
    cleaned = "".join(
        " " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c for c in name.translate(_BIDI_CONTROLS)
    )
    cleaned = " ".join(cleaned.split())
    if display_width(cleaned) <= width:
        return cleaned
    out = ""
    for char in cleaned:
        if display_width(out + char) > width - 1:
            break
        out += char
    return out.rstrip() + "…"


_TOKEN = re.compile(r"<(/?)([a-zA-Z-]+)[^<>]*>|&(?:#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);|[^<&]+|.", re.S)


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def fit_message(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """A safety net for every text the bot sends (HTML we made, names escaped): when
    its visible text would exceed Telegram's limit, cut it there with "…" and close the
    tags still open, so the message goes out instead of failing on every edit."""
    if _units(text) <= limit:
        return text  # the markup only adds to the length: nothing to count
    out: list[str] = []
    open_tags: list[str] = []
    room = limit - 1  # for the "…"
    for match in _TOKEN.finditer(text):
        token, tag = match.group(0), match.group(2)
        if tag:
            if match.group(1):
                if open_tags and open_tags[-1] == tag.lower():
                    open_tags.pop()
            else:
                open_tags.append(tag.lower())
            out.append(token)
            continue
        visible = html.unescape(token) if token.startswith("&") else token
        if _units(visible) > room:
            if not token.startswith("&"):
                cut = ""
                for char in token:
                    if _units(cut + char) > room:
                        break
                    cut += char
                out.append(cut)
            out.append("…")
            break
        room -= _units(visible)
        out.append(token)
    else:
        return text
    return "".join(out) + "".join(f"</{tag}>" for tag in reversed(open_tags))


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
    return [items[i : i + size] for i in range(0, len(items), size)]


def pre_table(rows: list[list[str]], align_right: Collection[int] = frozenset()) -> str:
    """A monospaced table for an HTML <pre> block (cells already plain text)."""
    return "<pre>" + esc(grid(rows, align_right)) + "</pre>"


def seat_name(names: list[str], seat: object) -> str:
    """``names[seat]``, or "?" for what is not a seat of that table."""
    return names[seat] if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names) else "?"


def signed(value: int | float | str) -> str:
    """Points with their sign, a real minus, one decimal when not whole: "+12", "−3.5"
    (exact numbers come as ints or "a/b" strings)."""
    number = float(Fraction(value))
    text = f"{number:+.0f}" if number == int(number) else f"{number:+.1f}"
    return text.replace("-", "−")
