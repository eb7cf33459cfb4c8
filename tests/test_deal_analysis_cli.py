"""``cardbot analyse RECORD [--json]`` and the "🔍 The deal" renderers of each game."""

from __future__ import annotations

import functools
import importlib
import json
import re

import pytest

from bot.cli import main
from engine.analysis_core import analyse_record
from engine.cards import label
from tests.deal_records import play_record

GAMES = [("bridge", 4), ("whist", 4), ("preferans", 3), ("preferans_ru", 3), ("king", 4)]
NAMES = ["Ann", "Boris", "Cid", "Dora"]


def test_analyse_prints_the_bridge_fields_per_deal(tmp_path, capsys):
    path = tmp_path / "rubber.json"
    path.write_text(json.dumps(play_record("bridge", 2, 4, deals=2)))
    assert main(["analyse", str(path), "--json"]) == 0
    deals = json.loads(capsys.readouterr().out)
    assert [d["deal"] for d in deals] == [1, 2]
    for deal in deals:
        assert set(deal["dd"]) == set("NESW")
        assert all(set(row) == {"C", "D", "H", "S", "NT"} for row in deal["dd"].values())
        assert isinstance(deal["par"]["score"], int) and deal["par"]["contracts"]
        assert {"contract", "dd_tricks", "costly"} <= set(deal)
        for card in deal["costly"]:
            assert set(card) == {"trick", "seat", "card", "loss"} and card["loss"] > 0
    assert main(["analyse", str(path)]) == 0
    text = capsys.readouterr().out
    assert "Deal 1 (board 1)" in text and "par:" in text


@pytest.mark.parametrize(
    "record", ['{"game": "bridge", "players": 4, "actions": ["deal dealer=N board=1 2S"]}', "{not json", "[1, 2]"]
)
def test_analyse_refuses_a_bad_record_in_one_line(tmp_path, capsys, record):
    path = tmp_path / "bad.json"
    path.write_text(record)
    assert main(["analyse", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("cardbot analyse: ") and captured.err.count("\n") == 1


def test_analyse_refuses_a_game_with_no_deal_analysis(tmp_path, capsys):
    path = tmp_path / "durak.json"
    path.write_text(json.dumps(play_record("durak", 1, 2)))
    assert main(["analyse", str(path)]) == 2
    assert "no deal analysis" in capsys.readouterr().err


@functools.lru_cache(maxsize=None)
def _analysed(name: str, players: int) -> str:
    return json.dumps(analyse_record(play_record(name, 3, players, deals=3))["deals"])


def analysed(name: str, players: int) -> list[dict]:
    """Three deals of the game, analysed once per test process (a fresh copy each call)."""
    return json.loads(_analysed(name, players))


def renderer(name: str):
    return importlib.import_module(f"bot.games.{name}.deal_record").deal_record_text


@pytest.mark.parametrize("name,players", GAMES)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_deal_renders_in_both_languages_with_known_words(name, players, lang):
    for deal in analysed(name, players):
        text = renderer(name)(deal, NAMES[:players], lang)
        assert "deal_record." not in text and "king.contract." not in text  # no missing catalog key
        assert len(text) < 4096


def face_labels(text: str) -> set[str]:
    """The face cards written as cards ("K♠"): a bid or a contract never has a letter."""
    return set(re.findall(r"[JQKA][♠♥♦♣]", text))


@pytest.mark.parametrize("name,players", GAMES)
def test_the_message_shows_only_what_the_analysis_holds(name, players):
    """Drop the play from the analysis: no played card is written as a card any more;
    empty one hand: it shows as four voids. The renderer reads nothing but the analysis."""
    deal = next(d for d in analysed(name, players) if d["tricks"] or d.get("laid"))
    full = renderer(name)(deal, NAMES[:players], "en")
    played = {label(c) for t in deal["tricks"] for _, c in t["cards"]}
    played |= {label(a.split()[1]) for _, a in deal.get("laid") or [] if a.startswith("play ")}
    assert face_labels(full) & played  # the play is there...
    no_play = dict(deal, tricks=[], costly=[], laid=[], talon=[], discards=[])
    assert not face_labels(renderer(name)(no_play, NAMES[:players], "en"))  # ...and only from the analysis
    first_seat = next(seat for seat, hand in deal["hands"].items() if all(any(c[1] == s for c in hand) for s in "SHDC"))
    empty = dict(no_play, hands={**deal["hands"], first_seat: []})
    before = renderer(name)(no_play, NAMES[:players], "en").count("—")
    assert renderer(name)(empty, NAMES[:players], "en").count("—") == before + 4
