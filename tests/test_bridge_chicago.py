"""Chicago scoring for bridge (docs/rules/bridge.md §7.8): by the laws (the default) and the
clubs' each-deal-alone scheme (``chicago_scoring: each_deal``): worked rounds by hand, the
vulnerability schedule, the passed-out deal, the played game and the score-only sheet."""

from __future__ import annotations

import pytest

from engine.base import get_game
from engine.games.bridge.options import parse_options, scoring_table
from engine.games.bridge.record import build, score, text
from engine.games.bridge.scoring import Sheet, parse_contract

ROUND = [
    {"declarer": "N", "contract": "4S", "tricks": 10},  # deal 1, N deals, nobody vulnerable
    {"declarer": "E", "contract": "2H", "tricks": 9},  # deal 2, E deals: E-W vulnerable
    {"declarer": "W", "contract": "3NT", "tricks": 7},  # deal 3, S deals: N-S vulnerable
    {"declarer": "N", "contract": "6D", "tricks": 12},  # deal 4, W deals: both vulnerable
]


def chicago(deals, **options):
    return {"game": "bridge", "options": {"scoring": "chicago", **options}, "deals": deals}


def each_deal(deals, **options):
    """The clubs' scheme: every deal alone, 50 for a part score, a passed-out deal counts."""
    return chicago(deals, chicago_scoring="each_deal", **options)


# issue 45's round, N deals first: E 3♣=, N 1NT+1, S 4♠X−1, N 2NT=
ISSUE_ROUND = [
    {"declarer": "E", "contract": "3C", "tricks": 9},  # deal 1, nobody vulnerable: They 60 below
    {"declarer": "N", "contract": "1NT", "tricks": 8},  # deal 2, E-W vulnerable: We 40 below, 30 above
    {"declarer": "S", "contract": "4SX", "tricks": 9},  # deal 3, N-S vulnerable: They 200
    {"declarer": "N", "contract": "2NT", "tricks": 8},  # deal 4, both: We 70 below, 40 + 70 a game
]


def test_the_issue_round_by_the_laws():
    """By the laws the part-scores carry over: We's 40 and 70 make a game on the fourth deal,
    vulnerable, 500, and wipe They's 60 (still counted in the totals). We 40 + 30 + 70 + 500
    = 640, They 60 + 200 = 260: We win (the old each-deal scheme had They winning 310-240)."""
    out = score(chicago(ISSUE_ROUND))
    assert [(d["NS"], d["EW"]) for d in out["deals"]] == [
        ({"above": 0, "below": 0}, {"above": 0, "below": 60}),
        ({"above": 30, "below": 40}, {"above": 0, "below": 0}),
        ({"above": 0, "below": 0}, {"above": 200, "below": 0}),
        ({"above": 500, "below": 70}, {"above": 0, "below": 0}),
    ]
    (round_,) = out["rubbers"]
    assert round_["totals"] == {"NS": 640, "EW": 260} and round_["winner"] == "NS"
    assert round_["games"] == {"NS": 1, "EW": 0}


def test_the_issue_round_in_the_clubs_scheme():
    (round_,) = score(each_deal(ISSUE_ROUND))["rubbers"]
    assert round_["totals"] == {"NS": 240, "EW": 310} and round_["winner"] == "EW"


def test_the_worked_round_by_the_laws():
    """ROUND by the laws: deal 2's 2♥+1 gets no part-score premium (not the fourth deal), and
    its 60 is wiped by We's slam on deal 4. We 120 + 300 + 100 + 120 + 700 + 500 = 1840,
    They 60 + 30 = 90; the difference 1750 is 18 units."""
    out = score(chicago(ROUND))
    assert out["deals"][1]["EW"] == {"above": 30, "below": 60}
    (round_,) = out["rubbers"]
    assert round_["totals"] == {"NS": 1840, "EW": 90} and round_["settlement"] == {"NS": 18, "EW": -18}


def test_part_scores_carry_over_and_a_game_wipes_both():
    """Deal 1 We 2♠= (60), deal 2 They 2♥= (60), deal 3 We 2♠= (60 + 60: a game, N-S
    vulnerable on deal 3: 500) wipes They's 60; deal 4 They 1♣= (20): a part score on the
    fourth deal that completes no game, 100."""
    deals = [
        {"declarer": "N", "contract": "2S", "tricks": 8},
        {"declarer": "E", "contract": "2H", "tricks": 8},
        {"declarer": "S", "contract": "2S", "tricks": 8},
        {"declarer": "W", "contract": "1C", "tricks": 7},
    ]
    out = score(chicago(deals))
    assert [(d["NS"]["above"], d["EW"]["above"]) for d in out["deals"]] == [(0, 0), (0, 0), (500, 0), (0, 100)]
    sheet = build(chicago(deals))[1][0]
    assert sheet.below == {"NS": 0, "EW": 20}  # They's 60 was wiped; the 20 is the new game's
    assert out["rubbers"][0]["totals"] == {"NS": 620, "EW": 180}


def test_a_fourth_deal_part_score_that_completes_a_game_gets_the_game_premium_only():
    deals = [{"declarer": "N", "contract": "2S", "tricks": 8}, {"passed_out": True}]
    deals += [{"declarer": "E", "contract": "1C", "tricks": 6}, {"declarer": "W", "contract": "1C", "tricks": 6}]
    deals += [{"declarer": "N", "contract": "2D", "tricks": 8}]  # 60 + 40: game, both vulnerable
    out = score(chicago(deals))
    assert out["deals"][4]["NS"] == {"above": 500, "below": 40}


def test_a_passed_out_deal_is_redealt_at_the_same_vulnerability():
    """By the laws four passes do not count: the same deal of the round comes again (same
    dealer, same vulnerability); the round ends after four deals played."""
    sheet = Sheet(scoring_table({"scoring": "chicago"}))
    sheet.add_deal(0, parse_contract("1NT"), 7)  # deal 1
    assert sheet.vul() == {"NS": False, "EW": True}  # deal 2, E deals
    sheet.add_passed_out()
    sheet.add_passed_out()
    assert sheet.vul() == {"NS": False, "EW": True} and sheet.public()["chicago_deal"] == 2
    for _ in range(3):
        assert not sheet.complete
        sheet.add_deal(1, parse_contract("1C"), 6)
    assert sheet.complete and sheet.deals == 6 and sheet.round_deals() == 4


def test_an_old_full_dump_keeps_the_clubs_scheme():
    """A complete options dump from before ``chicago_scoring`` existed (a stored table, a
    snapshot, a record the bot wrote) goes on as it was played; a record naming only
    ``scoring: chicago`` is by the laws."""
    old = parse_options({"scoring": "chicago"}).model_dump()
    del old["chicago_scoring"]
    assert parse_options(old).chicago_scoring == "each_deal"
    assert parse_options({"scoring": "chicago"}).chicago_scoring == "laws"
    assert parse_options({**old, "scoring": "rubber"}).chicago_scoring == "laws"


def test_worked_round_of_four_deals_in_the_clubs_scheme():
    """Deal 1: 4♠ made, 4 · 30 = 120 below, a game not vulnerable: 300.
    Deal 2: 2♥ with one overtrick: 60 below, 30 above, a part score: 50 → They 140.
    Deal 3: 3NT two down, W-E not vulnerable: 2 · 50 = 100 to We.
    Deal 4: 6♦ made: 6 · 20 = 120 below, the vulnerable small slam 700 and game 500.
    We 420 + 100 + 1320 = 1840, They 140; the difference 1700 is 17 units."""
    out = score(each_deal(ROUND))
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
        sheet = Sheet(scoring_table({"scoring": "chicago", "chicago_scoring": "each_deal", "first_dealer": first}))
        seen = []
        for _ in range(4):
            seen.append(sheet.vul())
            sheet.add_passed_out()
        side = {"NS": {"NS": True, "EW": False}, "EW": {"NS": False, "EW": True}}
        assert seen == [{"NS": False, "EW": False}, side[second], side[third], {"NS": True, "EW": True}]
        assert sheet.complete and sheet.winner is None  # four passed-out deals: a tie


def test_no_carry_over_and_a_new_round_after_four_in_the_clubs_scheme():
    """Two part scores of 60 do not make a game together; the fifth deal opens round 2."""
    deals = [{"declarer": "N", "contract": "2S", "tricks": 8}] * 2 + [{"passed_out": True}] * 2
    deals += [{"declarer": "S", "contract": "1NT", "tricks": 7}]
    out = score(each_deal(deals))
    assert [d["NS"] for d in out["deals"][:2]] == [{"above": 50, "below": 60}] * 2
    assert out["rubbers"][0]["games"] == {"NS": 0, "EW": 0} and out["rubbers"][0]["winner"] == "NS"
    assert [d["rubber"] for d in out["deals"]] == [1, 1, 1, 1, 2]
    assert out["deals"][4]["NS"] == {"above": 50, "below": 40}
    assert out["vulnerable"] == {"NS": False, "EW": True}  # round 2, deal 2: E deals


def test_doubled_failure_vulnerable_uses_the_schedule():
    """Deal 2 (E-W vulnerable): 4♥X by E two down costs 200 + 300 = 500."""
    deals = [{"declarer": "N", "contract": "1C", "tricks": 5}, {"declarer": "E", "contract": "4HX", "tricks": 8}]
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


def play_round(seed: int, choose=None, **extra) -> tuple[object, list[list[dict]]]:
    """A played Chicago table from its first deal to its end: the easy computers bid and play
    (``choose(state, legal)`` may answer instead; None: leave it to them). Returns the
    final state and every action's events."""
    import random

    g = get_game("bridge")
    rng = random.Random(seed)
    options = {"scoring": "chicago", **extra}
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
    assert g.result(s)["totals"] == {"NS": 1840, "EW": 90}  # by the laws (each deal alone: 140)


def test_the_score_only_sheet_redeals_a_passed_out_deal():
    """/score chicago: four passes on deal 2 leave E the dealer and E-W vulnerable."""
    g = get_game("bridge_score")
    s = g.initial_state({"scoring": "chicago"}, 1)
    s, _ = g.apply(s, None, "deal dealer=N")
    for action in ["declarer N", "level 1", "strain NT", "doubling none", "tricks 7", "honours none", "confirm"]:
        s, _ = g.apply(s, 0, action)
    assert s.dealer == 1
    for action in ["passed_out", "confirm"]:
        s, events = g.apply(s, 0, action)
    assert s.dealer == 1 and s.sheet.vul() == {"NS": False, "EW": True}
    assert [e for e in events if e["type"] == "deal_scored"][0]["sheet"]["chicago_deal"] == 2


def test_a_passed_out_fourth_deal_is_redealt_by_the_same_dealer():
    """By the laws (§7.8): three deals played, the fourth passed out: W deals it again, both
    vulnerable, and the round ends after that deal is played."""
    g = get_game("bridge")

    def pass_the_fourth(state, legal):
        return "pass" if state.sheet.deals == 3 and "pass" in legal else None  # everyone passes it

    s, history = play_round(11, pass_the_fourth)
    deals = [e for events in history for e in events if e["type"] == "deal"]
    assert [e["dealer"] for e in deals] == [0, 1, 2, 3, 3]
    assert deals[3]["vulnerable"] == deals[4]["vulnerable"] == {"NS": True, "EW": True}
    assert g.is_over(s) and g.result(s)["deals"] == 5 and s.sheet.round_deals() == 4
    assert "passed_out" not in [e["type"] for e in history[-1]]


def test_a_passed_out_fourth_deal_ends_the_played_round_in_the_clubs_scheme():
    """Three deals played, the fourth passed out: the round is over (a passed-out deal is
    one of the four), no fifth deal is dealt."""
    g = get_game("bridge")

    def pass_the_fourth(state, legal):
        return "pass" if state.sheet.deals == 3 and "pass" in legal else None  # everyone passes it

    s, history = play_round(11, pass_the_fourth, chicago_scoring="each_deal")
    events = history[-1]
    assert g.is_over(s)
    assert [e["type"] for e in events][-3:] == ["passed_out", "deal_scored", "game_over"]
    assert g.result(s)["deals"] == 4


def test_we_win_a_game_is_said_only_for_a_game():
    """Issue 45: "🎉 … win a game!" after a part score was wrong. In the group's posts (and the
    /history .txt, made of the same posts) it comes exactly with a Chicago game premium, in
    both schemes; 2♦+1 and 1♦ are part scores."""
    from bot.games.bridge import ui
    from bot.games.bridge.sheet_posts import deal_post

    for scheme in ("laws", "each_deal"):
        g = get_game("bridge_score")
        s = g.initial_state({"scoring": "chicago", "chicago_scoring": scheme}, 1)
        s, _ = g.apply(s, None, "deal dealer=N")
        posts = []
        for declarer, level, strain, tricks in (("N", 2, "D", 9), ("E", 4, "S", 10), ("S", 1, "D", 7)):
            steps = [f"declarer {declarer}", f"level {level}", f"strain {strain}", "doubling none"]
            for action in steps + [f"tricks {tricks}", "honours none", "confirm"]:
                s, events = g.apply(s, 0, action)
            (scored,) = [e for e in events if e["type"] == "deal_scored"]
            posts.append(deal_post(scored, None, "en"))
        assert ["win a game" in p for p in posts] == [False, True, False], scheme

    for seed in (5, 11):
        said = games = 0
        for events in play_round(seed)[1]:
            sheets = [e["sheet"] for e in events if e["type"] == "deal_scored"]
            view = {"sheet": sheets[-1]} if sheets else {}
            posts = ui.posts(events, view, ["A", "B", "C", "D"], "en", [])
            said += sum("win a game" in p for p in posts)
            games += sum(
                x["kind"] == "chicago_game" for e in events if e["type"] == "deal_scored" for x in e["entries"]
            )
        assert said == games


def test_cardbot_score_reads_a_chicago_record_by_the_laws(tmp_path, capsys):
    """``cardbot score`` on issue 45's round: the laws unless the record asks for each deal."""
    import json

    from bot.cli import main

    path = tmp_path / "chicago.json"
    for options, totals in (({}, {"NS": 640, "EW": 260}), ({"chicago_scoring": "each_deal"}, {"NS": 240, "EW": 310})):
        path.write_text(json.dumps(chicago(ISSUE_ROUND, **options)), encoding="utf-8")
        assert main(["score", str(path)]) == 0
        assert json.loads(capsys.readouterr().out)["rubbers"][0]["totals"] == totals
    assert main(["score", "--text", "--lang", "en", str(path)]) == 0
    assert "They win the Chicago." in capsys.readouterr().out


def test_an_old_record_of_the_bot_replays_as_it_was_played():
    """A /history record written before ``chicago_scoring`` existed (every option named but
    that one) of a round with a passed-out deal: the next dealer dealt after it, as the old
    scheme wanted. It replays to the same result; read by the laws it could not (the same
    dealer would have had to deal again)."""
    import random

    from engine.records import RecordError, make_record, replay

    g = get_game("bridge")
    rng = random.Random(3)
    options = {"scoring": "chicago", "chicago_scoring": "each_deal"}
    s = g.initial_state(options, 4)
    log = [(None, g.new_deal(options, 4, rng, []))]
    s, _ = g.apply(s, None, log[0][1])
    while not g.is_over(s):
        action = g.system_action(s, rng)
        seat = None
        if action is None:
            seat = g.to_act(s)[0]
            legal = g.legal_actions(s, seat)
            passing = s.sheet.deals == 1 and "pass" in legal  # the second deal is passed out
            action = "pass" if passing else g.computer_action(g.view(s, seat), legal, rng, level="easy")
        s, _ = g.apply(s, seat, action)
        log.append((seat, action))
    record = make_record("bridge", 4, options, log)
    del record["options"]["chicago_scoring"]
    assert replay(record)["result"] == g.result(s)
    record["options"] = {"scoring": "chicago"}  # named by hand: the laws
    with pytest.raises(RecordError, match="deals now"):
        replay(record)


def test_a_lobby_stored_before_the_option_shows_the_scheme_it_will_play():
    from bot.games.bridge import ui

    old = parse_options({"scoring": "chicago"}).model_dump()
    del old["chicago_scoring"]
    assert "Chicago, each deal alone" in str(ui.option_rows(old, "en"))
    assert "every deal on its own" in " ".join(ui.lobby_lines(old, "en"))
    assert ui.next_option(old, "scoring")["scoring"] == "rubber"
    new = ui.next_option(parse_options(None).model_dump(), "scoring")
    assert (new["scoring"], new["chicago_scoring"]) == ("chicago", "laws")
    assert "Chicago (4 deals)" in str(ui.option_rows(new, "en"))
