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
from fractions import Fraction
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
PULKA_RU_3 = {  # a closed пулька: the exact settlement in the circle, long progressions cut
    "game": "preferans_ru",
    "lang": "ru",
    "title": "Пулька · Ленинград · до 10 · раздача 14",
    "names": ["Александра Владимировна", LONG[:40], "🤖 Вера"],
    "pool": 10,
    "system": "Ленинград",
    "seats": [
        {"pool": ["2", "4", "6", "10"], "mountain": ["4"], "whists": {"1": ["8", "16", "24"], "2": []}},
        {
            "pool": ["4", "10"],
            "mountain": ["10", "22", "32"],
            "whists": {"0": ["4", "12", "20", "28", "36", "44", "52", "60", "68", "76", "84", "92"], "2": ["6"]},
        },
        {"pool": ["6", "8", "10"], "mountain": [], "whists": {"0": ["20"], "1": ["12", "24"]}},
    ],
    "settlement": ["-212/3", "-410/3", "622/3"],
    "finished": True,
}
PULKA_RU_4 = {  # 4 players, under way: the settlement rounded by the names
    "game": "preferans_ru",
    "lang": "ru",
    "title": "Пулька · Сочи · до 20 · раздача 7",
    "names": ["Аня", "Щ" * 30, "Вера", "Дмитрий Константинович Рождественский"],
    "pool": 20,
    "system": "Сочи",
    "seats": [
        {"pool": ["10"], "mountain": ["80"], "whists": {"1": ["100", "180", "360"], "2": ["50"], "3": []}},
        {"pool": [], "mountain": ["90", "170", "260"], "whists": {"0": ["80"], "2": ["100", "170"], "3": []}},
        {"pool": ["10", "20"], "mountain": [], "whists": {"0": ["160"], "1": ["90", "170", "260"], "3": ["80"]}},
        {"pool": ["10"], "mountain": ["−10"], "whists": {"0": [], "1": ["170", "330"], "2": ["50", "120"]}},
    ],
    "settlement": ["1071/2", "-1165", "825", "-391/2"],
    "finished": False,
}
SPECS = {
    "preferans_ru": PREFERANS,
    "bridge_en": BRIDGE,
    "king_ru": KING,
    "pulka_ru_3": PULKA_RU_3,
    "pulka_ru_4": PULKA_RU_4,
}


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
    spec = json.loads(json.dumps(PULKA_RU_4))
    spec["seats"][3]["whists"]["1"][-1] = "380"  # one total: 330 → 380
    drawn = Image.open(io.BytesIO(pictures.draw(spec)))
    assert differing_share(drawn, Image.open(IMAGES / "pulka_ru_4.png")) > MOST_DIFFERENT


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


PICTURED = ["preferans", "preferans_score", "king", "bridge", "bridge_score", "preferans_ru", "preferans_ru_score"]


@pytest.mark.parametrize("game_name", PICTURED)
def test_real_games_give_drawable_specs_without_hidden_cards(game_name):
    """Random play until a few sheets were posted: each picture spec (made from the
    public view) survives JSON, draws, and names no card still hidden in a hand."""
    import random

    from bot.game_registry import ui_for
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


def test_the_russian_sheet_spec_writes_running_totals_from_the_record():
    """Each cell is the running total after every hand that changed it (§6.1), the
    settlement exact; a пулька with 2 or 5 players is refused by the drawing."""
    from bot.games.preferans_ru.score import progression, sheet_picture

    assert progression(Fraction(0), [Fraction(2), Fraction(0), Fraction(2), Fraction(4)]) == ["2", "4", "8"]
    assert progression(Fraction(5), [Fraction(-1, 3)]) == ["5", "14/3"]
    record = {
        "game": "preferans_ru",
        "options": {"system": "sochi", "pool": 10},
        "players": ["A", "B", "C"],
        "hands": [
            {"declarer": "A", "contract": "6S", "whist": {"B": "pass", "C": "pass"}},
            {"declarer": "A", "contract": "6S", "whist": {"B": "pass", "C": "pass"}},
        ],
    }
    spec = sheet_picture({"record": record}, ["Аня", "Борис", "Вера"], "ru")
    assert spec["names"] == ["Аня", "Борис", "Вера"] and spec["seats"][0]["pool"] == ["2", "4"]
    assert spec["seats"][1]["pool"] == [] and spec["finished"] is False
    assert "раздача 2" in spec["title"] and Image.open(io.BytesIO(pictures.draw(spec))).format == "PNG"
    over = sheet_picture({"record": record, "result": {"forfeit": 1}}, ["Аня", "Борис", "Вера"], "ru")
    assert over["finished"] is True  # a game ended early shows its exact settlement too
    for seats in (2, 5):
        with pytest.raises(ValueError):
            pictures.draw({**PULKA_RU_3, "seats": [PULKA_RU_3["seats"][0]] * seats})


def test_a_pictures_caption_names_its_post():
    """Every deal's picture said "📊 The sheet as a picture": two deals' pictures read the
    same (the soak's "twin" posts). The caption now carries the post's first line."""
    from bot.sheet_mode import post_title, sheet_payloads

    posts = ["<b>Hand 3</b> — Anna &amp; Bob\n<pre>sheet</pre>"]
    (caption, text) = sheet_payloads(posts, {"kind": "x"}, "both", False, "en")
    assert caption["text"] == "📊 The sheet as a picture — Hand 3 — Anna &amp; Bob" and text == {"text": posts[0]}
    long = "<b>" + "word &amp; " * 30 + "</b>"
    title = post_title(long)
    assert title.endswith("…") and len(title) <= 121 and "&amp" not in title[-6:] and "<" not in title
