"""PBN export of a rubber (engine/games/bridge/pbn.py), read back with a small PBN reader:
tags in export order, the Deal, the Auction and the Play sections reproduce the deals."""

from __future__ import annotations

import random
import re

from engine.base import get_game
from engine.games.bridge.pbn import export
from engine.cards import make_deck
from engine.tricks import winning_index
from tests.test_bridge_rules import deal_of, hearts_deal, run

G = get_game("bridge")
SEATS = "NESW"
EXPORT_ORDER = [
    "Event",
    "Site",
    "Date",
    "Board",
    "West",
    "North",
    "East",
    "South",
    "Dealer",
    "Vulnerable",
    "Deal",
    "Scoring",
    "Declarer",
    "Contract",
    "Result",
]
TAG = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')


def read_pbn(text: str) -> list[dict]:
    """Games of a PBN file: {"tags": [(name, value)], "sections": {name: [tokens]}}."""
    lines = text.splitlines()
    assert lines[0] == "% PBN 2.1" and lines[1] == "% EXPORT"
    games, game, section = [], None, None
    for line in lines[2:]:
        if not line.strip():
            game, section = None, None
            continue
        m = TAG.match(line)
        if m:
            if game is None:
                game = {"tags": [], "sections": {}}
                games.append(game)
            name, value = m.group(1), re.sub(r"\\(.)", r"\1", m.group(2))
            game["tags"].append((name, value))
            section = name if name in ("Auction", "Play") else None
            if section:
                game["sections"][section] = []
            continue
        assert game is not None and section is not None, line
        game["sections"][section].append(line.split())
    return games


def hands_of(deal: str) -> list[set[str]]:
    first, rest = deal.split(":")
    hands = [set() for _ in range(4)]
    for i, text in enumerate(rest.split()):
        seat = (SEATS.index(first) + i) % 4
        for suit, ranks in zip("SHDC", text.split(".")):
            hands[seat] |= {r + suit for r in ranks}
    return hands


def rubber(seed=4):
    rng = random.Random(seed)
    opts = G.Options()
    state = G.initial_state(opts, 4)
    state, _ = G.apply(state, None, G.new_deal(opts, 4, rng, []))
    while not G.is_over(state):
        action = G.system_action(state, rng)
        seat = None
        if action is None:
            seat = G.to_act(state)[0]
            action = G.computer_action(G.view(state, seat), G.legal_actions(state, seat), rng, level="easy")
        state, _ = G.apply(state, seat, action)
    return state


def check_game(game: dict, board: dict, names: list[str]):
    tags = dict(game["tags"])
    assert [name for name, _ in game["tags"]][:15] == EXPORT_ORDER
    assert tags["Board"] == str(board["board"]) and tags["Dealer"] == SEATS[board["dealer"]]
    assert [tags["North"], tags["East"], tags["South"], tags["West"]] == names
    assert tags["Scoring"] == "Rubber"
    vul = board["vulnerable"]
    assert (
        tags["Vulnerable"]
        == {(False, False): "None", (True, False): "NS", (False, True): "EW", (True, True): "All"}[
            (vul["NS"], vul["EW"])
        ]
    )
    hands = hands_of(tags["Deal"])
    assert tags["Deal"].startswith(SEATS[board["dealer"]] + ":")
    assert hands == [set(h) for h in board["hands"]] and sorted(set().union(*hands)) == sorted(make_deck(52))
    calls = [c for row in game["sections"]["Auction"] for c in row]
    assert all(c in ("Pass", "X", "XX") or re.fullmatch(r"[1-7](C|D|H|S|NT)", c) for c in calls)
    assert [{"Pass": "P"}.get(c, c) for c in calls] == board["calls"]
    if board["passed_out"]:
        assert (tags["Declarer"], tags["Contract"], tags["Result"]) == ("", "Pass", "")
        assert "Play" not in game["sections"] and "Play" not in tags
        return
    c = board["contract"]
    assert tags["Contract"] == f"{c['level']}{c['strain']}{'X' * c['doubling']}"
    assert re.fullmatch(r"[1-7](C|D|H|S|NT)(X|XX)?", tags["Contract"])
    assert tags["Declarer"] == SEATS[board["declarer"]] and tags["Result"] == str(board["tricks"])
    leader = (board["declarer"] + 1) % 4
    assert tags["Play"] == SEATS[leader]
    rows = game["sections"]["Play"]
    finished = rows and rows[-1] == ["*"]
    if finished:
        rows = rows[:-1]
    assert len(rows) == len(board["play"])
    trump = None if c["strain"] == "NT" else c["strain"]
    won = 0
    for row, trick in zip(rows, board["play"]):
        assert len(row) == 4
        by_seat = {(leader + i) % 4: (tok[1] + tok[0] if tok != "-" else None) for i, tok in enumerate(row)}
        assert {s: card for s, card in trick["plays"]} == {s: v for s, v in by_seat.items() if v}
        if len(trick["plays"]) == 4:
            order = [card for _, card in trick["plays"]]
            winner = trick["plays"][winning_index(order, trump)][0]
            won += winner % 2 == board["declarer"] % 2
    complete = len(board["play"]) == 13 and all(len(t["plays"]) == 4 for t in board["play"])
    assert finished != complete  # "*" closes a play cut short by a claim or a concession
    if complete:
        assert won == board["tricks"]


def test_export_reads_back():
    state = rubber()
    names = ['Аня "Ace"', "Борис", "Вера\\В", "Гоша"]
    text = export(state, names)
    games = read_pbn(text)
    assert len(games) == len(state.boards) >= 2
    for game, board in zip(games, state.boards):
        check_game(game, board, names)
    assert text.count('[Event "cardbot rubber"]') == len(state.boards)
    assert export(state, names, event="Friday").count('[Event "Friday"]') == len(state.boards)


def test_passed_out_claimed_and_conceded_boards():
    state = G.initial_state(G.Options(), 4)
    state, _ = G.apply(state, None, deal_of(hearts_deal()))
    state, _ = run(state, (0, "pass"), (1, "pass"), (2, "pass"), (3, "pass"))
    state, _ = G.apply(state, None, deal_of(hearts_deal(), dealer=1, board=2))
    state, _ = run(
        state,
        (1, "pass"),
        (2, "pass"),
        (3, "pass"),
        (0, "bid 1S"),
        (1, "pass"),
        (2, "pass"),
        (3, "pass"),
        (1, "play AH"),
        (0, "play 2D"),
        (3, "play 2C"),
        (0, "play 2S"),
        (0, "claim 12"),
        (1, "accept"),
        (3, "accept"),
    )
    state, _ = G.apply(state, None, deal_of(hearts_deal(), dealer=2, board=3))
    state, _ = run(
        state, (2, "bid 1D"), (3, "pass"), (0, "pass"), (1, "pass"), (3, "play 2C"), (2, "play 2S"), (1, "concede")
    )
    names = ["N1", "E1", "S1", "W1"]
    text = export(state, names)
    games = read_pbn(text)
    assert len(games) == 3
    for game, board in zip(games, state.boards):
        check_game(game, board, names)
    assert dict(games[0]["tags"])["Contract"] == "Pass"
    assert games[1]["sections"]["Play"][-1] == ["*"] and dict(games[1]["tags"])["Result"] == "13"
    assert games[2]["sections"]["Play"] == [["C2", "S2", "-", "-"], ["*"]]
    assert '[Play "W"]\nC2 S2 - -\n*' in text


def test_export_all_rubbers_of_a_session():
    from engine.games.bridge.pbn import export_all

    first, second = rubber(4), rubber(9)
    text = export_all([first, second], ["a", "b", "c", "d"])
    games = read_pbn(text)
    assert len(games) == len(first.boards) + len(second.boards)
    assert text.count("% PBN 2.1") == 1
    for game, board in zip(games, first.boards + second.boards):
        check_game(game, board, ["a", "b", "c", "d"])
    # a state dumped as JSON exports the same
    assert export_all([G.dump(first)], ["a", "b", "c", "d"]) == export(first, ["a", "b", "c", "d"])
