"""A crowd plays every game: six people in one group with Telegram's flood limit (20
messages a minute), /newgame → the chooser (pressed by two at once) → Join/Sit pressed
together → + Computer → Start → then at human pace whoever must act presses a move in
their DM while the others press whatever they see (Watch, their hand out of turn, the
old chooser, a button pressed before) until the table shows its final result.

Asserted for each game: it started and finished, every press got exactly one answer,
no chat was called before the retry_after Telegram gave it, nothing was logged as ERROR,
and (every settle) no hidden card reached a chat."""

from __future__ import annotations

import pytest

from tests.crowd import crowd_fake_telegram, CrowdGame, ErrorLog, crowd_plays, crowd_problems

GROUP = -1001
NAMES = ["Аня", "Борис", "Вера", "Гоша", "Даша", "Егор"]

# the smallest series each game offers in its lobby (bridge: a Chicago round of four deals,
# where a rubber of crowd-bid contracts ran to a dozen deals); the Russian pulka is cut to
# a pool of 4 (the lobby's least is 10) to keep the file fast
GAMES = {
    "durak": CrowdGame("durak", humans=4),
    "preferans": CrowdGame("preferans", humans=3, options={"bula": lambda o: o.get("bula") == 10}),
    "preferans_ru": CrowdGame(
        "preferans_ru",
        humans=2,
        computers=1,
        options={"pool": lambda o: o.get("pool") == 10},
        stored_options={"pool": 4},
    ),
    "king": CrowdGame("king", humans=2, computers=2),
    "bridge": CrowdGame("bridge", humans=3, computers=1, options={"scoring": lambda o: o.get("scoring") == "chicago"}),
    "whist": CrowdGame(
        "whist", humans=3, computers=1, options={"rubbers": lambda o: o.get("match_rubbers_to_win") == 1}
    ),
}


fake_telegram = crowd_fake_telegram  # the fixture, under the name the harness asks for


@pytest.fixture
async def bot(fake_telegram, start_bot):
    fake_telegram.group(GROUP, "Кухня", admins=[1], supergroup=True)
    return await start_bot(computer_level="easy", computer_workers=0)


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_crowd_plays_the_game_from_newgame_to_its_result(bot, fake_telegram, game):
    fake = fake_telegram
    people = [fake.user(i + 1, name) for i, name in enumerate(NAMES)]
    with ErrorLog() as errors:
        run = await crowd_plays(bot, GROUP, people, GAMES[game], seed=len(game))
    problems = run.problems + crowd_problems(fake, errors)
    assert run.started and run.finished and not problems, "\n".join(problems)
