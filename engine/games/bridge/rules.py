"""Rubber bridge rules: parsing, checking and applying actions (docs/bridge.md).

Spec: docs/rules/bridge.md (§ numbers below). Every handler validates completely
before it clones the state, so a rejected action never changes anything.

Action notation (seat = the player who acts; the declarer also acts for dummy):
  deal dealer=<N|E|S|W> board=<n> <52 cards>   system: the shuffled deck, dealt one card at a
                                               time clockwise from the dealer's left
  forfeit <seat>                               system: a turn timer ran out
  pass | double | redouble | bid <1C..7NT>     the auction
  play <card>                                  a card (from dummy's hand when dummy is due)
  claim <k>                                    declarer, on lead: k of the remaining tricks
  accept | reject                              a defender answers a claim
  concede                                      a defender, on his turn: the rest to declarer
"""

from __future__ import annotations

import random
from typing import Any

from engine.actions import SYSTEM_VERBS, Preamble
from engine.cards import RANK_VALUE, is_card, make_deck, shuffled
from engine.errors import split_action
from engine.jsondata import JsonDict
from engine.tricks import Trick, playable

from . import auction as A
from .errors import error
from .options import parse_options
from .scoring import SEATS, honours_held, number_json, other, side_of
from .state import State

FULL_DECK = frozenset(make_deck(52))
DISPLAY_SUIT = {"S": 0, "H": 1, "D": 2, "C": 3}
CALL_ACTION = {"P": "pass", "X": "double", "XX": "redouble"}
ACTION_CALL = {v: k for k, v in CALL_ACTION.items()}


def display_key(card: str) -> tuple[int, int]:
    """Bridge display order: spades, hearts, diamonds, clubs; high cards first."""
    return DISPLAY_SUIT[card[1]], -RANK_VALUE[card[0]]


# a card's place in display order: the same order as display_key, as one dict look-up
_DISPLAY_ORDER = {card: i for i, card in enumerate(sorted(make_deck(52), key=display_key))}


def sort_cards(cards: list[str]) -> list[str]:
    try:
        return sorted(cards, key=_DISPLAY_ORDER.__getitem__)
    except KeyError:  # not one of the 52 cards: the general key (raises as it always did)
        return sorted(cards, key=display_key)


# ---------------------------------------------------------------------------------
# setup
# ---------------------------------------------------------------------------------


def check_players(players: Any) -> int:
    if players != 4 or isinstance(players, bool):
        raise error("bad_options", detail=f"bridge is played by 4 players, not {players}")
    return 4


def initial_state(options: Any, players: int = 4) -> State:
    check_players(players)
    return State(parse_options(options))


def deal_action(dealer: int, board: int, rng: random.Random) -> str:
    deck = shuffled(make_deck(52), rng)
    return f"deal dealer={SEATS[dealer]} board={board} " + " ".join(deck)


def new_deal(options: Any, players: int, rng: random.Random, history: list[JsonDict]) -> str:
    """The first deal of a rubber. The deal keeps rotating across rubbers (§2.1, §7.5):
    the dealer and the board number continue from the last result of ``history``."""
    opts = parse_options(options)
    check_players(players)
    dealer, board = SEATS.index(opts.first_dealer), 1
    for entry in reversed(history or []):
        res = entry.get("result") if isinstance(entry.get("result"), dict) else entry
        if isinstance(res, dict) and isinstance(res.get("next_dealer"), int):
            dealer = res["next_dealer"] % 4
            board = int(res.get("next_board", 1))
            break
    return deal_action(dealer, board, rng)


def system_action(state: State, rng: random.Random) -> str | None:
    """The next deal while the rubber waits for one, else None."""
    if state.phase != "deal":
        return None
    dealer = state.next_dealer if state.next_dealer is not None else SEATS.index(state.options.first_dealer)
    return deal_action(dealer, state.next_board, rng)


def _parse_deal(s: State, action: str, args: list[str]) -> tuple[int, int, list[str]]:
    if len(args) < 2 or not args[0].startswith("dealer=") or not args[1].startswith("board="):
        raise error("bad_syntax", action=action, detail="expected 'deal dealer=<N|E|S|W> board=<n> <52 cards>'")
    d, b = args[0][7:], args[1][6:]
    if d not in SEATS or len(d) != 1:
        raise error("bad_syntax", action=action, detail="the dealer is N, E, S or W")
    if not b.isdigit() or int(b) < 1:
        raise error("bad_syntax", action=action, detail="the board is a number from 1")
    deck = args[2:]
    for c in deck:
        if not is_card(c) or len(c) != 2:
            raise error("bad_syntax", action=action, detail=f"{c!r} is not a card")
    dealer, board = SEATS.index(d), int(b)
    if len(deck) != 52 or set(deck) != FULL_DECK:
        raise error("bad_deal", detail="the cards are not exactly one 52-card deck")
    if s.next_dealer is not None and dealer != s.next_dealer:
        raise error("bad_deal", detail=f"the deal passes clockwise: {SEATS[s.next_dealer]} deals now")
    if s.next_dealer is not None and board != s.next_board:
        raise error("bad_deal", detail=f"this is board {s.next_board}")
    return dealer, board, deck


def _do_deal(t: State, dealer: int, board: int, deck: list[str], events: list[JsonDict]) -> None:
    hands: list[list[str]] = [[], [], [], []]
    for i, card in enumerate(deck):
        hands[(dealer + 1 + i) % 4].append(card)
    t.hands = hands
    t.dealt = [h[:] for h in hands]
    t.dealer, t.board = dealer, board
    t.next_dealer, t.next_board = (dealer + 1) % 4, board + 1
    t.vul = t.sheet.vul()
    t.calls = []
    t.contract = t.declarer = None
    t.trick = None
    t.tricks = []
    t.won = {"NS": 0, "EW": 0}
    t.dummy_open = False
    t.claim = None
    t.claim_shown = False
    t.phase = "auction"
    events.append(
        {"type": "deal", "board": board, "dealer": dealer, "vulnerable": dict(t.vul), "deal_no": t.sheet.deals + 1}
    )


# ---------------------------------------------------------------------------------
# whose turn
# ---------------------------------------------------------------------------------


def turn(s: State) -> int | None:
    """The seat whose call or card is due (dummy included), or None."""
    if s.phase == "auction":
        assert s.dealer is not None, "a deal has a dealer"
        return A.caller(s.dealer, len(s.calls))
    if s.phase == "play":
        assert s.trick is not None, "the play has a trick"
        return (s.trick.leader + len(s.trick.plays)) % 4
    return None


def defenders(s: State) -> tuple[int, int]:
    assert s.declarer is not None, "asked only once the auction named a declarer"
    return (s.declarer + 1) % 4, (s.declarer + 3) % 4


def to_act(s: State) -> list[int]:
    ph = s.phase
    if ph == "auction":
        assert s.dealer is not None, "a deal has a dealer"
        return [A.caller(s.dealer, len(s.calls))]
    if ph == "play":
        due = turn(s)
        assert due is not None and s.declarer is not None, "the play has a turn and a declarer"
        return [s.declarer if due == s.dummy else due]
    if ph == "claim":
        assert s.claim is not None, "the claim phase has a claim"
        return [d for d in defenders(s) if str(d) not in s.claim["answers"]]
    return []


def remaining(s: State) -> int:
    return 13 - len(s.tricks)


def _can_claim(s: State, seat: int) -> bool:
    return (
        s.phase == "play"
        and seat == s.declarer
        and s.trick is not None  # always, in the play
        and not s.trick.plays
        and turn(s) in (s.declarer, s.dummy)
        and s.dummy_open
    )


# ---------------------------------------------------------------------------------
# parsing
# ---------------------------------------------------------------------------------


def parse(action: Any) -> tuple[str, list[str]]:
    parts = split_action(action)
    verb, args = parts[0], parts[1:]
    if verb == "play":  # the most frequent action first
        if len(args) != 1 or not is_card(args[0]) or len(args[0]) != 2:
            raise error("bad_syntax", action=action, detail="expected 'play <card>', e.g. 'play TH'")
        return verb, args
    if verb in ("deal",):
        return verb, args
    if verb == "forfeit":
        if len(args) != 1 or not args[0].isdigit():
            raise error("bad_syntax", action=action, detail="expected 'forfeit <seat>'")
        return verb, args
    if verb in ("pass", "double", "redouble", "accept", "reject", "concede"):
        if args:
            raise error("bad_syntax", action=action, detail=f"{verb} takes nothing")
        return verb, args
    if verb == "bid":
        if len(args) != 1 or args[0] not in A.BID_RANK:
            raise error("bad_syntax", action=action, detail="expected 'bid <level 1-7><C|D|H|S|NT>'")
        return verb, args
    if verb == "claim":
        if len(args) != 1 or not args[0].isdigit() or int(args[0]) > 13:
            raise error("bad_syntax", action=action, detail="expected 'claim <tricks 0-13>'")
        return verb, args
    raise error("bad_syntax", action=action, detail=f"unknown action {verb!r}")


# ---------------------------------------------------------------------------------
# apply
# ---------------------------------------------------------------------------------


PREAMBLE = Preamble(parse, error)


def apply(state: State, seat: int | None, action: str) -> tuple[State, list[JsonDict]]:
    s = state
    verb, args = PREAMBLE.check(s.phase == "over", seat, action, 4)
    events: list[JsonDict] = []
    if verb in SYSTEM_VERBS:
        if verb == "deal":
            if s.phase != "deal":
                raise error("wrong_phase", verb=verb)
            dealer, board, deck = _parse_deal(s, action, args)
            t = s.clone()
            _do_deal(t, dealer, board, deck, events)
            return t, events
        loser = int(args[0])
        if loser > 3:
            raise error("bad_seat", seat=loser, verb="forfeit")
        t = s.clone()
        t.sheet = s.sheet.clone()
        side = side_of(loser)
        entries = t.sheet.forfeit(side)
        t.hands = [[], [], [], []]
        events.append({"type": "forfeit", "seat": loser, "side": side, "entries": entries})
        _game_over(t, events, forfeit=loser)
        return t, events

    waiting = to_act(s)
    if seat is None or seat not in waiting:
        raise error(
            "not_your_turn",
            waiting=("the deal" if s.phase == "deal" else ", ".join(SEATS[w] for w in waiting) or "nobody"),
        )
    if verb in ("pass", "double", "redouble", "bid"):
        if s.phase != "auction":
            raise error("wrong_phase", verb=verb)
        call = args[0] if verb == "bid" else ACTION_CALL[verb]
        assert s.dealer is not None, "a deal has a dealer"
        problem = A.why_illegal(s.calls, s.dealer, call)
        if problem:
            raise error(problem[0], **problem[1])
        t = s.clone()
        _call(t, seat, call, events)
        return t, events
    if verb in ("play", "claim", "concede"):
        if s.phase != "play":
            raise error("wrong_phase", verb=verb)
        if verb == "play":
            return _play(s, args[0], events)
        if verb == "claim":
            k = int(args[0])
            if not _can_claim(s, seat):
                raise error("claim_not_now")
            if k > remaining(s):
                raise error("claim_too_many", remaining=remaining(s))
            t = s.clone()
            t.phase = "claim"
            t.claim = {"tricks": k, "answers": {}}
            t.claim_shown = True
            events.append({"type": "claim", "seat": seat, "tricks": k, "remaining": remaining(s)})
            return t, events
        # concede
        if seat not in defenders(s):
            raise error("not_a_defender", verb="concede")
        t = s.clone()
        rest = remaining(s)
        assert s.declarer is not None, "the play has a declarer"
        t.won[side_of(s.declarer)] += rest
        events.append({"type": "concede", "seat": seat, "tricks": rest})
        _end_deal(t, events, how={"conceded_by": seat, "tricks": rest})
        return t, events
    # accept / reject
    if s.phase != "claim":
        raise error("wrong_phase", verb=verb)
    t = s.clone()
    assert t.claim is not None and t.declarer is not None, "the claim phase has a claim and a declarer"
    t.claim["answers"][str(seat)] = verb == "accept"
    if verb == "reject":
        events.append({"type": "claim_rejected", "seat": seat})
        t.claim = None
        t.phase = "play"
        return t, events
    events.append({"type": "claim_answer", "seat": seat, "accept": True})
    if all(str(d) in t.claim["answers"] for d in defenders(t)):
        assert t.claim is not None  # (mypy: set to None only on reject)
        k, rest = t.claim["tricks"], remaining(t)
        side = side_of(t.declarer)
        t.won[side] += k
        t.won[other(side)] += rest - k
        events.append({"type": "claim_accepted", "tricks": k, "remaining": rest})
        _end_deal(t, events, how={"claimed": k, "remaining": rest})
    return t, events


def _call(t: State, seat: int, call: str, events: list[JsonDict]) -> None:
    t.calls.append(call)
    events.append({"type": "call", "seat": seat, "call": call_view(call)})
    if not A.finished(t.calls):
        return
    if A.passed_out(t.calls):
        t.sheet = t.sheet.clone()
        t.sheet.add_passed_out()
        if t.sheet.redeals_passed_out():  # Chicago by the laws: the same dealer deals again
            t.next_dealer = t.dealer
        record = _board_record(t, passed_out=True)
        t.boards = t.boards + [record]
        t.last = {"board": t.board, "dealer": t.dealer, "passed_out": True, "deal_no": t.sheet.deals}
        events.append({"type": "passed_out", "board": t.board})
        events.append({"type": "deal_scored", **t.last, "entries": [], "sheet": t.sheet.public()})
        if t.sheet.complete:  # Chicago, the clubs' scheme: a passed-out fourth deal ends the round
            _game_over(t, events)
        else:
            _next_deal(t)
        return
    assert t.dealer is not None, "a deal has a dealer"
    contract, declarer = A.contract_and_declarer(t.calls, t.dealer)
    t.contract, t.declarer = contract, declarer
    t.trick = Trick((declarer + 1) % 4)
    t.phase = "play"
    events.append(
        {"type": "contract", "contract": contract.to_dict(), "declarer": declarer, "leader": (declarer + 1) % 4}
    )


def _play(s: State, card: str, events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    assert s.trick is not None and s.contract is not None, "the play has a trick and a contract"
    plays = s.trick.plays
    due = (s.trick.leader + len(plays)) % 4  # turn(s)
    hand = s.hands[due]
    if card not in hand:
        raise error("not_in_hand", card=card)
    trump = s.contract.trump
    led = plays[0][1][1] if plays else None
    # not in playable(hand, led, trump, must_trump=False): a card off the suit led while
    # the hand holds that suit
    if led is not None and card[1] != led and any(c[1] == led for c in hand):
        raise error("must_follow", suit=led)
    t = s.clone()
    assert t.declarer is not None and t.trick is not None, "the play has a declarer and a trick"
    dummy = (t.declarer + 2) % 4
    t.hands[due].remove(card)
    t.trick.plays.append((due, card))
    events.append({"type": "play", "seat": due, "card": card, "by": t.declarer if due == dummy else due})
    if not t.dummy_open:
        t.dummy_open = True
        events.append({"type": "dummy", "seat": dummy, "cards": sort_cards(t.hands[dummy])})
    if len(t.trick.plays) == 4:
        winner = t.trick.winner(trump)
        done: JsonDict = {"leader": t.trick.leader, "plays": list(t.trick.plays), "winner": winner}
        t.tricks = t.tricks + [done]
        t.won[side_of(winner)] += 1
        events.append(
            {"type": "trick", "winner": winner, "plays": [list(p) for p in done["plays"]], "won": dict(t.won)}
        )
        if len(t.tricks) == 13:
            t.trick = Trick(winner)
            _end_deal(t, events, how={"played": True})
        else:
            t.trick = Trick(winner)
    return t, events


# ---------------------------------------------------------------------------------
# the end of a deal and of the rubber
# ---------------------------------------------------------------------------------


def _board_record(t: State, passed_out: bool = False, how: JsonDict | None = None) -> JsonDict:
    """What PBN export and the history need of a finished deal."""
    rec: JsonDict = {
        "board": t.board,
        "dealer": t.dealer,
        "vulnerable": dict(t.vul),
        "hands": [list(h) for h in t.dealt],
        "calls": list(t.calls),
        "passed_out": passed_out,
    }
    if not passed_out:
        assert t.contract is not None and t.declarer is not None, "a played deal has a contract"
        plays = [{"leader": x["leader"], "plays": [list(p) for p in x["plays"]]} for x in t.tricks]
        if t.trick is not None and t.trick.plays:
            plays.append({"leader": t.trick.leader, "plays": [list(p) for p in t.trick.plays]})
        rec.update(
            {
                "declarer": t.declarer,
                "contract": t.contract.to_dict(),
                "tricks": t.won[side_of(t.declarer)],
                "play": plays,
                "end": dict(how or {}),
            }
        )
    return rec


def _end_deal(t: State, events: list[JsonDict], how: JsonDict) -> None:
    assert t.contract is not None and t.declarer is not None, "a played deal has a contract"
    side = side_of(t.declarer)
    tricks = t.won[side]
    honours = None
    if t.options.score_honours:
        held = honours_held(t.contract.strain, t.dealt)
        if held is not None:
            honours = (side_of(held[0]), held[1])
    t.sheet = t.sheet.clone()
    entries = t.sheet.add_deal(t.declarer, t.contract, tricks, honours)
    t.boards = t.boards + [_board_record(t, how=how)]
    t.last = {
        "board": t.board,
        "dealer": t.dealer,
        "passed_out": False,
        "deal_no": t.sheet.deals,
        "declarer": t.declarer,
        "contract": t.contract.to_dict(),
        "tricks": tricks,
        "result": tricks - t.contract.need,
        "vulnerable": t.vul[side],
        "honours": {"side": honours[0], "held": honours[1]} if honours else None,
        "how": dict(how),
        "points": t.sheet.deal_points(t.sheet.deals),
    }
    t.hands = [[], [], [], []]
    t.claim = None
    events.append({"type": "deal_scored", **t.last, "entries": entries, "sheet": t.sheet.public()})
    if t.sheet.complete:
        _game_over(t, events)
    else:
        _next_deal(t)


def _next_deal(t: State) -> None:
    t.phase = "deal"
    t.trick = None


def _game_over(t: State, events: list[JsonDict], forfeit: int | None = None) -> None:
    sheet = t.sheet
    settle = sheet.settlement(t.options.rounding)
    k = settle["units"]["NS"]
    next_dealer = t.next_dealer if t.next_dealer is not None else SEATS.index(t.options.first_dealer)
    result = {
        "complete": sheet.complete,
        "winner": sheet.winner,
        "games": dict(sheet.games),
        "totals": sheet.totals(),
        "diff": settle["diff"],
        "units": {side: number_json(v) for side, v in settle["units"].items()},
        "amounts": [number_json(k if seat % 2 == 0 else -k) for seat in range(4)],
        "deals": sheet.deals,
        "next_dealer": next_dealer,
        "next_board": t.next_board,
    }
    if forfeit is not None:
        result["forfeit"] = forfeit
    t.result = result
    t.phase = "over"
    t.trick = None
    events.append({"type": "game_over", "result": dict(result)})


# ---------------------------------------------------------------------------------
# legal actions and views
# ---------------------------------------------------------------------------------


def legal_actions(s: State, seat: int) -> list[str]:
    # the hot path of every move: to_act, turn and _can_claim worked out once, inline
    phase = s.phase
    if phase == "auction":
        assert s.dealer is not None, "a deal has a dealer"
        if seat != A.caller(s.dealer, len(s.calls)):
            return []
        return [CALL_ACTION.get(c) or "bid " + c for c in A.legal_calls(s.calls, s.dealer)]
    if phase == "claim":
        return ["accept", "reject"] if seat in to_act(s) else []
    if phase != "play":
        return []
    assert s.trick is not None and s.contract is not None and s.declarer is not None, "the play"
    plays = s.trick.plays
    due = (s.trick.leader + len(plays)) % 4
    declarer = s.declarer
    dummy = (declarer + 2) % 4
    if seat != (declarer if due == dummy else due):
        return []
    led = plays[0][1][1] if plays else None
    cards = playable(s.hands[due], led, s.contract.trump, must_trump=False)
    out = ["play " + c for c in sort_cards(cards)]
    if seat == declarer and not plays and s.dummy_open:  # _can_claim: the declarer, on lead
        out.extend(f"claim {k}" for k in range(remaining(s), -1, -1))
    if seat != declarer and seat != dummy:  # a defender
        out.append("concede")
    return out


def _call_view(call: str) -> JsonDict:
    if call in CALL_ACTION:
        return {"call": CALL_ACTION[call]}
    level, strain = A.bid_parts(call)
    return {"call": "bid", "level": level, "strain": strain}


_CALL_VIEWS = {call: _call_view(call) for call in [*CALL_ACTION, *A.BIDS]}


def call_view(call: str) -> JsonDict:
    """A call as a view shows it: never a string that reads like a card (``4S``)."""
    return dict(_CALL_VIEWS[call])


def view(s: State, seat: int | None) -> JsonDict:
    due = turn(s)
    v: dict[str, Any] = {
        "game": "bridge",
        "seat": seat,
        "phase": s.phase,
        "board": s.board,
        "dealer": s.dealer,
        "vulnerable": dict(s.vul),
        "auction": (
            [{"seat": (s.dealer + i) % 4, **_CALL_VIEWS[c]} for i, c in enumerate(s.calls)]
            if s.dealer is not None  # (no calls before the first deal)
            else []
        ),
        "contract": s.contract.to_dict() if s.contract else None,
        "declarer": s.declarer,
        "dummy": s.dummy,
        "turn": due,
        "to_act": to_act(s),
        "trick": [list(p) for p in s.trick.plays] if s.trick is not None else [],
        "trick_leader": s.trick.leader if s.trick is not None else None,
        "last_trick": (
            {
                "leader": s.tricks[-1]["leader"],
                "winner": s.tricks[-1]["winner"],
                "plays": [list(p) for p in s.tricks[-1]["plays"]],
            }
            if s.tricks
            else None
        ),
        "played": [c for x in s.tricks for _, c in x["plays"]],
        "tricks_played": len(s.tricks),
        "won": dict(s.won),
        "hand_counts": [len(h) for h in s.hands],
        "dummy_hand": (
            sort_cards(s.hands[s.dummy])
            if s.dummy_open and s.dummy is not None and s.phase in ("play", "claim")
            else None
        ),
        "declarer_hand": (
            sort_cards(s.hands[s.declarer])
            if s.claim_shown and s.declarer is not None and s.phase in ("play", "claim")
            else None
        ),
        "claim": (
            {
                "tricks": s.claim["tricks"],
                "remaining": remaining(s),
                "accepted": sorted(int(k) for k, a in s.claim["answers"].items() if a),
            }
            if s.claim is not None
            else None
        ),
        "sheet": s.sheet.public(),
        "last": s.last,
        "result": s.result,
    }
    if seat is not None:
        v["hand"] = sort_cards(s.hands[seat])
    return v
