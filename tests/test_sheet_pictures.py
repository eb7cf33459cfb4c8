"""The score sheets as pictures (bot/render/pictures.py), compared with the reference
PNGs in tests/images/ within a small tolerance: anti-aliasing may move by a shade or a
pixel between FreeType builds (Pillow is pinned in pyproject for that reason), so both
pictures are softened by a one-pixel blur first; one changed digit, a moved line or a
lost glyph still differs (test_a_changed_sheet_is_not_within_the_tolerance). ``CARDBOT_UPDATE_IMAGES=1`` redraws the
references after a deliberate change (look at them before committing)."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFilter, ImageFont

from bot.render import pictures

IMAGES = Path(__file__).parent / "images"
LONG = "Ж" * 64 + " " + "Щ" * 64
CLOSE = 40  # after the blur, a pixel differs when one channel moves by more than this (of 255)
MOST_DIFFERENT = 0.0001  # ... and at most this share of pixels may differ (~60 of 600 000)

PREFERANS = {
    "game": "preferans",
    "lang": "ru",
    "title": "Пуля 30 · раздача 5",
    "bula": 30,
    "names": ["Аня", LONG[:19] + "…", "🤖 Вера"],
    "sheet": {
        "contract": [-50, -30, -5150],
        "soups": [[0, 1178, 25600], [76, 0, 346], [12, 1304, 0]],
        "refe": [1, 1, 0],
        "refe_used": [0, 0, 1],
        "hats": [["^"], [], ["^", "v"]],
        "settlement": ["127336/3", "51628/3", "-178964/3"],
    },
}
BRIDGE = {
    "game": "bridge",
    "lang": "en",
    "title": "Bridge — rubber sheet",
    "names": None,
    "sheet": {
        "entries": [
            {"deal": 1, "line": "below", "side": "NS", "points": 120, "game": 0},
            {"deal": 2, "line": "above", "side": "EW", "points": 100, "game": 1},
            {"deal": 3, "line": "below", "side": "EW", "points": 60, "game": 1},
            {"deal": 3, "line": "above", "side": "EW", "points": 30, "game": 1},
            {"deal": 4, "line": "below", "side": "NS", "points": 70, "game": 1},
        ],
        "game": 2,
        "games": {"NS": 2, "EW": 0},
        "above": {"NS": 0, "EW": 130},
        "totals": {"NS": 190, "EW": 190},
    },
}
KING = {
    "game": "king",
    "lang": "ru",
    "title": "Кинг — запись",
    "names": ["Аня", LONG[:19] + "…", "🤖 Вера", "Дима ♠"],
    "first_dealer": 1,
    "sheet": [
        {"no": 1, "dealer": 1, "trump": None, "scores": [-4, -8, 0, -4]},
        {"no": 2, "dealer": 2, "trump": None, "scores": [-6, -10, 0, 0]},
        {"no": 9, "dealer": 1, "trump": "H", "scores": [3, 6, 12, 3]},
    ],
    "totals": [-7, -12, 12, -1],
}
SPECS = {"preferans_ru": PREFERANS, "bridge_en": BRIDGE, "king_ru": KING}


def differing_share(a: Image.Image, b: Image.Image) -> float:
    """The share of pixels where some channel differs by more than CLOSE."""
    soft = [x.convert("RGB").filter(ImageFilter.GaussianBlur(1)) for x in (a, b)]
    diff = ImageChops.difference(*soft).point(lambda v: 255 if v > CLOSE else 0)
    channels = diff.split()
    over = ImageChops.lighter(ImageChops.lighter(channels[0], channels[1]), channels[2])
    return over.histogram()[255] / (a.width * a.height)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_pictures_match_the_references(name):
    spec = json.loads(json.dumps(SPECS[name]))  # as it travels in the outbox
    drawn = Image.open(io.BytesIO(pictures.draw(spec)))
    path = IMAGES / f"{name}.png"
    if os.environ.get("CARDBOT_UPDATE_IMAGES"):
        drawn.save(path)
    reference = Image.open(path)
    assert drawn.size == reference.size
    assert differing_share(drawn, reference) <= MOST_DIFFERENT, f"{name} differs from {path}"


def test_a_changed_sheet_is_not_within_the_tolerance():
    """The comparison can fail: one digit written differently is seen."""
    spec = json.loads(json.dumps(PREFERANS))
    spec["sheet"]["soups"][1][0] = 78  # one digit: 76 → 78
    drawn = Image.open(io.BytesIO(pictures.draw(spec)))
    assert differing_share(drawn, Image.open(IMAGES / "preferans_ru.png")) > MOST_DIFFERENT
    spec = json.loads(json.dumps(KING))
    spec["sheet"][0]["scores"] = [-8, -4, 0, -4]
    drawn = Image.open(io.BytesIO(pictures.draw(spec)))
    assert differing_share(drawn, Image.open(IMAGES / "king_ru.png")) > MOST_DIFFERENT


@pytest.mark.parametrize("bold", [False, True])
def test_the_bundled_font_has_cyrillic_suits_and_sheet_marks(bold):
    missing = ImageFont.truetype(str(pictures.FONTS / "DejaVuSans.ttf"), 20).getmask("\u0378")
    f = ImageFont.truetype(str(pictures.FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), 20)
    for char in "♠♥♦♣ЖжЩщЁёΣ─╱∧∨·−…":
        assert bytes(f.getmask(char)) != bytes(missing), char
    assert (pictures.FONTS / "LICENSE").read_text().count("Bitstream") >= 3


def test_names_lose_only_what_the_font_cannot_draw():
    assert pictures.drawable("🤖 Вера ♠") == "Вера ♠"
    text, f = pictures.shortened(LONG, 24, 300, True, 16)
    assert text.endswith("…") and f.size == 16 and f.getlength(text) <= 300


def test_every_game_spec_draws_a_png():
    for spec in SPECS.values():
        image = Image.open(io.BytesIO(pictures.draw(spec)))
        assert image.format == "PNG" and min(image.size) >= 500
    with pytest.raises(KeyError):
        pictures.draw({"game": "durak"})


PICTURED = ["preferans", "preferans_score", "king", "bridge", "bridge_score"]


@pytest.mark.parametrize("game_name", PICTURED)
def test_real_games_give_drawable_specs_without_hidden_cards(game_name):
    """Random play until a few sheets were posted: each picture spec (made from the
    public view) survives JSON, draws, and names no card still hidden in a hand."""
    import random

    from bot.games import ui_for
    from engine.base import get_game
    from tests.random_play import first_deal, random_step

    game, ui = get_game(game_name), ui_for(game_name)
    players = max(game.seat_range(game.Options())[0], 3 if "preferans" in game_name else 4)
    names = [f"Игрок {i + 1}" for i in range(players)]
    rng = random.Random(5)
    state, events = first_deal(game, players, rng)
    drawn = 0
    for _ in range(4000):
        view = game.view(state, None)
        if ui.posts(events, view, names, "ru", []):
            spec = ui.picture(events, view, names, "ru")
            assert spec is not None
            text = json.dumps(spec, ensure_ascii=False)
            hands = [set(game.view(state, s).get("hand") or []) for s in range(players)]
            assert not any(f'"{card}"' in text for hand in hands for card in hand)
            assert Image.open(io.BytesIO(pictures.draw(json.loads(text)))).format == "PNG"
            drawn += 1
            if drawn == 3:
                return
        if game.is_over(state):
            break
        state, events = random_step(game, state, rng)
    assert drawn > 0, f"{game_name} posted no sheet"
