"""King's rules: parsing, checking and applying actions (docs/king.md).

Spec: docs/rules/king.md; section numbers (§) below refer to it. The
follow-suit / must-trump / trick-winner pieces come from ``engine.tricks``.
Every handler validates completely before it clones the state, so a rejected
action never changes anything.
"""

from __future__ import annotations

import random
from typing import Any, cast

from engine import tricks
from engine.actions import Preamble
from engine.cards import RANK_VALUE, SUITS, is_card, make_deck, shuffled, sort_hand
from engine.errors import split_action
from engine.jsondata import JsonDict

from .errors import error
from .options import PLAYERS, SEAT_LETTERS, Rank, check_players, parse_options
from .scoring import CONTRACTS, DECK, TRUMP_DEALS, deal_score, kind, places, scoring_cards
from .state import State, options_json

RV = RANK_VALUE
ORDER = "789TJQKA"  # deal 8 rows grow one step along this order
STEP = {r: i for i, r in enumerate(ORDER)}
_DECK_SET = frozenset(DECK)
_SORTED_DECK = sorted(DECK)
CHOICES = [f"name {s}" for s in SUITS] + [f"until {s}" for s in SUITS] + ["highest"]


# ---------------------------------------------------------------------------------
# setup
# ---------------------------------------------------------------------------------


def initial_state(options: Any, players: int = PLAYERS) -> State:
    return State(parse_options(options), check_players(players))


def _deal_text(no: int, dealer: int, rng: random.Random) -> str:
    deck = shuffled(make_deck(32), rng)
    cut = rng.randrange(1, len(deck))  # §3.2: the cut rotates the deck, no effect on the rules
    deck = deck[cut:] + deck[:cut]
    return f"deal {no} dealer={dealer} " + " ".join(deck)


def _first_dealer(options: Any, rng: random.Random) -> int:
    fd = options.first_dealer
    return rng.randrange(PLAYERS) if fd == "random" else SEAT_LETTERS.index(fd)


def new_deal(options: Any, players: int, rng: random.Random, history: list[JsonDict]) -> str:
    """The ``deal 1`` action of a new game: deal 1's dealer by lot (or ``first_dealer``).
    A rematch is a new game, so its first dealer is drawn again (``history`` is unused)."""
    opts = parse_options(options)
    check_players(players)
    return _deal_text(1, _first_dealer(opts, rng), rng)


def system_action(s: State, rng: random.Random) -> str | None:
    """The next ``deal`` action when the game waits for one (after each scored deal)."""
    if s.phase != "deal":
        return None
    if s.deal_no == 0:
        return _deal_text(1, _first_dealer(s.options, rng), rng)
    assert s.dealer is not None, "deal 1 set the dealer"
    return _deal_text(s.deal_no + 1, (s.dealer + 1) % PLAYERS, rng)


def packets(deck: list[str], dealer: int) -> list[list[str]]:
    """§3.3: 3, 3, 2 cards clockwise from F (the dealer's left), dealer last."""
    hands: list[list[str]] = [[] for _ in range(PLAYERS)]
    for i in range(PLAYERS):
        seat = (dealer + 1 + i) % PLAYERS
        hands[seat] = deck[3 * i : 3 * i + 3] + deck[12 + 3 * i : 15 + 3 * i] + deck[24 + 2 * i : 26 + 2 * i]
    return hands


def _parse_deal(s: State, action: str, args: list[str]) -> tuple[int, int, list[str]]:
    if len(args) < 2 or not args[0].isdigit() or not args[1].startswith("dealer="):
        raise error("bad_syntax", action=action, detail="expected 'deal <number> dealer=<seat> <32 cards>'")
    d = args[1][7:]
    if not d.isdigit():
        raise error("bad_syntax", action=action, detail="the dealer must be a seat number")
    deck = args[2:]
    for c in deck:
        if c not in _DECK_SET and not is_card(c):
            raise error("bad_syntax", action=action, detail=f"{c!r} is not a card")
    no, dealer = int(args[0]), int(d)
    if no != s.deal_no + 1:
        raise error("bad_deal", detail=f"the next deal is number {s.deal_no + 1}, not {no}")
    if dealer >= PLAYERS:
        raise error("bad_deal", detail=f"seat {dealer} is not at this table")
    if no == 1:
        fd = s.options.first_dealer
        if fd != "random" and dealer != SEAT_LETTERS.index(fd):
            raise error("bad_deal", detail=f"first_dealer is {fd}, so deal 1's dealer is seat {SEAT_LETTERS.index(fd)}")
    else:
        assert s.dealer is not None, "deal 1 set the dealer"
        if dealer != (s.dealer + 1) % PLAYERS:
            raise error("bad_deal", detail=f"the deal passes clockwise: seat {(s.dealer + 1) % PLAYERS} deals now")
    if sorted(deck) != _SORTED_DECK:
        raise error("bad_deal", detail="the cards are not exactly one shuffled 32-card deck")
    return no, dealer, deck


def _start_deal(t: State, no: int, dealer: int, deck: list[str], events: list[JsonDict]) -> None:
    n = t.n
    t.deal_no, t.dealer = no, dealer
    if no == 1:
        t.first_dealer = dealer
    t.deck = []
    t.trump = t.trump_mode = t.trump_asked = None
    t.turned = []
    t.plays, t.winners, t.won, t.last_trick = [], [], [[] for _ in range(n)], None
    t.leader = t.turn = None
    t.pile, t.total, t.awards = [], 0, []
    t.rows, t.passed, t.out = {}, [], []
    f = t.first
    assert f is not None, "the dealer is set just above"
    events.append({"type": "deal", "no": no, "contract": CONTRACTS[no], "dealer": dealer, "first": f})
    if no in TRUMP_DEALS:  # §3.4: the chooser sees d0–2 first; nobody else has cards yet
        t.deck = list(deck)
        t.hands = [[] for _ in range(n)]
        t.hands[f] = deck[:3]
        t.phase = "choose"
        return
    t.hands = packets(deck, dealer)
    k = kind(no)
    if k == "tricks":
        t.phase, t.leader = "play", f
    elif k == "count":
        t.phase, t.turn = "count", f
        t.awards = [None] * len(t.options.deal7_thresholds)
    else:
        t.phase, t.turn = "domino", f
        _domino_advance(t, events)


# ---------------------------------------------------------------------------------
# small helpers
# ---------------------------------------------------------------------------------


def actor(s: State) -> int | None:
    ph = s.phase
    if ph == "play":
        return s.leader if not s.plays else tricks.next_seat(s.plays[-1][0], s.n)
    if ph == "choose":
        return s.first
    if ph in ("count", "domino"):
        return s.turn
    return None


def to_act(s: State) -> list[int]:
    a = actor(s)
    return [] if a is None else [a]


def _lead_restricted(s: State) -> bool:
    o = s.options
    return (s.deal_no == 2 and o.deal2_no_heart_lead) or (s.deal_no == 6 and o.deal6_no_heart_lead)


def playable_cards(s: State, seat: int) -> list[str]:
    """§5: the cards ``seat`` may play to the current trick (hand order kept)."""
    hand = s.hands[seat]
    if not s.plays:
        if _lead_restricted(s):
            others = [c for c in hand if c[1] != "H"]
            if others:
                return others
        return list(hand)
    led = s.plays[0][1][1]
    cards = tricks.playable(hand, led, s.trump, s.options.trump_must_ruff)
    if s.deal_no == 6 and s.options.deal6_must_discard_kh and "KH" in hand and not any(c[1] == led for c in hand):
        return ["KH"]
    return cards


def fits(card: str, rows: dict[str, list[str]]) -> bool:
    """§7: a jack starts its row; any other card extends a row by one step at an end."""
    r, su = card[0], card[1]
    row = rows.get(su)
    if r == "J":
        return row is None
    if row is None:
        return False
    i = STEP[r]
    return i == STEP[row[1]] + 1 or i == STEP[row[0]] - 1


def _may_pass(s: State, seat: int) -> bool:
    """A voluntary pass (``deal8_free_pass``): refused when every other player who holds
    cards has passed since the last card was played [J]."""
    others = [x for x in range(s.n) if x != seat and s.hands[x]]
    return not all(x in s.passed for x in others)


def _next_with_cards(s: State, seat: int) -> int:
    """The next player clockwise who still holds cards (§7)."""
    return tricks.next_seat(seat, s.n, {x for x in range(s.n) if not s.hands[x]})


def _domino_advance(t: State, events: list[JsonDict]) -> None:
    """Skip the players without cards, and pass for those without a legal play (a pass
    is their only action): stop at the first player who can play."""
    for _ in range(2 * t.n):
        seat = t.turn
        assert seat is not None, "deals 7 and 8 always have a turn"
        if not t.hands[seat]:
            t.turn = _next_with_cards(t, seat)
            continue
        if any(fits(c, t.rows) for c in t.hands[seat]):
            return
        t.passed.append(seat)
        events.append({"type": "pass", "seat": seat, "auto": True})
        t.turn = _next_with_cards(t, seat)
    raise AssertionError("the layout is stuck")  # pragma: no cover - impossible (§7)


# ---------------------------------------------------------------------------------
# parsing and apply
# ---------------------------------------------------------------------------------


def parse(action: Any) -> tuple[str, list[str]]:
    parts = split_action(action)
    verb, args = parts[0], parts[1:]
    if verb in ("deal", "forfeit"):
        return verb, args
    if verb == "play":
        if len(args) != 1 or args[0] not in _DECK_SET:
            raise error("bad_syntax", action=action, detail="play takes one card of the 32-card deck")
    elif verb in ("name", "until"):
        if len(args) != 1 or args[0] not in SUITS:
            raise error("bad_syntax", action=action, detail=f"{verb} takes one suit: S, H, D or C")
    elif verb in ("highest", "pass"):
        if args:
            raise error("bad_syntax", action=action, detail=f"{verb} takes nothing")
    else:
        raise error("bad_syntax", action=action, detail=f"unknown action {verb!r}")
    return verb, args


PHASE_VERBS = {
    "choose": ("name", "until", "highest"),
    "play": ("play",),
    "count": ("play",),
    "domino": ("play", "pass"),
}


PREAMBLE = Preamble(parse, error)


def apply(state: State, seat: int | None, action: str) -> tuple[State, list[JsonDict]]:
    s = state
    verb, args = PREAMBLE.check(s.phase == "over", seat, action, s.n)
    events: list[JsonDict] = []
    if verb == "deal":
        if s.phase != "deal":
            raise error("wrong_phase", verb=verb)
        no, dealer, deck = _parse_deal(s, action, args)
        t = s.clone()
        _start_deal(t, no, dealer, deck, events)
        return t, events
    if verb == "forfeit":
        if len(args) != 1 or not args[0].isdigit():
            raise error("bad_syntax", action=action, detail="expected 'forfeit <seat>'")
        loser = int(args[0])
        if s.deal_no == 0:
            raise error("wrong_phase", verb=verb)
        if loser >= s.n:
            raise error("bad_seat", seat=loser, verb="forfeit")
        t = s.clone()
        events.append({"type": "forfeit", "seat": loser, "deal": t.deal_no})
        _game_over(t, events, forfeit=loser)
        return t, events

    who = actor(s)
    if seat is None or seat != who:
        raise error("not_your_turn", waiting=("the deal" if who is None else f"seat {who}"))
    if verb not in PHASE_VERBS[s.phase]:
        raise error("wrong_phase", verb=verb)
    if s.phase == "choose":
        return _choose(s, seat, verb, args, events)
    if verb == "pass":
        return _pass(s, seat, events)
    card = args[0]
    if card not in s.hands[seat]:
        raise error("not_in_hand", card=card)
    if s.phase == "play":
        return _play_trick(s, seat, card, events)
    if s.phase == "count":
        return _lay(s, seat, card, events)
    return _domino(s, seat, card, events)


# ---------------------------------------------------------------------------------
# deals 9–12: the trump choice (§3.4)
# ---------------------------------------------------------------------------------


def _choose(s: State, seat: int, verb: str, args: list[str], events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    t = s.clone()
    deck = t.deck
    assert t.dealer is not None, "a trump deal has a dealer"
    t.hands = packets(deck, t.dealer)
    turned: list[str] = []
    asked = args[0] if args else None
    if verb == "name":
        trump = asked
    else:
        for c in deck[12:15]:  # F's second packet, turned face up one at a time
            turned.append(c)
            if verb == "until" and c[1] == asked:
                break
        if verb == "until" and turned[-1][1] == asked:
            trump = asked
        else:  # the highest turned card; among equal ranks the one turned first
            best = turned[0]
            for c in turned[1:]:
                if RV[c[0]] > RV[best[0]]:
                    best = c
            trump = best[1]
    t.deck = []
    t.trump, t.trump_mode, t.trump_asked, t.turned = trump, verb, asked, turned
    t.phase, t.leader = "play", seat  # the chooser (F) leads
    events.append({"type": "trump", "seat": seat, "mode": verb, "asked": asked, "turned": list(turned), "trump": trump})
    return t, events


# ---------------------------------------------------------------------------------
# trick play (§5)
# ---------------------------------------------------------------------------------


def _refuse_card(s: State, seat: int, card: str) -> None:
    hand = s.hands[seat]
    if not s.plays:
        raise error("no_heart_lead")
    led = s.plays[0][1][1]
    if any(c[1] == led for c in hand):
        raise error("must_follow", suit=led)
    if s.deal_no == 6 and s.options.deal6_must_discard_kh and "KH" in hand:
        raise error("must_discard_kh")
    raise error("must_trump", suit=s.trump)


def _play_trick(s: State, seat: int, card: str, events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    if card not in playable_cards(s, seat):
        _refuse_card(s, seat, card)
    t = s.clone()
    t.hands[seat].remove(card)
    t.plays.append([seat, card])
    events.append({"type": "play", "seat": seat, "card": card})
    if len(t.plays) < t.n:
        return t, events
    cards = [c for _, c in t.plays]
    winner = t.plays[tricks.winning_index(cards, t.trump)][0]
    t.won[winner].extend(cards)
    t.winners.append(winner)
    no = len(t.winners)
    t.last_trick = {"no": no, "plays": [list(p) for p in t.plays], "winner": winner}
    t.plays = []
    t.leader = winner
    events.append({"type": "trick", "no": no, "winner": winner, "cards": cards})
    if no == 8 or _deal_decided(t, cards):
        _score_deal(t, events)
    return t, events


def _deal_decided(t: State, last_cards: list[str]) -> bool:
    """Deal 6 ends with the trick that holds KH (§4). Deals 2–4 stop once every scoring
    card is taken, with ``stop_when_decided``: no card left can change the score."""
    no = t.deal_no
    if no == 6:
        return "KH" in last_cards
    if no in (2, 3, 4) and t.options.stop_when_decided:
        need = scoring_cards(no, t.options)
        taken = sum(1 for w in t.won for c in w if c in need)
        return taken == len(need)
    return False


# ---------------------------------------------------------------------------------
# deal 7: card count (§6)
# ---------------------------------------------------------------------------------


def _lay(s: State, seat: int, card: str, events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    o = s.options
    t = s.clone()
    t.hands[seat].remove(card)
    t.pile.append([seat, card])
    t.total += o.deal7_values[cast(Rank, card[0])]  # the rank of a card in hand
    events.append({"type": "lay", "seat": seat, "card": card, "total": t.total})
    for i, (at, points) in enumerate(o.deal7_thresholds):
        if t.awards[i] is None and t.total >= at:
            t.awards[i] = seat
            events.append({"type": "threshold", "seat": seat, "at": at, "points": points})
    done = all(a is not None for a in t.awards) and o.deal7_stop_at_100
    if done or not any(t.hands):
        _score_deal(t, events)
    else:
        t.turn = (seat + 1) % t.n
    return t, events


# ---------------------------------------------------------------------------------
# deal 8: jacks layout (§7)
# ---------------------------------------------------------------------------------


def _domino(s: State, seat: int, card: str, events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    if not fits(card, s.rows):
        raise error("not_playable", card=card)
    t = s.clone()
    t.hands[seat].remove(card)
    r, su = card[0], card[1]
    row = t.rows.get(su)
    if row is None:
        t.rows[su] = [r, r]
    elif STEP[r] > STEP[row[1]]:
        row[1] = r
    else:
        row[0] = r
    t.passed = []
    events.append({"type": "play", "seat": seat, "card": card})
    if not t.hands[seat]:
        t.out.append(seat)
        events.append({"type": "out", "seat": seat})
        if len(t.out) == t.n - 1:
            _score_deal(t, events)
            return t, events
    t.turn = _next_with_cards(t, seat)
    _domino_advance(t, events)
    return t, events


def _pass(s: State, seat: int, events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    if not s.options.deal8_free_pass:
        raise error("cannot_pass", detail="you have a card to play")
    if not _may_pass(s, seat):
        raise error("cannot_pass", detail="everyone else has passed since the last card")
    t = s.clone()
    t.passed.append(seat)
    events.append({"type": "pass", "seat": seat, "auto": False})
    t.turn = _next_with_cards(t, seat)
    _domino_advance(t, events)
    return t, events


# ---------------------------------------------------------------------------------
# scoring and the end of the game (§8)
# ---------------------------------------------------------------------------------


def deal_facts(t: State) -> JsonDict:
    """The facts of the finished deal that its score depends on (``scoring.deal_score``)."""
    no = t.deal_no
    if no in (1, *TRUMP_DEALS):
        return {"tricks": [len(w) // t.n for w in t.won]}
    if no in (2, 3, 4):
        need = scoring_cards(no, t.options)
        key = {2: "hearts", 3: "cards", 4: "queens"}[no]
        return {key: [sum(1 for c in w if c in need) for w in t.won]}
    if no == 5:
        return {"last_two": t.winners[6:8]}
    if no == 6:
        return {"king": next(x for x in range(t.n) if "KH" in t.won[x])}
    if no == 7:
        return {"thresholds": list(t.awards)}
    return {"left": next(x for x in range(t.n) if t.hands[x])}


def totals(sheet: list[JsonDict]) -> list[int]:
    out = [0] * PLAYERS
    for entry in sheet:
        for i, v in enumerate(entry["scores"]):
            out[i] += v
    return out


def _score_deal(t: State, events: list[JsonDict]) -> None:
    facts = deal_facts(t)
    scores = deal_score(t.deal_no, facts, t.options)
    t.sheet = t.sheet + [{"no": t.deal_no, "dealer": t.dealer, "trump": t.trump, "scores": scores, "facts": facts}]
    t.phase = "deal"
    t.leader = t.turn = None
    events.append(
        {
            "type": "deal_scored",
            "no": t.deal_no,
            "dealer": t.dealer,
            "trump": t.trump,
            "scores": list(scores),
            "totals": totals(t.sheet),
            "facts": facts,
        }
    )
    if t.deal_no == 12:
        _game_over(t, events)


def _game_over(t: State, events: list[JsonDict], forfeit: int | None = None) -> None:
    tot = totals(t.sheet)
    pl = places(tot, last=forfeit)
    result: dict[str, Any] = {
        "totals": tot,
        "places": pl,
        "winners": [x for x in range(t.n) if pl[x] == 1],
        "deals": len(t.sheet),
        "first_dealer": t.first_dealer,
    }
    if forfeit is not None:
        result["forfeit"] = forfeit
    t.result = result
    t.phase = "over"
    t.leader = t.turn = None
    t.deck = []
    events.append({"type": "game_over", "result": dict(result)})


# ---------------------------------------------------------------------------------
# legal actions and views
# ---------------------------------------------------------------------------------


def legal_actions(s: State, seat: int) -> list[str]:
    if seat != actor(s):
        return []
    ph = s.phase
    if ph == "choose":
        return list(CHOICES)
    hand_order = sort_hand(s.hands[seat], s.trump)
    if ph == "play":
        ok = set(playable_cards(s, seat))
        return [f"play {c}" for c in hand_order if c in ok]
    if ph == "count":
        return [f"play {c}" for c in hand_order]
    out = [f"play {c}" for c in hand_order if fits(c, s.rows)]
    if s.options.deal8_free_pass and _may_pass(s, seat):
        out.append("pass")
    return out


def _options_copy(o: JsonDict) -> JsonDict:
    out = dict(o)
    out["deal7_values"] = dict(o["deal7_values"])
    out["deal7_thresholds"] = [list(x) for x in o["deal7_thresholds"]]
    return out


def played_tricks(s: State) -> list[JsonDict]:
    """This deal's finished tricks, ``{"leader", "plays": [[seat, card]...], "winner"}``:
    every card was played face up, so any seat may remember them (the computer players
    read voids from them). Rebuilt from ``won`` (each trick's four cards were appended to
    its winner's pile in play order) and ``winners``, so old dumps need nothing new."""
    if not s.deal_no or kind(s.deal_no) != "tricks" or s.first is None:
        return []
    out: list[JsonDict] = []
    at = [0] * s.n
    leader = s.first
    for w in s.winners:
        cards = s.won[w][at[w] : at[w] + s.n]
        at[w] += s.n
        out.append({"leader": leader, "winner": w, "plays": [[(leader + i) % s.n, c] for i, c in enumerate(cards)]})
        leader = w
    return out


def view(s: State, seat: int | None) -> JsonDict:
    no = s.deal_no
    need = scoring_cards(no, s.options) if 1 <= no <= 12 else frozenset()
    v = {
        "game": "king",
        "seat": seat,
        "players": s.n,
        "phase": s.phase,
        "deal_no": no,
        "contract": CONTRACTS.get(no),
        "kind": kind(no) if no else None,
        "dealer": s.dealer,
        "first": s.first,
        "to_act": to_act(s),
        "trump": s.trump,
        "trump_mode": s.trump_mode,
        "trump_asked": s.trump_asked,
        "turned": list(s.turned),
        "hand_counts": [len(h) for h in s.hands],
        "leader": s.leader,
        "trick": [list(p) for p in s.plays],
        "trick_no": len(s.winners) + (1 if s.phase == "play" else 0),
        "last_trick": s.last_trick
        and {
            "no": s.last_trick["no"],
            "winner": s.last_trick["winner"],
            "plays": [list(p) for p in s.last_trick["plays"]],
        },
        "winners": list(s.winners),
        "played": played_tricks(s),
        "tricks_taken": [len(w) // s.n for w in s.won],
        "taken": [[c for c in w if c in need] for w in s.won],
        "pile": [list(p) for p in s.pile],
        "total": s.total,
        "thresholds": [
            [at, points, (s.awards[i] if i < len(s.awards) else None)]
            for i, (at, points) in enumerate(s.options.deal7_thresholds)
        ],
        "rows": {su: list(s.rows[su]) for su in SUITS if su in s.rows},
        "passed": list(s.passed),
        "out": list(s.out),
        "sheet": [
            {"no": e["no"], "dealer": e["dealer"], "trump": e["trump"], "scores": list(e["scores"])} for e in s.sheet
        ],
        "totals": totals(s.sheet),
        "first_dealer": s.first_dealer,
        "result": dict(s.result) if s.result is not None else None,
        "options": _options_copy(options_json(s.options)),
    }
    if seat is not None:
        v["hand"] = sort_hand(s.hands[seat], s.trump)
    return v
