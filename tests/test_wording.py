"""Words a newcomer stumbled on, screen by screen: the lobby of a fixed-size game, the
computers' names and the "thinking" line, the bridge scoring preset, and rounded
settlements that add up to zero (the plurals are in tests/test_i18n.py)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from bot import screens
from bot.game_registry import ui_for
from bot.render.common import COMPUTER_MARK, COMPUTER_NAMES, computer_name
from bot.games.preferans import picture as preferans_picture
from bot.games.preferans_ru.picture import _labels
from engine.base import get_game
from engine.games.preferans.sheet import table_rows
from engine.games.preferans_ru.options import PreferansRuOptions
from engine.games.preferans_ru.scoring import Sheet, settlement
from engine.games.preferans_ru.sheet import sheet_text
from engine.rounding import rounded_shares
from storage.models import LOBBY, PLAYING, SeatRow, TableRow
from tests.random_play import first_deal


def table_row(game: str, lang: str, status: str = LOBBY, options: dict | None = None) -> TableRow:
    opts = get_game(game).Options(**(options or {})).model_dump()
    return TableRow(7, -1001, 0, game, opts, status, 1, 3, 0 if status == LOBBY else 1, None, lang)


# ------------------------------------------------------------------------- the lobby
@pytest.mark.parametrize(
    "game, lang, title",
    [
        # fixed seats are taken with "Sit N"… buttons: no "Join" to press (issue 45)
        ("bridge", "en", "Taking seats (4 players). Pick a seat: press “Sit N”, “Sit E”, … below."),
        ("bridge", "ru", "Сбор игроков (4 игрока). Выберите место: кнопки «Сесть: N», «Сесть: E», … ниже."),
        ("whist", "en", "Taking seats (4 players). Pick a seat: press “Sit N”, “Sit E”, … below."),
        ("preferans", "ru", "Сбор игроков (3 игрока). Жмите «Сесть за стол»."),
        ("preferans_ru", "ru", "Сбор игроков (3–4 игрока). Жмите «Сесть за стол»."),
        ("durak", "ru", "Сбор игроков (2–6 игроков). Жмите «Сесть за стол»."),
        ("durak", "en", "Taking seats (2–6 players). Press “Join”."),
    ],
)
def test_lobby_title_says_a_fixed_size_once(game, lang, title):
    assert screens.lobby(table_row(game, lang), [], {}, "bot").text.split("\n")[1] == title


def test_lobby_buttons_are_the_ones_the_title_names():
    for game in ("bridge", "whist", "durak"):
        for lang in ("en", "ru"):
            screen = screens.lobby(table_row(game, lang), [], {}, "bot")
            title = screen.text.split("\n")[1]
            labels = [b.text for row in screen.markup.inline_keyboard for b in row]
            named = [label for label in labels if f"«{label}»" in title or f"“{label}”" in title]
            assert named, (game, lang, title, labels)


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("preset", ["seed", "acbl"])
def test_the_chicago_lobby_and_sheet_speak_of_no_rubber(lang, preset):
    """A Chicago has no rubber: neither its lobby (issue 45: "the rubber's 700/500") nor
    the title of its sheet picture ("Bridge — rubber sheet") says it has."""
    from bot.games.bridge.sheet_posts import sheet_picture

    options = {"scoring": "chicago", "preset": preset}
    text = screens.lobby(table_row("bridge", lang, options=options), [], {}, "bot").text
    assert "700/500" not in text and "rubber's" not in text and "роббер 700" not in text
    assert "Chicago" in text or "Чикаго" in text
    rubber = screens.lobby(table_row("bridge", lang, options={"preset": preset}), [], {}, "bot").text
    assert "700/500" in rubber  # a rubber's lobby still names them
    title = sheet_picture({"chicago": {"deal": 1}}, None, lang)["title"]
    assert "rubber" not in title and "роббер" not in title and ("Chicago" in title or "чикаго" in title)
    assert "rubber" in sheet_picture({}, None, lang)["title"] or "роббер" in sheet_picture({}, None, lang)["title"]


# ------------------------------------------------------------------------- computers
def test_computer_names_are_distinct_and_never_a_persons():
    names: list[str] = []
    for _ in range(5):  # a durak table's most computers
        names.append(computer_name("en", names))
    assert names == [f"{COMPUTER_MARK} {n}" for n in COMPUTER_NAMES["en"][:5]]
    assert all(len(names_) >= 5 for names_ in COMPUTER_NAMES.values())
    # a person's name, whole or first name, any case, is taken; so is an old "🤖 1" seat
    assert computer_name("ru", ["МАША", "Петя Сидоров", "🤖 1"]) == f"{COMPUTER_MARK} Катя"
    assert computer_name("en", ["Ada Lovelace", "alan"]) == f"{COMPUTER_MARK} Grace"
    assert computer_name("xx", []) == f"{COMPUTER_MARK} {COMPUTER_NAMES['en'][0]}"  # an unknown language
    # every name taken: still a distinct one
    taken = [f"{COMPUTER_MARK} {n}" for n in COMPUTER_NAMES["ru"]] + [f"{COMPUTER_MARK} 1"]
    assert computer_name("ru", taken) == f"{COMPUTER_MARK} 2"


@pytest.mark.parametrize(
    "lang, name, line",
    [
        ("en", "🤖 Ada", "🤖 Ada is thinking…"),
        ("ru", "🤖 Маша", "🤖 Маша думает…"),
        ("ru", "🤖 1", "🤖 1 думает…"),  # a table from before the names
        ("en", "Ann", "🤖 Ann is thinking…"),  # never without the mark
    ],
)
def test_thinking_line_shows_the_robot_once(lang, name, line):
    state, _ = first_deal(get_game("durak"), 2, random.Random(5))
    seats = [SeatRow(7, 0, -1, name, is_computer=True), SeatRow(7, 1, 11, "Boris")]
    text = screens.group_table(table_row("durak", lang, PLAYING), seats, state, thinking=0).text
    assert text.split("\n")[-1] == line and "🤖 🤖" not in text


# ------------------------------------------------------------------------- bridge
@pytest.mark.parametrize(
    "lang, preset, button, words",
    [
        ("en", "seed", "Scoring: book, +100 a game", "100 above the line for every game won"),
        ("en", "acbl", "Scoring: ACBL Laws", "no premium for a single game"),
        ("ru", "seed", "Подсчёт: по книге, +100 за партию", "за каждую выигранную партию 100 над чертой"),
        ("ru", "acbl", "Подсчёт: законы ACBL", "премии за отдельную партию нет"),
    ],
)
@pytest.mark.parametrize("game", ["bridge", "bridge_score"])
def test_bridge_preset_is_said_in_a_bridge_players_words(game, lang, preset, button, words):
    lobby = screens.lobby(table_row(game, lang, options={"preset": preset}), [], {}, "bot")
    labels = [b.text for row in lobby.markup.inline_keyboard for b in row]
    assert button in labels and words in lobby.text
    assert not any(label.startswith(("Table:", "Таблица:")) for label in labels)
    assert ui_for(game).variant_text({"preset": preset}, lang) == button[0].lower() + button[1:]  # the header


# ------------------------------------------------------------------------- rounding
def test_rounded_shares_add_up_to_the_total():
    thirds = [Fraction(10, 3), Fraction(10, 3), Fraction(-20, 3)]
    assert sum(round(x) for x in thirds) == -1  # plain rounding: 3 + 3 − 7
    assert rounded_shares(thirds) == [3, 3, -6]  # the ties: the largest amount moves
    assert rounded_shares([Fraction(12, 5), Fraction(12, 5), Fraction(-24, 5)]) == [3, 2, -5]
    # plain rounding (half away from zero) where it adds up already
    assert rounded_shares([Fraction(7, 2), Fraction(-1, 2), Fraction(-3)]) == [4, -1, -3]
    assert rounded_shares([Fraction(5, 2), Fraction(-7, 2), Fraction(1)]) == [3, -4, 1]
    assert rounded_shares([5, -2, -3]) == [5, -2, -3] and rounded_shares([]) == []
    for values in ([Fraction(1, 7) * k for k in (3, 5, -8)], [Fraction(-1070, 3), Fraction(1, 3), Fraction(1069, 3)]):
        shares = rounded_shares(values)
        assert sum(shares) == 0 and all(abs(s - v) < 1 for s, v in zip(shares, values))


def test_preferans_sheet_rounds_the_settlement_to_zero(monkeypatch):
    sheet = {
        "contract": [0, 0, 0],
        "soups": [[0, 0, 0], [0, 0, 0], [0, 0, 0]],
        "refe": [0, 0, 0],
        "refe_used": [0, 0, 0],
        "hats": [[], [], []],
        "settlement": ["-20/3", "10/3", "10/3"],
    }
    assert table_rows(sheet, ["A", "B", "C"], "en")[-1][1:] == ["−6", "+3", "+3"]
    labels = []  # the picture writes the same figures by the names
    monkeypatch.setattr(preferans_picture, "_text_at", lambda img, xy, text, *args: labels.append(text))
    preferans_picture.preferans_picture(
        {"lang": "en", "title": "", "bula": 30, "names": ["A", "B", "C"], "sheet": sheet}
    )
    assert {"1. A  −6", "2. B  +3", "3. C  +3"} <= set(labels)


def test_preferans_ru_running_settlement_adds_up_to_zero():
    options = PreferansRuOptions()
    sheet = Sheet.new(["A", "B", "C"])
    sheet = Sheet(sheet.players, sheet.pool, {"A": Fraction(4), "B": Fraction(0), "C": Fraction(0)}, sheet.whists)
    exact = settlement(sheet, options)
    assert exact == {"A": Fraction(-80, 3), "B": Fraction(40, 3), "C": Fraction(40, 3)}
    text = sheet_text(sheet, options, "en", names={"A": "Ann", "B": "Bob", "C": "Cid"})
    assert text.split("\n")[-1].split() == ["A", "−26", "B", "+13", "C", "+13"]
    spec = {"names": ["Ann", "Bob", "Cid"], "settlement": ["-80/3", "40/3", "40/3"], "finished": False}
    assert [text for text, _ in _labels(spec)] == ["1. Ann  ≈ −26", "2. Bob  ≈ +13", "3. Cid  ≈ +13"]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_hand_at_the_end_of_a_chicago_shows_no_empty_suits(lang):
    """Issue 45: the hand message at the end of a Chicago showed "♠ — ♥ — ♦ — ♣ —"."""
    from tests.random_play import random_step

    game, ui = get_game("bridge"), ui_for("bridge")
    options = game.Options(scoring="chicago")
    state = game.initial_state(options, 4)
    rng = random.Random(3)
    while not game.is_over(state):
        state, _ = random_step(game, state, rng)
    view = game.view(state, 0)
    assert not view["hand"]
    text = ui.hand_text(view, ["A", "B", "C", "D"], lang, "Chicago", [])
    assert "♠ —" not in text and "♣ —" not in text, text
    assert text.splitlines()[-1] in ("🏁 The Chicago is over.", "🏁 Чикаго окончено."), text
