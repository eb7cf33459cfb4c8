from engine.tricks import Trick, next_seat, playable, winning_index


def test_follow_suit_then_trump_then_anything():
    hand = ["7S", "KH", "9D", "AC"]
    assert playable(hand, None, "D", True) == hand
    assert playable(hand, "H", "D", True) == ["KH"]
    assert playable(hand, "C", "D", True) == ["AC"]
    assert playable(["7S", "9D", "KH"], "C", "D", True) == ["9D"]  # void: must trump
    assert playable(["7S", "9D", "KH"], "C", "D", False) == ["7S", "9D", "KH"]  # no duty
    assert playable(["7S", "KH"], "C", "D", True) == ["7S", "KH"]  # no trump held: anything
    assert playable(["7S", "KH"], "C", None, True) == ["7S", "KH"]  # no-trump contract


def test_trick_winner():
    assert winning_index(["7H", "KH", "AS"], None) == 1  # a discard never wins
    assert winning_index(["7H", "KH", "7S"], "S") == 2  # a trump wins
    assert winning_index(["7H", "8S", "9S", "AH"], "S") == 2  # the higher trump
    assert winning_index(["TS", "9S"], "S") == 0
    trick = Trick(2, [(2, "QC"), (3, "KC"), (0, "2D")])
    assert trick.led_suit == "C" and trick.winner("D") == 0 and trick.winner(None) == 3
    assert Trick.from_dict(trick.to_dict()) == trick


def test_next_seat_skips():
    assert next_seat(3, 4) == 0
    assert next_seat(0, 4, {1}) == 2
    assert next_seat(2, 3, {0}) == 1


def test_the_rank_order_is_a_parameter():
    ace_low = {r: i for i, r in enumerate("A23456789TJQK")}
    assert winning_index(["7H", "AH", "KH"], None) == 1  # the usual order: ace high
    assert winning_index(["7H", "AH", "KH"], None, ace_low) == 2
    assert winning_index(["AS", "2S", "KH"], "H", ace_low) == 2  # a trump still beats any rank
    trick = Trick(0, [(0, "QC"), (1, "AC")])
    assert trick.winner(None) == 1 and trick.winner(None, ace_low) == 0


def test_a_copied_trick_takes_cards_alone():
    trick = Trick(1, [(1, "QC")])
    copy = trick.copy()
    copy.plays.append((2, "KC"))
    assert trick.plays == [(1, "QC")] and copy.leader == 1 and copy.winner(None) == 2
