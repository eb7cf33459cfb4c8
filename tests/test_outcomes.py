"""Each game owns its outcome: ``standings`` on the engine game (rated = the game defines
it), durak's finishing order in its result, the score-only records and /history's line
per game. The standings and the lines are checked against the switch on game names they
replaced (kept here, frozen, as the reference) on sample and played results."""

from __future__ import annotations

import random
from fractions import Fraction
from types import SimpleNamespace

import pytest

import engine.base
from bot.game_registry import playable
from engine.base import get_game
from engine.ratings import rated_games, standings
from engine.score import ScoreError, score, scored_games
from engine.selfplay import selfplay
from engine.standings import Standings, each_alone
from storage.models import FinishedGame

# every game with a table of its own is rated; the score-only sheets are not
RATED = tuple(sorted(ui.name for ui in playable()))


# ------------------------------------------------------------------ the reference
def _old_standings(game, result, players, finish_order=()):
    """engine.ratings.standings as it switched on the game's name."""

    def dense(ranks):
        order = sorted(set(ranks))
        return [order.index(r) + 1 for r in ranks]

    def ranks_of(scores):
        return [1 + sum(1 for other in scores if other > mine) for mine in scores]

    if game == "durak":
        if result.get("draw"):
            found = Standings([[s] for s in range(players)], [1] * players)
        else:
            durak, rank, place = int(result["durak"]), dict.fromkeys(range(players), 0), 1
            for group in finish_order:
                for seat in group:
                    if seat != durak and rank[seat] == 0:
                        rank[seat] = place
                place += 1
            for seat in range(players):
                if rank[seat] == 0 and seat != durak:
                    rank[seat] = place
            rank[durak] = max(rank.values()) + 1
            found = Standings([[s] for s in range(players)], dense([rank[s] for s in range(players)]))
    elif game == "king":
        found = Standings([[s] for s in range(players)], [int(p) for p in result["places"]])
    elif game in ("preferans", "preferans_ru"):
        found = Standings([[s] for s in range(players)], ranks_of([float(Fraction(x)) for x in result["settlement"]]))
    elif game in ("whist", "bridge"):
        winner = result.get("winner")
        if winner in ("NS", "EW"):
            ranks = [1, 2] if winner == "NS" else [2, 1]
        elif game == "whist":
            balance = result.get("balance") or {}
            ranks = ranks_of([float(balance.get("NS", 0)), float(balance.get("EW", 0))])
        else:
            amounts = result.get("amounts") or [0, 0]
            ranks = ranks_of([float(amounts[0]), float(amounts[1])])
        found = Standings([[0, 2], [1, 3]], ranks)
    else:
        return None
    forfeit = result.get("forfeit")
    if isinstance(forfeit, int) and not isinstance(forfeit, bool):
        ranks = list(found.ranks)
        for i, team in enumerate(found.teams):
            if forfeit in team:
                ranks[i] = max(ranks) + 1
        found = Standings(found.teams, dense(ranks))
    return found


def _finish_order(events_by_action):
    """The order of going out as the bot rebuilt it from a replayed log's events."""
    return [g for g in ([int(e["seat"]) for e in ev if e.get("type") == "finished"] for ev in events_by_action) if g]


# ------------------------------------------------------------------ standings
SAMPLES = [
    ("durak", 3, {"durak": 0, "by_52": False, "dealer": 1}),  # stored before the order was kept
    ("durak", 3, {"durak": 0, "by_52": False, "forfeit": True, "dealer": 0}),
    ("durak", 4, {"draw": True, "dealer": 2}),
    ("king", 4, {"totals": [17, -14, -5, -6], "places": [1, 4, 2, 3], "winners": [0], "deals": 12}),
    ("king", 4, {"totals": [30, 0, 0, 0], "places": [4, 1, 1, 1], "forfeit": 0}),
    ("preferans", 3, {"finished": True, "forfeit": None, "settlement": ["50632/3", "-101264/3", "50632/3"]}),
    ("preferans", 3, {"finished": False, "forfeit": 0, "settlement": [40, -10, -30]}),
    ("preferans_ru", 4, {"finished": True, "forfeit": None, "settlement": [10, "-20/3", "-10/3", 0]}),
    ("preferans_ru", 3, {"finished": False, "forfeit": 2, "settlement": [-5, -5, 10]}),
    ("whist", 4, {"winner": "EW", "balance": {"NS": -2, "EW": 2}}),
    ("whist", 4, {"winner": None, "balance": {"NS": 0, "EW": 0}}),
    ("whist", 4, {"winner": "NS", "forfeit": 2}),
    ("bridge", 4, {"winner": None, "amounts": [5, -5, 5, -5]}),
    ("bridge", 4, {"winner": "EW", "forfeit": 1}),
    ("bridge", 4, {"winner": "NS", "amounts": ["7/2", "-7/2", "7/2", "-7/2"]}),
]


@pytest.mark.parametrize(("game", "players", "result"), SAMPLES)
def test_standings_agree_with_the_switch_they_replaced(game, players, result):
    assert standings(game, result, players) == _old_standings(game, result, players)


def test_exact_fractions_place_the_partnerships():
    # the switch read "a/b" amounts (bridge without rounding) with float() and gave up
    assert standings("bridge", {"winner": None, "amounts": ["-7/2", "7/2", "-7/2", "7/2"]}, 4).ranks == [2, 1]
    assert standings("whist", {"winner": None, "balance": {"NS": "5/2", "EW": "-5/2"}}, 4).ranks == [1, 2]


@pytest.mark.parametrize(("game", "players"), [("king", 4), ("whist", 4), ("bridge", 4), ("preferans_ru", 3)])
def test_standings_of_played_results_agree(game, players):
    for result in selfplay(game, 2, 11, players=players, policy="random")["results"]:
        assert standings(game, result, players) == _old_standings(game, result, players)


def _durak_game(seed, players, forfeit_at=None, restart_at=None):
    """A random durak game: its final state and, per action, its events. ``restart_at``:
    the state goes through a dump without the order (as stored before it was kept) there."""
    game, rng = get_game("durak"), random.Random(seed)
    options = game.Options()
    state = game.initial_state(options, players)
    state, _ = game.apply(state, None, game.new_deal(options, players, rng, []))
    if restart_at == 0:
        dumped = game.dump(state)
        del dumped["out"]
        state = game.load(dumped)
    events_by_action, steps = [], 0
    while not game.is_over(state):
        if steps == forfeit_at:
            seat = next(s for s in range(players) if not state.finished[s])
            state, events = game.apply(state, None, f"forfeit {seat}")
        else:
            seat = game.to_act(state)[0]
            state, events = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        events_by_action.append(events)
        steps += 1
    return game.result(state), events_by_action


@pytest.mark.parametrize("players", [3, 4, 5])
def test_durak_result_carries_the_order_the_log_replay_gave(players):
    seen_orders = set()
    for seed in range(12):
        forfeit_at = 40 if seed % 3 == 0 else None
        result, events = _durak_game(seed, players, forfeit_at)
        order = _finish_order(events)
        assert result["out"] == order
        without = {k: v for k, v in result.items() if k != "out"}
        assert standings("durak", result, players) == _old_standings("durak", without, players, order)
        seen_orders.add(len(order))
    assert max(seen_orders) >= 2  # some games had several players go out one after another


def test_a_game_loaded_from_a_dump_without_the_order_still_gets_it():
    """Games in progress when the order started to be kept: their snapshot is the deal's,
    where nobody is out yet, so the order they end with is whole."""
    result, events = _durak_game(3, 4, restart_at=0)
    assert result["out"] == _finish_order(events) and result["out"]
    game = get_game("durak")
    state = game.initial_state(game.Options(), 3)
    dumped = game.dump(state)
    dumped["finished"], _ = [True, False, False], dumped.pop("out")
    assert game.load(dumped).out is None  # someone went out before: the order is unknown


def test_an_unknown_order_leaves_it_out_of_the_result():
    game = get_game("durak")
    state = game.initial_state(game.Options(), 3)
    state, _ = game.apply(state, None, game.new_deal(game.Options(), 3, random.Random(1), []))
    state.out = None
    ended, _ = game.apply(state, None, "forfeit 1")
    assert "out" not in game.result(ended)
    assert standings("durak", game.result(ended), 3).ranks == [1, 2, 1]


# ------------------------------------------------------------------ the registry
def _fake_game(name, **parts):
    return SimpleNamespace(name=name, rules_version=1, **parts)


def test_rated_games_are_the_registered_games_with_standings(monkeypatch):
    assert rated_games() == RATED
    assert standings("preferans_score", {"settlement": [1, 2, 3]}, 3) is None
    monkeypatch.setitem(engine.base._GAMES, "plain_test", _fake_game("plain_test"))
    assert "plain_test" not in rated_games()
    assert standings("plain_test", {"winner": 0}, 2) is None

    placed = _fake_game("placed_test", standings=lambda result, players: each_alone([2, 1]))
    monkeypatch.setitem(engine.base._GAMES, "placed_test", placed)
    assert "placed_test" in rated_games()
    assert standings("placed_test", {}, 2).winners() == {1}
    assert standings("placed_test", {"forfeit": 1}, 2).ranks == [1, 2]  # the forfeit rule, once for all


def test_a_registered_game_without_standings_goes_into_the_history_unrated(monkeypatch):
    from bot.ratings import ending
    from storage.models import SeatRow, TableRow

    monkeypatch.setitem(engine.base._GAMES, "plain_test", _fake_game("plain_test"))
    table = TableRow(7, -100, 0, "plain_test", {}, "playing", 1, 10, 2, None, "en", {})
    seats = [SeatRow(7, s, 100 + s, f"P{s}", False) for s in range(2)]
    finished, rate = ending(table, seats, {"winner": 0}, 5.0)
    assert rate is None and not finished.rated and finished.result == {"winner": 0}


def test_scored_games_are_the_registered_games_with_a_record(monkeypatch):
    found = scored_games()
    assert {"bridge", "preferans", "preferans_ru", "thousand", "whist"} <= set(found) and "durak" not in found
    assert list(found) == sorted(found)
    record = SimpleNamespace(score=lambda r: {"n": len(r)}, text=lambda r, lang="en": "sheet")
    monkeypatch.setitem(engine.base._GAMES, "sheet_test", _fake_game("sheet_test", record=record))
    assert "sheet_test" in scored_games()
    assert score({"game": "sheet_test"}) == {"n": 1}
    with pytest.raises(ScoreError, match="expected one of " + ", ".join(sorted([*found, "sheet_test"]))):
        score({"game": "durak"})


# ------------------------------------------------------------------ /history's line
def _old_result_line(fg, lang):
    """bot.players.result_line as it guessed a result's shape from its keys."""
    import html

    from bot.i18n import t
    from bot.render.common import display_name

    r, names = fg.result, [html.escape(display_name(p["name"])) for p in fg.players]

    def name(seat):
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    def signed(value):
        number = float(value)
        text = f"{number:+.0f}" if number == int(number) else f"{number:+.1f}"
        return text.replace("-", "−")

    if r.get("draw"):
        text = t(lang, "history.draw")
    elif "durak" in r:
        text = t(lang, "history.durak", name=name(r["durak"]))
    elif "settlement" in r:
        text = " · ".join(f"{name(i)} {signed(v)}" for i, v in enumerate(r["settlement"]))
    elif "totals" in r and isinstance(r["totals"], list):
        order = sorted(range(len(r["totals"])), key=lambda i: -r["totals"][i])
        text = " · ".join(f"{name(i)} {signed(r['totals'][i])}" for i in order)
    elif r.get("winner") in ("NS", "EW"):
        seats = (0, 2) if r["winner"] == "NS" else (1, 3)
        text = t(lang, "history.won", names=", ".join(name(s) for s in seats if s < len(names)))
    else:
        text = t(lang, "history.no_winner")
    forfeit = r.get("forfeit")
    if forfeit is not None and forfeit is not False:
        who = name(r["durak"]) if forfeit is True else name(forfeit)
        text += " " + t(lang, "history.forfeit", name=who)
    return text


LINES = [
    ("durak", 3, {"durak": 2, "by_52": False, "dealer": 0, "out": [[1], [0]]}),
    ("durak", 3, {"durak": 1, "by_52": False, "forfeit": True, "dealer": 0}),
    ("durak", 2, {"draw": True, "dealer": 1, "out": [[0, 1]]}),
    ("king", 4, {"totals": [17, -14, -5, -6], "places": [1, 4, 2, 3], "deals": 12}),
    ("king", 4, {"totals": [30, 0, 0, 0], "places": [4, 1, 1, 1], "forfeit": 0}),
    ("preferans", 3, {"finished": True, "forfeit": None, "settlement": [50, -100, 50]}),
    ("preferans_score", 3, {"finished": True, "forfeit": 1, "settlement": [40, -10, -30]}),
    ("preferans_ru", 4, {"finished": True, "forfeit": None, "settlement": [10, -7.5, -2.5, 0]}),
    ("preferans_ru_score", 3, {"finished": True, "forfeit": None, "settlement": [35, 0, -35]}),
    ("whist", 4, {"winner": "EW", "balance": {"NS": -2, "EW": 2}}),
    ("whist_score", 4, {"winner": None, "balance": {"NS": 0, "EW": 0}, "forfeit": 3}),
    ("bridge", 4, {"winner": "NS", "totals": {"NS": 900, "EW": 200}, "amounts": [7, -7, 7, -7]}),
    ("bridge_score", 4, {"winner": None, "totals": {"NS": 0, "EW": 0}, "forfeit": 2}),
]


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize(("game", "players", "result"), LINES)
def test_each_games_history_line_agrees_with_the_guess_it_replaced(game, players, result, lang):
    from bot.players import result_line

    seats = [{"name": n, "player": f"u{i}", "user_id": i} for i, n in enumerate(["Аня", "<b>Bo</b>", "🤖 Ada", "Dan"])]
    fg = FinishedGame(-100, 0, 7, 1, game, {}, seats[:players], result)
    line = result_line(fg, lang)
    assert line == _old_result_line(fg, lang)
    assert "<b>Bo</b>" not in line  # names are escaped


def test_a_settlement_in_thirds_has_its_history_line():
    # the key-guessing line read "a/b" settlements with float() and failed /history
    from bot.players import result_line

    seats = [{"name": n, "player": f"u{i}", "user_id": i} for i, n in enumerate(["Аня", "Bo", "Cy"])]
    result = {"finished": True, "forfeit": None, "settlement": ["50632/3", "-101264/3", "50632/3"]}
    for game in ("preferans", "preferans_ru_score"):
        line = result_line(FinishedGame(-100, 0, 7, 1, game, {}, seats, result), "en")
        assert line == "Аня +16877.3 · Bo −33754.7 · Cy +16877.3"
