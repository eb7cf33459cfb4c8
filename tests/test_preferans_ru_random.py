"""Random legal Russian preferans pulkas (hypothesis): the invariants of rules §11 after
every action, no view or event showing a card its reader may not see (§11.8), refused
actions changing nothing, and the action log replaying to the same state."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.base import get_game
from engine.errors import EngineError
from engine.games.preferans_ru.rules import BID_RANK, DECK, is_misere
from engine.games.preferans_ru.record import score
from engine.games.preferans_ru.scoring import parse_fnum

G = get_game("preferans_ru")
ALL = set(DECK)
JUNK = ["pass", "bid 6S", "bid MISERE", "here", "discard 7S", "contract 10NT", "whist", "half", "open", "play AS"]
# view keys that hold bids or contracts ("7S" is also a card) or the public sheet, not cards
NOT_CARDS = frozenset({"calls", "high", "bid", "contract", "last_row", "options", "sheet", "result", "exit_level"})

base_options = st.fixed_dictionaries(
    {
        "system": st.sampled_from(["sochi", "leningrad", "rostov"]),
        "pool": st.integers(2, 6),
        "here": st.booleans(),
        "jump_bids": st.booleans(),
        "misere_without_talon": st.booleans(),
        "stalingrad": st.booleans(),
        "ten_checked": st.booleans(),
        "open_timing": st.sampled_from(["after_lead", "before_lead"]),
        "misere_open_timing": st.sampled_from(["after_lead", "before_lead", "after_first_trick"]),
        "dealer_stays_on_all_pass": st.booleans(),
        "half_whist": st.sampled_from([[6, 7], [6], []]),
    }
)


def with_conventions(options: dict) -> st.SearchStrategy[dict]:
    """The §7.1 table conventions on top; the two Ростов ones only where they apply."""
    rostov = options["system"] == "rostov"
    extra = {
        "whist_quota": st.sampled_from(["shared", "personal", "personal_if_short"]),
        "raspasy_reset": st.sampled_from(["any_deal", "made_game", "made_8_or_misere"]),
        "consolation_rate": st.sampled_from(["price", "ten"] if rostov else ["price"]),
        "raspasy_tie": st.sampled_from(["full", "split"] if rostov else ["full"]),
    }
    return st.fixed_dictionaries({**{k: st.just(v) for k, v in options.items()}, **extra})


options_strategy = base_options.flatmap(with_conventions)


def cards_in(value: Any) -> set[str]:
    """Every card named anywhere in a view or an event (bids and the sheet left out)."""
    if isinstance(value, str):
        return {value} if value in ALL else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for k, v in value.items() if k not in NOT_CARDS)) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


def hidden_from(s: Any, seat: int | None) -> set[str]:
    """The cards ``seat`` (None: the group) may not see now (§11.8)."""
    hidden: set[str] = set()
    opened = set(s.open_seats) if s.opened and s.phase == "play" else set()
    for x, hand in enumerate(s.hands):
        if x != seat and x not in opened:
            hidden |= set(hand)
    if seat != s.declarer:
        hidden |= set(s.discards)
    if s.talon_public:  # shown to everyone when taken (§5.2.1), wherever it went since
        hidden -= set(s.talon)
    else:
        hidden |= set(s.talon) - set(s.turned)
    return hidden


def check_views(s: Any, events: list[dict]) -> None:
    for seat in [None, *range(s.players)]:
        seen = cards_in(G.view(s, seat))
        leak = seen & hidden_from(s, seat)
        assert not leak, (seat, s.phase, leak)
        if seat is not None:
            for action in G.legal_actions(s, seat):
                if action.startswith("play "):
                    assert action[5:] in s.hands[s.turn]
                    assert s.turn == seat or s.turn in s.open_seats and s.opened
    leak = cards_in(events) & hidden_from(s, None)
    assert not leak, ("events", leak)


class Checker:
    def __init__(self, state: Any) -> None:
        self.prev = state

    def after(self, s: Any, events: list[dict]) -> None:
        prev = self.prev
        for e in events:
            if e["type"] == "call":
                assert not prev.passed[e["seat"]]  # §11.2 a passed player never calls again
                if e["call"].startswith("bid "):
                    bid = e["call"][4:]
                    assert prev.high is None or BID_RANK[bid] > BID_RANK[prev.high]
                    if is_misere(bid):
                        assert not prev.called[e["seat"]]
            elif e["type"] == "contract" and s.bid is not None and not is_misere(s.bid):
                assert BID_RANK[e["contract"]] >= BID_RANK[s.bid]
            elif e["type"] == "trick":
                assert len(e["cards"]) == 3
            elif e["type"] == "play_over":
                assert sum(e["won"]) == 10
        # §11.1 every card in exactly one place
        if s.phase not in ("deal", "over"):
            places = [c for h in s.hands for c in h] + s.discards + [c for _, c in s.trick]
            places += [c for tr in s.played for _, c in tr]
            if not (s.talon_public):
                places += s.talon
            assert len(places) == 32 and set(places) == ALL, s.phase
            if s.phase == "play":
                assert len(s.discards) in (0, 2) and len(s.played) == s.tricks_played
                sizes = sorted(len(s.hands[x]) for x in s.active)
                assert sizes[-1] == 10 - s.tricks_played and sizes[0] >= 9 - s.tricks_played
        if s.hand_no == prev.hand_no and prev.high is not None:
            assert s.high is not None and BID_RANK[s.high] >= BID_RANK[prev.high]
        # §11.3–11.5 the sheet
        p, q = prev.sheet, s.sheet
        target = s.options.pool
        for name in q.players:
            assert 0 <= q.pool[name] <= target
            for other in q.players:
                if other != name:
                    assert q.whists[name][other] >= p.whists[name][other]
        full = all(q.pool[n] == target for n in q.players)
        if s.phase == "over" and s.result["forfeit"] is None:
            assert full and s.result["finished"]
        elif s.phase != "over":
            assert not full
        settle = G.view(s, None)["sheet"]["settlement"]
        assert sum(parse_fnum(x) for x in settle) == Fraction(0)
        check_views(s, events)
        self.prev = s


def choose(s: Any, seat: int, rng: random.Random) -> str:
    legal = G.legal_actions(s, seat)
    if s.phase == "auction" and rng.random() < 0.6:
        return "pass"
    if s.phase == "auction":
        return rng.choice(legal[:4] + legal[-3:])
    return rng.choice(legal)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=options_strategy, players=st.sampled_from([3, 4]), seed=st.integers(0, 2**32))
def test_random_pulkas_keep_the_invariants(options: dict, players: int, seed: int) -> None:
    rng = random.Random(seed)
    opts = G.Options(**options)
    state = G.initial_state(opts, players)
    log: list[tuple[int | None, str]] = [(None, G.new_deal(opts, players, rng, []))]
    state, events = G.apply(state, None, log[0][1])
    checker = Checker(state)
    check_views(state, events)
    for _ in range(20_000):  # a pool of 2 with random bidders once took 85 deals, 3044 actions
        if G.is_over(state):
            break
        deal = G.system_action(state, rng)
        if deal:
            log.append((None, deal))
            state, events = G.apply(state, None, deal)
            checker.after(state, events)
            continue
        seat = G.to_act(state)[0]
        # a junk action or another seat's action is refused and changes nothing
        junk_seat = rng.randrange(players)
        junk = rng.choice(JUNK)
        if junk not in G.legal_actions(state, junk_seat):
            before = G.dump(state)
            try:
                G.apply(state, junk_seat, junk)
                raise AssertionError(f"{junk!r} by {junk_seat} accepted but not offered")
            except EngineError:
                pass
            assert G.dump(state) == before
        action = choose(state, seat, rng)
        log.append((seat, action))
        state, events = G.apply(state, seat, action)
        checker.after(state, events)
    assert G.is_over(state)
    replay = G.initial_state(opts, players)
    for who, action in log:
        replay, _ = G.apply(replay, who, action)
    assert G.dump(replay) == G.dump(state)
    assert G.load(G.dump(state)).hand_no == state.hand_no
    # the public §9 record of the pulka scores to the same sheet (what the bot posts)
    view = G.view(state, None)
    scored = score(view["record"])
    assert [parse_fnum(scored["settlement"][p]) for p in view["record"]["players"]] == [
        parse_fnum(x) for x in view["sheet"]["settlement"]
    ]
    assert scored["finished"] == G.result(state)["finished"]


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4]))
def test_computer_players_finish_a_pulka(seed: int, players: int) -> None:
    rng = random.Random(seed)
    opts = G.Options(pool=2)
    state = G.initial_state(opts, players)
    state, _ = G.apply(state, None, G.new_deal(opts, players, rng, []))
    for _ in range(5000):
        if G.is_over(state):
            break
        deal = G.system_action(state, rng)
        if deal:
            state, _ = G.apply(state, None, deal)
            continue
        seat = G.to_act(state)[0]
        legal = G.legal_actions(state, seat)
        action = G.computer_action(G.view(state, seat), legal, rng, level="easy")
        assert action in legal
        state, _ = G.apply(state, seat, action)
    assert G.is_over(state) and G.result(state)["finished"]
