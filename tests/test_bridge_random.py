"""Random rubbers (and Chicago rounds) of bridge checked against the invariants of docs/rules/bridge.md §10
after every action (computer players, and random legal play with claims, concessions,
doubles and redoubles), plus replay of every log."""

from __future__ import annotations

import json
import random

import pytest

from engine.base import get_game
from engine.games.bridge import auction as A
from engine.games.bridge.options import scoring_table
from engine.games.bridge.scoring import SEATS, side_of
from engine.cards import make_deck

G = get_game("bridge")
FULL = sorted(make_deck(52))


def random_choice(state, seat, legal, rng):
    """Random legal actions, biased so deals look like bridge: many passes, low bids,
    occasional doubles, claims and concessions."""
    if state.phase == "auction":
        r = rng.random()
        if r < 0.55 or len(legal) == 1:
            return "pass"
        doubles = [a for a in legal if a in ("double", "redouble")]
        if doubles and r < 0.65:
            return rng.choice(doubles)
        bids = [a for a in legal if a.startswith("bid")]
        return rng.choice(bids[:6]) if bids else "pass"
    if state.phase == "claim":
        return "accept" if rng.random() < 0.6 else "reject"
    claims = [a for a in legal if a.startswith("claim")]
    if claims and rng.random() < 0.08:
        return rng.choice(claims)
    if "concede" in legal and rng.random() < 0.01:
        return "concede"
    return rng.choice([a for a in legal if a.startswith("play")])


class Checker:
    """Follows a rubber action by action and checks the invariants."""

    def __init__(self, options):
        self.table = scoring_table(options)
        self.deals = 0
        self.steps = 0

    # §10.1, 3, 12: each card in exactly one place; dummy never acts; views
    def step(self, state):
        if state.phase in ("play", "claim"):
            cards = [c for h in state.hands for c in h] + [c for _, c in state.trick.plays]
            cards += [c for t in state.tricks for _, c in t["plays"]]
            assert sorted(cards) == FULL
            if state.dummy_open:
                assert G.legal_actions(state, state.dummy) == []
                assert state.dummy not in G.to_act(state)
            public = (
                G.view(state, None)
                if state.dummy_open or self.steps % 3 == 0
                else {"dummy_hand": None, "declarer_hand": None}
            )
            shown = set(public["dummy_hand"] or []) | set(public["declarer_hand"] or [])
            assert shown <= set(state.hands[state.dummy]) | set(state.hands[state.declarer])
            if not state.dummy_open:
                assert public["dummy_hand"] is None
            self.steps += 1
            for seat in range(4) if self.steps % 3 == 0 else ():
                view = G.view(state, seat)
                assert view["hand"] == sorted(
                    view["hand"], key=lambda c: ("SHDC".index(c[1]), -"23456789TJQKA".index(c[0]))
                )
                assert set(view["hand"]) == set(state.hands[seat])
                assert (set(view["dummy_hand"] or []) | set(view["declarer_hand"] or [])) == shown
        if state.phase == "auction":
            assert len(G.to_act(state)) == 1

    def deal_done(self, board, sheet_before, sheet_after, vul_at_deal, last_entries):
        self.deals += 1
        calls, dealer = board["calls"], board["dealer"]
        # §10.2: the auction
        last_rank, last_bidder, status = -1, None, 0
        for i, call in enumerate(calls):
            seat = (dealer + i) % 4
            if call in A.BID_RANK:
                assert A.BID_RANK[call] > last_rank
                last_rank, last_bidder, status = A.BID_RANK[call], seat, 0
            elif call == "X":
                assert last_bidder is not None and last_bidder % 2 != seat % 2 and status == 0
                status = 1
            elif call == "XX":
                assert status == 1 and last_bidder % 2 == seat % 2
                status = 2
            else:
                assert call == "P"
        if board["passed_out"]:
            assert calls == ["P"] * 4 and last_entries == []
            assert sheet_after.totals() == sheet_before.totals()
            return
        assert calls[-3:] == ["P"] * 3 and last_bidder is not None
        # every intermediate point: never three passes after a call before the end
        for j in range(4, len(calls)):
            assert not (calls[j - 3 : j] == ["P"] * 3 and any(c != "P" for c in calls[: j - 3]))
        contract = board["contract"]
        assert 1 <= contract["level"] <= 7 and contract["doubling"] == status
        # §10.3: declarer = first of the side to name the strain; leader on his left
        strain = contract["strain"]
        first = next(
            (dealer + i) % 4
            for i, c in enumerate(calls)
            if c in A.BID_RANK and c[1:] == strain and (dealer + i) % 2 == last_bidder % 2
        )
        assert board["declarer"] == first
        leader = (first + 1) % 4
        plays = board["play"]
        if plays:
            assert plays[0]["leader"] == leader
        # §10.4: tricks of four, one per seat, following suit when able
        hands = [set(h) for h in board["hands"]]
        for trick in plays:
            seats = [s for s, _ in trick["plays"]]
            assert seats == [(trick["leader"] + k) % 4 for k in range(len(seats))]
            led = trick["plays"][0][1][1]
            for seat, card in trick["plays"]:
                assert card in hands[seat]
                if card[1] != led:
                    assert not any(c[1] == led for c in hands[seat])
                hands[seat].discard(card)
        # §10.5: who scores
        side = side_of(board["declarer"])
        other = "EW" if side == "NS" else "NS"
        made = board["tricks"] >= 6 + contract["level"]
        non_honours = [e for e in last_entries if e["kind"] != "honours"]
        below = [e for e in non_honours if e["line"] == "below"]
        assert all(e["side"] == side for e in below)
        assert (sum(e["points"] for e in below) > 0) == made
        if made:
            assert all(e["side"] == side for e in non_honours)
        else:
            assert {e["side"] for e in non_honours} == {other}
            assert [e["kind"] for e in non_honours] == ["undertricks"]
        # §10.6: honours for one side at most; slams independent of doubling
        assert len([e for e in last_entries if e["kind"] == "honours"]) <= 1
        vul = "v" if vul_at_deal[side] else "nv"
        for e in last_entries:
            if e["kind"] == "small_slam":
                assert e["points"] == self.table["small_slam"][vul]
            if e["kind"] == "grand_slam":
                assert e["points"] == self.table["grand_slam"][vul]
            if e["kind"] == "insult":
                assert e["points"] == self.table["insult"]["X" * contract["doubling"]]
        # §10.7, 8: games and vulnerability
        assert vul_at_deal == {s: sheet_before.games[s] >= 1 for s in ("NS", "EW")}
        if sheet_after.games != sheet_before.games:
            assert sheet_after.below == {"NS": 0, "EW": 0}
        assert max(sheet_after.games.values()) <= 2 and sum(sheet_after.games.values()) <= 3
        assert all(v < self.table["game_threshold"] for v in sheet_after.below.values())

    def rubber_done(self, state, result):
        sheet = state.sheet
        bonuses = [e for e in sheet.entries if e["kind"] == "rubber_bonus"]
        if result.get("forfeit") is None:
            # §10.9: one rubber bonus, 700 iff the loser has no game
            assert result["complete"] and len(bonuses) == 1
            winner = bonuses[0]["side"]
            loser = "EW" if winner == "NS" else "NS"
            assert sheet.games[winner] == 2
            assert bonuses[0]["points"] == (700 if sheet.games[loser] == 0 else 500)
        # §10.10: totals and settlement
        for s in ("NS", "EW"):
            assert result["totals"][s] == sheet.total(s, "above") + sheet.total(s, "below")
        d = result["totals"]["NS"] - result["totals"]["EW"]
        assert result["diff"] == d
        assert abs(result["units"]["NS"]) == (abs(d) + 50) // 100
        assert sum(result["amounts"]) == 0 and result["amounts"][0] == result["amounts"][2]


def play_rubber(
    seed: int,
    policy: str,
    options=None,
    checker_cls=Checker,
    max_actions=20000,
    forfeit_at: int | None = None,
    light: bool = False,
):
    """One rubber; ``light`` checks at the end of each deal only (not after every action)."""
    rng = random.Random(seed)
    opts = G.Options(**(options or {}))
    state = G.initial_state(opts, 4)
    log = [(None, G.new_deal(opts, 4, rng, []))]
    state, _ = G.apply(state, None, log[0][1])
    checker = checker_cls(opts)
    vul_at_deal = dict(state.vul)
    for n in range(max_actions):
        if G.is_over(state):
            break
        if forfeit_at is not None and n == forfeit_at:
            seat, action = None, f"forfeit {rng.randrange(4)}"
        else:
            action = G.system_action(state, rng)
            seat = None
            if action is None:
                seat = G.to_act(state)[0]
                legal = G.legal_actions(state, seat)
                if n % 5 == 0 and not light:
                    waiting = G.to_act(state)
                    for other in range(4):
                        if other not in waiting:
                            assert G.legal_actions(state, other) == []
                if policy == "computer":
                    action = G.computer_action(G.view(state, seat), legal, rng, level="easy")
                else:
                    action = random_choice(state, seat, legal, rng)
                assert action in legal
                if not light and rng.random() < 0.005:  # §10.12: an illegal action changes nothing
                    bad = rng.choice(
                        ["play 2C", "bid 1C", "double", "redouble", "claim 13", "accept", "concede", "pass"]
                    )
                    if bad not in legal:
                        before = json.dumps(G.dump(state), sort_keys=True)
                        with pytest.raises(Exception):
                            G.apply(state, seat, bad)
                        assert json.dumps(G.dump(state), sort_keys=True) == before
        sheet_before = state.sheet
        boards_before = len(state.boards)
        state, events = G.apply(state, seat, action)
        log.append((seat, action))
        if action.startswith("deal"):
            vul_at_deal = dict(state.vul)
        if not light:
            checker.step(state)
        if len(state.boards) > boards_before:
            scored = next(e for e in events if e["type"] == "deal_scored")
            checker.deal_done(state.boards[-1], sheet_before, state.sheet, vul_at_deal, scored["entries"])
    assert G.is_over(state), "the rubber did not end"
    checker.rubber_done(state, G.result(state))
    replayed = G.initial_state(opts, 4)
    for seat, action in log:
        replayed, _ = G.apply(replayed, seat, action)
    assert G.dump(replayed) == G.dump(state)
    return state, checker.deals


def test_computer_rubbers_keep_the_invariants():
    deals = 0
    for seed in range(20):
        options = {"preset": "acbl"} if seed % 3 == 0 else {}
        _, n = play_rubber(seed, "computer", options)
        deals += n
    assert deals >= 150


def test_random_rubbers_keep_the_invariants():
    deals = 0
    for seed in range(12):
        options = {"preset": "acbl", "score_honours": False} if seed % 4 == 0 else {}
        _, n = play_rubber(1000 + seed, "random", options)
        deals += n
    assert deals >= 200


def random_deals(count: int) -> int:
    """Whole rubbers from seed 5000 on until ``count`` deals were played; how many were.
    bench/random_games.py plays 2000."""
    deals, seed = 0, 5000
    while deals < count:
        options = {"preset": "acbl"} if seed % 2 else {"unfinished_rubber_bonus": True}
        _, n = play_rubber(seed, "random" if seed % 3 else "computer", options, light=True)
        deals += n
        seed += 1
    return deals


def test_random_deals_checked_deal_by_deal():
    """§10 at the end of every deal (the auction, the declarer, following suit, who scores,
    games, vulnerability) and at the end of every rubber; the log replays identically."""
    assert random_deals(300) >= 300


def test_forfeits_settle_and_sum_to_zero():
    for seed in range(20):
        state, _ = play_rubber(2000 + seed, "computer", forfeit_at=random.Random(seed).randrange(5, 200))
        result = G.result(state)
        if "forfeit" in result:
            loser = side_of(result["forfeit"])
            assert result["winner"] != loser and sum(result["amounts"]) == 0


class ChicagoChecker(Checker):
    """§7.8, Chicago by the laws, at the end of every deal and round: the vulnerability of
    the round's deal, a passed-out deal redealt by the same dealer, part-scores carried until
    a game that wipes both, the game premium by the vulnerability of the side completing it,
    100 only for a part-score on the fourth deal, the round over after four deals played."""

    def __init__(self, options):
        super().__init__(options)
        self.first = SEATS.index(options.first_dealer)
        self.redeals = 0

    def deal_done(self, board, sheet_before, sheet_after, vul_at_deal, last_entries):
        self.deals += 1
        played = sheet_before.round_deals()  # the deals of the round before this one
        assert board["dealer"] == (self.first + played) % 4  # a redeal keeps the dealer
        schedule = [set(), {side_of(board["dealer"])}, {side_of(board["dealer"])}, {"NS", "EW"}][played % 4]
        assert vul_at_deal == {s: s in schedule for s in ("NS", "EW")}
        if board["passed_out"]:
            assert last_entries == [] and sheet_after.round_deals() == played
            self.redeals += 1
            return
        assert sheet_after.round_deals() == played + 1
        side = side_of(board["declarer"])
        made = any(e["line"] == "below" for e in last_entries)
        premiums = [e for e in last_entries if e["kind"] in ("chicago_game", "chicago_part")]
        game = sheet_before.below[side] + sum(e["points"] for e in last_entries if e["line"] == "below") >= 100
        if made and game:
            assert [(e["kind"], e["points"]) for e in premiums] == [("chicago_game", 500 if vul_at_deal[side] else 300)]
            assert sheet_after.below == {"NS": 0, "EW": 0}
        elif made and played == 3:
            assert [(e["kind"], e["points"]) for e in premiums] == [("chicago_part", 100)]
        else:
            assert premiums == []
        if not (made and game):
            assert sheet_after.below[side] >= sheet_before.below[side]
            other = "EW" if side == "NS" else "NS"
            assert sheet_after.below[other] == sheet_before.below[other]  # carried over
        assert not [e for e in last_entries if e["kind"] in ("rubber_bonus", "game_bonus")]

    def rubber_done(self, state, result):
        sheet = state.sheet
        assert result["complete"] and sheet.round_deals() == 4 and sheet.redeals == self.redeals
        totals = result["totals"]
        winner = None if totals["NS"] == totals["EW"] else ("NS" if totals["NS"] > totals["EW"] else "EW")
        assert result["winner"] == winner
        assert sum(result["amounts"]) == 0 and abs(result["units"]["NS"]) == (abs(result["diff"]) + 50) // 100


def test_chicago_rounds_by_the_laws_keep_their_invariants():
    """Random and computer Chicago rounds (random bidding passes many deals out), checked
    deal by deal against §7.8; the logs replay identically."""
    redeals = deals = 0
    for seed in range(24):
        options = {"scoring": "chicago", "first_dealer": "NESW"[seed % 4]}
        if seed % 3 == 0:
            options["preset"] = "acbl"
        state, n = play_rubber(6000 + seed, "random" if seed % 2 else "computer", options, ChicagoChecker)
        deals += n
        redeals += state.sheet.redeals
    assert deals == 24 * 4 + redeals and redeals >= 3, (deals, redeals)
