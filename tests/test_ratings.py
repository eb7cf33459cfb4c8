"""engine/ratings.py: places as each game's ``standings`` reads its result, and the OpenSkill
update they drive (a winner gains, a loser drops, partners move together)."""

from __future__ import annotations

import pytest

from engine.ratings import NEW_SKILL, Skill, standings, update


def test_durak_order_of_finishing_and_the_durak_last():
    result = {"durak": 2, "by_52": False, "dealer": 0, "out": [[3], [0]]}
    found = standings("durak", result, 4)
    assert found.teams == [[0], [1], [2], [3]]
    assert found.ranks == [2, 3, 4, 1]  # 3 out first, then 0, 1 still held cards, 2 the durak
    assert found.winners() == {3}


def test_durak_result_without_order_everyone_but_the_durak_shares_first_place():
    found = standings("durak", {"durak": 0, "by_52": False, "dealer": 1}, 3)
    assert found.ranks == [2, 1, 1]
    assert found.winners() == {1, 2}


def test_durak_seats_out_with_one_action_tie_and_a_draw_has_no_winner():
    found = standings("durak", {"durak": 1, "out": [[0, 3]]}, 4)
    assert found.ranks == [1, 3, 2, 1]
    draw = standings("durak", {"draw": True, "dealer": 0}, 3)
    assert draw.ranks == [1, 1, 1] and draw.winners() == set()


def test_durak_forfeit_is_a_loss_for_the_one_who_left():
    found = standings("durak", {"durak": 0, "by_52": False, "forfeit": True, "dealer": 0}, 3)
    assert found.ranks == [2, 1, 1]


def test_king_places_and_forfeit():
    result = {"totals": [17, -14, -5, -6], "places": [1, 4, 2, 3], "winners": [0], "deals": 12}
    assert standings("king", result, 4).ranks == [1, 4, 2, 3]
    tied = {"totals": [5, 5, -5, -5], "places": [1, 1, 3, 3]}
    assert standings("king", tied, 4).winners() == {0, 1}
    # the engine already puts a forfeit last; the rating keeps it there
    forfeit = {"totals": [30, 0, 0, 0], "places": [4, 1, 1, 1], "forfeit": 0}
    assert standings("king", forfeit, 4).ranks == [2, 1, 1, 1]


def test_preferans_settlements_in_thirds_are_read_exactly():
    # both preferans engines write a settlement that is not whole as an "a/b" string
    result = {"finished": True, "forfeit": None, "settlement": ["50632/3", "-101264/3", "50632/3"]}
    assert standings("preferans", result, 3).ranks == [1, 3, 1]
    four = {"finished": True, "forfeit": None, "settlement": [10, "-20/3", "-10/3", 0]}
    assert standings("preferans_ru", four, 4).ranks == [1, 4, 3, 2]


def test_preferans_settlement_and_forfeit_whatever_the_score():
    result = {"finished": True, "forfeit": None, "settlement": [40, -10, -30]}
    assert standings("preferans", result, 3).ranks == [1, 2, 3]
    # the forfeiting player ends last even with the best settlement
    left = {"finished": False, "forfeit": 0, "settlement": [40, -10, -30]}
    assert standings("preferans", left, 3).ranks == [3, 1, 2]


@pytest.mark.parametrize("game", ["whist", "bridge"])
def test_partnerships(game):
    ns = standings(game, {"winner": "NS"}, 4)
    assert ns.teams == [[0, 2], [1, 3]] and ns.ranks == [1, 2] and ns.winners() == {0, 2}
    ew_forfeit = standings(game, {"winner": "EW", "forfeit": 1}, 4)
    assert ew_forfeit.ranks == [1, 2]  # East left: East-West lose


def test_partnerships_without_a_winner_by_balance_or_amounts():
    assert standings("whist", {"winner": None, "balance": {"NS": 0, "EW": 0}}, 4).ranks == [1, 1]
    assert standings("whist", {"winner": None, "balance": {"NS": -3, "EW": 3}}, 4).ranks == [2, 1]
    assert standings("bridge", {"winner": None, "amounts": [5, -5, 5, -5]}, 4).ranks == [1, 2]


def test_thousand_by_the_totals_ties_share_and_a_forfeit_is_last():
    assert standings("thousand", {"totals": [1005, 640, 980], "winner": 0}, 3).ranks == [1, 3, 2]
    tie = standings("thousand", {"totals": [1010, 1010, 300], "winner": None}, 3)
    assert tie.ranks == [1, 1, 3] and tie.winners() == {0, 1}
    # four players (the dealer sat out in turn); the one who left is last with the best total
    left = {"totals": [900, 120, 560, 400], "winner": 0, "forfeit": 0}
    assert standings("thousand", left, 4).ranks == [4, 3, 1, 2]


def test_score_sheets_are_not_rated():
    assert standings("preferans_score", {"settlement": [1, 2, 3]}, 3) is None
    assert standings("bridge_score", {"winner": "NS"}, 4) is None
    assert standings("thousand_score", {"totals": [1005, 0, 0], "winner": 0}, 3) is None


def test_update_moves_winner_up_loser_down():
    found = standings("durak", {"durak": 1}, 2)
    new = update(["u1", "u2"], {}, found)
    assert new["u1"].mu > NEW_SKILL.mu > new["u2"].mu
    assert new["u1"].sigma < NEW_SKILL.sigma
    assert new["u1"].display > new["u2"].display


def test_partners_move_together_and_one_computer_level_at_several_seats_is_one_player():
    found = standings("bridge", {"winner": "EW"}, 4)
    new = update(["u1", "cpu:easy", "u2", "cpu:easy"], {"u1": Skill(30.0, 4.0)}, found)
    assert set(new) == {"u1", "u2", "cpu:easy"}
    assert new["u1"].mu < 30.0 and new["u2"].mu < NEW_SKILL.mu
    assert new["cpu:easy"].mu > NEW_SKILL.mu
    # a computer level on both sides: the mean of its seats' updates
    mixed = update(["cpu:easy", "u1", "cpu:easy", "cpu:easy"], {}, standings("whist", {"winner": "NS"}, 4))
    assert set(mixed) == {"cpu:easy", "u1"}


def test_display_scale():
    assert NEW_SKILL.display == 1500
    assert Skill(30.0, 2.0).display == 1500 + 24 * 24


def _table(game: str, level: str = "normal"):
    from storage.models import TableRow

    return TableRow(7, -100, 0, game, {}, "playing", 1, 10, 2, None, "ru", {"computers": level})


def _seats(n: int, computers: tuple[int, ...] = ()):
    from storage.models import SeatRow

    return [
        SeatRow(7, s, -s - 1 if s in computers else 100 + s, f"🤖 {s}" if s in computers else f"P{s}", s in computers)
        for s in range(n)
    ]


@pytest.mark.parametrize(
    ("game", "result", "winners"),
    [
        ("king", {"totals": [17, -14, -5, -6], "places": [1, 4, 2, 3]}, {"u100"}),
        ("preferans", {"finished": True, "forfeit": None, "settlement": [-10, 40, -30]}, {"cpu:normal"}),
        ("whist", {"winner": "EW", "balance": {"NS": -2, "EW": 2}}, {"cpu:normal", "u103"}),
        ("bridge", {"winner": "NS", "amounts": [5, -5, 5, -5]}, {"u100", "u102"}),
        ("durak", {"durak": 0, "by_52": False, "forfeit": True}, {"cpu:normal", "u102", "u103"}),
        ("thousand", {"totals": [420, 1010, 300], "winner": 1}, {"cpu:normal"}),
    ],
)
def test_the_service_rows_for_each_result_shape(game, result, winners):
    """What the service hands to the storage when a game ends: a history row with every
    seat, and an update that writes one row per player with its game and win counted."""
    from bot.ratings import ending
    from storage.models import RatingRow

    players = 3 if game in ("preferans", "thousand") else 4
    finished, rate = ending(_table(game), _seats(players, computers=(1,)), result, 1000.0)
    assert finished.rated and [p["player"] for p in finished.players][:2] == ["u100", "cpu:normal"]
    assert finished.players[1] == {"name": "🤖 1", "player": "cpu:normal", "user_id": None}
    old = RatingRow(-100, game, "u100", 100, "P0", mu=30.0, sigma=5.0, games=4, wins=3, last_played=1.0)
    rows = {r.player: r for r in rate({"u100": old}, set())}
    assert set(rows) == {p["player"] for p in finished.players}
    assert rows["u100"].games == 5 and all(r.games == 1 for k, r in rows.items() if k != "u100")
    assert {k for k, r in rows.items() if r.wins > (3 if k == "u100" else 0)} == winners
    assert all(r.last_played == 1000.0 and r.chat_id == -100 for r in rows.values())
    # an opted-out person is left out of what is written
    assert "u102" not in {r.player for r in rate({}, {102})}


def test_score_sheets_and_tables_without_people_are_history_only():
    from bot.ratings import ending

    finished, rate = ending(_table("preferans_score"), _seats(3), {"settlement": [1, 0, -1]}, 5.0)
    assert rate is None and not finished.rated and finished.finished_at == 5.0
    _, rate = ending(_table("durak"), _seats(2, computers=(0, 1)), {"durak": 0}, 5.0)
    assert rate is None


def test_a_result_the_rating_cannot_read_is_kept_unrated_and_logged(caplog):
    from bot.ratings import ending

    broken = {"finished": True, "settlement": ["not a number", 0, 0]}
    finished, rate = ending(_table("preferans"), _seats(3), broken, 5.0)
    assert rate is None and not finished.rated
    assert "not rated" in caplog.text
