"""Preferans scoring (rules §5.2, §5.6, §6.2, §6.3, §7) through the record format of
docs/rules/records.md, which runs the same code as the played engine."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from bot.cli import main as cli
from engine.games.preferans.record import score, text
from engine.games.preferans.scoring import value
from engine.score import ScoreError

SEED = {
    "game": "preferans",
    "options": {"bula": 30},
    "players": ["A", "B", "C"],
    "hands": [
        {"declarer": "C", "contract": "D", "defence": {"A": "play", "B": "play"}, "tricks": {"A": 2, "B": 2, "C": 6}},
        {"declarer": "B", "contract": "C", "defence": {"A": "pass", "C": "play"}, "tricks": {"A": 0, "B": 7, "C": 3}},
        {"all_pass": True},
        {"declarer": "A", "contract": "C", "defence": {"B": "pass", "C": "play"}, "tricks": {"A": 7, "B": 0, "C": 3}},
    ],
}


def sheet(hands, **options):
    return score({"game": "preferans", "options": options, "players": ["A", "B", "C"], "hands": hands})


def cols(out):
    return [out["players"][p]["contract"] for p in "ABC"]


def soups(out):
    return {f"{w}{t}": out["players"][w]["soups"][t] for w in "ABC" for t in "ABC" if t != w}


def hand(declarer, contract, tricks=None, igra=False, kontra=None, **defence):
    d = {"declarer": declarer, "contract": contract, "igra": igra, "defence": defence, "tricks": tricks}
    if kontra:
        d["kontra"] = kontra
    return d


# ------------------------------------------------------------------------------ the seed
def test_seed_example_rows_and_settlement():
    """§8: every row of the worked example, then A +32, B −38, C +6."""
    hands = SEED["hands"]
    expected_cols = [[-30, -30, -24], [-30, -20, -24], [-30, -20, -24], [-10, -20, -24]]
    for n in range(1, 5):
        out = sheet(hands[:n], bula=30)
        assert cols(out) == expected_cols[n - 1]
    out = score(SEED)
    assert out["settlement"] == {"A": 32, "B": -38, "C": 6}
    assert soups(out) == {"AB": 0, "AC": 12, "BA": 0, "BC": 12, "CA": 60, "CB": 30}
    assert [out["players"][p]["refe"] for p in "ABC"] == [0, 1, 1]
    assert out["finished"] is False and not any(out["players"][p]["hat"] for p in "ABC")


def test_seed_example_through_the_cli(tmp_path, capsys):
    path = tmp_path / "seed.json"
    path.write_text(json.dumps(SEED), encoding="utf-8")
    assert cli(["score", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["settlement"] == {"A": 32, "B": -38, "C": 6}
    assert cli(["score", "--text", "--lang", "en", str(path)]) == 0
    out = capsys.readouterr().out
    assert "+32" in out and "−38" in out and "+6" in out and "Bula 30 · hand 4" in out
    assert out.strip() == text(SEED, "en")


def test_bad_records_exit_2_naming_the_hand(tmp_path, capsys):
    cases = [
        ({"declarer": "A", "contract": "X", "defence": {}, "tricks": None}, "unknown contract"),
        (
            {"declarer": "A", "contract": "D", "defence": {"A": "play", "B": "play"}, "tricks": {"A": 6}},
            "cannot also be a defender",
        ),
        (
            {
                "declarer": "A",
                "contract": "D",
                "defence": {"B": "play", "C": "play"},
                "tricks": {"A": 6, "B": 3, "C": 2},
            },
            "only 10",
        ),
        (
            {"declarer": "A", "contract": "D", "defence": {"B": "play", "C": "play"}, "tricks": None},
            "tricks are missing",
        ),
        (
            {
                "declarer": "A",
                "contract": "D",
                "defence": {"B": "pass", "C": "pass"},
                "tricks": {"A": 6, "B": 0, "C": 4},
            },
            "must be null",
        ),
        (
            {
                "declarer": "A",
                "contract": "D",
                "defence": {"B": "play", "C": "play"},
                "tricks": {"A": 5, "B": 3, "C": 1},
            },
            "fifth trick",
        ),
        (
            {
                "declarer": "A",
                "contract": "BETTEL",
                "defence": {"B": "pass", "C": "play"},
                "tricks": {"A": 0, "B": 0, "C": 10},
            },
            "both defenders always play",
        ),
        (
            {
                "declarer": "A",
                "contract": "D",
                "defence": {"B": "play", "C": "pass"},
                "kontra": {"by": "C", "level": 1},
                "tricks": {"A": 6, "B": 4, "C": 0},
            },
            "cannot kontra",
        ),
        ({"declarer": "D", "contract": "D"}, "not one of the players"),
    ]
    for bad, words in cases:
        record = {"game": "preferans", "players": ["A", "B", "C"], "hands": [{"all_pass": True}, bad]}
        with pytest.raises(ScoreError) as info:
            score(record)
        assert info.value.entry == 2 and words in info.value.message, (bad, info.value.message)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"game": "preferans", "hands": [cases[2][0]]}), encoding="utf-8")
    assert cli(["score", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "entry 1" in captured.err


# ------------------------------------------------------------------------------ values
def test_contract_values():
    assert [value(n, False) for n in range(2, 8)] == [4, 6, 8, 10, 12, 14]
    assert [value(n, True) for n in range(2, 8)] == [6, 8, 10, 12, 14, 16]


def test_made_and_failed_contract():
    out = sheet([hand("A", "C", {"A": 6, "B": 2, "C": 2}, B="play", C="play")])
    assert cols(out) == [-20, -30, -30] and soups(out)["BA"] == 20 and soups(out)["CA"] == 20
    out = sheet([hand("A", "C", {"A": 5, "B": 3, "C": 2}, igra=True, B="play", C="play")])
    assert cols(out) == [-42, -30, -30] and soups(out)["BA"] == 36 and soups(out)["CA"] == 24


def test_bettel_failed_and_made():
    out = sheet([hand("A", "BETTEL", {"A": 1, "B": 2, "C": 0})])
    assert cols(out)[0] == -42 and soups(out)["BA"] == 60 and soups(out)["CA"] == 60
    out = sheet([hand("A", "BETTEL", {"A": 1, "B": 0, "C": 0}, igra=True)])
    assert cols(out)[0] == -44 and soups(out)["BA"] == 70 and soups(out)["CA"] == 70
    out = sheet([hand("A", "BETTEL", {"A": 0, "B": 6, "C": 4})])
    assert cols(out) == [-18, -30, -30] and soups(out)["BA"] == 0 and soups(out)["CA"] == 0


def test_sans_values():
    out = sheet([hand("B", "SANS", {"A": 1, "B": 8, "C": 1}, A="play", C="play")])
    # pair total 2 < 4: both defenders under 2 tricks pay the contract value
    assert cols(out) == [-44, -16, -44] and soups(out)["AB"] == 14 and soups(out)["CB"] == 14


# ------------------------------------------------------------------------------ defender penalties
def test_pair_quota_only_the_defender_under_two_pays():
    out = sheet([hand("A", "D", {"A": 7, "B": 3, "C": 0}, B="play", C="play")])
    assert cols(out) == [-24, -30, -36]  # pair 3 < 4; C took 0 < 2
    out = sheet([hand("A", "D", {"A": 6, "B": 4, "C": 0}, B="play", C="play")])
    assert cols(out) == [-24, -30, -30]  # pair 4: nobody pays


def test_lone_defender_quota_and_option():
    h = hand("A", "D", {"A": 9, "B": 0, "C": 1}, B="pass", C="play")
    assert cols(sheet([h])) == [-24, -30, -36]
    assert cols(sheet([h], lone_defender_quota=1)) == [-24, -30, -30]
    h = hand("A", "D", {"A": 8, "B": 0, "C": 2}, B="pass", C="play")
    assert cols(sheet([h])) == [-24, -30, -30]


def test_invitation_inviter_writes_for_both_and_answers_for_four():
    h = hand("A", "H", {"A": 7, "B": 2, "C": 1}, B="invited", C="invite")
    out = sheet([h])
    assert cols(out) == [-22, -30, -38]  # pair 3 < 4: the inviter pays 8
    assert soups(out)["CA"] == 24 and soups(out)["BA"] == 0
    h = hand("A", "H", {"A": 6, "B": 4, "C": 0}, B="invited", C="invite")
    out = sheet([h])
    assert cols(out) == [-22, -30, -30] and soups(out)["CA"] == 32


# ------------------------------------------------------------------------------ kontra
def test_kontra_doubles_only_between_declarer_and_kontra_er():
    h = hand("A", "D", {"A": 4, "B": 3, "C": 2}, kontra={"by": "B", "level": 1}, B="play", C="play")
    h["tricks"] = {"A": 5, "B": 3, "C": 2}
    out = sheet([h])
    assert cols(out) == [-42, -30, -30]  # −6 × 2
    assert soups(out)["BA"] == 36 and soups(out)["CA"] == 12
    out = sheet([h], kontra_scope="all")
    assert soups(out)["BA"] == 36 and soups(out)["CA"] == 24


def test_kontra_er_pays_when_the_contract_is_made_levels_multiply():
    h = hand("A", "D", {"A": 6, "B": 3, "C": 1}, kontra={"by": "B", "level": 3}, B="play", C="play")
    out = sheet([h])
    assert cols(out) == [-30 + 48, -30 - 48, -30]  # ×8; C: pair total 4, no penalty
    assert soups(out)["BA"] == 3 * 6 * 8 and soups(out)["CA"] == 6


def test_kontra_in_bettel_made_penalises_the_kontra_er():
    h = hand("A", "BETTEL", {"A": 0, "B": 5, "C": 5}, kontra={"by": ["B", "C"], "level": 2})
    out = sheet([h])
    assert cols(out) == [-30 + 48, -30 - 48, -30 - 48]


def test_lone_kontra_invites_automatically():
    h = hand("A", "C", {"A": 6, "B": 2, "C": 2}, kontra={"by": "C", "level": 1}, B="pass", C="play")
    out = sheet([h])
    # C became the inviter: writes both defenders' tricks ×2, pays ×2 as the contract was made
    assert soups(out)["CA"] == 4 * 10 * 2 and cols(out) == [-10, -30, -50]
    bad = hand("A", "C", {"A": 6, "B": 2, "C": 2}, kontra={"by": "C", "level": 5}, B="pass", C="play")
    with pytest.raises(ScoreError):
        sheet([bad], allow_subkontra=False)


def test_refe_and_kontra_multiply_together():
    hands = [
        {"all_pass": True},
        hand("A", "D", {"A": 5, "B": 4, "C": 1}, kontra={"by": "B", "level": 2}, B="play", C="play"),
    ]
    out = sheet(hands)
    assert cols(out)[0] == -30 - 6 * 2 * 4  # refe ×2, rekontra ×4
    assert soups(out)["BA"] == 4 * 6 * 8 and soups(out)["CA"] == 1 * 6 * 2


# ------------------------------------------------------------------------------ the "two"
def test_two_without_kontra_is_won_without_play():
    h = hand("A", "S", None, B="play", C="play")
    assert cols(sheet([h])) == [-26, -30, -30]
    both_pass = hand("A", "S", None, B="pass", C="pass")
    assert cols(sheet([both_pass])) == [-26, -30, -30]
    with pytest.raises(ScoreError):  # it is not played
        sheet([hand("A", "S", {"A": 6, "B": 2, "C": 2}, B="play", C="play")])


def test_two_is_played_with_kontra_with_refe_or_when_the_option_is_off():
    kontra = hand("A", "S", {"A": 6, "B": 3, "C": 1}, kontra={"by": "B", "level": 1}, B="play", C="play")
    assert cols(sheet([kontra]))[0] == -22
    with_refe = [{"all_pass": True}, hand("A", "S", {"A": 6, "B": 2, "C": 2}, B="play", C="play")]
    assert cols(sheet(with_refe))[0] == -22
    played = hand("A", "S", {"A": 6, "B": 2, "C": 2}, B="play", C="play")
    assert cols(sheet([played], two_requires_kontra=False))[0] == -26
    igra_two = hand("A", "S", {"A": 6, "B": 2, "C": 2}, igra=True, B="play", C="play")
    assert cols(sheet([igra_two]))[0] == -24


def test_slovenian_two_writes_nothing_and_grants_refe():
    h = hand("A", "S", None, B="play", C="play")
    out = sheet([h], slovenian_two_refe=True)
    assert cols(out) == [-30, -30, -30] and [out["players"][p]["refe"] for p in "ABC"] == [1, 1, 1]
    assert out["refe_rounds"] == 1
    # A now has a refe: his next two is played, ×2
    played = hand("A", "S", {"A": 6, "B": 2, "C": 2}, B="play", C="play")
    out = sheet([h, played], slovenian_two_refe=True)
    assert cols(out)[0] == -22 and out["refe_rounds"] == 1
    # refe rounds exhausted (bula 30: one): nothing at all
    out = sheet([h, played, h], slovenian_two_refe=True)
    assert cols(out) == [-22, -30, -30] and out["refe_rounds"] == 1


# ------------------------------------------------------------------------------ refe
def test_refe_rounds_limit_and_use():
    out = sheet([{"all_pass": True}] * 3)
    assert out["refe_rounds"] == 1 and [out["players"][p]["refe"] for p in "ABC"] == [1, 1, 1]
    out = sheet([{"all_pass": True}] * 5, bula=50)
    assert out["refe_rounds"] == 3 and out["players"]["A"]["refe"] == 3
    out = sheet([{"all_pass": True}] * 4, bula=40)  # other bulas: unlimited
    assert out["refe_rounds"] == 4
    out = sheet([{"all_pass": True}] * 4, max_refe=0)
    assert out["refe_rounds"] == 0
    # several unused refes: one per hand, never ×4
    hands = [{"all_pass": True}] * 2 + [hand("A", "C", None, B="pass", C="pass")]
    out = sheet(hands, bula=50)
    assert cols(out)[0] == -50 + 20 and out["players"]["A"]["refe"] == 1
    # used by a failure too
    hands = [{"all_pass": True}, hand("A", "C", {"A": 5, "B": 3, "C": 2}, B="play", C="play")]
    out = sheet(hands)
    assert cols(out)[0] == -50 and out["players"]["A"]["refe"] == 0


def test_no_refe_while_somebody_is_under_the_hat_and_hats():
    hands = [hand("A", "C", None, igra=True, B="pass", C="pass")] * 3  # +12 each: −30 → 6
    out = sheet(hands)
    assert cols(out)[0] == 6 and out["players"]["A"]["hat"] and out["players"]["A"]["hats"] == "^"
    out = sheet(hands + [{"all_pass": True}])
    assert out["refe_rounds"] == 0
    fail = hand("A", "C", {"A": 0, "B": 3, "C": 2}, igra=True, B="play", C="play")
    out = sheet(hands + [fail])
    assert cols(out)[0] == -6 and out["players"]["A"]["hats"] == "^v" and not out["players"]["A"]["hat"]


# ------------------------------------------------------------------------------ end and settlement
def test_end_exactly_at_zero_with_scaling():
    hands = [hand("A", "C", None, igra=True, B="pass", C="pass")] * 2  # A −6
    hands += [hand("B", "C", None, igra=True, A="pass", C="pass")] * 2
    hands += [hand("C", "C", None, igra=True, A="pass", B="pass")] * 2  # C −6; sum −18
    hands += [hand("A", "H", {"A": 7, "B": 2, "C": 1}, B="play", C="play")]
    out = sheet(hands)
    assert sum(cols(out)) == -18 + 8 - 8 == -18  # C pays 8 (pair 3 < 4)
    hands += [hand("B", "C", {"A": 3, "B": 6, "C": 1}, A="play", C="play")]
    out = sheet(hands)
    # Σ before −18, E = 10, P = 0: written in full
    assert sum(cols(out)) == -8 and not out["finished"]
    hands += [hand("C", "C", {"A": 3, "B": 1, "C": 6}, A="play", B="play")]
    out = sheet(hands)
    # Σ before −8, E = 10, P = 10 (B has 1 < 2? pair 4: no): E' = 8, f = 4/5
    assert sum(cols(out)) == 0 and out["finished"]
    row = out["hands"][-1]
    assert row["scale"] == "4/5" and row["contract"] == {"2": 8}
    assert row["soups"] == {"02": 24, "12": 8}
    assert sum(Fraction(str(v)) for v in out["settlement"].values()) == 0
    with pytest.raises(ScoreError) as info:
        sheet(hands + [{"all_pass": True}])
    assert "already over" in info.value.message


def test_cap_with_a_penalty_in_the_same_hand_keeps_the_penalty():
    hands = [hand("A", "C", None, igra=True, B="pass", C="pass")] * 2
    hands += [hand("B", "C", None, igra=True, A="pass", C="pass")] * 2
    hands += [hand("C", "C", None, igra=True, A="pass", B="pass")] * 2  # Σ −18
    hands += [hand("A", "C", None, igra=True, B="pass", C="pass")]  # A +12 → Σ −6
    hands += [hand("B", "SANS", {"A": 1, "B": 9, "C": 0}, A="play", C="play")]
    out = sheet(hands)
    # E = 14, P = 14 + 14 (both under 2 with pair 1): Σ −6 + 14 − 28 < 0: full
    assert sum(cols(out)) == -6 + 14 - 28
    hands[-1] = hand("B", "SANS", {"A": 3, "B": 7, "C": 0}, A="play", C="play")
    out = sheet(hands)
    # P = 14 (C), Σ −6 + 14 − 14 = −6 ≤ 0: full
    assert sum(cols(out)) == -6
    hands.append(hand("A", "SANS", {"A": 7, "B": 3, "C": 0}, B="play", C="play"))
    out = sheet(hands)
    # Σ −6, E 14, P 14 (C has 0, pair 3): −6 + 14 − 14 ≤ 0: still full
    assert sum(cols(out)) == -6 and not out["finished"]
    hands.append(hand("A", "SANS", {"A": 6, "B": 2, "C": 2}, B="play", C="play"))
    out = sheet(hands)
    assert sum(cols(out)) == 0 and out["hands"][-1]["scale"] == "3/7"


def test_interrupted_settlement_is_in_exact_thirds():
    h = hand("A", "C", {"A": 6, "B": 2, "C": 2}, B="play", C="play")
    s = sheet([h])["settlement"]
    assert s == {"A": "80/3", "B": "-40/3", "C": "-40/3"}
    assert sum(Fraction(v) for v in s.values()) == 0
    assert "+80/3" in text({"game": "preferans", "hands": [h]})
    rounded = text({"game": "preferans", "options": {"display_rounding": "int"}, "hands": [h]})
    assert "+27" in rounded and "−13" in rounded and "80/3" not in rounded


def test_options_defaults():
    from engine.games.preferans.options import PreferansOptions

    assert PreferansOptions().max_refe == 1
    assert PreferansOptions(bula=50).max_refe == 3
    assert PreferansOptions(bula=40).max_refe is None
    assert PreferansOptions(bula=50, max_refe=None).max_refe is None
    o = PreferansOptions(bula=50)
    assert PreferansOptions.model_validate(o.model_dump()) == o
    assert PreferansOptions().kontra_cap is None
    assert PreferansOptions(allow_subkontra=False).kontra_cap == 2
    assert PreferansOptions(max_kontra_level=3).kontra_cap == 3
