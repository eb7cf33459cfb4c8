"""King's Telegram texts and buttons, rendered from engine views in every phase and in
both languages; lobby options; the sheet."""

from __future__ import annotations

import random
import re

import pytest

from bot.game_registry import all_uis, ui_for

from engine.base import get_game
from engine.games.king import KingOptions
from tests.e2e import card_labels_in
from tests.test_king_rules import at_deal, play_out

all_uis()  # load every game's UI first: importing bot.games.king alone would register only King
from bot.games.king.ui import action_rows, sheet_table  # noqa: E402

G = get_game("king")
UI = ui_for("king")
NAMES = ["Аня", "Борис <b>", "Вера", "🤖 1"]
CARD = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]")


def states():
    rng = random.Random(5)
    out = []
    for no in range(1, 13):
        s = at_deal(no, None, seed=no)
        out.append(s)
        if s.phase == "choose":
            s, _ = G.apply(s, G.to_act(s)[0], "until H")
            out.append(s)
        for _ in range(5):
            seat = G.to_act(s)[0]
            s, _ = G.apply(s, seat, rng.choice(G.legal_actions(s, seat)))
        out.append(s)
    s, _ = play_out(s, rng)
    out.append(s)
    return out


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_phase_renders(lang):
    for s in states():
        pub = G.view(s, None)
        text = UI.group_text(pub, NAMES, lang, "King")
        assert "Борис &lt;b&gt;" in text and "{" not in text
        shown = set(CARD.findall(text))
        for seat in range(4):
            v = G.view(s, seat)
            legal = G.legal_actions(s, seat)
            hand = UI.hand_text(v, NAMES, lang, "King", legal)
            assert "{" not in hand and set(CARD.findall(hand)) <= card_labels_in(v)
            rows, switches = UI.action_rows(legal, v, lang, "normal", ["A", "B", "C", "D"])
            assert switches == [] and sum(len(r) for r in rows) == len(legal) < 100
            assert sorted(i for r in rows for _, i in r) == list(range(len(legal)))
        assert shown <= card_labels_in(pub)  # the group text names only public cards


def test_choice_buttons():
    legal = ["name S", "name H", "name D", "name C", "until S", "until H", "until D", "until C", "highest"]
    rows, _ = action_rows(legal, {}, "ru", "normal", NAMES)
    assert [[label for label, _ in r] for r in rows] == [
        ["♠ сразу", "♥ сразу", "♦ сразу", "♣ сразу"],
        ["до ♠", "до ♥", "до ♦", "до ♣"],
        ["до старшей"],
    ]
    rows, _ = action_rows(["play 7S", "play 8S", "play 9S", "play TS", "play JS", "pass"], {}, "en", "normal", NAMES)
    assert [[label for label, _ in r] for r in rows] == [["7♠", "8♠", "9♠", "10♠"], ["J♠"], ["Pass"]]


def test_sheet_table_layout():
    s = at_deal(1, None, seed=1)
    rng = random.Random(1)
    s, _ = play_out(s, rng)
    s, _ = G.apply(s, None, G.system_action(s, rng))
    s, _ = play_out(s, rng)
    v = G.view(s, None)
    text = sheet_table(v, "ru")
    lines = text.removeprefix("<pre>").removesuffix("</pre>").splitlines()
    assert len(lines) == 14 and lines[0].split() == ["#", "Кон", "Сд", "1", "2", "3", "4", "Σ"]
    assert max(len(line) for line in lines) <= 40  # a phone shows the whole sheet
    row1 = lines[1].split()
    assert row1[:2] == ["1", "Взятки"] and int(row1[-1]) == -16
    assert sum(int(x) for x in row1[3:7]) == -16
    assert lines[2].split()[:2] == ["2", "Червы"] and int(lines[2].split()[-1]) == -16
    assert lines[3].split() == ["3", "Мальчики", str((v["first_dealer"] + 2) % 4 + 1)]  # not played yet
    assert lines[-1].split()[0] == "Итого" and int(lines[-1].split()[-1]) == -32
    assert not CARD.search(text)
    posts = UI.posts([{"type": "deal_scored", "no": 2}], v, NAMES, "en", [])
    assert posts[0].startswith("📋 Deal 2 scored: No hearts") and "\n1 — Аня\n" in posts[0]
    assert UI.posts([{"type": "play"}], v, NAMES, "en", []) == []


def test_lobby_options_cycle_and_validate():
    o = KingOptions().model_dump()
    labels = [label for row in UI.option_rows(o, "ru") for label, _ in row]
    assert "первый сдающий: жребий" in labels and "✓ холостяк" in labels
    assert UI.variant_text(o, "ru") == ""
    o2 = UI.next_option(o, "deal3_cards")
    assert o2["deal3_cards"] == "KJ" and o2["deal3_per_card"] == -2
    assert UI.next_option(o2, "deal3_cards")["deal3_per_card"] == -4
    o3 = UI.next_option(UI.next_option(o, "first_dealer"), "deal4_bachelor_rule")
    assert o3["first_dealer"] == "N" and o3["deal4_bachelor_rule"] is False
    KingOptions(**o3)
    assert UI.variant_text(o3, "ru") == "первым сдаёт место 1, без холостяк"
    for key in (
        "deal2_no_heart_lead",
        "deal6_no_heart_lead",
        "deal6_must_discard_kh",
        "deal8_free_pass",
        "trump_must_ruff",
    ):
        KingOptions(**UI.next_option(o, key))
    with pytest.raises(KeyError):
        UI.next_option(o, "colour")
    seats = o
    for _ in range(5):
        seats = UI.next_option(seats, "first_dealer")
    assert seats["first_dealer"] == "random"


def test_trump_line_explains_an_until_that_missed():
    """ "Open until ♥" with no heart among the turned cards: trumps come from the highest
    card, and the line says so instead of a bare "opened until ♥" next to ♦ trumps."""
    for seed in range(50):
        s = at_deal(9, None, seed=seed)
        if all(c[1] != "H" for c in s.deck[12:15]):
            break
    s, _ = G.apply(s, G.to_act(s)[0], "until H")
    assert s.trump != "H" and len(s.turned) == 3
    text = UI.group_text(G.view(s, None), NAMES, "ru", "Кинг")
    assert "открыли до ♥, ♥ не вышла — по старшей" in text
    assert "no ♥ came, so the highest decided" in UI.group_text(G.view(s, None), NAMES, "en", "King")
    hit = at_deal(9, None, seed=0)
    hit, _ = G.apply(hit, G.to_act(hit)[0], f"until {hit.deck[12][1]}")  # the first card turned
    assert "(открыли до " + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[hit.trump] + ")" in UI.group_text(
        G.view(hit, None), NAMES, "ru", "Кинг"
    )
