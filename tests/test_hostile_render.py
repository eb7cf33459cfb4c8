"""Every text the bot can send, rendered with hostile names and titles, passes
Telegram's HTML rules (as strictly as tests/fakebot.py checks them) and its 4096-unit
limit, and a name or title never changes the markup around it.

One place for all of it: each game (and each score sheet) is played at random from the
deal to the end, and at every step the group table, every seat's DM hand, the posts
the step causes, the lobby and the "your turn" ping are drawn twice, once with hostile
names and once with plain ones. The tags must be the same; the hostile texts must
parse and fit, with no bidi control left in them.
"""

from __future__ import annotations

import random
import re

import pytest

from bot import screens
from bot.game_registry import ui_for
from bot.render.common import MESSAGE_LIMIT, display_name, fit_message
from engine.base import get_game
from storage.models import BETWEEN, LOBBY, PLAYING, SeatRow, TableRow
from tests.fakebot import _utf16_len, render
from tests.random_play import every_ui_and_seat_count, first_deal, random_step

LONG = "Ж" * 64 + " " + "W" * 64  # the longest full name Telegram allows: 64 + 64
HOSTILE_NAMES = [
    '<a href="https://evil.example">click</a>',
    "</pre></b><pre>",
    "Tom & Jerry &amp; &copy; &#0;",
    "\u202eevil\u202c RTL \u2067mark",
    LONG,
    "👨‍👩‍👧‍👦" * 40,
    "<b>" * 30,
]
HOSTILE_TITLE = "</pre><a href='x'>&</a> \u202e" + "Ü" * 120
TAG = re.compile(r"</?[a-zA-Z-]+[^<>]*>")
STEPS = 400  # per game: past every phase of a deal several times, and long score sheets
# Every step is drawn up to DENSE (each phase several times); after it every SPARSE-th step
# and the game's end, for the long sheets: a score game redraws its whole sheet at each step.
# bench/random_games.py draws every step of more games.
DENSE, SPARSE = 120, 10
BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def table_row(game: str, status: str, title: str, lang: str) -> TableRow:
    return TableRow(
        id=7,
        chat_id=-1001,
        thread_id=0,
        game=game,
        options=get_game(game).Options().model_dump(),
        status=status,
        opener_id=1,
        version=12345,
        game_no=1 if status != LOBBY else 0,
        group_message_id=None,
        lang=lang,
        settings={"timer": 300, "on_timeout": "lose", "title": title, "computers": "easy"},
    )


def seat_rows(names: list[str]) -> list[SeatRow]:
    return [SeatRow(7, i, i + 1, name) for i, name in enumerate(names)]


def check(hostile: str, plain: str, where: str) -> int:
    """The hostile text is valid HTML of the same shape as the plain one; returns its length."""
    shown = render(hostile, "HTML")  # raises like Telegram on bad markup
    assert TAG.findall(hostile) == TAG.findall(plain), f"a name changed the markup of {where}"
    assert not BIDI.search(shown), f"a bidi control reached {where}"
    length = _utf16_len(shown)
    assert length <= MESSAGE_LIMIT, f"{where} is {length} long:\n{shown}"
    return length


def screens_of(table, seats, state, events, history, players) -> list[tuple[str, str]]:
    game, ui = get_game(table.game), ui_for(table.game)
    texts = [
        ("group", screens.group_table(table, seats, state).text),
        ("group/thinking", screens.group_table(table, seats, state, thinking=0).text),
        ("ping", screens.ping(table)),
        ("reminder", screens.ping(table, reminder=True)),
        ("notice", screens.notice(table, "table.closed_removed")),
    ]
    # the seats to act see prompts and the most lines; seat 0 stands for the others
    texts += [(f"hand {s}", screens.hand(table, seats, state, s).text) for s in sorted({0, *game.to_act(state)})]
    names = screens.seat_names(seats)
    texts += [("post", text) for text in ui.posts(events, game.view(state, None), names, table.lang, history)]
    return texts


def play(game_name: str, players: int, seed: int, lang: str, dense: int = DENSE) -> dict[str, int]:
    """One random game; returns the longest text of each kind. Steps from ``dense`` on are
    drawn every SPARSE-th only."""
    game = get_game(game_name)
    rng = random.Random(seed)
    if seed == 0:  # everyone with the longest name Telegram allows
        names = [LONG[:-1] + str(i) for i in range(players)]
    else:
        names = [HOSTILE_NAMES[(seed + i) % len(HOSTILE_NAMES)] for i in range(players)]
    hostile = (table_row(game_name, LOBBY, HOSTILE_TITLE, lang), seat_rows(names))
    plain = (table_row(game_name, LOBBY, "Group", lang), seat_rows([f"P{i}" for i in range(players)]))
    longest: dict[str, int] = {}
    for (h_table, h_seats), (p_table, p_seats) in [(hostile, plain)]:
        lobby_h = screens.lobby(h_table, h_seats, {}, "CardTestBot").text
        lobby_p = screens.lobby(p_table, p_seats, {}, "CardTestBot").text
        longest["lobby"] = check(lobby_h, lobby_p, "the lobby")
        shown = render(lobby_h, "HTML")
        for name in names:
            assert display_name(name) in shown, f"{display_name(name)!r} not in the lobby"
        h_table.status = p_table.status = PLAYING
        h_table.game_no = p_table.game_no = 1
    history: list[dict] = []
    state, events = first_deal(game, players, rng)
    for step in range(STEPS):
        if game.is_over(state):
            history = history + [game.result(state)]
            h_table.status = p_table.status = BETWEEN
        elif step >= dense and step % SPARSE:
            state, events = random_step(game, state, rng)
            continue
        h_texts = screens_of(h_table, h_seats, state, events, history, players)
        p_texts = screens_of(p_table, p_seats, state, events, history, players)
        assert [k for k, _ in h_texts] == [k for k, _ in p_texts]
        for (kind, h), (_, p) in zip(h_texts, p_texts):
            longest[kind.split()[0]] = max(
                longest.get(kind.split()[0], 0), check(h, p, f"{game_name} {kind} at step {step}")
            )
        if game.is_over(state):
            return longest
        state, events = random_step(game, state, rng)
    return longest


CASES = every_ui_and_seat_count()


@pytest.mark.parametrize("game_name,players", CASES)
def test_every_text_with_hostile_names_is_valid_and_fits(game_name, players):
    longest: dict[str, int] = {}
    for seed in range(2):
        for kind, length in play(game_name, players, seed, ("ru", "en")[seed % 2]).items():
            longest[kind] = max(longest.get(kind, 0), length)
    assert longest["group"] > 0


def test_display_name_cuts_cleans_and_keeps_short_names():
    assert display_name("Аня") == "Аня"
    assert display_name(LONG).endswith("…") and len(display_name(LONG)) == 20
    assert display_name("a\u202eb\nc\u2067") == "ab c"
    assert display_name("🤖" * 30).count("🤖") == 9  # two columns each: 18 + "…"


def test_fit_message_cuts_visible_text_and_closes_tags():
    text = "<b>head</b>\n<pre>" + "x &amp; y\n" * 1000 + "</pre>"
    fitted = fit_message(text)
    shown = render(fitted, "HTML")
    assert _utf16_len(shown) == MESSAGE_LIMIT and shown.endswith("…")
    assert fitted.endswith("…</pre>")
    assert fit_message("short <b>one</b>") == "short <b>one</b>"
