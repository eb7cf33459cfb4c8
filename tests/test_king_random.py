"""Random King games (every deal of the 12, several option sets, random and computer
players): the invariants of rules §11 after every action, the per-deal totals on
thousands of random deals, the whole game's total, and replay of the action log."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine.base import get_game
from engine.cards import RANK_VALUE, make_deck
from engine.errors import EngineError
from engine.games.king import KingOptions

G = get_game("king")
DECK = sorted(make_deck(32))
ORDER = "789TJQKA"
OTHER = KingOptions(
    deal3_cards="KJ",
    deal3_per_card=-2,
    deal4_bachelor_rule=False,
    stop_when_decided=False,
    deal7_stop_at_100=False,
    deal8_free_pass=True,
    trump_must_ruff=False,
    deal6_no_heart_lead=True,
    deal6_must_discard_kh=True,
    deal2_no_heart_lead=False,
    first_dealer="E",
)


# ---------------------------------------------------------------------------------
# independent helpers (deliberately not the engine's own)
# ---------------------------------------------------------------------------------


def expected_playable(s, seat) -> set[str]:
    hand, o, no = s.hands[seat], s.options, s.deal_no
    if not s.plays:
        restricted = (no == 2 and o.deal2_no_heart_lead) or (no == 6 and o.deal6_no_heart_lead)
        if restricted and any(c[1] != "H" for c in hand):
            return {c for c in hand if c[1] != "H"}
        return set(hand)
    led = s.plays[0][1][1]
    follow = {c for c in hand if c[1] == led}
    if follow:
        return follow
    if no == 6 and o.deal6_must_discard_kh and "KH" in hand:
        return {"KH"}
    if no >= 9 and o.trump_must_ruff:
        trumps = {c for c in hand if c[1] == s.trump}
        if trumps:
            return trumps
    return set(hand)


def trick_winner(plays, trump) -> int:
    trumps = [(RANK_VALUE[c[0]], seat) for seat, c in plays if trump and c[1] == trump]
    if trumps:
        return max(trumps)[1]
    led = plays[0][1][1]
    return max((RANK_VALUE[c[0]], seat) for seat, c in plays if c[1] == led)[1]


def fits(card, rows) -> bool:
    row = rows.get(card[1])
    if card[0] == "J":
        return row is None
    return row is not None and (ORDER.index(card[0]) in (ORDER.index(row[0]) - 1, ORDER.index(row[1]) + 1))


def scoring(no, o) -> set[str]:
    if no == 2:
        return {c for c in DECK if c[1] == "H"}
    if no == 3:
        return {c for c in DECK if c[0] in ("KJ" if o.deal3_cards == "KJ" else "J")}
    if no == 4:
        return {c for c in DECK if c[0] == "Q"}
    return set()


def all_cards(s) -> list[str]:
    out = [c for h in s.hands for c in h] + [c for w in s.won for c in w]
    out += [c for _, c in s.plays] + [c for _, c in s.pile]
    for suit, (lo, hi) in s.rows.items():
        out += [r + suit for r in ORDER[ORDER.index(lo) : ORDER.index(hi) + 1]]
    if s.phase == "choose":
        out += s.deck[3:]
    return out


def words(obj, out):
    if isinstance(obj, str):
        out.update(obj.split())
    elif isinstance(obj, dict):
        for v in obj.values():
            words(v, out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            words(v, out)
    return out


def check_state(s) -> None:
    cards = all_cards(s)
    if s.deal_no and s.phase != "over" or s.sheet:
        assert sorted(cards) == DECK, Counter(cards) - Counter(DECK)  # §11.1
    if s.phase == "play" and not s.plays and not s.winners:
        assert all(len(h) == 8 for h in s.hands)  # §11.2
    for lo, hi in s.rows.values():  # §11.6: unbroken runs through the jack
        assert ORDER.index(lo) <= ORDER.index("J") <= ORDER.index(hi)


def check_views(s) -> None:
    pub = G.view(s, None)
    assert "hand" not in pub and pub["to_act"] == G.to_act(s)
    json.dumps(pub)
    hidden_turned = set(s.turned)
    for seat in range(4):
        v = G.view(s, seat)
        assert sorted(v["hand"]) == sorted(s.hands[seat])
        others = {c for x in range(4) if x != seat for c in s.hands[x]} - hidden_turned
        if s.phase == "choose":
            others |= set(s.deck)
            others -= set(s.hands[seat])
        assert not words(v, set()) & others  # §11.9


# ---------------------------------------------------------------------------------
# one game, checked after every action
# ---------------------------------------------------------------------------------


def run_game(seed: int, options: KingOptions, policy: str, deep: bool = True) -> tuple:
    rng = random.Random(seed)
    s = G.initial_state(options, 4)
    log = [(None, G.new_deal(options, 4, rng, []))]
    s, events = G.apply(s, None, log[0][1])
    deal_events = list(events)
    per_deal = []
    steps = 0
    while not G.is_over(s):
        steps += 1
        assert steps < 2000
        system = G.system_action(s, rng)
        if system is not None:
            assert G.to_act(s) == []
            log.append((None, system))
            s, events = G.apply(s, None, system)
            deal_events = list(events)
            check_state(s)
            continue
        (seat,) = G.to_act(s)
        legal = G.legal_actions(s, seat)
        assert legal and len(legal) == len(set(legal))
        for other in range(4):
            if other != seat:
                assert G.legal_actions(s, other) == []
        if s.phase == "play":  # §11.3 follow suit, must trump, lead restriction, KH option
            assert {a.split()[1] for a in legal} == expected_playable(s, seat)
        elif s.phase == "domino":
            plays = {a.split()[1] for a in legal if a != "pass"}
            assert plays == {c for c in s.hands[seat] if fits(c, s.rows)}
            assert plays, "a player without a legal play is passed automatically"
            assert ("pass" in legal) == (
                s.options.deal8_free_pass and not all(x in s.passed for x in range(4) if x != seat and s.hands[x])
            )
        elif s.phase == "count":
            assert len(legal) == len(s.hands[seat])
        if deep and steps % 3 == 0:  # an illegal action changes nothing (§11.9)
            before = G.dump(s)
            wrong = [f"play {c}" for c in DECK if f"play {c}" not in legal][:3] + ["pass", "highest"]
            for bad in wrong:
                if bad in legal:
                    continue
                with pytest.raises(EngineError):
                    G.apply(s, seat, bad)
            with pytest.raises(EngineError):
                G.apply(s, (seat + 1) % 4, legal[0])
            assert G.dump(s) == before
        action = (
            G.computer_action(G.view(s, seat), legal, rng, level="easy") if policy == "computer" else rng.choice(legal)
        )
        assert action in legal
        before_state = s
        log.append((seat, action))
        s, events = G.apply(s, seat, action)
        deal_events += events
        check_state(s)
        if deep and steps % 7 == 0:
            check_views(s)
        for e in events:
            if e["type"] == "trick":
                plays = list(zip([p[0] for p in s.last_trick["plays"]], e["cards"]))
                assert e["winner"] == trick_winner(plays, before_state.trump)
                if not any(x["type"] == "deal_scored" for x in events):
                    assert G.to_act(s) == [e["winner"]]  # the winner leads next
                if s.deal_no == 6 or before_state.deal_no == 6:
                    # §11.7: deal 6 ends exactly with the trick that holds KH
                    ended = any(x["type"] == "deal_scored" for x in events)
                    assert ended == ("KH" in e["cards"])
            if e["type"] == "pass" and e["auto"]:
                assert not any(fits(c, s.rows) for c in s.hands[e["seat"]])
            if e["type"] == "pass" and not e["auto"]:
                assert s.options.deal8_free_pass
        scored = next((e for e in events if e["type"] == "deal_scored"), None)
        if scored:
            per_deal.append((scored["no"], scored["scores"]))
            check_deal_end(before_state, s, scored, deal_events)
    result = G.result(s)
    # replay: the logged actions give an identical state
    r = G.initial_state(options, 4)
    for seat, action in log:
        r, _ = G.apply(r, seat, action)
    assert G.dump(r) == G.dump(s)
    assert G.dump(G.load(json.loads(json.dumps(G.dump(s))))) == G.dump(s)
    return per_deal, result, s


def check_deal_end(before, s, scored, events) -> None:
    no, o = scored["no"], s.options
    entry = s.sheet[-1]
    assert entry["no"] == no and entry["scores"] == scored["scores"]
    if no in (2, 3, 4):
        need = scoring(no, o)
        left_in_hands = {c for h in s.hands for c in h} & need
        assert not left_in_hands  # every scoring card was taken
        if len(s.winners) < 8:
            assert o.stop_when_decided  # §11.7: an early stop only with the option
            last = set(s.last_trick["plays"][i][1] for i in range(4))
            assert last & need  # ... right after the trick that took the last one
    elif no in (1, 5, 9, 10, 11, 12):
        assert len(s.winners) == 8 and not any(s.hands)
    elif no == 7:  # §11.5
        marks = [e for e in events if e["type"] == "threshold"]
        assert [m["at"] for m in marks] == [t for t, _ in o.deal7_thresholds]
        lays = [e for e in events if e["type"] == "lay"]
        assert sum(o.deal7_values[c[0]] for _, c in s.pile) == lays[-1]["total"]
        if not o.deal7_stop_at_100:
            assert len(lays) == 32 and lays[-1]["total"] == 120
        else:
            assert lays[-1]["total"] >= 100 > lays[-2]["total"]
    elif no == 8:
        holders = [x for x in range(4) if s.hands[x]]
        assert len(holders) == 1 and len(s.out) == 3


def totals_ok(per_deal, options) -> None:
    by_no = {no: sum(sc) for no, sc in per_deal}
    assert sorted(by_no) == list(range(1, 13))
    assert by_no[1] == by_no[2] == by_no[3] == -16  # §11.4
    if options.deal4_bachelor_rule:
        assert by_no[4] in (-8, -16, 8)
    else:
        assert by_no[4] in (-8, 8)
    assert by_no[5] == by_no[6] == by_no[8] == -8 and by_no[7] == -16
    assert all(by_no[no] == 24 for no in range(9, 13))
    assert sum(by_no.values()) in (0, -8, 16)  # §11.8


@pytest.mark.parametrize(
    "policy,options,games,start",
    [
        ("random", KingOptions(), 100, 0),
        ("computer", KingOptions(), 60, 1000),
        ("random", OTHER, 60, 2000),
    ],
)
def test_random_games(policy, options, games, start):
    deal4 = Counter()
    for seed in range(start, start + games):
        per_deal, result, s = run_game(seed, options, policy, deep=seed % 5 == 0)
        totals_ok(per_deal, options)
        assert result["deals"] == 12 and "forfeit" not in result
        sums = [sum(e["scores"][x] for e in s.sheet) for x in range(4)]
        assert result["totals"] == sums  # §11.8
        assert [e["dealer"] for e in s.sheet] == [(s.first_dealer + k) % 4 for k in range(12)]
        deal4[sum(dict(per_deal)[4])] += 1
        assert all(e["trump"] in ("S", "H", "D", "C") for e in s.sheet[8:])
    assert len(deal4) >= 2  # more than one of deal 4's outcomes came up


def test_thousands_of_random_deals_per_contract():
    """Each contract alone, many times: its total is the rules' deal total (§11.4)."""
    from tests.test_king_rules import at_deal, play_out

    rng = random.Random(11)
    totals = Counter()
    for no in range(1, 13):
        for seed in range(250):
            s = at_deal(no, None, seed=seed * 13 + no)
            if s.phase == "choose":
                s, _ = G.apply(s, G.to_act(s)[0], rng.choice(G.legal_actions(s, G.to_act(s)[0])))
            s, events = play_out(s, rng)
            scored = next(e for e in events if e["type"] == "deal_scored")
            totals[(no, sum(scored["scores"]))] += 1
    expected = {
        1: {-16},
        2: {-16},
        3: {-16},
        4: {-8, -16, 8},
        5: {-8},
        6: {-8},
        7: {-16},
        8: {-8},
        9: {24},
        10: {24},
        11: {24},
        12: {24},
    }
    for no, total in totals:
        assert total in expected[no], (no, total)
    assert sum(totals.values()) == 3000


def test_record_replay_through_engine_records():
    """A logged game replays through ``engine.records`` (``cardbot replay``)."""
    from engine.records import replay

    rng = random.Random(4)
    s = G.initial_state(KingOptions(), 4)
    actions = [{"seat": None, "action": G.new_deal(KingOptions(), 4, rng, [])}]
    s, _ = G.apply(s, None, actions[0]["action"])
    while not G.is_over(s):
        system = G.system_action(s, rng)
        if system:
            actions.append(system)
            s, _ = G.apply(s, None, system)
            continue
        seat = G.to_act(s)[0]
        action = G.computer_action(G.view(s, seat), G.legal_actions(s, seat), rng, level="easy")
        actions.append(f"{seat}: {action}")
        s, _ = G.apply(s, seat, action)
    out = replay({"game": "king", "players": 4, "options": {}, "actions": actions})
    assert out["result"] == G.result(s) and out["final"]["phase"] == "over"
    assert out["final"]["totals"] == G.result(s)["totals"]
