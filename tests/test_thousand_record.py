"""``cardbot score`` for Тысяча (docs/rules/records.md §6): the rules' worked example, the
conventions (болт, бочка, самосвал, распишись, тёмная, four players), malformed and
impossible records, and the proof that it is the played game's scoring: every played
game's deals, written as a record, give the same sheet line by line."""

from __future__ import annotations

import json
import random

import pytest

from bot.cli import main
from engine.base import get_game
from engine.games.thousand.record import possible
from engine.score import ScoreError, score, text
from engine.text import PHONE_WIDTH, display_width

G = get_game("thousand")


def record(*deals, **header):
    return {"game": "thousand", **header, "deals": list(deals)}


def totals(rec) -> list[int]:
    return list(score(rec)["totals"].values())


def test_the_worked_example_of_the_rules():
    """thousand.md §5: A declares 120 with 95 card points and ♦80: +120; B 22: +20; C 3: +5."""
    out = score(record({"declarer": "A", "contract": 120, "made": True, "points": {"B": 22, "C": 3}}))
    assert out["totals"] == {"A": 120, "B": 20, "C": 5}
    assert out["deals"][0]["delta"] == {"A": 120, "B": 20, "C": 5}
    assert out["deals"][0]["dealer"] == "A" and out["finished"] is False and out["winner"] is None


def test_a_lost_contract_a_concession_and_a_blind_one():
    lost = {"declarer": "B", "contract": 140, "made": False, "points": {"A": 40, "C": 35}}
    conceded = {"declarer": "C", "contract": 105, "conceded": True}
    blind = {"declarer": "B", "contract": 100, "dark": True, "made": True, "points": {"C": 10, "A": 0}}
    # the third deal: C deals, so A is the forehand; blind is A's alone
    blind["declarer"], blind["points"] = "A", {"B": 10, "C": 0}
    out = score(record(lost, conceded, blind, options={"dark": True}))
    assert [d["delta"] for d in out["deals"]] == [
        {"A": 40, "B": -140, "C": 35},
        {"A": 60, "B": 60, "C": -105},
        {"A": 200, "B": 10, "C": 0},
    ]


def test_the_third_bolt_costs_120_and_555_falls_to_0():
    bolt = {"declarer": "A", "contract": 100, "made": True, "points": {"B": "bolt", "C": 15}}
    out = score(record(bolt, bolt, bolt))
    assert out["totals"] == {"A": 300, "B": -120, "C": 45}
    assert out["deals"][2]["marks"] == {"B": ["bolt", "bolt_penalty"]}
    # самосвал: exactly 555 after a deal
    deals = [{"declarer": "A", "contract": 185, "made": True, "points": {"B": 0, "C": 0}}] * 3
    out = score(record(*deals))
    assert out["totals"]["A"] == 0 and out["deals"][2]["marks"] == {"A": ["samosval"]}


def test_the_barrel_stops_an_opponent_and_gives_it_three_deals():
    """B reaches 880 as an opponent and stops there; on the бочка its points do not count
    (it may be left out) and after three deals without a won contract it drops 120."""
    climb = [{"declarer": "A", "contract": 100, "made": False, "points": {"B": 110, "C": 0}}] * 8
    on = {"declarer": "A", "contract": 100, "made": False, "points": {"C": 5}}  # B left out
    out = score(record(*climb, on, on, on))
    assert out["deals"][7]["totals"]["B"] == 880 and out["deals"][7]["marks"]["B"] == ["barrel_on"]
    assert out["deals"][8]["delta"]["B"] == 0 and out["deals"][8]["marks"]["B"] == ["barrel_idle"]
    assert out["totals"]["B"] == 760 and out["deals"][10]["marks"]["B"] == ["barrel_idle", "barrel_fall"]
    assert out["barrel"]["B"] is None
    sheet = text(record(*climb, on), "en")
    assert "[880]" in sheet and "on the бочка: B (deal 2 of 3)" in sheet


def test_four_players_rotate_the_dealer_who_sits_out():
    deal = {"declarer": "B", "contract": 100, "made": True, "points": {"C": 10, "D": 10}}
    out = score(record(deal, players=4))
    assert out["deals"][0]["delta"] == {"B": 100, "C": 10, "D": 10} and out["totals"]["A"] == 0
    with pytest.raises(ScoreError, match="entry 2: B deals and sits this deal out"):
        score(record(deal, deal, players=4))
    with pytest.raises(ScoreError, match="entry 1: points for 'A', who is not an opponent"):
        score(record({**deal, "points": {"C": 10, "D": 10, "A": 5}}, players=4))
    out = score(record({**deal, "points": {"D": 10, "A": 10}}, players=4, first_dealer="C"))
    assert out["deals"][0]["dealer"] == "C" and out["totals"]["C"] == 0


def test_the_game_ends_at_the_target():
    big = {"declarer": "A", "contract": 400, "made": True, "points": {"B": 0, "C": 0}}
    out = score(record(big, big, big))
    assert out["finished"] is True and out["winner"] == "A"
    assert "Game over: A wins with 1200." in text(record(big, big, big), "en")
    with pytest.raises(ScoreError, match="entry 4: the game was over after deal 3"):
        score(record(big, big, big, big))


GOOD = {"declarer": "A", "contract": 120, "made": True, "points": {"B": 20, "C": 5}}
BAD = [
    ([{**GOOD, "declarer": "E"}], "entry 1: declarer must be one of A, B, C"),
    ([{**GOOD, "contract": 102}], "a contract is 100 to 400 in steps of 5, not 102"),
    ([{**GOOD, "contract": 95}], "not 95"),
    ([{**GOOD, "contract": True}], "contract must be a number"),
    ([{**GOOD, "made": "yes"}], "made must be true or false"),
    ([{**GOOD, "points": {"B": 20}}], "no points for C"),
    ([{**GOOD, "points": {"B": -5, "C": 5}}], "B's points must be 0 to 400"),
    ([{**GOOD, "points": [20, 5]}], "points must be an object"),
    ([{**GOOD, "extra": 1}], "unknown key 'extra'"),
    ([{**GOOD, "dark": True}], "this table plays without тёмная"),
    ([{**GOOD, "conceded": True}], "a conceded deal has no made and no points"),
    # 400 made needs every card point and every marriage
    ([{**GOOD, "contract": 400}], "no deal ends so"),
    # valid look-alikes: the marriages make room (B ♠40 + 20, C ♣60, A 100 + ♥100)
    ([{**GOOD, "points": {"B": 60, "C": 60}}], None),
    ([{**GOOD, "points": {"B": 100, "C": 100}, "made": False, "contract": 100}], None),
    ([{**GOOD, "points": {"B": "bolt", "C": "bolt"}, "made": False}], "no deal ends so"),
    (["not a deal"], "a deal must be a JSON object"),
]


@pytest.mark.parametrize(("deals", "message"), BAD)
def test_a_bad_deal_names_its_entry_and_what_is_wrong(deals, message):
    if message is None:  # a valid look-alike: marriages make 100 each possible
        score(record(*deals))
        return
    with pytest.raises(ScoreError, match=message):
        score(record(*deals))


@pytest.mark.parametrize(
    ("rec", "message"),
    [
        ({"game": "thousand", "players": 5, "deals": []}, "3 or 4 players, not 5"),
        ({"game": "thousand", "first_dealer": "Z", "deals": []}, "first_dealer must be one of A, B, C"),
        ({"game": "thousand", "deals": {}}, "deals must be a list"),
        ({"game": "thousand", "options": {"rounding": 3}, "deals": []}, "rounding"),
        ({"game": "thousand", "options": [], "deals": []}, "options must be a JSON object"),
    ],
)
def test_a_bad_record_is_entry_0(rec, message):
    with pytest.raises(ScoreError, match=message) as caught:
        score(rec)
    assert caught.value.entry == 0


def test_possible_knows_the_marriages():
    # a defender with 200 needs marriages: ♥100 + ♣60 + 40 card points, say
    assert possible(120, True, [200, 0], 5)
    # all four marriages (280) and every card point (120) to the opponents: the declarer has nothing
    assert possible(100, False, [400, "bolt"], 5)
    assert not possible(100, True, [400, "bolt"], 5)
    # nobody else took a trick: the declarer has every card point
    assert not possible(100, False, ["bolt", "bolt"], 5)
    # 105 to one opponent leaves the declarer at most 297 whoever holds which marriage
    assert not possible(300, True, [105, 0], 5) and possible(295, True, [105, 0], 5)


def play_random(players: int, seed: int, options: dict, deals: int = 40):
    """A played game's state after ``deals`` deals of random legal moves (or its end)."""
    rng = random.Random(seed)
    state = G.initial_state(options, players)
    state, _ = G.apply(state, None, G.new_deal(G.Options(**options), players, rng, []))
    while not G.is_over(state) and len(state.entries) < deals:
        action = G.system_action(state, rng)
        if action:
            state, _ = G.apply(state, None, action)
            continue
        seat = G.to_act(state)[0]
        state, _ = G.apply(state, seat, rng.choice(G.legal_actions(state, seat)))
    return state


def as_record_deal(entry: dict) -> dict:
    """What the players would write for a played deal: their points as counted, a болт
    where the sheet marked one."""
    letters = "ABCD"
    deal: dict = {"declarer": letters[entry["declarer"]], "contract": entry["contract"]}
    if entry["dark"]:
        deal["dark"] = True
    if entry["conceded"]:
        return {**deal, "conceded": True}
    points = {}
    for seat in entry["active"]:
        if seat != entry["declarer"]:
            points[letters[seat]] = "bolt" if "bolt" in entry["marks"].get(str(seat), []) else entry["raw"][seat]
    return {**deal, "made": entry["made"], "points": points}


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [
        (3, 1, {"target": 500, "barrel_at": 400}),
        (3, 2, {"dark": True, "bid_step": 10, "rounding": 10, "target": 500, "barrel_at": 400}),
        (4, 3, {"target": 500, "barrel_at": 400, "concede": False}),
        (4, 4, {"dark": True, "bolts": False, "samosval": False, "barrel": False}),
    ],
)
def test_a_played_game_written_as_a_record_gives_the_same_sheet(players, seed, options):
    state = play_random(players, seed, options)
    assert state.entries
    rec = record(*(as_record_deal(e) for e in state.entries), players=players, options=options)
    out = score(rec)
    for played, written in zip(state.entries, out["deals"], strict=True):
        assert list(written["totals"].values()) == played["totals"]
        assert {"ABCD".index(k): v for k, v in written["marks"].items()} == {
            int(k): v for k, v in played["marks"].items()
        }
    assert out["finished"] == G.is_over(state)
    for lang in ("ru", "en"):  # the paper sheet fits a phone held upright
        assert all(display_width(line) <= PHONE_WIDTH for line in text(rec, lang).splitlines())


def test_cardbot_score_prints_the_sheet_and_refuses_a_bad_record(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record(GOOD, {"declarer": "B", "contract": 100, "conceded": True})), "utf-8")
    assert main(["score", "--text", "--lang", "ru", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "Тысяча до 1000 · раздача 2"
    assert "1  A 120+  120   20   5" in out and "2  B 100р  180  -80  65" in out
    assert all(len(line) <= 40 for line in out.splitlines())
    assert main(["score", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["totals"] == {"A": 180, "B": -80, "C": 65}
    path.write_text(json.dumps(record({**GOOD, "contract": 400})), "utf-8")
    assert main(["score", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("cardbot score: entry 1: no deal ends so")
    assert len(captured.err.splitlines()) == 1


def test_the_example_of_records_md():
    """docs/rules/records.md §6: its input gives the output it shows."""
    rec = {
        "game": "thousand",
        "players": 3,
        "options": {"dark": True},
        "deals": [
            {"declarer": "B", "contract": 120, "made": True, "points": {"C": 20, "A": "bolt"}},
            {"declarer": "C", "contract": 105, "conceded": True},
            {"declarer": "A", "contract": 100, "dark": True, "made": False, "points": {"B": 45, "C": 30}},
        ],
    }
    out = score(rec)
    assert out["deals"][0] == {
        "n": 1,
        "dealer": "A",
        "declarer": "B",
        "contract": 120,
        "dark": False,
        "conceded": False,
        "made": True,
        "delta": {"A": 0, "B": 120, "C": 20},
        "totals": {"A": 0, "B": 120, "C": 20},
        "marks": {"A": ["bolt"]},
    }
    assert out["totals"] == {"A": -140, "B": 225, "C": -55} and out["bolts"] == {"A": 1, "B": 0, "C": 0}
    assert out["barrel"] == {"A": None, "B": None, "C": None} and not out["finished"] and out["winner"] is None
