"""Durak's rules: parsing, checking and applying actions (docs/notation.md).

Spec: docs/rules/durak.md. Section numbers (§) below refer to it.
Every handler validates completely before it clones the state, so a rejected
action never changes anything.
"""

from __future__ import annotations

import random
from typing import Any

from engine.actions import SYSTEM_VERBS, Preamble
from engine.cards import RANK_VALUE, SUITS, is_card, make_deck, shuffled
from engine.errors import split_action
from engine.jsondata import JsonDict

from .errors import error
from .options import check_players, parse_options
from .state import State
from .tally import result_of

HAND = 6
RV = RANK_VALUE
SUIT_ORDER = {s: i for i, s in enumerate(SUITS)}

# verb -> (min cards, max cards or None)
PLAYER_VERBS = {
    "attack": (1, None),
    "throw": (1, None),
    "beat": (2, 2),
    "blind": (2, 2),
    "transfer": (1, 1),
    "take": (0, 0),
    "pass": (0, 0),
    "accept": (0, 0),
    "challenge": (0, 0),
}
PHASE_VERBS = {
    "open": ("attack",),
    "defend": ("beat", "blind", "transfer", "take"),
    "verdict": ("accept", "challenge"),
    "throw": ("throw", "pass"),
    "final": ("throw", "pass"),
}


def beats(c: str, a: str, trump: str | None) -> bool:
    """§2: does card ``c`` cover attack card ``a``? Identical cards never beat."""
    if c[1] == a[1]:
        return RV[c[0]] > RV[a[0]]
    return trump is not None and c[1] == trump


def card_key(c: str) -> tuple[int, int, str]:
    """Sort key: rank, then suit, then copy id."""
    return (RV[c[0]], SUIT_ORDER[c[1]], c)


# Every card id of every deck this game uses, and cached sort keys (hot paths).
_ALL_IDS = make_deck(52) + make_deck(52, 2)
_VALID = frozenset(_ALL_IDS)
_CARD_KEY = {c: card_key(c) for c in _ALL_IDS}
# cost of a cover: non-trumps first, then by rank; one table per trump suit (or None)
_COST = {t: {c: (c[1] == t, RV[c[0]], SUIT_ORDER[c[1]], c) for c in _ALL_IDS} for t in (None, *SUITS)}
# display order of a hand: by suit with trumps last, then by rank (engine.cards.sort_hand)
_HAND_KEY = {t: {c: (4 if c[1] == t else SUIT_ORDER[c[1]], RV[c[0]], c) for c in _ALL_IDS} for t in (None, *SUITS)}


# ---------------------------------------------------------------------------------
# setup
# ---------------------------------------------------------------------------------


def initial_state(options: Any, players: int) -> State:
    opts = parse_options(options)
    return State(opts, check_players(opts, players))


def new_deal(options: Any, players: int, rng: random.Random, history: list[JsonDict]) -> str:
    """The ``deal`` action of the next game of a series (§3.1, §4).

    ``history`` holds the results of the earlier games, oldest first: ``result()``
    dicts, or tally entries ``{"game_no", "dealer", "result"}``. The first dealer is
    drawn by lot; then the last durak deals; after a draw the same dealer deals again.
    """
    opts = parse_options(options)
    n = check_players(opts, players)
    lead = "rule"
    dealer: Any  # read from the history's JSON, checked below
    if not history:
        dealer = rng.randrange(n)
    else:
        last = history[-1]
        res = result_of(last)
        if "durak" in res:
            dealer = res["durak"]
            if opts.next_game_leader == "dealer_left":
                lead = "left"
        else:  # a draw: the same dealer again (by lot if unknown); the table decides
            dealer = last.get("dealer", res.get("dealer"))
            if dealer is None:
                dealer = rng.randrange(n)
        if not isinstance(dealer, int) or not 0 <= dealer < n:
            raise error("bad_deal", detail=f"seat {dealer} is not at this table")
    deck = shuffled(make_deck(opts.deck_size, 2 if opts.two_decks else 1), rng)
    cut = rng.randrange(1, len(deck))  # the cut (§3.2): a rotation, no effect on the rules
    deck = deck[cut:] + deck[:cut]
    return f"deal dealer={dealer} lead={lead} " + " ".join(deck)


def _parse_deal(s: State, action: str, parts: list[str]) -> tuple[int, str, list[str]]:
    if len(parts) < 3 or not parts[1].startswith("dealer=") or not parts[2].startswith("lead="):
        raise error("bad_syntax", action=action, detail="expected 'deal dealer=<seat> lead=rule|left <cards...>'")
    d = parts[1][7:]
    if not d.isdigit():
        raise error("bad_syntax", action=action, detail="the dealer must be a seat number")
    lead = parts[2][5:]
    if lead not in ("rule", "left"):
        raise error("bad_syntax", action=action, detail="lead must be 'rule' or 'left'")
    deck = parts[3:]
    for c in deck:
        if c not in _VALID and not is_card(c):
            raise error("bad_syntax", action=action, detail=f"{c!r} is not a card")
    dealer = int(d)
    if dealer >= s.n:
        raise error("bad_deal", detail=f"seat {dealer} is not at this table")
    if lead == "left" and not s.rules.leader_left:
        raise error("bad_deal", detail="lead=left needs next_game_leader=dealer_left")
    if sorted(deck) != sorted(make_deck(s.rules.deck_size, s.rules.copies)):
        raise error("bad_deal", detail="the cards are not exactly this game's deck")
    return dealer, lead, deck


def first_attacker(s: State) -> tuple[int, str]:
    """§4: who attacks first, and why (for the deal event)."""
    n, dealer = s.n, s.dealer
    assert dealer is not None, "the deal sets the dealer"
    if s.lead == "left":
        return (dealer + 1) % n, "dealer_left"
    order = [(dealer + 1 + i) % n for i in range(n)]
    trump = s.trump
    if trump is not None:
        assert s.trump_card is not None, "a game with trumps turns a trump card"
        high = RV[s.trump_card[0]] >= RV[s.rules.high_from]
        best, best_v = None, None
        for seat in order:
            vals = [RV[c[0]] for c in s.hands[seat] if c[1] == trump]
            if not vals:
                continue
            v = max(vals) if high else -min(vals)
            if best_v is None or v > best_v:  # strict: the first tied player keeps it
                best, best_v = seat, v
        if best is not None:
            return best, ("highest_trump" if high else "lowest_trump")
    best, best_v = order[0], -1
    for seat in order:
        v = max(RV[c[0]] for c in s.hands[seat])
        if v > best_v:
            best, best_v = seat, v
    return best, "highest_card"


def _do_deal(s: State, dealer: int, lead: str, deck: list[str], events: list[JsonDict]) -> None:
    n = s.n
    s.dealer, s.lead = dealer, lead
    hands: list[list[str]] = [[] for _ in range(n)]
    k = HAND * n
    for i in range(k):
        hands[(dealer + 1 + i) % n].append(deck[i])
    s.hands = hands
    rest = deck[k:]
    if s.rules.trumps:
        if rest:  # §3.4: the top card of the rest is turned and goes under the stock
            s.trump_card = rest[0]
            s.stock = rest[1:] + rest[:1]
        else:  # no stock: the dealer's last card shows trump and stays in his hand
            s.trump_card = deck[k - 1]
            s.stock = []
            s.known[dealer].append(s.trump_card)
        s.trump = s.trump_card[1]
    else:
        s.stock = rest
    m, why = first_attacker(s)
    s.bout = 1
    s.attacker, s.defender = m, _next_active(s, m)
    s.phase = "open"
    events.append(
        {
            "type": "deal",
            "dealer": dealer,
            "trump": s.trump,
            "trump_card": s.trump_card,
            "trump_in_stock": bool(s.stock) and s.trump_card is not None,
            "stock": len(s.stock),
            "attacker": m,
            "defender": s.defender,
            "first_by": why,
        }
    )
    events.append({"type": "bout", "bout": 1, "attacker": m, "defender": s.defender})


# ---------------------------------------------------------------------------------
# small helpers
# ---------------------------------------------------------------------------------


def _next_active(s: State, seat: int) -> int | None:
    """The next player clockwise after ``seat`` who is not finished (§5): he holds
    cards, or the stock is not empty yet."""
    n, hands = s.n, s.hands
    if s.stock:
        return (seat + 1) % n
    for i in range(1, n):
        t = (seat + i) % n
        if hands[t]:
            return t
    return None


def limit(s: State) -> int:
    return s.rules.first_limit if s.bout == 1 else s.rules.limit


def room(s: State, defender: int) -> int:
    """§5 cap: how many attack cards may still be added against ``defender`` (the
    current D, or N for a transfer): (a) L on the table, (b) unbeaten ≤ his hand."""
    un = 0
    for p in s.table:
        if p[2] is None:
            un += 1
    return min(limit(s) - len(s.table), len(s.hands[defender]) - un)


def capacity(s: State) -> int:
    assert s.defender is not None, "asked only during a bout"
    return room(s, s.defender)


def visible_ranks(s: State) -> set[str]:
    v = set()
    for p in s.table:
        v.add(p[0][0])
        if p[2] is not None and not p[3]:
            v.add(p[2][0])
    return v


def _actor(s: State) -> int | None:
    """The one seat to act now, or None (before the deal, after the end)."""
    ph = s.phase
    if ph == "open":
        return s.attacker
    if ph == "defend":
        return s.defender
    if ph == "verdict":
        return s.decider
    if ph == "throw" or ph == "final":
        return s.cands[s.ci]
    return None


def to_act(s: State) -> list[int]:
    a = _actor(s)
    return [] if a is None else [a]


def _remove(hand: list[str], cards: list[str]) -> None:
    for c in cards:
        hand.remove(c)


def _forget(t: State, seat: int, cards: list[str]) -> None:
    """Public memory: ``cards`` left ``seat``'s hand face up, so nobody counts them there."""
    k = t.known[seat]
    if k:
        for c in cards:
            if c in k:
                k.remove(c)


# ---------------------------------------------------------------------------------
# parsing
# ---------------------------------------------------------------------------------


def parse(action: Any) -> tuple[str, list[str]]:
    parts = split_action(action)
    verb = parts[0]
    if verb in SYSTEM_VERBS:
        return verb, parts
    spec = PLAYER_VERBS.get(verb)
    if spec is None:
        raise error("bad_syntax", action=action, detail=f"unknown action {verb!r}")
    args = parts[1:]
    lo, hi = spec
    if len(args) < lo or (hi is not None and len(args) > hi):
        if hi == 0:
            want = "no cards"
        elif lo == hi:
            want = f"{lo} card{'s' if lo > 1 else ''}"
        else:
            want = "one or more cards"
        raise error("bad_syntax", action=action, detail=f"{verb} takes {want}")
    for c in args:
        if c not in _VALID and not is_card(c):
            raise error("bad_syntax", action=action, detail=f"{c!r} is not a card")
    if len(args) > 1 and len(set(args)) != len(args):
        raise error("bad_syntax", action=action, detail="a card is named twice")
    return verb, args


# ---------------------------------------------------------------------------------
# apply
# ---------------------------------------------------------------------------------


PREAMBLE = Preamble(parse, error)


def apply(state: State, seat: int | None, action: str) -> tuple[State, list[JsonDict]]:
    s = state
    verb, args = PREAMBLE.check(s.phase == "over", seat, action, s.n)
    events: list[JsonDict] = []
    if verb in SYSTEM_VERBS:
        if verb == "deal":
            if s.phase != "deal":
                raise error("wrong_phase", verb=verb)
            dealer, lead, deck = _parse_deal(s, action, args)
            t = s.clone()
            _do_deal(t, dealer, lead, deck, events)
            return t, events
        # forfeit <seat>
        if len(args) != 2 or not args[1].isdigit():
            raise error("bad_syntax", action=action, detail="expected 'forfeit <seat>'")
        loser = int(args[1])
        if s.phase == "deal":
            raise error("wrong_phase", verb=verb)
        if loser >= s.n or s.finished[loser]:
            raise error("bad_seat", seat=loser, verb="forfeit")
        t = s.clone()
        events.append({"type": "forfeit", "seat": loser})
        _game_over(t, {"durak": loser, "by_52": False, "forfeit": True}, events)
        return t, events

    actor = _actor(s)
    if seat is None or seat != actor:
        raise error("not_your_turn", waiting=("the deal" if s.phase == "deal" else f"seat {actor}"))
    if verb not in PHASE_VERBS[s.phase]:
        raise error("wrong_phase", verb=verb)
    return _HANDLERS[verb](s, seat, args, events)


def _check_in_hand(hand: list[str], cards: list[str]) -> None:
    for c in cards:
        if c not in hand:
            raise error("not_in_hand", card=c)


def _lay(s: State, seat: int, cards: list[str]) -> State:
    """Attacks and throw-ins alike: a clone with ``cards`` moved from ``seat``'s hand to
    the table, unbeaten; ``too_many_cards`` past the table's capacity."""
    cap = capacity(s)
    if len(cards) > cap:
        raise error("too_many_cards", limit=max(cap, 0))
    t = s.clone()
    _remove(t.hands[seat], cards)
    _forget(t, seat, cards)
    t.table.extend((c, seat, None, False, None) for c in cards)
    return t


def _h_attack(s: State, seat: int, cards: list[str], events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    _check_in_hand(s.hands[seat], cards)
    r = cards[0][0]
    if any(c[0] != r for c in cards):
        raise error("mixed_ranks")
    t = _lay(s, seat, cards)
    t.phase = "defend"
    events.append({"type": "attack", "seat": seat, "cards": list(cards)})
    _open_window(t, events, after_own_cards=True)
    return t, events


def _find_unbeaten(s: State, attack: str) -> int:
    for i, p in enumerate(s.table):
        if p[0] == attack and p[2] is None:
            return i
    raise error("not_on_table", card=attack)


def _h_beat(s: State, seat: int, args: list[str], events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    a, c = args
    i = _find_unbeaten(s, a)
    _check_in_hand(s.hands[seat], [c])
    if not beats(c, a, s.trump):
        raise error("does_not_beat", cover=c, attack=a)
    t = s.clone()
    t.hands[seat].remove(c)
    _forget(t, seat, [c])
    p = t.table[i]
    t.table[i] = (a, p[1], c, False, seat)
    events.append({"type": "beat", "seat": seat, "attack": a, "cover": c})
    _after_cover(t, events)
    return t, events


def _after_cover(t: State, events: list[JsonDict]) -> None:
    """After a cover counts as beaten: defend on (with ``throw_in = any_time`` after a
    throw-in window), or start a throw-in round."""
    for p in t.table:
        if p[2] is None:
            t.phase = "defend"
            _open_window(t, events)
            return
    _start_round(t, "throw", events)


def _open_window(t: State, events: list[JsonDict], after_own_cards: bool = False) -> None:
    """§6, ``throw_in = any_time``: a THROW round while cards are still unbeaten, so the
    throwers may add cards before the defender covers on. ``after_own_cards``: M has just
    laid the cards (an attack or a transfer) and is not asked again. Candidates with
    nothing to throw are skipped; when nobody throws the defender goes on."""
    if t.options.throw_in == "any_time":
        _start_round(t, "throw", events, skip_attacker=after_own_cards)


def _h_blind(s: State, seat: int, args: list[str], events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    if not s.rules.blind:
        raise error("wrong_phase", verb="blind")
    a, c = args
    i = _find_unbeaten(s, a)
    _check_in_hand(s.hands[seat], [c])
    t = s.clone()
    t.hands[seat].remove(c)
    t.known[seat] = []  # a card went face down: which one is nobody's business
    owner = t.table[i][1]
    t.table[i] = (a, owner, c, True, seat)
    events.append({"type": "blind", "seat": seat, "attack": a})
    decider = t.attacker if owner == seat else owner
    assert decider is not None, "a bout has an attacker"
    if not t.hands[decider] and not t.stock:  # a finished decider accepts at once (§9)
        events.append({"type": "accept", "seat": decider, "attack": a, "auto": True})
        _after_cover(t, events)
    else:
        t.phase = "verdict"
        t.verdict, t.decider = i, decider
    return t, events


def _h_accept(s: State, seat: int, args: list[str], events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    t = s.clone()
    assert t.verdict is not None, "the verdict phase names the blind pair"
    a = t.table[t.verdict][0]
    t.verdict = t.decider = None
    events.append({"type": "accept", "seat": seat, "attack": a, "auto": False})
    _after_cover(t, events)
    return t, events


def _h_challenge(s: State, seat: int, args: list[str], events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    t = s.clone()
    assert t.verdict is not None, "the verdict phase names the blind pair"
    a, _, c, _, _ = t.table[t.verdict]
    assert c is not None, "a blind pair is covered"
    ok = beats(c, a, t.trump)
    p = t.table[t.verdict]
    t.table[t.verdict] = (a, p[1], c, False, p[4])  # turned face up for everyone
    events.append({"type": "challenge", "seat": seat, "attack": a, "card": c, "legal": ok})
    if ok:
        _end_bout(t, seat, True, events)
    else:
        _end_bout(t, t.defender, False, events)
    return t, events


def _h_transfer(s: State, seat: int, args: list[str], events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    c = args[0]
    mode = s.rules.transfer
    if not mode:
        raise error("no_transfer")
    _check_in_hand(s.hands[seat], [c])
    ranks = {p[0][0] for p in s.table if p[2] is None}
    if len(ranks) != 1 or c[0] not in ranks:
        raise error("transfer_rank")
    if mode == 1 and any(p[2] is not None for p in s.table):
        raise error("transfer_after_beat")
    nxt = _next_active(s, seat)
    if nxt is None or nxt == seat:
        raise error("wrong_phase", verb="transfer")
    free = room(s, nxt)
    if free < 1:
        raise error("too_many_cards", limit=max(free, 0))
    t = s.clone()
    t.hands[seat].remove(c)
    _forget(t, seat, [c])
    t.table.append((c, seat, None, False, None))
    t.attacker, t.defender = seat, nxt
    events.append({"type": "transfer", "seat": seat, "card": c, "to": nxt})
    _open_window(t, events, after_own_cards=True)
    return t, events


def _h_take(s: State, seat: int, args: list[str], events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    t = s.clone()
    t.taking = True
    events.append({"type": "take", "seat": seat})
    _start_round(t, "final", events)
    return t, events


def _h_throw(s: State, seat: int, cards: list[str], events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    _check_in_hand(s.hands[seat], cards)
    vis = visible_ranks(s)
    for c in cards:
        if c[0] not in vis:
            raise error("rank_not_on_table", card=c)
    # thrown in while D is still covering (a window), not onto a table he is taking
    covering = s.phase == "throw" and any(p[2] is None for p in s.table)
    t = _lay(s, seat, cards)
    events.append({"type": "throw", "seat": seat, "cards": list(cards), "while_covering": covering})
    if t.phase == "throw":
        t.phase = "defend"
        t.cands, t.ci = [], 0
    else:
        t.ci += 1
        _advance(t, events)
    return t, events


def _h_pass(s: State, seat: int, args: list[str], events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    t = s.clone()
    events.append({"type": "pass", "seat": seat})
    t.ci += 1
    _advance(t, events)
    return t, events


_HANDLERS = {
    "attack": _h_attack,
    "beat": _h_beat,
    "blind": _h_blind,
    "accept": _h_accept,
    "challenge": _h_challenge,
    "transfer": _h_transfer,
    "take": _h_take,
    "throw": _h_throw,
    "pass": _h_pass,
}


# ---------------------------------------------------------------------------------
# throw-in rounds and the end of a bout
# ---------------------------------------------------------------------------------


def _start_round(t: State, phase: str, events: list[JsonDict], skip_attacker: bool = False) -> None:
    """A THROW or FINAL round (§6): M first (unless ``skip_attacker``), then the other
    throwers clockwise from D's left. Candidates who could only pass are skipped (auto-pass)."""
    m, d, n = t.attacker, t.defender, t.n
    assert m is not None and d is not None, "a round belongs to a bout"
    cands = [] if skip_attacker else [m]
    if t.rules.throw_all:
        hands, stock = t.hands, t.stock
        for i in range(1, n):
            x = (d + i) % n
            if x != m and x != d and (hands[x] or stock):
                cands.append(x)
    t.phase = phase
    t.cands, t.ci = cands, 0
    _advance(t, events)


def _can_throw(t: State, seat: int, vis: set[str]) -> bool:
    for c in t.hands[seat]:
        if c[0] in vis:
            return True
    return False


def _advance(t: State, events: list[JsonDict]) -> None:
    """Move to the next candidate who has a legal throw; end the round if none."""
    cands, ci = t.cands, t.ci
    if ci < len(cands) and capacity(t) > 0:
        vis = visible_ranks(t)
        while ci < len(cands) and not _can_throw(t, cands[ci], vis):
            ci += 1
    else:
        ci = len(cands)
    t.ci = ci
    if ci < len(cands):
        return
    if t.phase == "final":
        _end_bout(t, t.defender, False, events)
    elif any(p[2] is None for p in t.table):  # a window closed: the defender covers on
        t.phase = "defend"
        t.cands, t.ci = [], 0
    else:
        _end_bout(t, None, True, events)


def _end_bout(t: State, taker: int | None, d_leads: bool, events: list[JsonDict]) -> None:
    """§7. ``taker`` gets the table (None: bito). ``d_leads``: D attacks next (if he
    is still in), else the next active player after D."""
    cards = [p[0] for p in t.table]
    cards.extend(p[2] for p in t.table if p[2] is not None)
    seen = [p[0] for p in t.table] + [p[2] for p in t.table if p[2] is not None and not p[3]]
    t.table = []
    t.cands, t.ci, t.taking, t.verdict, t.decider = [], 0, False, None, None
    if taker is None:
        t.discard = t.discard + cards
        t.gone = t.gone + seen
        events.append({"type": "bito", "count": len(cards)})
    else:
        t.hands[taker].extend(cards)
        t.known[taker].extend(seen)
        events.append({"type": "pickup", "seat": taker, "count": len(cards)})
        r = t.rules
        if r.two_decks and len(t.hands[taker]) >= r.loss_at:
            _game_over(t, {"durak": taker, "by_52": True}, events)
            return
    n, m, d, hands = t.n, t.attacker, t.defender, t.hands
    assert m is not None and d is not None, "a bout has an attacker and a defender"
    # refill: M, the others clockwise from D's left, D last
    if t.stock:
        order = [m] + [x for x in ((d + i) % n for i in range(1, n)) if x != m] + [d]
        for x in order:
            need = HAND - len(hands[x])
            if need > 0 and t.stock:
                got = t.stock[:need]
                t.stock = t.stock[need:]
                hands[x].extend(got)
                if not t.stock and t.trump_card in got:  # the face-up trump card, drawn last
                    t.known[x].append(t.trump_card)
                events.append({"type": "draw_cards", "seat": x, "count": len(got)})
    if not t.stock:
        went_out = [x for x in range(n) if not hands[x] and not t.finished[x]]
        for x in went_out:
            t.finished[x] = True
            events.append({"type": "finished", "seat": x})
        if went_out and t.out is not None:
            t.out = t.out + [went_out]
    holders = [x for x in range(n) if hands[x]]
    if not holders:
        _game_over(t, {"draw": True}, events)
        return
    if len(holders) == 1:
        _game_over(t, {"durak": holders[0], "by_52": False}, events)
        return
    if d_leads and hands[d]:
        m2 = d
    else:
        next_seat = _next_active(t, d)
        assert next_seat is not None, "two players still hold cards"
        m2 = next_seat
    t.attacker, t.defender = m2, _next_active(t, m2)
    t.bout += 1
    t.phase = "open"
    events.append({"type": "bout", "bout": t.bout, "attacker": m2, "defender": t.defender})


def _game_over(t: State, result: JsonDict, events: list[JsonDict]) -> None:
    result["dealer"] = t.dealer
    if t.out is not None:  # the order the players went out, for the standings
        result["out"] = [list(g) for g in t.out]
    t.result = result
    t.phase = "over"
    t.attacker = t.defender = None
    t.cands, t.ci, t.verdict, t.decider = [], 0, None, None
    events.append({"type": "game_over", "result": dict(result)})


# ---------------------------------------------------------------------------------
# legal actions and views
# ---------------------------------------------------------------------------------


def _groups(verb: str, cards: list[str], cap: int) -> list[str]:
    """Singles sorted by rank and suit, then per rank the largest group the cap admits."""
    if cap < 1 or not cards:
        return []
    cards = sorted(cards, key=_CARD_KEY.__getitem__)
    out = [f"{verb} {c}" for c in cards]
    if cap > 1:
        by_rank: dict[str, list[str]] = {}
        for c in cards:
            by_rank.setdefault(c[0], []).append(c)
        for group in by_rank.values():
            if len(group) > 1:
                out.append(verb + " " + " ".join(group[:cap]))
    return out


def legal_actions(s: State, seat: int) -> list[str]:
    ph = s.phase
    actor = _actor(s)
    if actor is None or seat != actor:
        return []
    hand = s.hands[seat]
    if ph == "open":
        return _groups("attack", hand, capacity(s))
    if ph == "throw" or ph == "final":
        vis = visible_ranks(s)
        return _groups("throw", [c for c in hand if c[0] in vis], capacity(s)) + ["pass"]
    if ph == "verdict":
        return ["accept", "challenge"]
    # defend
    trump = s.trump
    open_pairs = [p[0] for p in s.table if p[2] is None]
    out: list[str] = []
    by_cost = sorted(hand, key=_COST[trump].__getitem__)
    for a in open_pairs:
        out.extend(f"beat {a} {c}" for c in by_cost if beats(c, a, trump))
    mode = s.rules.transfer
    if mode:
        ranks = {a[0] for a in open_pairs}
        if len(ranks) == 1 and (mode == 2 or all(p[2] is None for p in s.table)):
            r = next(iter(ranks))
            mine = [c for c in by_cost if c[0] == r]
            if mine:
                nxt = _next_active(s, seat)
                if nxt is not None and nxt != seat and room(s, nxt) >= 1:
                    out.extend(f"transfer {c}" for c in mine)
    if s.rules.blind:
        for a in open_pairs:
            out.extend(f"blind {a} {c}" for c in by_cost)
    out.append("take")
    return out


def view(s: State, seat: int | None) -> JsonDict:
    trump = s.trump
    table = []
    for a, by, cover, hidden, cby in s.table:
        show = cover if (not hidden or seat == cby) else None
        table.append({"attack": a, "by": by, "cover": show, "hidden": hidden})
    v = {
        "game": "durak",
        "seat": seat,
        "players": s.n,
        "dealer": s.dealer,
        "phase": s.phase,
        "trump": trump,
        "trump_card": s.trump_card,
        "trump_in_stock": bool(s.stock) and s.trump_card is not None,
        "stock": len(s.stock),
        "discard": len(s.discard),
        "hand_counts": [len(h) for h in s.hands],
        "finished": list(s.finished),
        "attacker": s.attacker,
        "defender": s.defender,
        "to_act": to_act(s),
        "table": table,
        "taking": s.taking,
        "result": dict(s.result) if s.result is not None else None,
        "bout": s.bout,
        # public memory: discarded face up, and cards seen going into each hand
        "gone": sorted(s.gone, key=_CARD_KEY.__getitem__),
        "known": [sorted(k, key=_CARD_KEY.__getitem__) for k in s.known],
        "options": s.options.model_dump(),  # the table's rules, public (computer players)
    }
    if seat is not None:
        v["hand"] = sorted(s.hands[seat], key=_HAND_KEY[trump].__getitem__)
    return v
