"""The message-economy bench (bench/message_economy.py) still runs: one Тысяча deal (auction,
прикуп, gifts, 8 tricks) through the real Application on the simulated clock, every goal
line printed. No figure is asserted: the bench measures and prints its own goals; this
only catches a broken bench. Its games are the registry's, not a list of its own."""

from __future__ import annotations

import re

from bench import message_economy
from bot.game_registry import playable


def test_the_economy_bench_plays_a_thousand_deal(capsys):
    assert message_economy.main(["--games", "thousand", "--runs", "1"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"a Thousand \(1000\) deal \(seed 1\).*: \d+ presses, 8 tricks", out), out
    assert re.search(r"group messages: \d+ .* = [\d.]+ per trick   goal <= 1: (met|MISSED)", out), out
    assert re.search(r"most group messages in any 60 s: \d+   goal <= 20: (met|MISSED)", out), out
    assert re.search(r"Bot API calls per press: [\d.]+   goal <= 4: (met|MISSED)", out), out


def test_the_economy_bench_measures_every_game_of_the_registry():
    games = [ui.name for ui in playable()]
    assert {"thousand", "whist", "preferans_ru"} <= set(games)
    assert all(message_economy.seats(game) > 0 for game in games), "a playable game without bench_players"
    assert message_economy.unit("durak") == "bout"
    assert all(message_economy.unit(game) == "trick" for game in games if game != "durak")
