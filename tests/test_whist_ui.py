"""What whist players read: the trump prompt after a delegation, and why honours that were
taken are missing from the sheet (dropped after a game won by tricks, or barred)."""

from __future__ import annotations

from bot.games.whist.ui import WhistUI
from bot.games.whist.score import WhistScoreUI
from engine.base import get_game
from tests.fakebot import render
from tests.test_whist_rules import N, S, start, stacked, suit_hands

G = get_game("whist")
P = get_game("whist_score")
NAMES = ["Аня", "Борис", "Вера", "Гоша"]


def test_the_partner_named_by_the_dealer_is_not_told_to_delegate_back():
    state, _ = start(stacked(suit_hands(), N), trump_method="dealer_names")
    dealer = WhistUI().hand_text(G.view(state, N), NAMES, "ru", "Вист", G.legal_actions(state, N))
    assert "Назначьте козыря (или поручите партнёру)." in dealer
    state, _ = G.apply(state, N, "delegate")
    legal = G.legal_actions(state, S)
    assert legal == ["trump S", "trump H", "trump D", "trump C"]
    partner = WhistUI().hand_text(G.view(state, S), NAMES, "ru", "Вист", legal)
    assert "поручите" not in partner and "👉 Партнёр поручил вам назначить козыря." in partner
    en = WhistUI().hand_text(G.view(state, S), NAMES, "en", "Whist", legal)
    assert "let your partner" not in en and "Your partner asks you to name the trump." in en


def paper(entries, **options):
    """Enter deals (NS tricks, NS honours) on a /score whist sheet; the posts of the last one."""
    state = P.initial_state(P.Options(**options), 1)
    state, _ = P.apply(state, None, "deal")
    for tricks, honours in entries:
        events = []
        for action in (f"tricks {tricks}", f"honours {honours}", "confirm"):
            state, ev = P.apply(state, 0, action)
            events += ev
    return state, events


def test_honours_dropped_after_a_game_won_by_tricks_are_explained():
    # deal 1: We 9 tricks (6) + 3 honours (2) = 8; deal 2: We 7 tricks (2) reach 10 first,
    # so Their 4 honours (4 points) are not written (rules §5.3 step 1)
    state, events = paper([(9, 3), (7, 1)])
    scored = next(e for e in events if e["type"] == "deal_scored")
    assert scored["dropped"] == {"side": "EW", "points": 4} and "barred" not in scored
    post = render(WhistScoreUI().posts(events, P.view(state, None), [], "ru", [])[0], "HTML")
    assert "Они (E–W): картинки (+4) не записаны — партию уже выиграли взятками." in post
    # the played game's event carries the same and its post says the same
    event = {
        "type": "deal_scored",
        "deal": 2,
        "trump": "S",
        "dropped": {"side": "EW", "points": 4},
        "entry": {"tricks": {"NS": 7, "EW": 6}, "honours": {"NS": 1, "EW": 4}},
        "game_won": None,
        "rubber_won": None,
    }
    from bot.games.whist.ui import deal_summary

    assert "They (E–W): honours (+4) not written — the game was already won by tricks." in deal_summary(
        event, NAMES, "en"
    )
    # no note when nothing was left out
    state, events = paper([(9, 3)])
    assert "не записаны" not in WhistScoreUI().posts(events, P.view(state, None), [], "ru", [])[0]


def test_barred_honours_are_explained():
    # classical long whist: 1 point a trick, honours barred from 9. We reach 9 with 11
    # tricks (5) and 4 honours held (4); in the next deal our 4 honours cannot score
    state, events = paper([(11, 4), (6, 4)], preset="classical_long")
    scored = next(e for e in events if e["type"] == "deal_scored")
    assert scored.get("barred") == {"side": "NS", "from": 9}, scored
    post = render(WhistScoreUI().posts(events, P.view(state, None), [], "ru", [])[0], "HTML")
    assert "Мы (N–S): картинки не записаны — при 9 очках и больше они не пишутся." in post


def test_a_stopped_match_names_who_stopped_it_without_a_gendered_verb():
    from bot.games.whist.ui import result_text

    text = result_text({"winner": "NS", "stopped_by": 0}, NAMES, "ru")
    assert text.startswith("⏹ Матч остановлен (N Аня).") and "закончил " not in text
