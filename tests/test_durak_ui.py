"""Durak's DM labels: the words players use at each moment."""

from bot.games.durak.ui import action_label, keyboard


def test_pass_is_bito_for_the_attacker_pass_for_helpers_and_enough_when_taking():
    assert action_label("pass", {"seat": 0, "attacker": 0, "taking": False}, "ru") == "Бито"
    assert action_label("pass", {"seat": 2, "attacker": 0, "taking": False}, "ru") == "Пас"
    assert action_label("pass", {"seat": 2, "attacker": 0, "taking": True}, "ru") == "Хватит"
    assert action_label("pass", {"seat": 0, "attacker": 0, "taking": False}, "en") == "Done (bito)"


def test_card_labels_and_layout():
    view = {
        "seat": 1,
        "attacker": 0,
        "taking": False,
        "table": [
            {"attack": "7S", "by": 0, "cover": None, "hidden": False},
            {"attack": "7H", "by": 0, "cover": None, "hidden": False},
        ],
    }
    legal = ["beat 7S 9S", "beat 7H 8H", "blind 7S 6D", "transfer 7D", "take"]
    assert action_label("beat 7S 9S", view, "ru") == "9♠→7♠"
    assert action_label("transfer 7D", view, "ru") == "⇄7♦"
    rows, has_blind = keyboard(legal, view, "ru")
    # covers for the first unbeaten card only; blind covers on their own keyboard
    assert rows == [[("9♠→7♠", 0), ("⇄7♦", 3)], [("Беру", 4)]] and has_blind
    blind_rows, _ = keyboard(legal, view, "ru", blind_mode=True)
    assert blind_rows == [[("🂠6♦→7♠", 2)]]


def test_card_buttons_follow_the_hand_line():
    """Issue 45: the hand line is sorted by suit (trumps last) and the buttons were by rank;
    now the single cards come in the hand line's order, then the groups of one rank."""
    import random

    from bot.games.durak.ui import hand_text
    from bot.render.common import cards_text
    from engine.base import get_game

    game = get_game("durak")
    for seed in range(20):
        options = game.Options()
        state, _ = game.apply(game.initial_state(options, 3), None, game.new_deal(options, 3, random.Random(seed), []))
        seat = game.to_act(state)[0]
        view, legal = game.view(state, seat), game.legal_actions(state, seat)
        rows, _ = keyboard(legal, view, "en")
        labels = [text for row in rows for text, _ in row]
        singles = [text for text in labels if len(text) <= 3]
        assert " ".join(singles) == cards_text(view["hand"])
        assert cards_text(view["hand"]) in hand_text(view, ["A", "B", "C"], "en", "Durak", legal)
        groups = labels[len(singles) :]
        assert all(len(text) > 3 for text in groups)
