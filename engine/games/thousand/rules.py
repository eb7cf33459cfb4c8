"""Тысяча's rules: parsing, checking and applying actions. Spec: docs/rules/thousand.md
(§ numbers below). Every handler validates completely before it clones the state.

Actions::

    deal dealer=<seat> <24 cards>   system: the shuffled deck; the first 21 cards go one
                                    at a time to the seats dealt in, from the dealer's
                                    left, the last 3 are the прикуп
    look | dark                     §6.5: the forehand looks at its cards, or bids 100 blind
    bid <N> | pass                  §2: the auction
    give <card> <seat>              §2.5: the declarer gives a card to an opponent
    concede                         §6.4 (распишись): the declarer gives up before giving
    contract <N>                    §2.6: the final contract (the same or higher)
    play <card> | marry <card>      §3, §4: a card; a king or queen led as a marriage
    forfeit <seat>                  system: the turn timer ran out
"""

from __future__ import annotations

import random
from typing import Any

from engine.actions import Preamble
from engine.cards import is_card, shuffled
from engine.errors import split_action
from engine.jsondata import JsonDict

from . import cards as C
from .errors import error
from .scoring import game_result, score_deal
from .state import State, initial_state  # noqa: F401 (re-exported)

FULL_DECK = frozenset(C.DECK)
MAX_BID = 120 + sum(C.MARRIAGE.values())  # every card point and every marriage


def new_deal(options: Any, players: int, rng: random.Random, history: list[JsonDict]) -> str:
    """The first deal; a rematch goes on rotating the deal (``next_dealer`` of the last game)."""
    dealer = 0
    for entry in reversed(history or []):
        nxt = entry.get("next_dealer") if isinstance(entry, dict) else None
        if isinstance(nxt, int) and 0 <= nxt < players:
            dealer = nxt
            break
    return deal_action(dealer, rng)


def deal_action(dealer: int, rng: random.Random) -> str:
    return f"deal dealer={dealer} " + " ".join(shuffled(C.DECK, rng))


def system_action(state: State, rng: random.Random) -> str | None:
    if state.phase == "deal" and state.deal_no > 0:
        return deal_action(state.next_dealer, rng)
    return None


# ------------------------------------------------------------------ queries
def to_act(state: State) -> list[int]:
    if state.phase == "bid":
        return [state.turn] if state.turn is not None else []
    if state.phase in ("give", "raise"):
        return [state.declarer] if state.declarer is not None else []
    if state.phase == "play":
        return [state.to_play()]
    return []


def bid_cap(state: State, hand: list[str]) -> int:
    """§2.3: nobody over 120 without a marriage in hand (as an option)."""
    if state.options.cap_without_marriage and not C.marriages(hand):
        return 120
    return MAX_BID


def bids_open(state: State, seat: int) -> list[int]:
    step = state.options.bid_step
    low = 100 if state.high is None else state.high + step
    return list(range(low, bid_cap(state, state.hands[seat]) + 1, step))


def can_marry(state: State, seat: int, card: str) -> bool:
    """§4.2: a king or queen led, its partner in hand, a trick already taken (as an option)."""
    if state.plays or card[0] not in "KQ" or card not in state.hands[seat]:
        return False
    partner = ("Q" if card[0] == "K" else "K") + card[1]
    if partner not in state.hands[seat]:
        return False
    return not state.options.marriage_after_trick or state.tricks[seat] > 0


def legal_actions(state: State, seat: int) -> list[str]:
    if seat not in to_act(state):
        return []
    if state.phase == "bid":
        if state.blind and not state.opened:
            return ["dark", "look"]
        out = [f"bid {n}" for n in bids_open(state, seat)]
        return out + (["pass"] if state.opened else [])
    if state.phase == "give":
        given = {to for to, _ in state.gifts}
        to = [s for s in state.active if s != seat and s not in given]
        out = [f"give {c} {t}" for t in to for c in C.sort_cards(state.hands[seat])]
        if state.options.concede and not state.gifts and not state.dark:
            out.append("concede")
        return out
    if state.phase == "raise":
        assert state.high is not None
        cap = max(state.high, bid_cap(state, state.hands[seat]))
        return [f"contract {n}" for n in range(state.high, cap + 1, state.options.bid_step)]
    hand = state.hands[seat]
    led = state.plays[0][1][1] if state.plays else None
    out = []
    for c in C.sort_cards(C.playable(hand, led, state.trump), state.trump):
        out.append("play " + c)
        if can_marry(state, seat, c):
            out.append("marry " + c)
    return out


def view(state: State, seat: int | None) -> JsonDict:
    """What ``seat`` (None = the group) may see: its own hand (none while it bids blind),
    the прикуп once the auction is over, its own gifts given or received, the table."""
    talon_public = state.phase != "bid"  # §2.4: shown to all once the auction is over
    v: dict[str, Any] = {
        "seat": seat,
        "players": state.players,
        "phase": state.phase,
        "deal_no": state.deal_no,
        "dealer": state.dealer,
        "active": list(state.active),
        "to_act": to_act(state),
        "hand_counts": [len(h) for h in state.hands],
        "talon": list(state.talon) if talon_public else None,
        "high": state.high,
        "declarer": state.declarer,
        "passed": list(state.passed),
        "opened": state.opened,
        "blind": state.blind,
        "dark": state.dark,
        "given_to": [to for to, _ in state.gifts],
        "trump": state.trump,
        "leader": state.leader,
        "trick": [list(p) for p in state.plays],
        "played": [list(p) for p in state.played],
        "last_trick": state.last_trick,
        "taken": list(state.taken),
        "tricks": list(state.tricks),
        "married": list(state.married),
        "marriages": [list(m) for m in state.marriages],
        "totals": list(state.totals),
        "bolts": list(state.bolts),
        "barrel": list(state.barrel),
        "entries": state.entries,
        "options": state.options.dump(),
        "result": state.result,
    }
    if seat is not None and 0 <= seat < state.players:
        hidden = state.blind and state.phase == "bid" and seat == state.active[0]
        v["hand"] = None if hidden else C.sort_cards(state.hands[seat] if state.hands else [], state.trump)
        # the gifts this seat gave or got: nobody else sees those cards
        v["gifts"] = [[to, c] for to, c in state.gifts if seat in (to, state.declarer)]
        # what the giver knows lies in another hand (the e2e leak check reads this key)
        v["known_held"] = [c for to, c in state.gifts if seat == state.declarer and c in state.hands[to]]
    return v


# ------------------------------------------------------------------ apply
VERBS = ("deal", "forfeit", "look", "dark", "bid", "pass", "give", "concede", "contract", "play", "marry")
ARGS = {"look": 0, "dark": 0, "pass": 0, "concede": 0, "bid": 1, "contract": 1, "play": 1, "marry": 1, "give": 2}


def parse(action: Any) -> tuple[str, list[str]]:
    verb, *args = split_action(action)
    if verb not in VERBS:
        raise error("bad_syntax", action=action, detail=f"unknown verb {verb!r}")
    if verb in ARGS and len(args) != ARGS[verb]:
        raise error("bad_syntax", action=action, detail=f"{verb} takes {ARGS[verb]} argument(s)")
    return verb, args


PREAMBLE = Preamble(parse, error, players_only=True)


def apply(state: State, seat: int | None, action: str) -> tuple[State, list[JsonDict]]:
    verb, args = PREAMBLE.check(state.phase == "over", seat, action, state.players)
    if verb == "deal":
        return _deal(state, args, action)
    if verb == "forfeit":
        return _forfeit(state, args, action)
    assert seat is not None
    if seat not in to_act(state):
        phases = {"look": "bid", "dark": "bid", "bid": "bid", "pass": "bid", "give": "give", "concede": "give"}
        phase = phases.get(verb, "raise" if verb == "contract" else "play")
        if state.phase != phase:
            raise error("wrong_phase", verb=verb)
        raise error("not_your_turn", waiting=", ".join(str(s) for s in to_act(state)) or "the system")
    if verb in ("bid", "contract") and not args[0].isdigit():
        raise error("bad_syntax", action=action, detail=f"{verb} takes a number")
    if verb in ("play", "marry", "give") and not (is_card(args[0]) and args[0] in FULL_DECK):
        raise error("bad_syntax", action=action, detail="not a card of the 24")
    if verb == "give" and not args[1].isdigit():
        raise error("bad_syntax", action=action, detail="give <card> <seat>")
    handler = {
        "look": _look,
        "dark": _dark,
        "bid": _bid,
        "pass": _pass,
        "give": _give,
        "concede": _concede,
        "contract": _contract,
        "play": _play,
        "marry": _play,
    }[verb]
    return handler(state, seat, verb, args)


def _deal(state: State, args: list[str], action: str) -> tuple[State, list[JsonDict]]:
    if state.phase != "deal":
        raise error("wrong_phase", verb="deal")
    n = state.players
    if not args or not args[0].startswith("dealer=") or not args[0][7:].isdigit() or int(args[0][7:]) >= n:
        raise error("bad_syntax", action=action[:40], detail="deal dealer=<seat> <24 cards>")
    dealer = int(args[0][7:])
    deck = args[1:]
    if len(deck) != 24 or set(deck) != FULL_DECK:
        raise error("bad_deal", detail="the deck must be the 24 distinct cards 9-A")
    if state.deal_no > 0 and dealer != state.next_dealer:
        raise error("bad_deal", detail=f"seat {state.next_dealer} deals now, not {dealer}")
    s = state.clone()
    s.deal_no += 1
    s.dealer = dealer
    s.next_dealer = (dealer + 1) % n
    # §1.3: with four, the dealer sits out; the deal starts at the dealer's left
    order = [(dealer + k) % n for k in range(1, n + 1)]
    s.active = [p for p in order if not (n == 4 and p == dealer)][:3]
    hands: list[list[str]] = [[] for _ in range(n)]
    for i, card in enumerate(deck[:21]):
        hands[s.active[i % 3]].append(card)
    s.hands = hands
    s.talon = deck[21:]
    s.turn = s.active[0]
    s.high = s.declarer = None
    s.passed, s.gifts, s.marriages, s.plays, s.played = [], [], [], [], []
    s.opened = False
    s.blind = state.options.dark
    s.dark = False
    s.trump = s.leader = None
    s.last_trick = None
    s.taken, s.tricks, s.married = [0] * n, [0] * n, [0] * n
    s.phase = "bid"
    return s, [{"type": "deal", "dealer": dealer, "deal_no": s.deal_no}]


def _next_bidder(s: State, seat: int) -> int | None:
    """The next seat still in the auction, or None when the auction is over."""
    left = [p for p in s.active if p not in s.passed]
    if len(left) == 1 and s.high is not None:
        return None
    nxt = s.next_active(seat)
    while nxt in s.passed:
        nxt = s.next_active(nxt)
    return nxt


def _look(state: State, seat: int, verb: str, args: list[str]) -> tuple[State, list[JsonDict]]:
    if not state.blind or state.opened:
        raise error("wrong_phase", verb="look")
    s = state.clone()
    s.blind = False
    return s, [{"type": "look", "seat": seat}]


def _dark(state: State, seat: int, verb: str, args: list[str]) -> tuple[State, list[JsonDict]]:
    if not state.blind or state.opened:
        raise error("wrong_phase", verb="bid blind")
    s = state.clone()
    s.dark = True
    s.high, s.declarer, s.opened = 100, seat, True
    s.turn = _next_bidder(s, seat)
    return s, [{"type": "bid", "seat": seat, "amount": 100, "dark": True}]


def _bid(state: State, seat: int, verb: str, args: list[str]) -> tuple[State, list[JsonDict]]:
    amount = int(args[0])
    if state.blind and not state.opened:
        raise error("bad_bid", amount=amount, detail="look at your cards or bid blind first")
    if amount not in bids_open(state, seat):
        step = state.options.bid_step
        low = 100 if state.high is None else state.high + step
        detail = f"bids go from {low} in steps of {step}, up to {bid_cap(state, state.hands[seat])}"
        raise error("bad_bid", amount=amount, detail=detail)
    s = state.clone()
    if s.dark:  # outbid: the blind bid is gone and its bidder sees its cards
        s.dark = s.blind = False
    s.high, s.declarer, s.opened = amount, seat, True
    s.turn = _next_bidder(s, seat)
    events: list[JsonDict] = [{"type": "bid", "seat": seat, "amount": amount}]
    return _end_auction(s, events) if s.turn is None else (s, events)


def _pass(state: State, seat: int, verb: str, args: list[str]) -> tuple[State, list[JsonDict]]:
    if not state.opened:
        raise error("bad_bid", amount="pass", detail="the forehand must open with 100 or more")
    s = state.clone()
    s.passed = state.passed + [seat]
    s.turn = _next_bidder(s, seat)
    events: list[JsonDict] = [{"type": "pass", "seat": seat}]
    return _end_auction(s, events) if s.turn is None else (s, events)


def _end_auction(s: State, events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    """§2.4: the прикуп is shown to all and goes to the declarer."""
    assert s.declarer is not None
    s.turn = None
    s.blind = False
    s.hands[s.declarer] = s.hands[s.declarer] + list(s.talon)
    s.phase = "give"
    events.append({"type": "talon", "seat": s.declarer, "cards": list(s.talon), "amount": s.high, "dark": s.dark})
    return s, events


def _give(state: State, seat: int, verb: str, args: list[str]) -> tuple[State, list[JsonDict]]:
    card, to = args[0], int(args[1])
    if f"give {card} {to}" not in legal_actions(state, seat):
        raise error("bad_give", card=card, seat=to)
    s = state.clone()
    s.hands[seat].remove(card)
    s.hands[to] = s.hands[to] + [card]
    s.gifts = state.gifts + [[to, card]]
    events: list[JsonDict] = [{"type": "give", "seat": seat, "to": to}]  # the card stays private
    if len(s.gifts) == 2:
        if s.dark:  # §6.5: a blind contract is not raised
            return _start_play(s, events)
        s.phase = "raise"
    return s, events


def _concede(state: State, seat: int, verb: str, args: list[str]) -> tuple[State, list[JsonDict]]:
    if "concede" not in legal_actions(state, seat):
        raise error("wrong_phase", verb="concede")
    s = state.clone()
    events: list[JsonDict] = [{"type": "concede", "seat": seat, "amount": s.high}]
    return _score(s, events, conceded=True)


def _contract(state: State, seat: int, verb: str, args: list[str]) -> tuple[State, list[JsonDict]]:
    amount = int(args[0])
    if f"contract {amount}" not in legal_actions(state, seat):
        raise error("bad_contract", amount=amount, detail="the same or higher, in steps, within the cap")
    s = state.clone()
    s.high = amount
    return _start_play(s, [{"type": "contract", "seat": seat, "amount": amount}])


def _start_play(s: State, events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    s.phase = "play"
    s.leader = s.declarer
    if not events or events[-1]["type"] != "contract":
        events.append({"type": "contract", "seat": s.declarer, "amount": s.high})
    return s, events


def _play(state: State, seat: int, verb: str, args: list[str]) -> tuple[State, list[JsonDict]]:
    card = args[0]
    if card not in state.hands[seat]:
        raise error("not_in_hand", card=card)
    led = state.plays[0][1][1] if state.plays else None
    if card not in C.playable(state.hands[seat], led, state.trump):
        raise error("must_follow")
    if verb == "marry" and not can_marry(state, seat, card):
        raise error("no_marriage", card=card)
    s = state.clone()
    events: list[JsonDict] = []
    if verb == "marry":
        s.trump = card[1]
        s.married[seat] += C.MARRIAGE[card[1]]
        s.marriages = state.marriages + [[seat, card[1]]]
        events.append({"type": "trump", "seat": seat, "suit": card[1], "points": C.MARRIAGE[card[1]]})
    s.hands[seat].remove(card)
    s.plays.append([seat, card])
    events.append({"type": "card", "seat": seat, "card": card})
    if len(s.plays) < 3:
        return s, events
    cards = [c for _, c in s.plays]
    winner = s.plays[C.trick_winner(cards, s.trump)][0]
    s.taken[winner] += C.points(cards)
    s.tricks[winner] += 1
    s.last_trick = {"leader": s.leader, "plays": [list(p) for p in s.plays], "winner": winner}
    s.played = s.played + [list(p) for p in s.plays]
    s.plays = []
    s.leader = winner
    events.append({"type": "trick", "winner": winner, "cards": cards})
    if len(s.played) < 24:
        return s, events
    return _score(s, events, conceded=False)


def _score(s: State, events: list[JsonDict], conceded: bool) -> tuple[State, list[JsonDict]]:
    """§5: the deal on the sheet; the game ends when a seat reaches the target."""
    assert s.declarer is not None and s.high is not None
    deal = {
        "declarer": s.declarer,
        "contract": s.high,
        "dark": s.dark,
        "conceded": conceded,
        "active": s.active,
        "taken": s.taken,
        "married": s.married,
        "tricks": s.tricks,
    }
    entry, s.totals, s.bolts, s.barrel = score_deal(s.options, s.totals, s.bolts, s.barrel, deal)
    entry = {
        **entry,
        "n": s.deal_no,
        "dealer": s.dealer,
        "active": list(s.active),
        "marriages": [list(m) for m in s.marriages],
    }
    s.entries = s.entries + [entry]
    s.leader = None
    events.append({"type": "deal_scored", "entry": entry})
    if max(s.totals) >= s.options.target:
        s.phase = "over"
        s.result = _result(s)
        events.append({"type": "game_over", "result": s.result})
    else:
        s.phase = "deal"
    return s, events


def _forfeit(state: State, args: list[str], action: str) -> tuple[State, list[JsonDict]]:
    if len(args) != 1 or not args[0].isdigit() or int(args[0]) >= state.players:
        raise error("bad_syntax", action=action, detail="forfeit takes a seat number")
    s = state.clone()
    s.phase = "over"
    s.result = _result(s, forfeit=int(args[0]))
    return s, [{"type": "game_over", "result": s.result}]


def _result(s: State, **extra: Any) -> JsonDict:
    return game_result(s.totals, len(s.entries), s.next_dealer, **extra)
