"""The invariants of rules §11 on thousands of random hands (seeded loops: random and
computer players, random options), replay of the action log, and whole pulkas played
to the end by the computer players."""

from __future__ import annotations

import random
from fractions import Fraction

from engine.base import get_game
from engine.errors import EngineError
from engine.games.preferans.rules import DECK, participants
from engine.games.preferans.scoring import parse_fnum

G = get_game("preferans")
ALL = set(DECK)
JUNK = [
    "pass",
    "bid 2",
    "bid 7",
    "moje",
    "igra",
    "name SANS",
    "hold",
    "concede",
    "discard 7S",
    "contract S",
    "contract SANS",
    "play",
    "invite",
    "kontra",
    "no",
    "raise",
    "stop",
    "play AS",
    "play 7C",
    "play 9H",
    "forfeit x",
    "deal dealer=0",
]


def random_options(rng: random.Random) -> dict:
    bula = rng.choice([2, 4, 10, 30, 50])
    opts = {
        "bula": bula,
        "show_talon": rng.random() < 0.5,
        "single_step_bids": rng.random() < 0.3,
        "slovenian_two_refe": rng.random() < 0.3,
        "slovenian_sans_lead": rng.random() < 0.3,
        "kontra_scope": rng.choice(["pair_only", "all"]),
        "allow_subkontra": rng.random() < 0.8,
        "max_kontra_level": rng.choice([None, None, 1, 3]),
        "two_requires_kontra": rng.random() < 0.8,
        "lone_defender_quota": rng.choice([1, 2, 3]),
        "first_dealer": rng.choice(["random", "A", "B", "C"]),
    }
    if rng.random() < 0.3:
        opts["max_refe"] = rng.choice([None, 0, 2])
    return opts


class Checker:
    """Checks one pulka action by action."""

    def __init__(self, state, options) -> None:
        self.options = options
        self.played: list[str] = []  # cards of completed tricks in this hand
        self.prev = state
        self.hands_seen = 0

    def after(self, s, events) -> None:
        prev = self.prev
        p, q = prev.pull, s.pull
        for e in events:
            if e["type"] == "deal":
                self.played = []
                self.hands_seen += 1
                assert sorted(len(h) for h in s.hands) == [10, 10, 10] and len(s.talon) == 2
            elif e["type"] == "trick":
                assert len(e["cards"]) == len(participants(prev)) in (2, 3)
                self.played += e["cards"]
            elif e["type"] == "call" and e["call"].startswith("bid"):
                assert prev.high is None or int(e["call"].split()[1]) > prev.high
                assert not any(prev.igra_said)
            elif e["type"] == "call" and e["call"] == "moje":
                assert prev.priority(e["seat"]) < prev.priority(prev.holder)
            elif e["type"] == "contract" and not s.igra:
                assert e["number"] >= s.bid
            elif e["type"] == "deal_scored":
                self.scored(prev, s, e["row"])
        if s.high is not None and prev.high is not None and s.hand_no == prev.hand_no:
            assert s.high >= prev.high
        # §11.1 every card in exactly one place (the picked-up talon is in the hand or discarded)
        if s.phase not in ("deal", "over"):
            places = [c for h in s.hands for c in h] + s.discards + [c for _, c in s.trick] + self.played
            if s.declarer is None or s.igra:
                places += s.talon
                assert not s.discards
            assert len(places) == len(set(places)) == 32 and set(places) == ALL, s.phase
            if s.phase == "play" or (s.phase in ("defence", "kontra", "contract") and not s.igra):
                assert len(s.discards) == 2 or s.igra
        # §11.3
        if s.phase == "play":
            d = s.declarer
            assert sum(s.won) - s.won[d] <= 4 if s.number != 6 else s.won[d] == 0
        # §11.6–§11.9 (the sheet changes only when a hand is written)
        self.prev = s
        if q is p:
            return
        assert q.total <= 0
        for w in range(3):
            for t in range(3):
                assert q.soups[w][t] >= p.soups[w][t]
        assert all(r >= 0 for r in q.refe)
        if self.options.max_refe is not None:
            assert q.refe_rounds <= self.options.max_refe
        for i in range(3):
            marks = q.hats[i]
            assert (q.contract[i] >= 0) == (marks.endswith("^")), (q.contract[i], marks)
            assert "^^" not in marks and "vv" not in marks and not marks.startswith("v")
        assert sum((parse_fnum(x) for x in q.summary["settlement"]), Fraction(0)) == 0

    def scored(self, prev, s, row) -> None:
        p, q = prev.pull, s.pull
        if row["type"] == "all_pass":
            if row["refe"]:
                assert all(c < 0 for c in p.contract)
                assert q.refe_rounds == p.refe_rounds + 1
            else:
                assert q.refe == p.refe
            return
        d = row["declarer"]
        used = [p.refe[i] - q.refe[i] for i in range(3)]
        assert used in ([0, 0, 0], [1 if i == d else 0 for i in range(3)]) or row["outcome"] == "two_nothing"
        if row["tricks"] is not None:
            t = row["tricks"]
            dt = t[d]
            ds = sum(t) - dt
            assert sum(t) <= 10
            if row["number"] == 6:
                assert dt <= 1 and (dt == 1 or sum(t) == 10)
            else:
                assert ds <= 5 and (dt >= 6 and sum(t) == 10 or ds == 5)
        # every declarer entry is ±v·r·M except the last, scaled one
        if row.get("contract") and row.get("scale") is None:
            e = parse_fnum(row["contract"][str(d)])
            m = row["multiplier"] if row["tricks"] is not None else 1
            assert abs(e) == row["value"] * row["r"] * m
            assert (m & (m - 1)) == 0
        if row.get("scale") is not None:
            assert q.total == 0
        if q.finished:
            assert q.total == 0 and s.phase == "over"
        else:
            assert q.total < 0


def play_pulka(seed: int, max_hands: int, policy_mix: float, options: dict | None = None, junk_every: int = 17):
    rng = random.Random(seed)
    opts = G.Options(**(options if options is not None else random_options(rng)))
    state = G.initial_state(opts, 3)
    log = [(None, G.new_deal(opts, 3, rng, []))]
    state, events = G.apply(state, None, log[0][1])
    check = Checker(G.initial_state(opts, 3), opts)
    check.after(state, events)
    steps = 0
    while not G.is_over(state) and check.hands_seen <= max_hands:
        system = G.system_action(state, rng)
        if system:
            seat, action = None, system
        else:
            seat = G.to_act(state)[0]
            legal = G.legal_actions(state, seat)
            assert legal and all(G.legal_actions(state, x) == [] for x in range(3) if x != seat)
            if rng.random() < policy_mix:
                action = rng.choice(legal)
            else:
                view = G.view(state, seat)
                if steps % 3 == 0:
                    check_view(state, view, seat)
                action = G.computer_action(view, legal, rng, level="easy")
                assert action in legal
            if junk_every and steps % junk_every == 0:
                junk = rng.choice(JUNK)
                if junk not in legal:
                    before = G.dump(state)
                    try:
                        G.apply(state, seat, junk)
                    except EngineError:
                        pass
                    else:
                        raise AssertionError(f"{junk!r} accepted but not offered")
                    assert G.dump(state) == before
        state, events = G.apply(state, seat, action)
        log.append((seat, action))
        check.after(state, events)
        steps += 1
        if junk_every and action.startswith("deal") and steps % 5 == 0:
            data = G.dump(state)
            assert G.dump(G.load(data)) == data
    return opts, state, log, check


def check_view(state, view, seat) -> None:
    """§11.12: a seat sees its own hand, never the others', the discards or a hidden talon."""
    text = str({k: v for k, v in view.items() if k != "hand"})
    mine = set(state.hands[seat])
    for other in range(3):
        if other != seat:
            for card in state.hands[other]:
                if card not in (view.get("talon") or []):
                    assert card not in view["hand"]
                    assert f"'{card}'" not in text or card in str(view["trick"]) + str(view["last_trick"]) + str(
                        view["played"]
                    )
    if seat != state.declarer:
        for card in state.discards:
            assert f"'{card}'" not in text or card in (view.get("talon") or [])
    on_table = str(view["trick"]) + str(view["last_trick"]) + str(view["played"])  # face up once played
    if state.igra or not state.options.show_talon:
        if seat != state.declarer or state.igra:
            for card in state.talon:
                assert (f"'{card}'" not in text or f"'{card}'" in on_table) and card not in mine


def test_invariants_on_random_hands():
    hands = 0
    for seed in range(160):
        _, state, _, check = play_pulka(seed, max_hands=12, policy_mix=0.5)
        hands += check.hands_seen
    assert hands >= 1500


def test_replay_gives_the_same_state():
    for seed in range(200, 215):
        opts, state, log, _ = play_pulka(seed, max_hands=8, policy_mix=0.3)
        again = G.initial_state(opts, 3)
        for seat, action in log:
            again, _ = G.apply(again, seat, action)
        assert G.dump(again) == G.dump(state)
        assert G.dump(G.load(G.dump(state))) == G.dump(state)


def test_whole_pulkas_end_exactly_at_zero():
    ended = 0
    for seed in range(300, 315):
        opts, state, log, check = play_pulka(
            seed, max_hands=400, policy_mix=0.0, junk_every=0, options={"bula": random.Random(seed).choice([4, 6, 10])}
        )
        assert G.is_over(state)
        res = G.result(state)
        assert res["finished"] and sum(parse_fnum(c) for c in res["contract"]) == 0
        assert sum(parse_fnum(x) for x in res["settlement"]) == 0
        assert state.pull.total == 0
        assert [r for r in state.pull.rows if r["type"] == "hand" and r.get("finished")] == [state.pull.rows[-1]]
        ended += 1
        with_mean = [parse_fnum(x) for x in res["settlement"]]
        assert with_mean == [
            10 * state.pull.contract[i]
            + sum(state.pull.soups[i][j] - state.pull.soups[j][i] for j in range(3) if j != i)
            for i in range(3)
        ]
    assert ended == 15
