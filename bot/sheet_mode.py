"""How a group gets its score sheets (``/sheets``): as text, as a picture, or both.

- ``text`` (the default): the monospaced sheet after every deal, and at the end of a
  game the picture of the sheet too (just before the closing text);
- ``picture``: the picture after every deal, with the post's other lines as its caption
  (the text sheet goes out instead when the picture cannot be drawn);
- ``both``: the picture and the text sheet after every deal.

``sheet_payloads`` turns the posts of one action into outbox payloads; the sender
draws a payload's ``picture`` spec (``bot.render.pictures``) when it sends it.
"""

from __future__ import annotations

import re
from typing import Any

from bot.i18n import t
from bot.render.common import esc
from storage.repository import Repository

SHEET_MODES = ("text", "picture", "both")
DEFAULT_MODE = "text"
_PRE = re.compile(r"\n?<pre>.*?</pre>", re.S)
_TAG = re.compile(r"<[^>]*>")
_TITLE_LIMIT = 120  # characters of the post's first line in a picture's caption


def post_title(text: str) -> str:
    """The first line of a post, tags dropped (its entities stay escaped): what a picture's
    caption names, so each deal's picture says which deal it is."""
    first = _TAG.sub("", text.strip().split("\n", 1)[0]).strip()
    if len(first) > _TITLE_LIMIT:
        first = first[:_TITLE_LIMIT].rsplit(" ", 1)[0]
        first = re.sub(r"&[#\w]*$", "", first) + "…"  # never half an entity
    return first


def without_tables(text: str) -> str:
    """A post without its <pre> blocks (the picture shows the sheet instead)."""
    return _PRE.sub("", text).strip()


def sheet_payloads(
    texts: list[str], picture: dict[str, Any] | None, mode: str, game_over: bool, lang: str
) -> list[dict[str, Any]]:
    """The group posts of one action as outbox payloads, in sending order."""
    if picture is None or not texts:
        return [{"text": text} for text in texts]
    if mode == "picture":
        out: list[dict[str, Any]] = [{"text": without_tables(text)} for text in texts[:-1]]
        out = [p for p in out if p["text"]]
        out.append({"text": without_tables(texts[-1]), "picture": picture, "fallback": texts[-1]})
        return out
    out = [{"text": text} for text in texts]
    if mode == "both" or game_over:
        # just before the last post: the deal's text (at the end the settlement and the
        # Rematch buttons) stays the newest message in the group
        caption = t(lang, "sheets.caption", title=post_title(texts[-1]))
        out.insert(len(out) - 1, {"text": caption, "picture": picture})
    return out


async def command(
    repo: Repository, chat_id: int, args: list[str], lang: str
) -> tuple[str, list[list[tuple[str, str]]] | None]:
    """``/sheets`` in a group: with ``text``, ``picture`` or ``both`` it sets the mode;
    bare, it shows the choice and the current mode; anything else is refused (with the
    choice) and changes nothing. Returns the reply and its buttons (rows of (label, data))."""
    choice = args[0].lower() if args else None
    if choice in SHEET_MODES:
        await repo.set_chat_sheets(chat_id, choice)
        return t(lang, "sheets.set", mode=t(lang, f"sheets.mode.{choice}")), None
    current = await repo.get_chat_sheets(chat_id) or DEFAULT_MODE
    text = t(lang, "sheets.choose", mode=t(lang, f"sheets.mode.{current}"))
    if choice is not None:
        text = t(lang, "sheets.bad", value=esc(choice[:32])) + "\n" + text
    return text, [[(t(lang, f"sheets.btn.{mode}"), f"sh:{mode}") for mode in SHEET_MODES]]
