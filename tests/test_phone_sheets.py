"""Score sheets read on a phone held upright: a <pre> block there shows about 40
columns, so every line of every text sheet fits in 40 (``engine.text.PHONE_WIDTH``).

The posts of every game, played at random to its end with the longest names Telegram
allows (64 Cyrillic letters, or emoji that take two columns each), are measured by
tests/test_conformance.py. Here: ``cardbot score --text`` (the same sheets, printed)
fits too, all lines, and the preferans sheet's rounding.
"""

from __future__ import annotations

import re

import pytest

from bot.games.preferans.ui import result_lines, sheet_post
from bot.render.common import display_name
from engine.games.preferans.sheet import sheet_text
from engine.score import text as score_text
from engine.text import PHONE_WIDTH, display_width, wrap, wrap_lines

PRE = re.compile(r"<pre>(.*?)</pre>", re.S)
LONGEST = ["Ж" * 64 + " " + "Щ" * 64, "🃏" * 64, "W" * 64]


def long_names(players: int) -> list[str]:
    """Names as the bot shows them (cut by display_name), each different at its end."""
    return [display_name(LONGEST[i % len(LONGEST)][:-1] + str(i)) for i in range(players)]


def _record(game: str) -> dict:
    names = {"preferans": long_names(3), "bridge": None, "whist": None}[game]
    if game == "preferans":
        return {
            "game": "preferans",
            "options": {"bula": 30},
            "players": [LONGEST[0], LONGEST[1], LONGEST[2]] if names else [],
            "hands": [
                {
                    "declarer": LONGEST[2],
                    "contract": "D",
                    "defence": {LONGEST[0]: "play", LONGEST[1]: "play"},
                    "tricks": {LONGEST[0]: 1, LONGEST[1]: 1, LONGEST[2]: 8},
                },
                {"all_pass": True},
            ],
        }
    if game == "bridge":
        return {"game": "bridge", "deals": [{"declarer": "N", "contract": "7NTXX", "tricks": 13}]}
    return {"game": "whist", "deals": [{"tricks": {"NS": 9, "EW": 4}, "honours": {"NS": 3, "EW": 2}}]}


@pytest.mark.parametrize("game", ["preferans", "bridge", "whist"])
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_cardbot_score_text_fits_a_phone(game, lang):
    printed = score_text(_record(game), lang)
    for line in printed.split("\n"):
        assert display_width(line) <= PHONE_WIDTH, line
    if game == "preferans":  # the full names are in the legend, once, wrapped
        assert "\n1 — " + "Ж" * 36 + "\n" in printed and "\n3 — " + "W" * 36 + "\n" in printed
        assert "".join(printed.split("\n")).count("Щ" * 64) == 1


def test_preferans_result_is_rounded_on_the_sheet_and_exact_in_the_settlement():
    """A settlement of thirds (rules: the soups are split between three) fills a phone's
    line; the sheet shows whole points, the final settlement the exact value."""
    sheet = {
        "contract": [-50, -30, -5150],
        "soups": [[0, 0, 25600], [76, 0, 0], [12, 0, 0]],
        "refe": [5, 1, 0],
        "refe_used": [0, 0, 4],
        "hats": [["^", "v", "^", "^"], [], ["v"]],
        "settlement": ["127336/3", "51628/3", "-178964/3"],
        "finished": True,
    }
    names = long_names(3)
    text = sheet_text(sheet, [], names, "en", 30, 5)
    table = text.split("\n")
    # whole points that still add up to zero: −59654.67 shows −59654 (plain rounding: −59655)
    assert ["Result", "+42445", "+17209", "−59654"] in [line.split() for line in table]
    assert ["Refe", "─5", "─", "╱4"] in [line.split() for line in table]
    assert ["Hat", "∧3∨1", "·", "∨"] in [line.split() for line in table]
    assert "Exact result: 1 +127336/3, 2 +51628/3, 3" in text and "−178964/3" in text
    assert all(display_width(line) <= PHONE_WIDTH for line in table)
    # while the pulka runs, a table with display_rounding "int" shows whole points only;
    # "none" (the default) adds the exact line under the rounded table
    running = {**sheet, "finished": False}
    post = sheet_post({"sheet": running, "bula": 30, "options": {"display_rounding": "int"}}, names, "ru", None, 5)
    assert "127336/3" not in post and "+42445" in post
    post = sheet_post({"sheet": running, "bula": 30, "options": {}}, names, "ru", None, 5)
    assert "Точный расчёт: 1 +127336/3, 2 +51628/3, 3 −178964/3" in post and "+42445" in post
    final = "\n".join(result_lines({"settlement": sheet["settlement"]}, names, "ru"))
    assert "+127336/3" in final and "−178964/3" in final


def test_wrap_keeps_short_lines_and_cuts_long_words():
    assert wrap("  #│ a") == ["  #│ a"]
    assert wrap("a " + "Ж" * 50) == ["a " + "Ж" * 38, "Ж" * 12]
    assert wrap("a bb " + "c" * 39) == ["a bb", "c" * 39]
    assert wrap_lines("🃏" * 25) == "🃏" * 20 + "\n" + "🃏" * 5
