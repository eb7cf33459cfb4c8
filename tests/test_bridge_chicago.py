"""Chicago scoring for bridge (docs/rules/bridge.md §7.7): a worked four-deal round by
hand, the vulnerability schedule, the played game and the score-only sheet."""

from __future__ import annotations


from engine.base import get_game
from engine.bridge.options import parse_options, scoring_table
from engine.bridge.record import score, text
from engine.bridge.scoring import Sheet, parse_contract

ROUND = [
    {"declarer": "N", "contract": "4S", "tricks": 10},  # deal 1, N deals, nobody vulnerable
    {"declarer": "E", "contract": "2H", "tricks": 9},  # deal 2, E deals: E-W vulnerable
    {"declarer": "W", "contract": "3NT", "tricks": 7},  # deal 3, S deals: N-S vulnerable
    {"declarer": "N", "contract": "6D", "tricks": 12},  # deal 4, W deals: both vulnerable
]


def chicago(deals, **options):
    return {"game": "bridge", "options": {"scoring": "chicago", **options}, "deals": deals}


def test_worked_round_of_four_deals():
    """Deal 1: 4♠ made, 4 · 30 = 120 below, a game not vulnerable: 300.
    Deal 2: 2♥ with one overtrick: 60 below, 30 above, a part score: 50 → They 140.
    Deal 3: 3NT two down, W-E not vulnerable: 2 · 50 = 100 to We.
    Deal 4: 6♦ made: 6 · 20 = 120 below, the vulnerable small slam 700 and game 500.
    We 420 + 100 + 1320 = 1840, They 140; the difference 1700 is 17 units."""
    out = score(chicago(ROUND))
    assert [(d["NS"], d["EW"]) for d in out["deals"]] == [
        ({"above": 300, "below": 120}, {"above": 0, "below": 0}),
        ({"above": 0, "below": 0}, {"above": 80, "below": 60}),
        ({"above": 100, "below": 0}, {"above": 0, "below": 0}),
        ({"above": 1200, "below": 120}, {"above": 0, "below": 0}),
    ]
    (round_,) = out["rubbers"]
    assert round_ == {
        "complete": True,
        "games": {"NS": 2, "EW": 0},
        "winner": "NS",
        "totals": {"NS": 1840, "EW": 140},
        "settlement": {"NS": 17, "EW": -17},
    }


def test_vulnerability_by_deal_and_dealer():
    for first, second, third in (("N", "EW", "NS"), ("E", "NS", "EW")):
        sheet = Sheet(scoring_table({"scoring": "chicago", "first_dealer": first}))
        seen = []
        for _ in range(4):
            seen.append(sheet.vul())
            sheet.add_passed_out()
        side = {"NS": {"NS": True, "EW": False}, "EW": {"NS": False, "EW": True}}
        assert seen == [{"NS": False, "EW": False}, side[second], side[third], {"NS": True, "EW": True}]
        assert sheet.complete and sheet.winner is None  # four passed-out deals: a tie


def test_no_carry_over_and_a_new_round_after_four():
    """Two part scores of 60 do not make a game together; the fifth deal opens round 2."""
    deals = [{"declarer": "N", "contract": "2S", "tricks": 8}] * 2 + [{"passed_out": True}] * 2
    deals += [{"declarer": "S", "contract": "1NT", "tricks": 7}]
    out = score(chicago(deals))
    assert [d["NS"] for d in out["deals"][:2]] == [{"above": 50, "below": 60}] * 2
    assert out["rubbers"][0]["games"] == {"NS": 0, "EW": 0} and out["rubbers"][0]["winner"] == "NS"
    assert [d["rubber"] for d in out["deals"]] == [1, 1, 1, 1, 2]
    assert out["deals"][4]["NS"] == {"above": 50, "below": 40}
    assert out["vulnerable"] == {"NS": False, "EW": True}  # round 2, deal 2: E deals


def test_doubled_failure_vulnerable_uses_the_schedule():
    """Deal 2 (E-W vulnerable): 4♥X by E two down costs 200 + 300 = 500."""
    deals = [{"passed_out": True}, {"declarer": "E", "contract": "4HX", "tricks": 8}]
    assert score(chicago(deals))["deals"][1]["NS"] == {"above": 500, "below": 0}


def test_sheet_text_names_the_deal_and_the_winner():
    words = text(chicago(ROUND[:2]))
    assert "Chicago, deal 3 of 4" in words and "rubber" not in words.split("\n", 1)[1].lower()
    done = text(chicago(ROUND), "ru")
    assert "«Мы» выиграли «чикаго»." in done
    assert "Чикаго, сдача" not in done  # the round is over


def test_rubber_default_unchanged():
    assert parse_options(None).scoring == "rubber"
    assert "chicago" not in scoring_table(None)
    sheet = Sheet(scoring_table(None))
    sheet.add_deal(0, parse_contract("4S"), 10)
    assert sheet.vul() == {"NS": True, "EW": False}


def play_round(seed: int, choose=None) -> tuple[object, list[list[dict]]]:
    """A played Chicago table from its first deal to its end: the easy computers bid and play
    (``choose(state, legal)`` may answer instead; None: leave it to them). Returns the
    final state and every action's events."""
    import random

    g = get_game("bridge")
    rng = random.Random(seed)
    options = {"scoring": "chicago"}
    s = g.initial_state(options, 4)
    s, events = g.apply(s, None, g.new_deal(options, 4, rng, []))
    history = [events]
    for _ in range(5000):
        if g.is_over(s):
            break
        action = g.system_action(s, rng)
        if action:
            s, events = g.apply(s, None, action)
        else:
            seat = g.to_act(s)[0]
            legal = g.legal_actions(s, seat)
            action = (choose and choose(s, legal)) or g.computer_action(g.view(s, seat), legal, rng, level="easy")
            s, events = g.apply(s, seat, action)
        history.append(events)
    return s, history


def test_the_played_table_ends_after_four_deals():
    g = get_game("bridge")
    s, history = play_round(5)
    vul_seen = [e["vulnerable"] for events in history for e in events if e["type"] == "deal"]
    assert g.is_over(s) and g.result(s)["deals"] == 4
    both, none = {"NS": True, "EW": True}, {"NS": False, "EW": False}
    assert vul_seen == [none, {"NS": False, "EW": True}, {"NS": True, "EW": False}, both]


def test_the_score_only_sheet_writes_the_worked_round():
    g = get_game("bridge_score")
    s = g.initial_state({"scoring": "chicago"}, 1)
    s, _ = g.apply(s, None, "deal dealer=N")
    scored = []
    for deal in ROUND:
        c = deal["contract"]
        steps = [f"declarer {deal['declarer']}", f"level {c[0]}", f"strain {c[1:]}", "doubling none"]
        steps += [f"tricks {deal['tricks']}", "honours none", "confirm"]
        for action in steps:
            s, events = g.apply(s, 0, action)
        scored += [e for e in events if e["type"] == "deal_scored"]
    assert [e["vulnerable"] for e in scored] == [False, True, False, True]
    assert g.is_over(s)
    assert g.result(s)["totals"] == {"NS": 1840, "EW": 140}


def test_a_passed_out_fourth_deal_ends_the_played_round():
    """Three deals played, the fourth passed out: the round is over (§7.7, a passed-out
    deal is one of the four), no fifth deal is dealt."""
    g = get_game("bridge")

    def pass_the_fourth(state, legal):
        return "pass" if state.sheet.deals == 3 and "pass" in legal else None  # everyone passes it

    s, history = play_round(11, pass_the_fourth)
    events = history[-1]
    assert g.is_over(s)
    assert [e["type"] for e in events][-3:] == ["passed_out", "deal_scored", "game_over"]
    assert g.result(s)["deals"] == 4
