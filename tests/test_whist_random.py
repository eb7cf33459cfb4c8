"""Seeded random whist matches, checking the invariants of rules §10 after every action,
the replay of the log, and the score-only engine against the Sheet."""

from __future__ import annotations

import json
import random

import pytest

from engine.base import get_game
from engine.records import replay
from engine.games.whist.options import WhistOptions
from engine.games.whist.scoring import Sheet
from tests.e2e import strings_in

G = get_game("whist")
SCORE = get_game("whist_score")

CONFIGS = [
    ({"match_rubbers_to_win": 1}, "computer"),
    ({"match_rubbers_to_win": 2}, "random"),
    ({"match_rubbers_to_win": 1, "trump_method": "dealer_names"}, "random"),
    ({"match_rubbers_to_win": 1, "must_trump": False}, "computer"),
    ({"preset": "classical_long", "match_rubbers_to_win": 1}, "random"),
    ({"preset": "classical_short", "match_rubbers_to_win": 2, "first_dealer": "W"}, "computer"),
    ({"match_rubbers_to_win": 1, "deduct_loser_games": True, "honours_after_game_out": True}, "random"),
]


def check_state(s, prev_phase):
    """Per-action invariants that need no history."""
    if s.phase in ("play", "trump"):
        cards = [c for h in s.hands for c in h] + [c for _, c in s.plays] + s.won[0] + s.won[1]
        assert len(cards) == 52 and len(set(cards)) == 52
        assert len(s.won[0]) % 4 == 0 and len(s.won[1]) % 4 == 0
        played = sum(s.tricks)
        counts = sorted(len(h) for h in s.hands)
        assert counts[0] >= 12 - played and counts[-1] <= 13 - played
    public = G.view(s, None)
    assert "hand" not in public
    shown = {public["turn_up"]} | {c for _, c in public["trick"]}
    if public["last_trick"]:
        shown |= {c for _, c in public["last_trick"]["plays"]}
    hidden = [set(h) - shown for h in s.hands]
    assert not set(strings_in(public)) & set().union(*hidden)
    to_act = G.to_act(s)
    for seat in range(4):
        view = G.view(s, seat)
        assert sorted(view["hand"]) == sorted(s.hands[seat])
        others = set().union(*(hidden[o] for o in range(4) if o != seat))
        assert not set(strings_in(view)) & others, seat
        assert G.legal_actions(s, seat) == [] or seat in to_act


def run_match(seed, options, policy):
    rng = random.Random(seed)
    opts = WhistOptions(**options)
    state = G.initial_state(opts, 4)
    first = G.new_deal(opts, 4, rng, [])
    log = [first]
    state, _ = G.apply(state, None, first)
    deals_checked = 0
    hands_at_deal = None
    honours_by_tricks = [0, 0]
    while not G.is_over(state):
        if state.phase in ("play",) and sum(state.tricks) == 0 and not state.plays:
            hands_at_deal = [h[:] for h in state.hands]
            assert all(len(h) == 13 for h in hands_at_deal)
            if opts.trump_method == "turn_up":
                assert state.trump == state.turn_up[1] and state.turn_up in state.hands[state.dealer]
                assert G.view(state, None)["turn_up"] == state.turn_up
            honours_by_tricks = [0, 0]
        action = G.system_action(state, rng)
        seat = None
        if action is None:
            seat = G.to_act(state)[0]
            legal = G.legal_actions(state, seat)
            assert legal
            action = (
                G.computer_action(G.view(state, seat), legal, rng, level="easy")
                if policy == "computer"
                else rng.choice(legal)
            )
            assert action in legal
            if action.startswith("play "):
                card = action.split()[1]
                hand = state.hands[seat]
                if state.plays:
                    led = state.plays[0][1][1]
                    if any(c[1] == led for c in hand):
                        assert card[1] == led
                    elif opts.must_trump and any(c[1] == state.trump for c in hand):
                        assert card[1] == state.trump
                # a card not offered is refused and changes nothing
                wrong = next((c for c in hand if "play " + c not in legal), None)
                if wrong and rng.random() < 0.1:
                    before = G.dump(state)
                    with pytest.raises(Exception):
                        G.apply(state, seat, "play " + wrong)
                    assert G.dump(state) == before
        before_sheet = state.sheet
        new, events = G.apply(state, seat, action)
        log.append(action if seat is None else f"{seat}: {action}")
        for ev in events:
            if ev["type"] == "trick":
                assert len(ev["cards"]) == 4
                honours_by_tricks[ev["winner"] % 2] += sum(
                    1 for c in ev["cards"] if c[1] == state.trump and c[0] in opts.honour_ranks
                )
            if ev["type"] == "deal_scored":
                deals_checked += 1
                check_deal(opts, ev, before_sheet, new.sheet, honours_by_tricks, hands_at_deal, state.trump)
        if action.startswith("deal"):
            data = G.dump(new)
            assert G.dump(G.load(json.loads(json.dumps(data)))) == data
        check_state(new, state.phase)
        state = new
    check_match(opts, state)
    # replay: the logged actions give the identical state
    record = {"game": "whist", "players": 4, "options": opts.dump(), "actions": log}
    out = replay(record)
    assert out["result"] == G.result(state)
    again = G.initial_state(opts, 4)
    for entry in log:
        seat, _, act = entry.partition(": ") if ": " in entry else (None, "", entry)
        again, _ = G.apply(again, None if seat is None else int(seat), act)
    assert G.dump(again) == G.dump(state)
    return deals_checked


def check_deal(opts, ev, before, after, honours_by_tricks, hands_at_deal, trump):
    entry = ev["entry"]
    assert entry["tricks"]["NS"] + entry["tricks"]["EW"] == 13
    n = len(opts.honour_ranks)
    if opts.honours_mode == "in_tricks":
        assert [entry["honours"]["NS"], entry["honours"]["EW"]] == honours_by_tricks
    else:
        held = [
            sum(1 for s in (side, side + 2) for c in hands_at_deal[s] if c[1] == trump and c[0] in opts.honour_ranks)
            for side in (0, 1)
        ]
        assert [entry["honours"]["NS"], entry["honours"]["EW"]] == held
    assert entry["honours"]["NS"] + entry["honours"]["EW"] == n
    deal = after.deals[-1]
    trick_sides = [s for s in ("NS", "EW") if deal["tricks"][s]]
    assert len(trick_sides) == 1  # exactly one side scores trick points
    tp = deal["tricks"][trick_sides[0]]
    assert tp == opts.points_per_odd_trick * (entry["tricks"][trick_sides[0]] - 6)
    if opts.preset == "seed" and opts.points_per_odd_trick == 2:
        assert tp % 2 == 0 and 2 <= tp <= 14
    honour_sides = [s for s in ("NS", "EW") if deal["honours"][s]]
    assert len(honour_sides) <= 1
    if opts.honours_points == {3: 2, 4: 4, 5: 6} and opts.honours_barred_from is None:
        big = [s for s in ("NS", "EW") if entry["honours"][s] >= 3]
        assert len(big) == 1
        if not honour_sides:
            assert deal.get("dropped")
        else:
            assert deal["honours"][big[0]] == {3: 2, 4: 4, 5: 6}[entry["honours"][big[0]]]
    game = deal.get("game_won")
    if game:
        win, lose = game["winner"], "EW" if game["winner"] == "NS" else "NS"
        assert game["points"][win] >= opts.game_target
        assert before.current[win] < opts.game_target
        loser = game["points"][lose]
        assert game["value"] == (3 if loser == 0 else 2 if loser < opts.double_below else 1)
        assert after.current == {"NS": 0, "EW": 0}
    else:
        assert max(after.current.values()) < opts.game_target
    rubber = deal.get("rubber_won")
    if rubber:
        games = rubber["games"]
        assert max(games.values()) == 2 and sum(games.values()) in (2, 3)
        premium = opts.rubber_premium["2-0" if sum(games.values()) == 2 else "2-1"]
        assert rubber["premium"] == premium
        if opts.preset == "seed" and not opts.deduct_loser_games:
            assert rubber["credited"][rubber["winner"]] >= 5
        assert min(rubber["credited"].values()) == 0


def check_match(opts, state):
    result = G.result(state)
    assert result["balance"]["NS"] + result["balance"]["EW"] == 0
    assert sum(result["players"]) == 0
    if opts.match_rubbers_to_win:
        assert result["rubbers"][result["winner"]] == opts.match_rubbers_to_win


@pytest.mark.parametrize("options,policy", CONFIGS)
def test_random_matches_keep_every_invariant(options, policy):
    deals = 0
    for seed in range(4):
        deals += run_match(seed * 31 + len(options), options, policy)
    assert deals >= 16


def test_many_deals_computer_and_random_mix():
    """Over a thousand deals, quicker checks: the deal totals, the sheet, the settlement."""
    rng = random.Random(99)
    total = 0
    for seed in range(14):
        opts = WhistOptions(match_rubbers_to_win=10 if seed % 2 else 8)
        state = G.initial_state(opts, 4)
        state, _ = G.apply(state, None, G.new_deal(opts, 4, rng, []))
        while not G.is_over(state):
            action = G.system_action(state, rng)
            if action:
                state, _ = G.apply(state, None, action)
                continue
            seat = G.to_act(state)[0]
            legal = G.legal_actions(state, seat)
            action = (
                rng.choice(legal)
                if rng.random() < 0.5
                else G.computer_action(G.view(state, seat), legal, rng, level="easy")
            )
            state, events = G.apply(state, seat, action)
            for ev in events:
                if ev["type"] == "deal_scored":
                    total += 1
                    assert sum(ev["entry"]["tricks"].values()) == 13
        sheet = Sheet.replay(opts, state.sheet.entries)
        assert sheet.score() == state.sheet.score()
        assert sum(G.result(state)["players"]) == 0
    assert total >= 1000


def test_score_engine_random_entries_and_undo():
    rng = random.Random(7)
    for seed in range(12):
        opts = WhistOptions(preset=["seed", "classical_long", "classical_short"][seed % 3], match_rubbers_to_win=2)
        players = 1 + seed % 4
        state = SCORE.initial_state(opts, players)
        state, _ = SCORE.apply(state, None, SCORE.new_deal(opts, players, rng, []))
        written = []
        for _ in range(400):
            if SCORE.is_over(state):
                break
            seat = rng.randrange(players)
            assert SCORE.to_act(state) == list(range(players))
            legal = SCORE.legal_actions(state, seat)
            assert legal == SCORE.legal_actions(state, 0)
            action = rng.choice(legal)
            state, events = SCORE.apply(state, seat, action)
            if action == "confirm":
                written.append(events[0]["entry"])
            elif action == "undo":
                written.pop()
            assert state.sheet.entries == written
            assert Sheet.replay(opts, written).score() == state.sheet.score()
            data = SCORE.dump(state)
            assert SCORE.dump(SCORE.load(json.loads(json.dumps(data)))) == data
        view = SCORE.view(state, 0)
        assert view["hand"] == [] and "hand" not in SCORE.view(state, None)


def test_score_engine_refuses_impossible_entries():
    opts = WhistOptions()
    state, _ = SCORE.apply(SCORE.initial_state(opts, 2), None, "deal")
    state, _ = SCORE.apply(state, 0, "tricks 13")
    assert SCORE.legal_actions(state, 1) == ["honours 5", "cancel"]
    before = SCORE.dump(state)
    for action, code in [
        ("honours 4", "bad_entry"),
        ("tricks 3", "wrong_phase"),
        ("confirm", "wrong_phase"),
        ("undo", "wrong_phase"),
        ("honours x", "bad_syntax"),
    ]:
        with pytest.raises(Exception) as info:
            SCORE.apply(state, 1, action)
        assert info.value.code == code
        assert SCORE.dump(state) == before
    state, _ = SCORE.apply(state, 1, "cancel")
    with pytest.raises(Exception) as info:
        SCORE.apply(state, 0, "undo")
    assert info.value.code == "nothing_to_undo"
    # a match to one rubber ends with the rubber
    opts = WhistOptions(match_rubbers_to_win=1)
    state, _ = SCORE.apply(SCORE.initial_state(opts, 1), None, "deal")
    for _ in range(2):
        for action in ("tricks 12", "honours 5", "confirm"):
            state, events = SCORE.apply(state, 0, action)
    assert SCORE.is_over(state) and events[-1]["type"] == "game_over"
    assert SCORE.result(state)["winner"] == "NS"
