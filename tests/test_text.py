from engine.text import display_width, grid


def test_emoji_take_two_columns():
    assert display_width("🤖 1") == 4 and display_width("Аня") == 3
    lines = grid([["#", "Игрок", "Дурак"], ["1", "Аня", "0"], ["2", "🤖 1", "1"]], align_right={2}).split("\n")
    assert len({display_width(line) for line in lines}) == 1
