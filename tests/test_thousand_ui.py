"""Тысяча's screens from engine views: every phase renders in both languages, the buttons
are exactly the legal moves, hidden cards (the прикуп while bidding, the gifts, a blind
hand) reach only whoever may see them, the sheet post and picture after a deal, the lobby
options, and "🔍 The deal" from a finished deal's analysis."""

from __future__ import annotations

import random
import re

import pytest

from bot.game_registry import all_uis, ui_for
from bot.render.pictures import draw
from engine.analysis_core import analyse_record
from engine.base import get_game
from engine.games.thousand import rules
from engine.games.thousand.options import ThousandOptions
from engine.games.thousand.state import initial_state
from tests.deal_records import play_record

all_uis()
G = get_game("thousand")
UI = ui_for("thousand")
NAMES = ["Аня", "Борис", "Вера", "Гоша"]
CARD = re.compile(r"(10|[9JQKAВДКТ])[♠♥♦♣]")


def deck_for(hands: list[list[str]], talon: list[str]) -> str:
    """The deal action giving these three hands (dealer 0, three players) and прикуп."""
    deck = [hands[i % 3][i // 3] for i in range(21)] + talon
    return "deal dealer=0 " + " ".join(deck)


HANDS = [
    ["AS", "TS", "KS", "QS", "AH", "TH", "9C"],  # seat 1 (forehand): a ♠ marriage
    ["KH", "QH", "JH", "9H", "AD", "TD", "KD"],  # seat 2: the ♥ marriage
    ["QD", "JD", "9D", "AC", "TC", "KC", "QC"],  # seat 0 (dealer)
]
TALON = ["JS", "9S", "JC"]


def dealt(options: dict | None = None):
    state = initial_state(ThousandOptions(**(options or {})), 3)
    state, _ = rules.apply(state, None, deck_for(HANDS, TALON))
    return state


def run(state, *moves):
    for seat, action in moves:
        state, events = rules.apply(state, seat, action)
    return state


def test_hands_go_as_the_deck_is_dealt():
    state = dealt()
    assert [sorted(state.hands[s]) for s in (1, 2, 0)] == [sorted(h) for h in HANDS]


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("players", [3, 4])
def test_every_phase_renders_and_buttons_are_the_legal_moves(lang, players):
    rng = random.Random(players)
    options = ThousandOptions(dark=True)
    state, events = G.apply(initial_state(options, players), None, G.new_deal(options, players, rng, []))
    seen_phases = set()
    for _ in range(3000):
        if G.is_over(state):
            break
        group = UI.group_text(G.view(state, None), NAMES[:players], lang, "Тысяча")
        assert "<b>Тысяча</b>" in group
        seen_phases.add(state.phase)
        for seat in range(players):
            view = G.view(state, seat)
            legal = G.legal_actions(state, seat)
            text = UI.hand_text(view, NAMES[:players], lang, "Тысяча", legal)
            assert text
            rows, switches = UI.action_rows(legal, view, lang, "normal", NAMES[:players])
            pressed = sorted(i for row in rows for _, i in row)
            assert pressed == list(range(len(legal))) and switches == []
            assert sum(len(row) for row in rows) <= 100
        for post in UI.posts(events, G.view(state, None), NAMES[:players], lang, []):
            assert "<pre>" in post
        system = G.system_action(state, rng)
        if system:
            state, events = G.apply(state, None, system)
            continue
        seat = G.to_act(state)[0]
        state, events = G.apply(state, seat, rng.choice(G.legal_actions(state, seat)))
    assert {"bid", "give", "play"} <= seen_phases


def test_the_talon_is_hidden_from_the_group_while_bidding_and_shown_after():
    state = dealt()
    group = UI.group_text(G.view(state, None), NAMES[:3], "ru", "T")
    assert "Прикуп" not in group and "J♠" not in group
    state = run(state, (1, "bid 100"), (2, "pass"), (0, "pass"))
    group = UI.group_text(G.view(state, None), NAMES[:3], "ru", "T")
    assert "Прикуп: J♠ 9♠ J♣" in group or ("Прикуп:" in group and "J♠" in group and "J♣" in group)
    assert "Прикуп берёт Борис: 100" in group


def test_gifts_reach_the_giver_and_the_receiver_only():
    state = run(dealt(), (1, "bid 100"), (2, "pass"), (0, "pass"), (1, "give 9C 2"), (1, "give TH 0"))
    texts = {
        seat: UI.hand_text(G.view(state, seat), NAMES[:3], "ru", "T", G.legal_actions(state, seat)) for seat in range(3)
    }
    group = UI.group_text(G.view(state, None), NAMES[:3], "ru", "T")
    assert "Вы отдали 9♣ → Вера" in texts[1] and "Вы отдали 10♥ → Аня" in texts[1]
    assert "Вам отдали 9♣ (Борис)" in texts[2] and "Вам отдали 10♥ (Борис)" in texts[0]
    assert "10♥" not in texts[2].split("Ваши карты")[0]  # Вера does not learn Аня's gift
    assert "9♣" not in texts[0].split("Ваши карты")[0]
    assert "9♣" not in group and "10♥" not in group and "Вам" not in group
    # the raise offers the bid and higher, within the cap (Борис holds the ♠ marriage)
    assert G.legal_actions(state, 1)[0] == "contract 100"


def test_a_blind_opener_sees_no_cards_until_the_auction_ends():
    state = dealt({"dark": True})
    view = G.view(state, 1)
    assert view["hand"] is None
    text = UI.hand_text(view, NAMES[:3], "ru", "T", G.legal_actions(state, 1))
    assert "закрыты" in text and not CARD.search(text)
    rows, _ = UI.action_rows(G.legal_actions(state, 1), view, "ru", "normal", NAMES[:3])
    assert [label for row in rows for label, _ in row] == ["🌑 100 в тёмную", "👀 Посмотреть карты"]


def test_marriage_buttons_and_the_trump_line():
    state = run(
        dealt(),
        (1, "bid 100"),
        (2, "pass"),
        (0, "pass"),
        (1, "give 9C 2"),
        (1, "give JC 0"),
        (1, "contract 100"),
    )
    # Борис leads the ace of spades and wins the trick: then his marriage can be led
    state = run(state, (1, "play AS"), (2, "play 9C"), (0, "play JC"))
    legal = G.legal_actions(state, 1)
    rows, _ = UI.action_rows(legal, G.view(state, 1), "en", "normal", NAMES[:3])
    labels = [label for row in rows for label, _ in row]
    assert "💍K♠" in labels and "💍Q♠" in labels
    state = run(state, (1, "marry KS"))
    group = UI.group_text(G.view(state, None), NAMES[:3], "ru", "T")
    assert "Козырь: ♠" in group and "марьяж 40" in group


def test_the_sheet_post_and_its_picture_after_a_deal():
    state = run(dealt(), (1, "bid 100"), (2, "pass"), (0, "pass"), (1, "concede"))
    events = [{"type": "deal_scored", "entry": state.entries[-1]}]
    (post,) = UI.posts(events, G.view(state, None), NAMES[:3], "ru", [])
    assert post.startswith("📋 Раздача 1 сыграна")
    assert "Борис: 100 — распишись" in post
    table = post.split("<pre>")[1].split("</pre>")[0]
    assert re.search(r"Борис\s+-100\s+-100", table) and re.search(r"Аня\s+\+60\s+60", table)
    spec = UI.picture(events, G.view(state, None), NAMES[:3], "ru")
    assert draw(spec).startswith(b"\x89PNG")


def test_bolts_and_the_barrel_are_marked_on_the_sheet_and_the_picture():
    record = play_record("thousand", 5, 3, deals=40)
    from engine.analysis_core import deals_of

    _, deals = deals_of(record)
    state = deals[-1].final
    marks = {m for e in state.entries for ms in e["marks"].values() for m in ms}
    assert "bolt" in marks, marks  # random play leaves a trickless seat in 40 deals
    view = G.view(state, None)
    entry = next(e for e in state.entries if any("bolt" in ms for ms in e["marks"].values()))
    post = UI.posts([{"type": "deal_scored", "entry": entry}], view, NAMES[:3], "en", [])[0]
    assert "a bolt (no trick)" in post
    assert draw(UI.picture([], view, NAMES[:3], "ru")).startswith(b"\x89PNG")


def test_lobby_options_cycle_and_are_valid():
    options = ThousandOptions().dump()
    keys = [key for row in UI.option_rows(options, "ru") for _, key in row]
    for key in keys:
        seen = []
        current = dict(options)
        for _ in range(4):
            current = UI.next_option(current, key)
            ThousandOptions(**current)
            seen.append(current[key])
        assert len(set(seen)) >= 2, key
    assert UI.variant_text(options, "ru") == ""
    assert UI.variant_text({**options, "dark": True, "bolts": False}, "ru") == "без болтов, тёмная"
    assert UI.variant_text({**options, "target": 500, "samosval": False}, "en") == "to 500, no 555 rule"
    with pytest.raises(KeyError):
        UI.next_option(options, "nope")


def test_the_deal_analysis_shows_hands_talon_gifts_and_tricks():
    record = play_record("thousand", 3, 3, deals=2)
    deals = analyse_record(record)["deals"]
    assert [d["finished"] for d in deals] == [True, True]
    for deal in deals:
        assert sum(len(h) for h in deal["hands"].values()) == 21 and len(deal["talon"]) == 3
        if not deal["conceded"]:
            assert len(deal["tricks"]) == 8 and len(deal["gifts"]) == 2
            assert [t["leader"] for t in deal["tricks"][1:]] == [t["winner"] for t in deal["tricks"][:-1]]
        text = UI.deal_record_text(deal, NAMES[:3], "ru")
        assert "🔍" in text and "Прикуп" in text


def test_tricks_so_far_follow_the_play():
    record = play_record("thousand", 7, 3)
    state = G.initial_state(G.Options(), 3)
    for action in record["actions"]:
        seat, _, act = action.partition(": ") if ": " in action else (None, None, action)
        state, _ = G.apply(state, None if seat is None else int(seat), act)
        if state.phase == "play" and state.played:
            tricks = UI.tricks_so_far(G.view(state, 0))
            assert len([t for t in tricks if t["winner"] is not None]) == len(state.played) // 3


def test_result_line_orders_the_totals():
    line = UI.result_line({"totals": [1010, 400, -120], "winner": 0}, ["A", "B", "C"], "en")
    assert line == "A 1010 · B 400 · C -120"
