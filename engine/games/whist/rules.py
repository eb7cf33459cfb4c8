"""Whist's rules: parsing, checking and applying actions (notation in docs/whist.md).

Spec: docs/rules/whist.md (§ numbers below). Every handler validates
completely before it clones the state, so a rejected action never changes anything.

Actions::

    deal dealer=<N|E|S|W> <52 cards>   system: the shuffled deck in dealing order —
                                       card i goes to the (i+1)-th seat after the dealer,
                                       so the dealer gets the 52nd (the turned-up card)
    trump <S|H|D|C>                    dealer_names: the dealer (or his partner) names trump
    delegate                           dealer_names: the dealer lets his partner choose
    play <card>                        play a card to the trick
    next | stop                        no rubber limit: after a rubber, each player says
                                       whether to go on; one "stop" ends the match
    forfeit <seat>                     system: the turn timer ran out; that seat's side
                                       loses the match at once
"""

from __future__ import annotations

import random
from typing import Any

from engine.actions import Preamble
from engine.cards import RANK_VALUE, SUITS, is_card, make_deck, shuffled
from engine.errors import split_action
from engine.jsondata import JsonDict
from engine.tricks import playable, winning_index

from .errors import error
from .options import WhistOptions, parse_options
from .scoring import SIDES, other, side_of
from .state import SEAT_LETTERS, State, initial_state  # noqa: F401 (re-exported)

FULL_DECK = frozenset(make_deck(52))
SUIT_ORDER = {s: i for i, s in enumerate(SUITS)}
_HAND_KEY = {
    t: {c: (4 if c[1] == t else SUIT_ORDER[c[1]], RANK_VALUE[c[0]]) for c in FULL_DECK} for t in (None, *SUITS)
}


def sort_cards(cards: list[str], trump: str | None) -> list[str]:
    """Display order: by suit, trumps last, then by rank."""
    key = _HAND_KEY[trump]
    return sorted(cards, key=key.__getitem__)


# ---------------------------------------------------------------------------------
# setup
# ---------------------------------------------------------------------------------


def new_deal(options: Any, players: int, rng: random.Random, history: list[JsonDict]) -> str:
    """The first deal of a match. A rematch at the same table goes on rotating the deal:
    the previous match's ``next_dealer`` deals; the very first match starts with
    ``first_dealer`` (§2.1)."""
    opts = parse_options(options)
    dealer = opts.first_dealer_seat
    for entry in reversed(history or []):
        nxt = (entry or {}).get("next_dealer") if isinstance(entry, dict) else None
        if isinstance(nxt, int) and 0 <= nxt < 4:
            dealer = nxt
            break
    return deal_action(dealer, rng)


def deal_action(dealer: int, rng: random.Random) -> str:
    return f"deal dealer={SEAT_LETTERS[dealer]} " + " ".join(shuffled(make_deck(52), rng))


def system_action(state: State, rng: random.Random) -> str | None:
    """The next deal, when the match waits for one."""
    if state.phase == "deal" and state.deal_no > 0:
        return deal_action(state.next_dealer, rng)
    return None


# ---------------------------------------------------------------------------------
# queries
# ---------------------------------------------------------------------------------


def to_act(state: State) -> list[int]:
    if state.phase == "trump":
        assert state.chooser is not None, "the trump phase has a chooser"
        return [state.chooser]
    if state.phase == "play":
        return [state.to_play()]
    if state.phase == "vote":
        return [s for s in range(4) if s not in state.votes]
    return []


def _playable(state: State, seat: int) -> list[str]:
    led = state.plays[0][1][1] if state.plays else None
    return playable(state.hands[seat], led, state.trump, state.options.must_trump)


def legal_actions(state: State, seat: int) -> list[str]:
    if state.phase == "trump":
        if seat != state.chooser:
            return []
        out = [f"trump {s}" for s in SUITS]
        if seat == state.dealer and not state.delegated:
            out.append("delegate")
        return out
    if state.phase == "play":
        if seat != state.to_play():
            return []
        return ["play " + c for c in sort_cards(_playable(state, seat), state.trump)]
    if state.phase == "vote":
        return [] if seat in state.votes else ["next", "stop"]
    return []


def honours_in(cards: list[str], trump: str | None, ranks: tuple[str, ...]) -> int:
    return sum(1 for c in cards if c[1] == trump and c[0] in ranks)


def view(state: State, seat: int | None) -> JsonDict:
    """What ``seat`` (None = the group) may see: own hand, the turned-up card until the
    dealer's first play, the trick on the table, the last trick, the counts, and every
    card of this deal's finished tricks with who played it (``played``: what a player at
    the table saw face up and may remember; the computer players read it) and the
    ``must_trump`` rule."""
    o = state.options
    sheet = state.sheet
    v: dict[str, Any] = {
        "seat": seat,
        "phase": state.phase,
        "deal_no": state.deal_no,
        "dealer": state.dealer,
        "trump": state.trump,
        "trump_method": o.trump_method,
        "turn_up": state.turn_up if (state.turn_up and not state.dealer_played and state.phase in ("play",)) else None,
        "chooser": state.chooser if state.phase == "trump" else None,
        "delegated": state.delegated,
        "to_act": to_act(state),
        "hand_counts": [len(h) for h in state.hands],
        "leader": state.leader,
        "trick": [[s, c] for s, c in state.plays],
        "played": [[p, c] for p, c in state.played],
        "must_trump": o.must_trump,
        "last_trick": None
        if state.last_trick is None
        else {
            "leader": state.last_trick["leader"],
            "winner": state.last_trick["winner"],
            "plays": [[s, c] for s, c in state.last_trick["plays"]],
        },
        "tricks": dict(zip(SIDES, state.tricks)),
        "honours_won": (
            dict(zip(SIDES, (honours_in(w, state.trump, o.honour_ranks) for w in state.won)))
            if state.trump and o.honours_mode == "in_tricks"
            else None
        ),
        "score": {
            "current": dict(sheet.current),
            "games": dict(sheet.rubber_games),
            "rubbers": sheet.rubbers_won,
            "credited": sheet.credited,
            "rubber_no": sheet.rubber_no,
            "game_no": sheet.game_no,
            "target": o.game_target,
            "match_rubbers_to_win": o.match_rubbers_to_win,
        },
        "votes": list(state.votes),
        "result": state.result,
    }
    if seat is None:
        # the sheet (for the posts after a deal) goes to the group view only
        v["options"] = dict(state.options_json)
        v["entries"] = [{"tricks": dict(e["tricks"]), "honours": dict(e["honours"])} for e in sheet.entries]
    else:
        v["hand"] = sort_cards(state.hands[seat], state.trump)
    return v


# ---------------------------------------------------------------------------------
# apply
# ---------------------------------------------------------------------------------


VERBS = ("deal", "forfeit", "trump", "delegate", "play", "next", "stop")


def parse(action: Any) -> tuple[str, list[str]]:
    """The verb and its arguments; each verb's arguments are read by ``apply``."""
    verb, *args = split_action(action)
    if verb not in VERBS:
        raise error("bad_syntax", action=action, detail=f"unknown verb {verb!r}")
    return verb, args


PREAMBLE = Preamble(parse, error, players_only=True)


def apply(state: State, seat: int | None, action: str) -> tuple[State, list[JsonDict]]:
    verb, args = PREAMBLE.check(state.phase == "over", seat, action, 4)
    if verb in ("deal", "forfeit"):
        return _deal(state, args, action) if verb == "deal" else _forfeit(state, args, action)
    assert seat is not None, "the preamble refuses a player's verb from no seat"
    if verb == "play":
        if len(args) != 1 or not is_card(args[0]) or len(args[0]) != 2:
            raise error("bad_syntax", action=action, detail="play takes one card, e.g. play TH")
        return _play(state, seat, args[0], action)
    if verb == "trump":
        if len(args) != 1 or args[0] not in SUITS:
            raise error("bad_syntax", action=action, detail="trump takes a suit: S, H, D or C")
        return _trump(state, seat, args[0], action)
    if args:
        raise error("bad_syntax", action=action, detail=f"{verb} takes no arguments")
    if verb == "delegate":
        return _delegate(state, seat, action)
    return _vote(state, seat, verb, action)


def _waiting(state: State) -> str:
    who = to_act(state)
    return ", ".join(SEAT_LETTERS[s] for s in who) or "the system"


def _deal(state: State, args: list[str], action: str) -> tuple[State, list[JsonDict]]:
    if state.phase != "deal":
        raise error("wrong_phase", verb="deal")
    if not args or not args[0].startswith("dealer=") or args[0][7:] not in tuple(SEAT_LETTERS):
        raise error("bad_syntax", action=action[:40], detail="deal dealer=<N|E|S|W> <52 cards>")
    dealer = SEAT_LETTERS.index(args[0][7:])
    cards = args[1:]
    if len(cards) != 52 or set(cards) != FULL_DECK:
        raise error("bad_deal", detail="the deck must be the 52 distinct cards")
    if state.deal_no > 0 and dealer != state.next_dealer:
        raise error("bad_deal", detail=f"{SEAT_LETTERS[state.next_dealer]} deals now, not {SEAT_LETTERS[dealer]}")
    s = state.clone()
    s.deal_no = state.deal_no + 1
    s.dealer = dealer
    s.next_dealer = (dealer + 1) % 4
    hands: list[list[str]] = [[], [], [], []]
    for i, card in enumerate(cards):  # one at a time, from the dealer's left (§2.3)
        hands[(dealer + 1 + i) % 4].append(card)
    s.hands = hands
    s.won = [[], []]
    s.plays = []
    s.last_trick = None
    s.played = []
    s.votes = []
    s.delegated = False
    s.dealer_played = False
    s.leader = (dealer + 1) % 4
    events: list[JsonDict] = [{"type": "deal", "dealer": dealer, "deal_no": s.deal_no}]
    if state.options.trump_method == "turn_up":
        s.turn_up = cards[-1]
        s.trump = cards[-1][1]
        s.chooser = None
        s.phase = "play"
        s.held = _held(s)
        events.append({"type": "trump", "suit": s.trump, "turn_up": s.turn_up, "seat": dealer})
    else:
        s.turn_up = None
        s.trump = None
        s.chooser = dealer
        s.phase = "trump"
        s.held = [0, 0]
    return s, events


def _held(s: State) -> list[int]:
    ranks = s.options.honour_ranks
    return [honours_in(s.hands[side] + s.hands[side + 2], s.trump, ranks) for side in (0, 1)]


def _trump(state: State, seat: int, suit: str, action: str) -> tuple[State, list[JsonDict]]:
    if state.phase != "trump":
        raise error("wrong_phase", verb="name the trump")
    if seat != state.chooser:
        raise error("not_your_turn", waiting=_waiting(state))
    s = state.clone()
    s.trump = suit
    s.held = _held(s)
    s.phase = "play"
    s.chooser = None
    return s, [{"type": "trump", "suit": suit, "seat": seat}]


def _delegate(state: State, seat: int, action: str) -> tuple[State, list[JsonDict]]:
    if state.phase != "trump":
        raise error("wrong_phase", verb="delegate")
    if seat != state.chooser:
        raise error("not_your_turn", waiting=_waiting(state))
    if seat != state.dealer or state.delegated:
        raise error("no_delegation")
    s = state.clone()
    s.delegated = True
    s.chooser = (seat + 2) % 4
    return s, [{"type": "delegate", "seat": seat, "to": s.chooser}]


def _play(state: State, seat: int, card: str, action: str) -> tuple[State, list[JsonDict]]:
    if state.phase != "play":
        raise error("wrong_phase", verb="play a card")
    if seat != state.to_play():
        raise error("not_your_turn", waiting=_waiting(state))
    hand = state.hands[seat]
    if card not in hand:
        raise error("not_in_hand", card=card)
    allowed = _playable(state, seat)
    if card not in allowed:
        led = state.plays[0][1][1]
        if any(c[1] == led for c in hand):
            raise error("must_follow", suit=led)
        raise error("must_trump")
    s = state.clone()
    s.hands[seat].remove(card)
    s.plays.append((seat, card))
    if seat == s.dealer:
        s.dealer_played = True
    events: list[JsonDict] = [{"type": "card", "seat": seat, "card": card}]
    if len(s.plays) < 4:
        return s, events
    cards = [c for _, c in s.plays]
    winner = s.plays[winning_index(cards, s.trump)][0]
    side = winner % 2
    won = s.won[:]
    won[side] = won[side] + cards
    s.won = won
    s.last_trick = {"leader": s.leader, "plays": [[p, c] for p, c in s.plays], "winner": winner}
    s.played = s.played + [[p, c] for p, c in s.plays]  # replaced, never mutated: states share it
    s.plays = []
    s.leader = winner
    events.append({"type": "trick", "winner": winner, "cards": cards, "tricks": dict(zip(SIDES, s.tricks))})
    if s.tricks[0] + s.tricks[1] < 13:
        return s, events
    return _score(s, events)


def _score(s: State, events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    """§5: the deal is over; write it on the sheet."""
    o = s.options
    if o.honours_mode == "in_tricks":
        h = [honours_in(w, s.trump, o.honour_ranks) for w in s.won]
    else:
        h = list(s.held)
    entry = {"tricks": dict(zip(SIDES, s.tricks)), "honours": dict(zip(SIDES, h))}
    sheet = type(s.sheet).replay(o, s.sheet.entries)
    deal = sheet.add(entry)
    s.sheet = sheet
    s.leader = None
    s.turn_up = None
    events.append(
        {
            "type": "deal_scored",
            "deal": deal["n"],
            "entry": entry,
            "written": {side: deal[side] for side in SIDES},
            "game_won": deal.get("game_won"),
            "rubber_won": deal.get("rubber_won"),
            "trump": s.trump,
            "dealer": s.dealer,
            **honours_not_written(deal, o),
        }
    )
    if sheet.finished:
        s.phase = "over"
        s.result = _result(s, winner=sheet.winner)
        events.append({"type": "game_over", "result": s.result})
    elif deal.get("rubber_won") and o.match_rubbers_to_win is None:
        s.phase = "vote"
        s.votes = []
    else:
        s.phase = "deal"
    return s, events


def honours_not_written(deal: JsonDict, options: WhistOptions) -> JsonDict:
    """Why a side's honours are missing from the sheet, for the post: ``dropped`` (the
    other side won the game by tricks first, §5.3) or ``barred`` (``honours_barred_from``)."""
    out: dict[str, Any] = {}
    if deal.get("dropped"):
        out["dropped"] = dict(deal["dropped"])
    if deal.get("barred"):
        out["barred"] = {"side": deal["barred"], "from": options.honours_barred_from}
    return out


def _vote(state: State, seat: int, verb: str, action: str) -> tuple[State, list[JsonDict]]:
    if state.phase != "vote":
        raise error("wrong_phase", verb=f"say {verb}")
    if seat in state.votes:
        raise error("already_voted")
    s = state.clone()
    events: list[JsonDict] = [{"type": "vote", "seat": seat, "vote": verb}]
    if verb == "stop":
        s.phase = "over"
        b = s.sheet.balance
        winner = "NS" if b["NS"] > 0 else "EW" if b["EW"] > 0 else None
        s.result = _result(s, winner=winner, stopped_by=seat)
        events.append({"type": "game_over", "result": s.result})
        return s, events
    s.votes = state.votes + [seat]
    if len(s.votes) == 4:
        s.phase = "deal"
        s.votes = []
    return s, events


def _forfeit(state: State, args: list[str], action: str) -> tuple[State, list[JsonDict]]:
    if len(args) != 1 or not args[0].isdigit() or not 0 <= int(args[0]) < 4:
        raise error("bad_syntax", action=action, detail="forfeit takes a seat number 0-3")
    seat = int(args[0])
    s = state.clone()
    s.phase = "over"
    s.result = _result(s, winner=other(side_of(seat)), forfeit=seat)
    return s, [{"type": "game_over", "result": s.result}]


def _result(s: State, winner: str | None, **extra: Any) -> JsonDict:
    sheet = s.sheet
    result = {
        "winner": winner,
        "rubbers": sheet.rubbers_won,
        "credited": sheet.credited,
        "balance": sheet.balance,
        "players": sheet.players(),
        "deals": len(sheet.entries),
        "next_dealer": s.next_dealer,
        "unfinished_rubber": sheet.running_rubber() is not None,
    }
    result.update(extra)
    return result
