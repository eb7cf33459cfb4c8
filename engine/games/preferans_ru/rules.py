"""Russian preferans: checking and applying actions (§ numbers: docs/rules/preferans_ru.md).

Actions (notation in docs/notation.md): ``deal dealer=<d> <32 cards>`` (system), auction
``pass`` / ``bid 6S`` … ``bid 10NT`` / ``bid MISERE`` (/ ``bid MISERE_NOTALON``) / ``here``,
``discard 7S`` (twice), ``contract 7H``, whist ``whist`` / ``pass`` / ``half``, the lone
whister's ``open`` / ``closed``, ``play 7S``, and the system's ``forfeit <seat>``.

Every handler checks completely before it clones the state, so a rejected action
changes nothing. One engine match is one whole pulka: after each deal the state waits
in phase ``deal`` and ``system_action`` deals the next one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from engine.actions import Preamble
from engine.errors import split_action
from engine.preferans_family.deal import DECK as DECK
from engine.preferans_family.deal import check_deck, deal_action, one_card, sort_hand, split_deal
from engine.preferans_family.numbers import fnum
from engine.preferans_family.play import check_card, close_trick, lay_card, legal_cards, trick_view
from engine.preferans_family.table import discard, end_pulka, say, table_view, take_talon
from engine.tricks import winning_index

from .errors import error
from .hand import AllPassHand, GameHand, Hand, MisereHand, parse_contract
from .options import parse_options
from .scoring import apply_hand, finished, settlement
from .state import SEAT_NAMES, State

STRAINS = ("S", "C", "D", "H", "NT")
MISERE = "MISERE"
MISERE_NOTALON = "MISERE_NOTALON"  # мизер без прикупа (option, §5.1)
# §4: the bid order; мизер (and мизер без прикупа) between 8БК and 9♠
GAME_BIDS = [f"{level}{s}" for level in range(6, 11) for s in STRAINS]
BIDS = GAME_BIDS[:15] + [MISERE, MISERE_NOTALON] + GAME_BIDS[15:]
BID_RANK = {b: i for i, b in enumerate(BIDS)}
SUIT_ORDER = "SCDH"  # a hand on the screen: by suit in this order, trumps first

Handler = Callable[[State, int, list[str], list[dict[str, Any]]], tuple[State, list[dict[str, Any]]]]


def is_misere(bid: str | None) -> bool:
    return bid in (MISERE, MISERE_NOTALON)


def level_of(bid: str) -> int:
    return int(bid[:-2] if bid.endswith("NT") else bid[:-1])


def strain_of(bid: str) -> str:
    return "NT" if bid.endswith("NT") else bid[-1]


def seat_name(seat: int) -> str:
    return SEAT_NAMES[seat]


# ---------------------------------------------------------------------------------- setup §3
def _check_players(players: int) -> None:
    if players not in (3, 4):
        raise error("bad_options", detail=f"Russian preferans is for 3 or 4 players, not {players}")


def initial_state(options: Any, players: int = 3) -> State:
    _check_players(players)
    return State(parse_options(options), players)


def _first_dealer(first: str | None, players: int, rng: random.Random) -> int:
    """§3.5: option ``first_dealer`` (a seat letter A-D or number), default by lot."""
    fixed = _fixed_first_dealer(first, players)
    return fixed if fixed is not None else rng.randrange(players)


def _fixed_first_dealer(first: str | None, players: int) -> int | None:
    if first is None:
        return None
    text = str(first).strip().upper()
    if text in SEAT_NAMES[:players]:
        return SEAT_NAMES.index(text)
    if text.isdigit() and int(text) < players:
        return int(text)
    return None


def new_deal(options: Any, players: int, rng: random.Random, history: list[dict[str, Any]]) -> str:
    opts = parse_options(options)
    _check_players(players)
    return deal_action(_first_dealer(opts.first_dealer, players, rng), rng)


def system_action(s: State, rng: random.Random) -> str | None:
    """The next deal whenever the pulka waits for one (§3.4: the deal passes on)."""
    if s.phase != "deal":
        return None
    if s.next_dealer is None:
        return deal_action(_first_dealer(s.options.first_dealer, s.players, rng), rng)
    return deal_action(s.next_dealer, rng)


def _do_deal(t: State, dealer: int, deck: list[str], events: list[dict[str, Any]]) -> None:
    """§3.3: 10 cards to each active player, 2 face down to the talon."""
    t.dealer = dealer
    t.hand_no += 1
    hands, t.talon = split_deal(deck, t.active, first_packet=10)
    t.hands = [hands.get(seat, []) for seat in range(t.players)]  # the dealer of four sits out
    t.talon_public = False
    t.discards = []
    t.calls, t.high, t.holder, t.misere_bidder = [], None, None, None
    t.passed, t.called = [False] * t.players, [False] * t.players
    if t.players == 4:
        t.passed[dealer] = True  # the dealer sits out (§3.1)
    t.declarer = None
    t.bid = t.contract = None
    t.raspasy = False
    t.whist, t.whist_calls, t.whist_stage = [None] * t.players, [], None
    t.lone, t.open = None, None
    t.open_seats, t.open_at, t.opened = [], None, False
    t.trick_leader, t.trick = None, []
    t.won, t.tricks_played, t.played, t.turned = [0] * t.players, 0, [], []
    t.phase = "auction"
    t.turn = t.fh
    events.append({"type": "deal", "hand_no": t.hand_no, "dealer": dealer, "first_hand": t.fh})


# ---------------------------------------------------------------------------------- parsing
ZERO_ARG = ("pass", "here", "whist", "half", "open", "closed")


def parse(action: Any) -> tuple[str, list[str]]:
    parts = split_action(action)
    verb, args = parts[0], parts[1:]
    if verb in ("deal", "forfeit"):
        return verb, args
    if verb in ZERO_ARG:
        if args:
            raise error("bad_syntax", action=action, detail=f"{verb} takes nothing after it")
        return verb, args
    if verb in ("bid", "contract"):
        if len(args) != 1 or args[0].upper() not in BID_RANK:
            raise error("bad_syntax", action=action, detail="a contract is 6S … 10NT or MISERE")
        return verb, [args[0].upper()]
    if verb in ("discard", "play"):
        return verb, one_card(action, args)
    raise error("bad_syntax", action=action, detail=f"unknown action {verb!r}")


PHASE_VERBS: dict[str, tuple[str, ...]] = {
    "auction": ("pass", "bid", "here"),
    "discard": ("discard",),
    "contract": ("contract",),
    "whist": ("whist", "pass", "half"),
    "open_choice": ("open", "closed"),
    "play": ("play",),
}


# ---------------------------------------------------------------------------------- whose turn
def controller(s: State, seat: int) -> int:
    """Who chooses the card of ``seat``'s hand: the lone whister plays the passer's open
    hand (в светлую, §5.3) once it lies face up; everybody else plays his own."""
    if s.phase == "play" and s.open and s.opened and s.lone is not None and seat != s.declarer:
        return s.lone
    return seat


def to_act(s: State) -> list[int]:
    if s.phase in ("deal", "over") or s.turn is None:
        return []
    return [controller(s, s.turn)]


PREAMBLE = Preamble(parse, error)


def apply(state: State, seat: int | None, action: str) -> tuple[State, list[dict[str, Any]]]:
    s = state
    verb, args = PREAMBLE.check(s.phase == "over", seat, action, s.players)
    events: list[dict[str, Any]] = []
    if verb == "deal":
        if s.phase != "deal":
            raise error("wrong_phase", verb="deal")
        dealer, deck = _parse_deal(s, action, args)
        t = s.clone()
        _do_deal(t, dealer, deck, events)
        return t, events
    if verb == "forfeit":
        if len(args) != 1 or not args[0].isdigit() or int(args[0]) >= s.players:
            raise error("bad_syntax", action=action, detail="expected 'forfeit <seat>'")
        t = s.clone()
        _game_over(t, events, forfeit=int(args[0]))
        return t, events
    if seat is None or seat not in to_act(s):
        waiting = "the deal" if s.phase == "deal" else f"seat {to_act(s)[0]}"
        raise error("not_your_turn", waiting=waiting)
    if verb not in PHASE_VERBS.get(s.phase, ()):
        raise error("wrong_phase", verb=verb)
    return _HANDLERS[s.phase](s, seat, [verb, *args], events)


def _parse_deal(s: State, action: str, args: list[str]) -> tuple[int, list[str]]:
    if not args or not args[0].startswith("dealer=") or not args[0][7:].isdigit():
        raise error("bad_syntax", action=action, detail="expected 'deal dealer=<seat> <32 cards>'")
    dealer = int(args[0][7:])
    deck = args[1:]
    if dealer >= s.players:
        raise error("bad_deal", detail=f"no seat {dealer}")
    check_deck(deck)
    if s.next_dealer is not None and dealer != s.next_dealer:
        raise error("bad_deal", detail=f"seat {s.next_dealer} deals now (§3.4)")
    fixed = _fixed_first_dealer(s.options.first_dealer, s.players)
    if s.next_dealer is None and fixed is not None and dealer != fixed:
        raise error("bad_deal", detail=f"the first dealer is seat {fixed} (option first_dealer)")
    return dealer, deck


# ---------------------------------------------------------------------------------- auction §5.1
def exit_level(s: State) -> int:
    return s.options.exit_level(s.series)


def _bid_error(s: State, seat: int, bid: str) -> Any:
    """Why ``seat`` may not bid ``bid`` now (an EngineError), or None."""
    high = BID_RANK[s.high] if s.high is not None else -1
    if s.misere_bidder == seat:
        return error("misere_only_pass")
    if is_misere(bid):
        if bid == MISERE_NOTALON and not s.options.misere_without_talon:
            return error("bad_syntax", action=f"bid {bid}", detail="мизер без прикупа is not played here")
        if s.called[seat] or BID_RANK[bid] <= high:
            return error("misere_first_call")
        return None
    if BID_RANK[bid] <= high:
        return error("bid_too_low", high=s.high)
    if level_of(bid) < exit_level(s):
        return error("below_exit", level=exit_level(s))
    if not s.options.jump_bids:
        nxt = _next_step(s)
        if bid != nxt:
            return error("one_step", next=nxt)
    return None


def _next_step(s: State) -> str | None:
    """With ``jump_bids`` off: the only game bid allowed now (the next step up)."""
    lowest = f"{exit_level(s)}S"
    for b in GAME_BIDS:
        if BID_RANK[b] >= BID_RANK[lowest] and (s.high is None or BID_RANK[b] > BID_RANK[s.high]):
            return b
    return None


def _can_say_here(s: State, seat: int) -> bool:
    return (
        s.options.here
        and s.high is not None
        and not is_misere(s.high)
        and s.holder is not None
        and s.misere_bidder != seat
        and s.priority(seat) < s.priority(s.holder)
    )


def auction_legal(s: State, seat: int) -> list[str]:
    out = [f"bid {b}" for b in BIDS if _bid_error(s, seat, b) is None]
    if _can_say_here(s, seat):
        out.append("here")
    out.append("pass")
    return out


def _h_auction(s: State, seat: int, args: list[str], events: list[dict[str, Any]]) -> tuple[State, Any]:
    verb = args[0]
    if verb == "bid":
        problem = _bid_error(s, seat, args[1])
        if problem is not None:
            raise problem
    if verb == "here" and not _can_say_here(s, seat):
        raise error("no_here")
    t = s.clone()
    if verb == "pass":
        t.passed[seat] = True
        call = "pass"
    elif verb == "bid":
        t.high, t.holder = args[1], seat
        t.called[seat] = True
        if is_misere(args[1]):
            t.misere_bidder = seat
        call = f"bid {args[1]}"
    else:
        t.holder = seat
        t.called[seat] = True
        call = "here"
    say(t, seat, call, events)
    _auction_next(t, seat, events)
    return t, events


def _auction_next(t: State, last: int, events: list[dict[str, Any]]) -> None:
    """§5.1 End: all passed → распасы; two passed and the third holds the bid → he is the
    declarer; two passed and the third has not called → he calls once."""
    left = [p for p in t.active if not t.passed[p]]
    if not left:
        _start_raspasy(t, events)
        return
    if len(left) == 1:
        third = left[0]
        if t.holder == third:
            _auction_won(t, third, events)
            return
        assert not t.called[third], "a bidder who is not the holder has passed"
        t.turn = third
        return
    nxt = t.next_active(last)
    while t.passed[nxt]:
        nxt = t.next_active(nxt)
    t.turn = nxt


def _auction_won(t: State, seat: int, events: list[dict[str, Any]]) -> None:
    """§5.2: the declarer turns the talon face up and takes it (not for мизер без прикупа)."""
    assert t.high is not None
    t.declarer, t.bid = seat, t.high
    events.append({"type": "auction_won", "declarer": seat, "bid": t.bid})
    t.turn = seat
    if t.bid == MISERE_NOTALON:
        t.contract = MISERE
        events.append({"type": "contract", "declarer": seat, "contract": MISERE, "without_talon": True})
        _start_misere(t, events)
        return
    take_talon(t, seat, public=True, events=events)


# ---------------------------------------------------------------------------------- discard, contract §5.2
def _h_discard(s: State, seat: int, args: list[str], events: list[dict[str, Any]]) -> tuple[State, Any]:
    t = discard(s, seat, args[1], events)
    if len(t.discards) == 2:
        if t.bid == MISERE:
            t.contract = MISERE
            events.append({"type": "contract", "declarer": seat, "contract": MISERE})
            _start_misere(t, events)
        else:
            t.phase = "contract"
    return t, events


def contract_legal(s: State) -> list[str]:
    assert s.bid is not None
    return [f"contract {b}" for b in GAME_BIDS if BID_RANK[b] >= BID_RANK[s.bid]]


def _h_contract(s: State, seat: int, args: list[str], events: list[dict[str, Any]]) -> tuple[State, Any]:
    assert s.bid is not None
    named = args[1]
    if is_misere(named) or BID_RANK[named] < BID_RANK[s.bid]:
        raise error("contract_low", bid=s.bid)
    t = s.clone()
    t.contract = named
    events.append({"type": "contract", "declarer": seat, "contract": named})
    d1, d2 = t.defenders()
    if level_of(named) == 10 and t.options.ten_checked:
        # §5.3: a checked ten has no whist phase; both defenders play open, no quota
        t.open_seats = [d1, d2]
        _start_play(t, events, open_when=t.options.open_timing)
    elif named == "6S" and t.options.stalingrad:
        t.whist[d1] = t.whist[d2] = "whist"
        events.append({"type": "whist_done", "whisters": [d1, d2], "stalingrad": True})
        _start_play(t, events, open_when=None)
    else:
        t.phase, t.whist_stage, t.turn = "whist", "first", d1
    return t, events


# ---------------------------------------------------------------------------------- whist §5.3
def whist_legal(s: State, seat: int) -> list[str]:
    assert s.contract is not None
    d1, _ = s.defenders()
    if s.whist_stage == "second" and s.whist[d1] == "pass" and level_of(s.contract) in s.options.half_whist:
        return ["whist", "pass", "half"]
    return ["whist", "pass"]


def _h_whist(s: State, seat: int, args: list[str], events: list[dict[str, Any]]) -> tuple[State, Any]:
    decision = args[0]
    if decision not in whist_legal(s, seat):
        assert s.contract is not None
        raise error("no_half", levels=", ".join(str(x) for x in s.options.half_whist) or "—")
    t = s.clone()
    d1, d2 = t.defenders()
    t.whist_calls.append([seat, decision])
    events.append({"type": "whist", "seat": seat, "decision": decision})
    if t.whist_stage == "first":
        t.whist[d1] = decision
        t.whist_stage, t.turn = "second", d2
        return t, events
    if t.whist_stage == "second":
        t.whist[d2] = decision
        if decision == "half":
            t.whist_stage, t.turn = "first_again", d1  # the first may still whist alone
            return t, events
    else:  # first_again: whist → he plays alone, the half-whister counts as passed
        if decision == "whist":
            t.whist[d1], t.whist[d2] = "whist", "pass"
    _whist_resolved(t, events)
    return t, events


def _whist_resolved(t: State, events: list[dict[str, Any]]) -> None:
    d1, d2 = t.defenders()
    t.whist_stage = None
    whisters = [x for x in (d1, d2) if t.whist[x] == "whist"]
    events.append({"type": "whist_done", "whisters": whisters, "half": "half" in (t.whist[d1], t.whist[d2])})
    if not whisters:  # both passed or the half-whist stands: no play (§5.3)
        _score(t, events, played=False)
    elif len(whisters) == 2:
        _start_play(t, events, open_when=None)
    else:
        t.lone = whisters[0]
        t.phase, t.turn = "open_choice", t.lone


def _h_open(s: State, seat: int, args: list[str], events: list[dict[str, Any]]) -> tuple[State, Any]:
    t = s.clone()
    t.open = args[0] == "open"
    events.append({"type": "open_choice", "seat": seat, "open": t.open})
    if t.open:
        t.open_seats = list(t.defenders())
        _start_play(t, events, open_when=t.options.open_timing)
    else:
        _start_play(t, events, open_when=None)
    return t, events


# ---------------------------------------------------------------------------------- play §5.4
def _start_misere(t: State, events: list[dict[str, Any]]) -> None:
    """§5.4: no whist phase; both catchers lay their hands face up (``misere_open_timing``)."""
    assert t.declarer is not None
    t.open_seats = list(t.defenders())
    _start_play(t, events, open_when=t.options.misere_open_timing)


def _start_raspasy(t: State, events: list[dict[str, Any]]) -> None:
    t.raspasy = True
    events.append({"type": "all_pass"})
    _start_play(t, events, open_when=None)


def _start_play(t: State, events: list[dict[str, Any]], open_when: str | None) -> None:
    """The first hand always leads the first trick (§5.4)."""
    t.phase = "play"
    t.trick_leader = t.turn = t.fh
    t.trick = []
    if open_when is None:
        t.open_at = None
    elif open_when == "before_lead":
        _open_hands(t, events)
    else:
        t.open_at = "lead" if open_when == "after_lead" else "trick"
    if t.raspasy and t.options.raspasy_talon == "lead_suit":
        _turn_talon_card(t, events)
    events.append({"type": "play_starts", "leader": t.fh, "trump": trump(t)})


def _open_hands(t: State, events: list[dict[str, Any]]) -> None:
    t.opened, t.open_at = True, None
    events.append({"type": "hands_open", "seats": list(t.open_seats)})


def _turn_talon_card(t: State, events: list[dict[str, Any]]) -> None:
    """Распасы, tricks 1 and 2: a talon card is turned and fixes the suit (§5.4)."""
    card = t.talon[len(t.turned)]
    t.turned = t.turned + [card]
    events.append({"type": "talon_card", "card": card, "trick": len(t.turned)})


def trump(s: State) -> str | None:
    if s.raspasy or s.contract is None or is_misere(s.contract):
        return None
    strain = strain_of(s.contract)
    return None if strain == "NT" else strain


def led_suit(s: State) -> str | None:
    """The suit to follow: the first card of the trick, or the turned распасы talon card."""
    if s.raspasy and s.tricks_played < len(s.turned):
        return s.turned[s.tricks_played][1]
    return s.trick[0][1][1] if s.trick else None


def play_legal(s: State) -> list[str]:
    assert s.turn is not None
    return [f"play {c}" for c in sort_cards(legal_cards(s.hands[s.turn], led_suit(s), trump(s)), trump(s))]


def _h_play(s: State, seat: int, args: list[str], events: list[dict[str, Any]]) -> tuple[State, Any]:
    card = args[1]
    assert s.turn is not None
    mover = s.turn
    check_card(s.hands[mover], card, led_suit(s), trump(s))
    t = s.clone()
    lay_card(t, mover, card)
    events.append({"type": "card", "seat": mover, "card": card, "by": seat})
    if t.open_at == "lead" and t.tricks_played == 0 and len(t.trick) == 1:
        _open_hands(t, events)
    if len(t.trick) < 3:
        t.turn = t.next_active(mover)
        return t, events
    winner = _trick_winner(t)
    close_trick(t, winner, events)
    if t.open_at == "trick":
        _open_hands(t, events)
    if t.tricks_played == 10:
        events.append({"type": "play_over", "won": list(t.won)})
        _score(t, events, played=True)
        return t, events
    if t.raspasy and len(t.turned) < min(2, len(t.talon)) and t.options.raspasy_talon == "lead_suit":
        _turn_talon_card(t, events)  # trick 2 is led by the second talon card, first hand first
        t.trick_leader = t.turn = t.fh
    else:
        t.trick_leader = t.turn = winner
    return t, events


def _trick_winner(t: State) -> int:
    if t.raspasy and t.tricks_played < len(t.turned):
        # the talon card fixes the suit and never wins: the highest card of its suit does
        suit = t.turned[t.tricks_played][1]
        following = [(seat, c) for seat, c in t.trick if c[1] == suit]
        return int(following[winning_index([c for _, c in following], None)][0])
    return int(t.trick[winning_index([c for _, c in t.trick], trump(t))][0])


# ---------------------------------------------------------------------------------- scoring §6
def hand_outcome(t: State) -> Hand:
    """The deal as the sheet sees it (§9 shape), from the finished state."""
    tricks = {seat_name(p): t.won[p] for p in t.active}
    dealer = seat_name(t.dealer) if t.dealer is not None else None
    if t.raspasy:
        return AllPassHand(tricks=tricks, dealer=dealer)
    assert t.declarer is not None and t.contract is not None
    if t.contract == MISERE:
        return MisereHand(declarer=seat_name(t.declarer), tricks=tricks, dealer=dealer)
    played = t.tricks_played == 10
    whist: dict[str, Any] = {}
    if not (level_of(t.contract) == 10 and t.options.ten_checked):
        whist = {seat_name(x): t.whist[x] for x in t.defenders()}
    return GameHand(
        declarer=seat_name(t.declarer),
        contract=parse_contract(t.contract),
        whist=whist,
        tricks=tricks if played else None,
        dealer=dealer,
    )


def record_hand(hand: Hand) -> dict[str, Any]:
    """One deal in the §9 record shape (the score-only record replays the pulka from these)."""
    out: dict[str, Any]
    if isinstance(hand, AllPassHand):
        out = {"all_pass": True, "tricks": dict(hand.tricks)}
    elif isinstance(hand, MisereHand):
        out = {"declarer": hand.declarer, "contract": MISERE, "tricks": dict(hand.tricks)}
    else:
        out = {"declarer": hand.declarer, "contract": str(hand.contract), "tricks": hand.tricks}
        if hand.whist:
            out["whist"] = dict(hand.whist)
    out["dealer"] = hand.dealer
    return out


def record_json(s: State) -> dict[str, Any]:
    """The whole pulka as a §9 score-only record (public: the sheet knows nothing hidden)."""
    options = s.options.model_dump(mode="json")
    options["first_dealer"] = None  # every hand names its dealer
    players = [seat_name(x) for x in range(s.players)]
    return {"game": "preferans_ru", "options": options, "players": players, "hands": list(s.record_hands)}


def _score(t: State, events: list[dict[str, Any]], played: bool) -> None:
    """Apply the deal to the pulka (§6), then the next dealer (§3.4) or the end (§6.4)."""
    hand = hand_outcome(t)
    t.sheet, gain = apply_hand(t.sheet, hand, t.options, seat_name(t.dealer) if t.dealer is not None else None)
    t.record_hands = t.record_hands + [record_hand(hand)]
    t.series = t.sheet.raspasy_series  # the sheet knows which deals end a run (raspasy_reset)
    row: dict[str, Any] = {
        "hand_no": t.hand_no,
        "dealer": t.dealer,
        "declarer": t.declarer,
        "contract": t.contract,
        "raspasy": t.raspasy,
        "played": played,
        "whist": [[x, t.whist[x]] for x in t.defenders()] if t.declarer is not None else [],
        "tricks": {str(p): t.won[p] for p in t.active} if played else None,
        "gain": _gain_json(gain),
    }
    t.last_row = row
    t.turn = None
    t.phase = "deal"
    assert t.dealer is not None
    if t.raspasy and t.options.dealer_stays_on_all_pass and t.dealer_repeats < 3:
        t.next_dealer, t.dealer_repeats = t.dealer, t.dealer_repeats + 1
    else:
        t.next_dealer, t.dealer_repeats = (t.dealer + 1) % t.players, 0
    events.append({"type": "deal_scored", "hand_no": t.hand_no, "row": row})
    if finished(t.sheet, t.options):
        _game_over(t, events)


def _gain_json(gain: Any) -> Any:
    to_json = getattr(gain, "to_json", None)
    return to_json() if callable(to_json) else None


def sheet_json(s: State) -> dict[str, Any]:
    """The public pulka: pool, mountain, whists (writer → target), the settlement now."""
    sh = s.sheet
    names = list(sh.players)
    return {
        "players": names,
        "pool": [fnum(sh.pool[p]) for p in names],
        "mountain": [fnum(sh.mountain[p]) for p in names],
        "whists": [[fnum(sh.whists[p][q]) if q != p else 0 for q in names] for p in names],
        "settlement": [fnum(v) for v in _settle(s)],
        "raspasy_series": s.series,
        "target": s.options.pool,
    }


def _settle(s: State) -> list[Fraction]:
    result = settlement(s.sheet, s.options)
    return [Fraction(result[p]) for p in s.sheet.players]


def _game_over(t: State, events: list[dict[str, Any]], forfeit: int | None = None) -> None:
    result = {
        "finished": finished(t.sheet, t.options),
        "forfeit": forfeit,
        "hands": t.hand_no,
        "system": t.options.system,
        "settlement": [fnum(v) for v in _settle(t)],
    }
    end_pulka(t, result, events)


# ---------------------------------------------------------------------------------- legal, view
def legal_actions(s: State, seat: int) -> list[str]:
    if seat not in to_act(s):
        return []
    ph = s.phase
    assert s.turn is not None
    if ph == "auction":
        return auction_legal(s, seat)
    if ph == "discard":
        return [f"discard {c}" for c in sort_cards(s.hands[seat], None)]
    if ph == "contract":
        return contract_legal(s)
    if ph == "whist":
        return whist_legal(s, seat)
    if ph == "open_choice":
        return ["open", "closed"]
    if ph == "play":
        return play_legal(s)
    return []


def sort_cards(cards: list[str], trump_suit: str | None) -> list[str]:
    """By suit (♠ ♣ ♦ ♥, trumps first), then rank, high first."""
    return sort_hand(cards, trump_suit, SUIT_ORDER, trumps_first=True)


def visible_hands(s: State, seat: int | None) -> dict[str, list[str]]:
    """Hands lying face up that ``seat`` may see (§11.8): the open defenders' or catchers'
    hands once opened; the lone whister sees the passer's hand as soon as he chose open."""
    out: dict[str, list[str]] = {}
    if s.phase not in ("play",):
        return out
    for x in s.open_seats:
        if x == seat:
            continue
        if s.opened:
            out[str(x)] = sort_cards(s.hands[x], trump(s))
    return out


def view(s: State, seat: int | None) -> dict[str, Any]:
    live = s.phase not in ("deal", "over")
    v: dict[str, Any] = {
        "game": "preferans_ru",
        "seat": seat,
        "players": s.players,
        **table_view(s, to_act(s)),
        "active": s.active if s.dealer is not None else [],
        "exit_level": exit_level(s),
        "declarer": s.declarer,
        "bid": s.bid,
        "contract": s.contract,
        "trump": trump(s),
        "raspasy": s.raspasy,
        "talon": list(s.talon) if (s.talon_public and live) else None,
        "discarded": len(s.discards),
        "whist": {str(x): d for x, d in enumerate(s.whist) if d is not None},
        "whist_calls": [list(c) for c in s.whist_calls],
        "whist_stage": s.whist_stage,
        "lone": s.lone,
        "open": s.open,
        "open_hands": visible_hands(s, seat),
        "turned": list(s.turned) if live else [],
        **trick_view(s, live),
        "last_trick": [list(x) for x in s.played[-1]] if (s.played and live) else [],
        "options": s.options.model_dump(mode="json"),
        "series": s.series,
        "sheet": sheet_json(s),
        "record": record_json(s),
        "last_row": dict(s.last_row) if s.last_row else None,
        "result": dict(s.result) if s.result else None,
    }
    if seat is not None:
        v["hand"] = sort_cards(s.hands[seat], trump(s)) if seat < s.players else []
        if seat == s.declarer and live:
            v["my_discards"] = list(s.discards)  # he knows what he put away
    return v


_HANDLERS: dict[str, Handler] = {
    "auction": _h_auction,
    "discard": _h_discard,
    "contract": _h_contract,
    "whist": _h_whist,
    "open_choice": _h_open,
    "play": _h_play,
}
