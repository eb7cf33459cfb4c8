"""Random durak games across every variant, checking the invariants of rules §14
after every action, and that the action log replays to an identical state."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.base import get_game
from engine.cards import RANK_VALUE, make_deck
from engine.games.durak import DurakOptions
from engine.errors import EngineError, NotYourTurn

G = get_game("durak")
# the suite's share; bench/random_games.py plays the thousands
RANDOM_GAMES = 200
EXAMPLES = 100
VIEW_KEYS = {  # the keys of the public view (a seat's view adds "hand")
    "game",
    "seat",
    "players",
    "dealer",
    "phase",
    "trump",
    "trump_card",
    "trump_in_stock",
    "stock",
    "discard",
    "hand_counts",
    "finished",
    "attacker",
    "defender",
    "to_act",
    "table",
    "taking",
    "result",
    "bout",
    "gone",
    "known",
    "options",
}


# ---------------------------------------------------------------------------------
# independent helpers (deliberately not the engine's own)
# ---------------------------------------------------------------------------------


def beats(c, a, trump):
    if c[1] == a[1]:
        return RANK_VALUE[c[0]] > RANK_VALUE[a[0]]
    return bool(trump) and c[1] == trump


def next_active(s, seat):
    for i in range(1, s.n):
        t = (seat + i) % s.n
        if s.hands[t] or s.stock:
            return t
    return None


def lim(s):
    o = s.options
    return min(5, o.max_attack_cards) if (o.first_bout_five and s.bout == 1) else o.max_attack_cards


def room(s):
    un = sum(1 for p in s.table if p[2] is None)
    return min(lim(s) - len(s.table), len(s.hands[s.defender]) - un)


def visible(s):
    v = {p[0][0] for p in s.table}
    v |= {p[2][0] for p in s.table if p[2] is not None and not p[3]}
    return v


def all_cards(s):
    out = list(s.stock) + list(s.discard)
    for h in s.hands:
        out += h
    for p in s.table:
        out.append(p[0])
        if p[2] is not None:
            out.append(p[2])
    return out


CARD_STRING = re.compile(r'"([2-9TJQKA][SHDC](?:#\d+)?)"')


def cards_in(obj):
    """Every card id that appears as a JSON string anywhere in ``obj`` (it must be
    JSON-able, which this checks too)."""
    return set(CARD_STRING.findall(json.dumps(obj)))


def action_cards(action):
    return action.split()[1:]


# ---------------------------------------------------------------------------------
# the invariant checker
# ---------------------------------------------------------------------------------


class Checker:
    def __init__(self, state):
        o = state.options
        self.deck = sorted(make_deck(o.deck_size, 2 if o.two_decks else 1))
        self.deckset = set(self.deck)
        self.bout = None
        self.bout_hand = None
        self.transferred = False
        self.seen = set()  # every card that was ever face up for the whole table

    def start(self, s):
        """Called on a state at the start of a bout."""
        self.bout = s.bout
        self.bout_hand = len(s.hands[s.defender])
        self.transferred = False

    def check(self, prev, s, seat, action, events, views=True):
        o = s.options
        verb = action.split()[0]
        for t in (prev, s):
            self.seen.add(t.trump_card)
            self.seen |= {p[0] for p in t.table} | {p[2] for p in t.table if p[2] and not p[3]}
        if verb in ("attack", "throw", "beat", "transfer"):
            self.seen |= set(action_cards(action))
        if verb == "challenge":
            self.seen.add(prev.table[prev.verdict][2])
        # 1. card conservation
        if s.phase != "deal":
            cards = all_cards(s)
            assert len(cards) == len(self.deck) and set(cards) == self.deckset
        # 7. discard changes only at bito, the stock only shrinks
        types = [e["type"] for e in events]
        if s.discard != prev.discard:
            assert "bito" in types
            assert s.discard[: len(prev.discard)] == prev.discard
        if prev.phase != "deal":
            assert len(s.stock) <= len(prev.stock)
            assert prev.stock[len(prev.stock) - len(s.stock) :] == s.stock
        # 4. openings share one rank; later attack cards had a visible rank
        if verb == "attack":
            assert len({c[0] for c in action_cards(action)}) == 1
            assert prev.phase == "open" and seat == prev.attacker
        elif verb == "throw":
            assert {c[0] for c in action_cards(action)} <= visible(prev)
            assert o.base_game != "prostoy" or seat == prev.attacker
            assert seat != prev.defender
        elif verb == "transfer":
            assert o.base_game.startswith("perevodnoy")
            rank = {p[0][0] for p in prev.table if p[2] is None}
            assert rank == {action.split()[1][0]}
            if o.base_game == "perevodnoy":
                assert all(p[2] is None for p in prev.table)
            self.transferred = True
            # 5. after a transfer D is the next active player after M
            assert s.attacker == seat and s.defender == next_active(s, s.attacker)
        if o.base_game == "prostoy" and s.phase != "over":
            assert all(p[1] == s.attacker for p in s.table)
        # 3. face-up covers beat; only BLIND places a face-down card
        for p in s.table:
            if p[2] is not None and not p[3]:
                assert beats(p[2], p[0], s.trump), p
        new_hidden = {p[0] for p in s.table if p[3]} - {p[0] for p in prev.table if p[3]}
        if new_hidden:
            assert verb == "blind" and len(new_hidden) == 1
        # 2. caps
        if s.phase in ("defend", "throw", "final", "verdict"):
            assert len(s.table) <= lim(s)
            un = sum(1 for p in s.table if p[2] is None)
            assert un <= len(s.hands[s.defender])
            if not self.transferred:
                assert len(s.table) <= min(lim(s), self.bout_hand)
        # bout boundaries
        if "bout" in types or s.phase == "over":
            if s.phase == "open" and prev.phase == "deal":
                assert s.defender == next_active(s, s.attacker)
                self.start(s)
            elif s.phase == "open":
                # 5. next attacker follows §7, D is next active after M
                d = prev.defender
                if "bito" in types or any(e["type"] == "challenge" and e["legal"] for e in events):
                    want = d if s.hands[d] else next_active(s, d)
                else:
                    want = next_active(s, d)
                assert s.attacker == want
                assert s.defender == next_active(s, s.attacker)
                assert s.table == []
                # 8. at least two players hold cards between bouts
                assert sum(1 for h in s.hands if h) >= 2
                # 6. refill
                if s.stock:
                    assert all(len(h) >= 6 for h in s.hands)
                self.start(s)
        if s.phase == "open" and self.bout is None:
            self.start(s)
        # 6. nobody finished while the stock lasts; the trump card is at the bottom
        if s.stock:
            assert not any(s.finished)
            if o.trumps:
                assert s.stock[-1] == s.trump_card
        for i, f in enumerate(s.finished):
            if f:
                assert not s.hands[i] and not s.stock
        # 8. two decks: nobody holds loss_at while the game goes on
        if o.two_decks and s.phase != "over":
            assert all(len(h) < o.two_deck_loss_at for h in s.hands)
        # 9. the order of going out: the seats this action put out are one more group,
        # and the result carries the order
        went = [e["seat"] for e in events if e.get("type") == "finished"]
        assert s.out == (prev.out + [went] if went else prev.out)
        if s.phase == "over":
            r = s.result
            assert r is not None and r["out"] == s.out
            if r.get("draw"):
                assert not any(s.hands)
            elif not r.get("forfeit"):
                holders = [i for i, h in enumerate(s.hands) if h]
                if r["by_52"]:
                    assert len(s.hands[r["durak"]]) >= o.two_deck_loss_at
                else:
                    assert holders == [r["durak"]]
            assert ("draw" in r) != ("durak" in r)
            assert G.to_act(s) == []
        else:
            assert len(G.to_act(s)) == 1
        if views:
            # events never carry a hidden card, views show nothing they should not
            self.check_events(prev, s, action, events)
            self.check_views(s)
        else:
            for e in events:
                if e["type"] in ("draw_cards", "pickup"):
                    assert set(e) == {"type", "seat", "count"}
                elif e["type"] == "blind":
                    assert set(e) == {"type", "seat", "attack"}

    def check_events(self, prev, s, action, events):
        allowed = {p[0] for p in prev.table} | {p[0] for p in s.table}
        allowed |= {p[2] for p in prev.table if p[2] is not None and not p[3]}
        allowed |= {p[2] for p in s.table if p[2] is not None and not p[3]}
        allowed.add(prev.trump_card)
        allowed.add(s.trump_card)
        verb = action.split()[0]
        if verb in ("attack", "throw", "beat", "transfer"):
            allowed |= set(action_cards(action))
        if verb == "blind":
            allowed.add(action.split()[1])  # the attack card, never the cover
        if verb == "challenge":
            allowed.add(prev.table[prev.verdict][2])
        secret = set(self.deck) - allowed
        assert not (cards_in(events) & secret), (events, action)
        for e in events:
            if e["type"] in ("draw_cards", "pickup"):
                assert set(e) == {"type", "seat", "count"}

    def check_views(self, s):
        pub = G.view(s, None)
        for seat in [None] + list(range(s.n)):
            v = G.view(s, seat)
            keys = VIEW_KEYS | ({"hand"} if seat is not None else set())
            assert set(v) == keys
            ok = set()
            for p in s.table:
                ok.add(p[0])
                if p[2] is not None and (not p[3] or p[4] == seat):
                    ok.add(p[2])
            ok.add(s.trump_card)
            ok |= self.seen  # public memory: cards once face up for the whole table
            if seat is not None:
                ok |= set(s.hands[seat])
                assert sorted(v["hand"]) == sorted(s.hands[seat])
            shown = cards_in(v)
            assert shown <= ok, (seat, shown - ok)
            for e, p in zip(v["table"], s.table):
                assert e["hidden"] == p[3]
                if p[3] and seat != p[4]:
                    assert e["cover"] is None
            assert v["hand_counts"] == [len(h) for h in s.hands]
            assert v["stock"] == len(s.stock) and v["discard"] == len(s.discard)
            # public memory: only cards the whole table saw face up, and still true
            assert v["gone"] == pub["gone"] and v["known"] == pub["known"]
            assert set(v["gone"]) <= self.seen & set(s.discard)
            for k, h in zip(v["known"], s.hands):
                assert set(k) <= self.seen & set(h)


# ---------------------------------------------------------------------------------
# a random player that also tries non-offered legal subsets and illegal actions
# ---------------------------------------------------------------------------------


def random_subset_action(s, seat, rng):
    """A legal multi-card attack/throw that legal_actions may not list, or None."""
    if s.phase not in ("open", "throw", "final"):
        return None
    cap = room(s)
    if cap < 2:
        return None
    hand = s.hands[seat]
    if s.phase == "open":
        by_rank = Counter(c[0] for c in hand)
        ranks = [r for r, k in by_rank.items() if k >= 2]
        if not ranks:
            return None
        r = rng.choice(ranks)
        pool = [c for c in hand if c[0] == r]
        verb = "attack"
    else:
        vis = visible(s)
        pool = [c for c in hand if c[0] in vis]
        verb = "throw"
    if len(pool) < 2:
        return None
    k = rng.randint(2, min(cap, len(pool)))
    return verb + " " + " ".join(rng.sample(pool, k))


def universe(s, seat):
    """Every single-card-or-less action the seat could type, for exactness checks."""
    hand = s.hands[seat]
    out = ["take", "pass", "accept", "challenge"]
    for c in hand:
        out += [f"attack {c}", f"throw {c}", f"transfer {c}"]
        for p in s.table:
            out += [f"beat {p[0]} {c}", f"blind {p[0]} {c}"]
    return out


def pick(legal, rng):
    """A random legal action: a random kind of action, then one of that kind. Taking
    is played less often, which keeps random games short."""
    kinds = {}
    for a in legal:
        kinds.setdefault(a.split(" ", 1)[0], []).append(a)
    if len(kinds) > 1 and "take" in kinds and rng.random() < 0.7:
        del kinds["take"]
    kind = rng.choice(sorted(kinds))
    return rng.choice(kinds[kind])


def play_random_game(options, players, seed, *, deep=True, history=None, max_actions=20000, computer=False):
    """Plays one random game checking invariants; returns (state, log). With
    ``computer`` the seats play ``computer_action`` from their own views."""
    rng = random.Random(seed)
    s = G.initial_state(options, players)
    deal = G.new_deal(options, players, rng, history or [])
    log = [(None, deal)]
    prev = s
    s, ev = G.apply(s, None, deal)
    chk = Checker(s)
    chk.check(prev, s, None, deal, ev, views=deep)
    steps = 0
    while not G.is_over(s):
        steps += 1
        assert steps < max_actions
        seat = G.to_act(s)[0]
        legal = G.legal_actions(s, seat)
        assert legal and len(set(legal)) == len(legal)
        if deep and rng.random() < 0.15:
            for other in range(s.n):
                if other != seat:
                    assert G.legal_actions(s, other) == []
            before = s.dump()
            # exactness: single-card actions are accepted iff offered
            offered = set(legal)
            for a in universe(s, seat):
                try:
                    G.apply(s, seat, a)
                    accepted = True
                except EngineError as exc:
                    accepted = False
                    assert exc.code and exc.reason
                assert accepted == (a in offered), (a, accepted, legal)
            other = (seat + 1) % s.n
            try:
                G.apply(s, other, legal[0])
                raise AssertionError("another seat could act")
            except NotYourTurn:
                pass
            assert s.dump() == before
        action = None
        if rng.random() < 0.2:
            action = random_subset_action(s, seat, rng)
        if action is None:
            if computer:
                action = G.computer_action(G.view(s, seat), legal, rng, level="easy")
                assert action in legal
            else:
                action = pick(legal, rng)
        prev = s
        s, ev = G.apply(s, seat, action)
        log.append((seat, action))
        chk.check(prev, s, seat, action, ev, views=deep)
        if not G.is_over(s) and rng.random() < 0.0005:  # a turn timer runs out
            loser = rng.choice([i for i in range(s.n) if not s.finished[i]])
            prev = s
            s, ev = G.apply(s, None, f"forfeit {loser}")
            log.append((None, f"forfeit {loser}"))
            chk.check(prev, s, None, f"forfeit {loser}", ev, views=deep)
            out = prev.out  # those who went out before the forfeit keep their places
            assert G.result(s) == {"durak": loser, "by_52": False, "forfeit": True, "dealer": s.dealer, "out": out}
    return s, log


def replay(options, players, log):
    s = G.initial_state(options, players)
    for seat, action in log:
        s, _ = G.apply(s, seat, action)
    return s


option_sets = st.builds(
    DurakOptions,
    deck_size=st.sampled_from([24, 36, 52]),
    base_game=st.sampled_from(["prostoy", "podkidnoy", "perevodnoy", "perevodnoy_after_beating"]),
    trumps=st.booleans(),
    two_decks=st.booleans(),
    two_deck_loss_at=st.sampled_from([52, 52, 20, 12]),
    blind_beating=st.booleans(),
    max_attack_cards=st.sampled_from([6, 6, 6, 4, 1, 8]),
    first_bout_five=st.booleans(),
    high_trump_from=st.sampled_from(list("6789TJQKA")),
    next_game_leader=st.sampled_from(["trump_rule", "dealer_left"]),
    throw_in=st.sampled_from(["any_time", "all_covered"]),
)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=option_sets, data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_invariants(options, data, seed):
    players = data.draw(st.integers(2, options.max_players), label="players")
    history = data.draw(
        st.sampled_from([[], [{"durak": 1, "by_52": False, "dealer": 0}], [{"draw": True, "dealer": 1}]]),
        label="history",
    )
    computer = data.draw(st.booleans(), label="computer")
    s, log = play_random_game(options, players, seed, history=history, computer=computer)
    assert G.is_over(s)
    # the log replays to an identical state, and dump/load round-trips exactly
    again = replay(options, players, log)
    assert again.dump() == s.dump()
    assert G.dump(G.load(json.loads(json.dumps(G.dump(s))))) == G.dump(s)


def random_games(count: int, seed: int = 20240601) -> Counter:
    """``count`` seeded games over every variant, checked after each action (the views
    left out); how they ended. bench/random_games.py runs 2000 of them."""
    rng = random.Random(seed)
    variants = ["prostoy", "podkidnoy", "perevodnoy", "perevodnoy_after_beating"]
    results = Counter()
    for i in range(count):
        o = DurakOptions(
            deck_size=rng.choice([24, 36, 36, 52]),
            base_game=variants[i % 4],
            trumps=rng.random() < 0.8,
            two_decks=rng.random() < 0.2,
            blind_beating=rng.random() < 0.3,
            first_bout_five=rng.random() < 0.3,
            two_deck_loss_at=rng.choice([52, 16]),
        )
        players = rng.randint(2, o.max_players)
        s, log = play_random_game(o, players, rng.getrandbits(32), deep=False, computer=i % 2 == 1)
        r = G.result(s)
        results[
            "forfeit" if r.get("forfeit") else "by_52" if r.get("by_52") else "draw" if r.get("draw") else "durak"
        ] += 1
    return results


def test_seeded_random_games_end_every_way():
    results = random_games(RANDOM_GAMES)
    assert results["durak"] > 0 and results["draw"] > 0 and results["by_52"] > 0, results
