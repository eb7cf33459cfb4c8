"""Balkan preferans: parsing, checking and applying actions (notation in docs/preferans.md).

Spec: docs/rules/preferans.md; § numbers below refer to it. Every handler
checks completely before it clones the state, so a rejected action changes nothing.
One engine match is one whole pulka: after each hand the state waits in phase
``deal`` and ``system_action`` deals the next hand (the deal passes clockwise).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from engine.actions import Preamble
from engine.errors import split_action
from engine.jsondata import JsonDict
from engine.preferans_family.deal import DECK as DECK
from engine.preferans_family.deal import check_deck, deal_action, one_card, sort_hand, split_deal
from engine.preferans_family.numbers import fnum
from engine.preferans_family.play import check_card, close_trick, lay_card, legal_cards, trick_view
from engine.preferans_family.table import discard, end_pulka, say, table_view, take_talon
from engine.tricks import Trick

from .errors import error
from .options import parse_options
from .scoring import (
    BETTEL,
    CONTRACTS,
    NAME_OF,
    SANS,
    TRUMP_OF,
    Pull,
    apply_entry,
    apply_forfeit,
    defenders,
    normalise,
    settlement,
    two_check,
)
from .state import State

SEAT_OF_LETTER = {"A": 0, "B": 1, "C": 2}
SUIT_ORDER = "SDHC"  # a hand on the screen: by suit in this order, trumps last


# ---------------------------------------------------------------------------------- setup
def initial_state(options: Any, players: int = 3) -> State:
    opts = parse_options(options)
    if players != 3:
        raise error("bad_options", detail=f"preferans is for exactly 3 players, not {players}")
    return State(opts)


def new_deal(options: Any, players: int, rng: random.Random, history: list[JsonDict]) -> str:
    """The first deal of a new pulka: the first dealer by lot, or ``first_dealer``."""
    opts = parse_options(options)
    if players != 3:
        raise error("bad_options", detail=f"preferans is for exactly 3 players, not {players}")
    fixed = SEAT_OF_LETTER.get(opts.first_dealer)
    dealer = fixed if fixed is not None else rng.randrange(3)
    return deal_action(dealer, rng)


def system_action(s: State, rng: random.Random) -> str | None:
    """The next hand's deal whenever the pulka waits for one (§3.1: the deal passes on)."""
    if s.phase != "deal":
        return None
    if s.dealer is None:
        fixed = SEAT_OF_LETTER.get(s.options.first_dealer)
        return deal_action(fixed if fixed is not None else rng.randrange(3), rng)
    return deal_action((s.dealer + 1) % 3, rng)


def _do_deal(t: State, dealer: int, deck: list[str], events: list[JsonDict]) -> None:
    """§3: 5 each from first hand, 2 to the talon, 5 each."""
    t.dealer = dealer
    t.hand_no += 1
    hands, t.talon = split_deal(deck, [(dealer + 1 + i) % 3 for i in range(3)], first_packet=5)
    t.hands = [hands[seat] for seat in range(3)]
    t.discards = []
    t.talon_public = False
    t.calls, t.high, t.holder = [], None, None
    t.passed, t.called, t.igra_said = [False] * 3, [False] * 3, [False] * 3
    t.callers, t.conceded, t.named, t.named_by = [], [], None, None
    t.declarer = t.bid = t.number = None
    t.igra = False
    t.defence, t.kontra, t.level = {}, [], 0
    t.kstage, t.kqueue, t.kindex = None, [], 0
    t.trick_leader, t.trick, t.last_trick = None, [], []
    t.won, t.tricks_played = [0, 0, 0], 0
    t.played = []
    t.phase = "auction"
    t.turn = t.fh
    events.append({"type": "deal", "hand_no": t.hand_no, "dealer": dealer, "first_hand": t.fh})


# ---------------------------------------------------------------------------------- parsing
ZERO_ARG = ("pass", "moje", "igra", "hold", "concede", "play", "invite", "kontra", "no", "raise", "stop")


def parse(action: Any) -> tuple[str, list[str]]:
    parts = split_action(action)
    verb, args = parts[0], parts[1:]
    if verb in ("deal", "forfeit"):
        return verb, args
    if verb == "play" and args:  # "play 7S": a card; bare "play": the defence decision
        verb = "card"
    if verb in ZERO_ARG:
        if args:
            raise error("bad_syntax", action=action, detail=f"{verb} takes nothing after it")
        return verb, args
    if verb == "bid":
        if len(args) != 1 or not args[0].isdigit() or not 2 <= int(args[0]) <= 7:
            raise error("bad_syntax", action=action, detail="a bid is a number 2 to 7")
        return verb, args
    if verb in ("name", "contract"):
        if len(args) != 1 or args[0].upper() not in CONTRACTS:
            raise error("bad_syntax", action=action, detail="a contract is S, D, H, C, BETTEL or SANS")
        return verb, [args[0].upper()]
    if verb in ("discard", "card"):
        return verb, one_card(action, args)
    raise error("bad_syntax", action=action, detail=f"unknown action {verb!r}")


# ---------------------------------------------------------------------------------- whose turn
def to_act(s: State) -> list[int]:
    if s.phase in ("deal", "over") or s.turn is None:
        return []
    return [s.turn]


PHASE_VERBS = {
    "auction": ("pass", "bid", "moje", "igra"),
    "naming": ("name", "hold", "concede"),
    "discard": ("discard",),
    "contract": ("contract",),
    "defence": ("play", "pass", "invite"),
    "kontra": ("kontra", "no", "raise", "stop"),
    "play": ("card",),
}


PREAMBLE = Preamble(parse, error)


def apply(state: State, seat: int | None, action: str) -> tuple[State, list[JsonDict]]:
    s = state
    verb, args = PREAMBLE.check(s.phase == "over", seat, action, 3)
    events: list[JsonDict] = []
    if verb == "deal":
        if s.phase != "deal":
            raise error("wrong_phase", verb="deal")
        dealer, deck = _parse_deal(s, action, args)
        t = s.clone()
        _do_deal(t, dealer, deck, events)
        return t, events
    if verb == "forfeit":
        if len(args) != 1 or args[0] not in ("0", "1", "2"):
            raise error("bad_syntax", action=action, detail="expected 'forfeit <seat 0-2>'")
        loser = int(args[0])
        t = s.clone()
        t.pull, row = apply_forfeit(t.pull, loser)
        t.last_row = row
        events.append({"type": "forfeit", "seat": loser, "row": row})
        _game_over(t, events, forfeit=loser)
        return t, events
    if seat is None or seat not in to_act(s):
        waiting = "the deal" if s.phase == "deal" else f"seat {s.turn}"
        raise error("not_your_turn", waiting=waiting)
    if verb not in PHASE_VERBS.get(s.phase, ()):
        raise error("wrong_phase", verb=verb)
    return _HANDLERS[(s.phase, verb)](s, seat, args, events)


def _parse_deal(s: State, action: str, args: list[str]) -> tuple[int, list[str]]:
    if not args or not args[0].startswith("dealer=") or args[0][7:] not in ("0", "1", "2"):
        raise error("bad_syntax", action=action, detail="expected 'deal dealer=<0-2> <32 cards>'")
    dealer = int(args[0][7:])
    deck = args[1:]
    check_deck(deck)
    if s.dealer is not None and dealer != (s.dealer + 1) % 3:
        raise error("bad_deal", detail=f"the deal passes clockwise: seat {(s.dealer + 1) % 3} deals now")
    fixed = SEAT_OF_LETTER.get(s.options.first_dealer)
    if s.dealer is None and fixed is not None and dealer != fixed:
        raise error("bad_deal", detail=f"the first dealer is seat {fixed} (option first_dealer)")
    return dealer, deck


# ---------------------------------------------------------------------------------- auction §5.1
def _auction_checks(s: State, seat: int, verb: str, args: list[str]) -> None:
    any_igra = any(s.igra_said)
    if verb == "bid":
        n = int(args[0])
        if any_igra:
            raise error("after_igra")
        if s.options.single_step_bids:
            nxt = 2 if s.high is None else s.high + 1
            if n != nxt:
                raise error("single_step", next=nxt)
        elif s.high is not None and n <= s.high:
            raise error("bid_too_low", high=s.high)
    elif verb == "moje":
        if any_igra:
            raise error("after_igra")
        if s.high is None:
            raise error("no_moje")
        assert s.holder is not None, "the high bid has a holder"
        if s.priority(seat) >= s.priority(s.holder):
            raise error("no_moje")
    elif verb == "igra":
        if s.called[seat]:
            raise error("igra_first_call")


def auction_legal(s: State, seat: int) -> list[str]:
    out = []
    any_igra = any(s.igra_said)
    if not any_igra:
        if s.options.single_step_bids:
            nxt = 2 if s.high is None else s.high + 1
            if nxt <= 7:
                out.append(f"bid {nxt}")
        else:
            lo = 2 if s.high is None else s.high + 1
            out += [f"bid {n}" for n in range(lo, 8)]
        if s.high is not None:
            assert s.holder is not None, "the high bid has a holder"
            if s.priority(seat) < s.priority(s.holder):
                out.append("moje")
    if not s.called[seat]:
        out.append("igra")
    out.append("pass")
    return out


def _h_auction(s: State, seat: int, verb: str, args: list[str], events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    _auction_checks(s, seat, verb, args)
    t = s.clone()
    if verb == "pass":
        t.passed[seat] = True
        call = "pass"
    elif verb == "bid":
        t.high, t.holder = int(args[0]), seat
        t.called[seat] = True
        call = f"bid {args[0]}"
    elif verb == "moje":
        t.holder = seat
        t.called[seat] = True
        call = "moje"
    else:
        t.igra_said[seat] = True
        t.called[seat] = True
        call = "igra"
    say(t, seat, call, events)
    _auction_next(t, seat, events)
    return t, events


def _auction_next(t: State, last: int, events: list[JsonDict]) -> None:
    """After a call: the end of the auction (§5.1 End), or the next player's turn
    (skipping passed players and igra callers; a numeric caller is passed automatically
    once somebody said igra)."""
    cur = last
    for _ in range(6):
        if all(t.passed):
            _all_pass(t, events)
            return
        any_igra = any(t.igra_said)
        if any_igra:
            if all(t.passed[p] or t.igra_said[p] for p in range(3)):
                callers = sorted((p for p in range(3) if t.igra_said[p]), key=t.priority)
                if len(callers) == 1:
                    _auction_won(t, callers[0], igra=True, events=events)
                else:
                    t.phase = "naming"
                    t.callers, t.conceded, t.named, t.named_by = callers, [], None, None
                    t.turn = callers[0]
                    events.append({"type": "naming", "callers": callers})
                return
        elif sum(t.passed) == 2:
            third = next(p for p in range(3) if not t.passed[p])
            if t.holder == third:
                _auction_won(t, third, igra=False, events=events)
                return
        nxt = (cur + 1) % 3
        while t.passed[nxt] or t.igra_said[nxt]:
            nxt = (nxt + 1) % 3
        if any_igra and t.called[nxt]:
            t.passed[nxt] = True  # a numeric caller cannot go on after igra
            t.calls.append([nxt, "pass"])
            events.append({"type": "call", "seat": nxt, "call": "pass", "auto": True, "high": t.high})
            cur = nxt
            continue
        t.turn = nxt
        return
    raise AssertionError("auction did not settle")  # pragma: no cover


def _all_pass(t: State, events: list[JsonDict]) -> None:
    """§5.2: nobody plays; maybe a refe round; the deal passes on."""
    events.append({"type": "all_pass"})
    _write(t, {"all_pass": True}, events)


def _auction_won(t: State, seat: int, igra: bool, events: list[JsonDict]) -> None:
    t.declarer = seat
    t.igra = igra
    t.bid = None if igra else t.high
    events.append({"type": "auction_won", "declarer": seat, "bid": t.bid, "igra": igra})
    t.turn = seat
    if igra:
        t.phase = "contract"
        return
    take_talon(t, seat, public=t.options.show_talon, events=events)  # §5.3


# ---------------------------------------------------------------------------------- igra naming
def naming_legal(s: State, seat: int) -> list[str]:
    if s.named is None:
        return [f"name {NAME_OF[n]}" for n in range(2, 8)]
    out = [f"name {NAME_OF[n]}" for n in range(s.named + 1, 8)]
    assert s.named_by is not None, "a named igra has its namer"
    if s.priority(seat) < s.priority(s.named_by):
        out.append("hold")
    out.append("concede")
    return out


def _h_naming(s: State, seat: int, verb: str, args: list[str], events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    if s.named is None and verb != "name":
        raise error("must_name")
    if verb == "name" and s.named is not None and CONTRACTS[args[0]] <= s.named:
        raise error("naming_low", current=NAME_OF[s.named])
    if verb == "hold":
        assert s.named_by is not None, "hold follows a name"
        if s.priority(seat) >= s.priority(s.named_by):
            raise error("no_hold")
    t = s.clone()
    if verb == "name":
        t.named, t.named_by = CONTRACTS[args[0]], seat
        call = f"name {args[0]}"
    elif verb == "hold":
        t.named_by = seat
        call = "hold"
    else:
        t.conceded.append(seat)
        call = "concede"
    t.calls.append([seat, call])
    events.append({"type": "call", "seat": seat, "call": call})
    left = [c for c in t.callers if c not in t.conceded]
    if len(left) == 1:
        # the last caller left plays the contract last named or held
        t.declarer, t.igra, t.bid, t.number = left[0], True, None, t.named
        events.append({"type": "auction_won", "declarer": left[0], "bid": None, "igra": True})
        _contract_set(t, events)
        return t, events
    i = t.callers.index(seat)
    for step in range(1, len(t.callers) + 1):
        nxt = t.callers[(i + step) % len(t.callers)]
        if nxt not in t.conceded:
            t.turn = nxt
            break
    return t, events


# ---------------------------------------------------------------------------------- talon, contract
def _h_discard(s: State, seat: int, verb: str, args: list[str], events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    t = discard(s, seat, args[0], events)
    if len(t.discards) == 2:
        t.phase = "contract"
    return t, events


def contract_legal(s: State) -> list[str]:
    if s.igra:
        lo = 2
    else:
        assert s.bid is not None, "an auction won without igra has a winning bid"
        lo = s.bid
    return [f"contract {NAME_OF[n]}" for n in range(lo, 8)]


def _h_contract(
    s: State, seat: int, verb: str, args: list[str], events: list[JsonDict]
) -> tuple[State, list[JsonDict]]:
    n = CONTRACTS[args[0]]
    if not s.igra:
        assert s.bid is not None, "an auction won without igra has a winning bid"
        if n < s.bid:
            raise error("contract_low", bid=s.bid)
    t = s.clone()
    t.number = n
    _contract_set(t, events)
    return t, events


def _contract_set(t: State, events: list[JsonDict]) -> None:
    d = t.declarer
    assert d is not None and t.number is not None, "the contract is set after the auction"
    events.append(
        {"type": "contract", "declarer": d, "number": t.number, "igra": t.igra, "contract": NAME_OF[t.number]}
    )
    d1, d2 = defenders(d)
    if t.number == BETTEL:  # both defenders always play (§5.4)
        t.defence = {d1: "play", d2: "play"}
        _start_kontra(t, events)
    else:
        t.defence = {}
        t.phase = "defence"
        t.turn = d1


# ---------------------------------------------------------------------------------- defence §5.4
def defence_legal(s: State, seat: int) -> list[str]:
    assert s.declarer is not None, "defence follows the contract"
    d1, _ = defenders(s.declarer)
    if seat == d1:
        return ["play", "pass"]
    if s.defence.get(d1) == "pass":
        return ["play", "invite", "pass"]
    return ["play", "pass"]


def _h_defence(s: State, seat: int, verb: str, args: list[str], events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    assert s.declarer is not None, "defence follows the contract"
    d1, d2 = defenders(s.declarer)
    if verb == "invite" and not (seat == d2 and s.defence.get(d1) == "pass"):
        raise error("no_invite")
    t = s.clone()
    if verb == "invite":
        t.defence[d2], t.defence[d1] = "invite", "invited"
    else:
        t.defence[seat] = verb
    events.append({"type": "defence", "seat": seat, "decision": verb})
    if seat == d1:
        t.turn = d2
    else:
        _start_kontra(t, events)
    return t, events


# ---------------------------------------------------------------------------------- kontra §5.5
def _eligible(t: State) -> list[int]:
    assert t.declarer is not None, "kontra follows the contract"
    return [x for x in defenders(t.declarer) if t.defence.get(x) in ("play", "invite")]


def _start_kontra(t: State, events: list[JsonDict]) -> None:
    queue = _eligible(t)
    t.kontra, t.level = [], 0
    if not queue:
        _after_kontra(t, events)
        return
    t.phase, t.kstage, t.kqueue, t.kindex = "kontra", "round", queue, 0
    t.turn = queue[0]


def kontra_legal(s: State, seat: int) -> list[str]:
    return ["kontra", "no"] if s.kstage == "round" else ["raise", "stop"]


def _h_kontra(s: State, seat: int, verb: str, args: list[str], events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    if (s.kstage == "round") != (verb in ("kontra", "no")):
        raise error("wrong_phase", verb=verb)
    t = s.clone()
    cap = t.options.kontra_cap
    assert t.declarer is not None, "kontra follows the contract"
    d1, d2 = defenders(t.declarer)
    if t.kstage == "round":
        if verb == "kontra":
            t.kontra.append(seat)
            other = d2 if seat == d1 else d1
            if t.defence.get(seat) == "play" and t.defence.get(other) == "pass":
                t.defence[seat], t.defence[other] = "invite", "invited"
                events.append({"type": "auto_invite", "seat": seat, "invited": other})
        events.append({"type": "kontra", "seat": seat, "said": verb == "kontra"})
        t.kindex += 1
        if t.kindex < len(t.kqueue):
            t.turn = t.kqueue[t.kindex]
            return t, events
        if not t.kontra:
            return _end_chain(t, events)
        t.level = 1
        events.append({"type": "level", "level": 1, "by": list(t.kontra)})
        if cap is not None and t.level >= cap:
            return _end_chain(t, events)
        t.kstage, t.turn = "decl", t.declarer
        return t, events
    if t.kstage == "decl":
        if verb == "stop":
            events.append({"type": "stop", "seat": seat})
            return _end_chain(t, events)
        t.level += 1
        events.append({"type": "level", "level": t.level, "by": [seat]})
        if cap is not None and t.level >= cap:
            return _end_chain(t, events)
        t.kstage, t.kqueue, t.kindex = "def", list(t.kontra), 0
        t.turn = t.kqueue[0]
        return t, events
    # a kontra-ing defender answers the declarer's raise
    if verb == "stop":
        events.append({"type": "stop", "seat": seat})
        t.kindex += 1
        if t.kindex < len(t.kqueue):
            t.turn = t.kqueue[t.kindex]
            return t, events
        return _end_chain(t, events)
    t.level += 1
    events.append({"type": "level", "level": t.level, "by": [seat]})
    if cap is not None and t.level >= cap:
        return _end_chain(t, events)
    t.kstage, t.turn = "decl", t.declarer
    return t, events


def _end_chain(t: State, events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    _after_kontra(t, events)
    return t, events


def _after_kontra(t: State, events: list[JsonDict]) -> None:
    """§5.6 and §5.4: no play (both passed, or an unkontra'd two), else trick play."""
    t.kstage, t.kqueue, t.kindex = None, [], 0
    entry = _entry(t, tricks=None)
    assert t.declarer is not None, "kontra follows the contract"
    both_pass = all(t.defence.get(x) == "pass" for x in defenders(t.declarer))
    if both_pass or two_check(t.pull, entry, t.options):
        events.append({"type": "no_play", "both_passed": both_pass, "two": two_check(t.pull, entry, t.options)})
        _write(t, entry, events)
        return
    _start_play(t, events)


# ---------------------------------------------------------------------------------- play §6.1
def participants(t: State) -> list[int]:
    return [x for x in range(3) if x == t.declarer or t.defence.get(x, "pass") != "pass"]


def _next_participant(t: State, seat: int) -> int:
    parts = participants(t)
    for step in range(1, 4):
        x = (seat + step) % 3
        if x in parts:
            return x
    raise AssertionError("no participant")  # pragma: no cover


def _start_play(t: State, events: list[JsonDict]) -> None:
    parts = participants(t)
    leader = t.fh if t.fh in parts else _next_participant(t, t.fh)
    if t.number == SANS:
        if t.options.slovenian_sans_lead:
            assert t.declarer is not None, "play follows the contract"
            d1, d2 = defenders(t.declarer)
            leader = d2 if d2 in parts else d1
        elif leader == t.declarer:
            leader = _next_participant(t, t.declarer)
    t.phase = "play"
    t.trick_leader, t.trick, t.turn = leader, [], leader
    events.append({"type": "play_starts", "leader": leader, "participants": parts})


def trump(t: State) -> str | None:
    return TRUMP_OF.get(t.number) if t.number is not None else None


def play_legal(s: State, seat: int) -> list[str]:
    led = s.trick[0][1][1] if s.trick else None
    return [f"play {c}" for c in sort_cards(legal_cards(s.hands[seat], led, trump(s)), trump(s))]


def _h_card(s: State, seat: int, verb: str, args: list[str], events: list[JsonDict]) -> tuple[State, list[JsonDict]]:
    card = args[0]
    check_card(s.hands[seat], card, s.trick[0][1][1] if s.trick else None, trump(s))
    t = s.clone()
    lay_card(t, seat, card)
    events.append({"type": "card", "seat": seat, "card": card})
    if len(t.trick) < len(participants(t)):
        t.turn = _next_participant(t, seat)
        return t, events
    assert t.trick_leader is not None, "a trick in play has a leader"
    trick = Trick(t.trick_leader, [(x, c) for x, c in t.trick])
    winner = trick.winner(trump(t))
    t.last_trick = close_trick(t, winner, events)
    d = t.declarer
    assert d is not None, "play follows the contract"
    defence_tricks = sum(t.won) - t.won[d]
    stop = (t.number == BETTEL and t.won[d] > 0) or (t.number != BETTEL and defence_tricks >= 5)
    if stop or t.tricks_played == 10:
        events.append({"type": "play_over", "early": t.tricks_played < 10, "won": list(t.won)})
        _write(t, _entry(t, tricks={x: t.won[x] for x in range(3)}), events)
        return t, events
    t.trick_leader = t.turn = winner
    return t, events


# ---------------------------------------------------------------------------------- scoring
def _entry(t: State, tricks: dict[int, int] | None) -> JsonDict:
    return {
        "declarer": t.declarer,
        "number": t.number,
        "igra": t.igra,
        "defence": dict(t.defence),
        "kontra": list(t.kontra),
        "level": t.level,
        "tricks": tricks,
    }


def _write(t: State, entry: JsonDict, events: list[JsonDict]) -> None:
    entry = normalise(t.pull, entry, t.options)
    t.pull, row = apply_entry(t.pull, entry, t.options)
    row = dict(row, hand_no=t.hand_no, dealer=t.dealer)
    t.last_row = row
    t.turn = None
    t.phase = "deal"
    events.append({"type": "deal_scored", "hand_no": t.hand_no, "row": row, "sheet": sheet_json(t)})
    if t.pull.finished:
        _game_over(t, events)


class _WithSheet(Protocol):
    """A state holding a preferans sheet: the game's or the score sheet's."""

    pull: Pull


def sheet_json(t: _WithSheet) -> JsonDict:
    """The public sheet (a fresh copy of the cached summary)."""
    d = t.pull.summary
    return {
        **d,
        "contract": list(d["contract"]),
        "soups": [list(r) for r in d["soups"]],
        "refe": list(d["refe"]),
        "refe_used": list(d["refe_used"]),
        "hats": list(d["hats"]),
        "settlement": list(d["settlement"]),
    }


def _game_over(t: State, events: list[JsonDict], forfeit: int | None = None) -> None:
    p = t.pull
    result = {
        "finished": p.finished,
        "forfeit": forfeit,
        "hands": t.hand_no,
        "dealer": t.dealer,
        "contract": [fnum(c) for c in p.contract],
        "soups": [[fnum(x) for x in r] for r in p.soups],
        "settlement": [fnum(x) for x in settlement(p)],
    }
    end_pulka(t, result, events)


# ---------------------------------------------------------------------------------- legal, view
def legal_actions(s: State, seat: int) -> list[str]:
    if seat not in to_act(s):
        return []
    ph = s.phase
    if ph == "auction":
        return auction_legal(s, seat)
    if ph == "naming":
        return naming_legal(s, seat)
    if ph == "discard":
        return [f"discard {c}" for c in sort_cards(s.hands[seat], None)]
    if ph == "contract":
        return contract_legal(s)
    if ph == "defence":
        return defence_legal(s, seat)
    if ph == "kontra":
        return kontra_legal(s, seat)
    if ph == "play":
        return play_legal(s, seat)
    return []


def sort_cards(cards: list[str], trump_suit: str | None) -> list[str]:
    """By suit (S D H C, trumps last), then rank, high first."""
    return sort_hand(cards, trump_suit, SUIT_ORDER, trumps_first=False)


def view(s: State, seat: int | None) -> JsonDict:
    p = s.pull
    live = s.phase not in ("deal", "over")
    v: dict[str, Any] = {
        "game": "preferans",
        "seat": seat,
        **table_view(s, to_act(s)),
        "igra_said": list(s.igra_said),
        "callers": list(s.callers),
        "conceded": list(s.conceded),
        "named": s.named,
        "named_by": s.named_by,
        "declarer": s.declarer,
        "bid": s.bid,
        "igra": s.igra,
        "number": s.number,
        "contract": NAME_OF[s.number] if s.number is not None else None,
        "trump": trump(s),
        "talon": list(s.talon) if (s.talon_public and live) else None,
        "talon_count": 2,
        "discarded": len(s.discards),
        "defence": {str(k): x for k, x in s.defence.items()},
        "kontra": list(s.kontra),
        "level": s.level,
        "kstage": s.kstage,
        "participants": participants(s) if s.phase == "play" else [],
        **trick_view(s, live),
        "last_trick": [list(x) for x in s.last_trick],
        "bula": p.bula,
        "options": {
            "show_talon": s.options.show_talon,
            "max_refe": s.options.max_refe,
            "kontra_scope": s.options.kontra_scope,
            "display_rounding": s.options.display_rounding,
            "kontra_cap": s.options.kontra_cap,
            "two_requires_kontra": s.options.two_requires_kontra,
            "slovenian_two_refe": s.options.slovenian_two_refe,
        },
        "sheet": sheet_json(s),
        "last_row": dict(s.last_row) if s.last_row else None,
        "result": dict(s.result) if s.result else None,
    }
    if seat is not None:
        v["hand"] = sort_cards(s.hands[seat], trump(s))
        if seat == s.declarer and live:
            # the declarer knows the talon he picked up and what he discarded
            if not s.igra:
                v["talon"] = list(s.talon)
            v["my_discards"] = list(s.discards)
    return v


# ---------------------------------------------------------------------------------- handlers
Result = tuple[State, list[JsonDict]]
Handler = Callable[[State, int, list[str], list[JsonDict]], Result]


def _bind(fn: Callable[[State, int, str, list[str], list[JsonDict]], Result], verb: str) -> Handler:
    return lambda s, seat, args, events: fn(s, seat, verb, args, events)


_HANDLERS: dict[tuple[str, str], Handler] = {}
for _verb in PHASE_VERBS["auction"]:
    _HANDLERS[("auction", _verb)] = _bind(_h_auction, _verb)
for _verb in PHASE_VERBS["naming"]:
    _HANDLERS[("naming", _verb)] = _bind(_h_naming, _verb)
_HANDLERS[("discard", "discard")] = _bind(_h_discard, "discard")
_HANDLERS[("contract", "contract")] = _bind(_h_contract, "contract")
for _verb in PHASE_VERBS["defence"]:
    _HANDLERS[("defence", _verb)] = _bind(_h_defence, _verb)
for _verb in PHASE_VERBS["kontra"]:
    _HANDLERS[("kontra", _verb)] = _bind(_h_kontra, _verb)
_HANDLERS[("play", "card")] = _bind(_h_card, "card")
