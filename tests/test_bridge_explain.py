"""The bidding box's preview (engine/games/bridge/explain.py ``preview``): what each legal call
would show in the computers' system (docs/bridge-bidding.md), and that it is what
``explain`` says of the call once it is made."""

from __future__ import annotations

import random

from engine.games.bridge import auction as A
from engine.games.bridge.bidding import decide
from engine.games.bridge.bidding.hand import Hand
from engine.games.bridge.explain import CallPreview, Shown, explain, preview, worth_listing
from engine.cards import make_deck
from tests.test_ai_bridge_bidding import random_auction

N, E, S, W = range(4)


def by_call(calls: list[str], dealer: int = N) -> dict[str, CallPreview]:
    return {p.call: p for p in preview(calls, dealer)}


def test_every_legal_call_is_previewed_in_the_bidding_box_order():
    calls = ["1H", "P", "1S", "X"]
    assert [p.call for p in preview(calls, N)] == A.legal_calls(calls, N)
    assert [p.call for p in preview([], E)][:3] == ["P", "1C", "1D"]
    assert all(p.shown.seat == N for p in preview(calls, N))  # N is to call again


def test_the_opening_seat():
    box = by_call([])
    assert box["1NT"].shown == Shown(N, (15, 17), (), True, "", False) and box["1NT"].kind == "table"
    assert box["1H"].shown.hcp == (10, 21) and box["1H"].shown.suits == (("H", 5, 13),)
    assert box["1D"].shown.suits == (("D", 3, 13),)  # better minor: three cards are named
    assert box["2C"].shown.note == "strong, artificial" and box["2C"].shown.forcing
    assert box["2S"].shown.note == "weak two" and box["2S"].shown.suits == (("S", 6, 6),)
    assert box["3C"].shown.note == "pre-empt"
    assert box["3NT"].kind == "natural" and not box["3NT"].shown.note
    # the third seat too: passes before the first bid change nothing
    assert by_call(["P", "P"])["1NT"].shown == Shown(S, (15, 17), (), True, "", False)


def test_responses_to_1nt_stayman_and_transfers():
    box = by_call(["1NT", "P"])
    stayman = box["2C"].shown
    assert stayman.note == "Stayman" and stayman.forcing and stayman.hcp == (8, 37)
    hearts, spades = box["2D"].shown, box["2H"].shown
    assert hearts.note == "transfer to hearts" and hearts.suits == (("H", 5, 13),) and hearts.hcp is None
    assert spades.note == "transfer to spades" and spades.suits == (("S", 5, 13),)
    assert box["2NT"].shown.hcp == (8, 9) and box["2NT"].shown.note == "invitational"
    assert box["4NT"].shown.note.startswith("quantitative") and box["4NT"].kind == "table"
    assert box["P"].shown.hcp == (0, 7)
    # opener's answers to Stayman, and over 2NT the transfers one level higher
    answers = by_call(["1NT", "P", "2C", "P"])
    assert answers["2D"].shown.note == "no four-card major" and answers["2H"].shown.suits[0][:2] == ("H", 4)
    assert by_call(["2NT", "P"])["3D"].shown.note == "transfer to hearts"


def test_a_takeout_double_over_an_opening():
    box = by_call(["1D"])  # E, over N's 1D
    double = box["X"].shown
    assert box["X"].kind == "table" and double.note == "takeout" and double.hcp == (12, 37)
    assert double.suits == (("D", 0, 2),)  # short in their suit
    assert box["1H"].shown.hcp == (8, 17) and box["1H"].shown.suits == (("H", 5, 13),)
    assert box["2H"].shown.note == "weak jump overcall"
    # advancing the double: the partner of the doubler answers in a suit
    advance = by_call(["1D", "X", "P"])
    assert advance["2H"].shown.note == "jump: invitational"
    # opener's partner after the double: redouble shows values; nobody doubles partner
    redouble = by_call(["1D", "X"])["XX"].shown
    assert redouble.seat == S and redouble.note == "values, no fit" and redouble.hcp == (10, 37)
    assert "X" not in by_call(["1D", "P"])


def test_blackwood_4nt_and_its_answers():
    calls = ["1H", "P", "3H", "P"]  # N opened, S made a limit raise: N to call
    ask = by_call(calls)["4NT"]
    assert ask.kind == "blackwood" and ask.shown.note == "Blackwood" and ask.shown.forcing
    assert ask.shown.hcp is None and not ask.shown.suits  # it counts aces, shows no suit
    answers = by_call([*calls, "4NT", "P"])
    assert {c: answers[c].shown.note for c in ("5C", "5D", "5H", "5S")} == {
        "5C": "0 or 4 aces",
        "5D": "1 ace",
        "5H": "2 aces",
        "5S": "3 aces",
    }
    assert all(answers[c].kind == "blackwood" and not answers[c].shown.suits for c in ("5C", "5D", "5H", "5S"))
    assert answers["5NT"].kind == "natural"
    # over partner's 1NT, 4NT is quantitative, not Blackwood
    assert by_call(["1NT", "P"])["4NT"].kind == "table"


def agrees(before: Shown, after: Shown) -> None:
    """What the seat has shown after the call (``explain``: all its calls together) is
    within what the preview said the call would show: the same name, a narrower range."""
    if before.hcp is not None:
        assert after.hcp is not None and before.hcp[0] <= after.hcp[0] <= after.hcp[1] <= before.hcp[1]
    shown = {s: (lo, hi) for s, lo, hi in after.suits}
    for suit, lo, hi in before.suits:
        assert suit in shown and lo <= shown[suit][0] <= shown[suit][1] <= hi, (before, after)
    assert after.balanced or not before.balanced


def check_auction(calls: list[str], dealer: int) -> int:
    """Every stage of the auction: each legal call's preview against ``explain`` once it
    is made. Returns how many calls were checked."""
    checked = 0
    for k in range(len(calls) + 1):
        if A.finished(calls[:k]):
            break
        for p in preview(calls[:k], dealer):
            made = {s.seat: s for s in explain([*calls[:k], p.call], dealer)}
            seat = p.shown.seat
            if p.call == "P":  # a pass names nothing; explain names the seat's last bid
                if seat in made:
                    agrees(p.shown, made[seat])
                continue
            after = made[seat]
            assert (after.note, after.forcing) == (p.shown.note, p.shown.forcing), (calls[:k], p)
            agrees(p.shown, after)
            checked += 1
    return checked


def test_the_preview_agrees_with_the_explanation_once_the_call_is_made():
    # Stayman, a transfer, a takeout double, Blackwood and its answer
    for calls, dealer in (
        (["1NT", "P", "2C", "P", "2H", "P", "4H"], N),
        (["P", "1NT", "P", "2D", "P", "2H"], E),
        (["1D", "X", "P", "2H", "P", "P"], W),
        (["1H", "P", "3H", "P", "4NT", "P", "5D", "P"], S),
    ):
        assert check_auction(calls, dealer) > 100


def strong_or_random_auction(rng: random.Random) -> tuple[list[str], int]:
    """An auction on a random deal where each call is the strong computer's (the system's
    own situations: Stayman, transfers, competition, Blackwood) or, one call in four, a
    random one among the cheapest (a person may call anything)."""
    deck = make_deck(52)
    rng.shuffle(deck)
    hands = [Hand(deck[i * 13 : (i + 1) * 13]) for i in range(4)]
    dealer = rng.randrange(4)
    calls: list[str] = []
    while not A.finished(calls) and len(calls) < 30:
        legal = A.legal_calls(calls, dealer)
        seat = (dealer + len(calls)) % 4
        if rng.random() < 0.25:
            calls.append(rng.choice(legal[:8]))
        else:
            calls.append(decide(hands[seat], calls, dealer, seat, set(legal)))
    return calls, dealer


def test_the_preview_never_disagrees_with_the_explanation_on_random_auctions():
    """The property behind the preview: whatever call a person picks, the computers'
    reading of it afterwards (``explain``) has the name the preview gave and lies within
    the range it promised. Auctions of the strong bidder with random calls mixed in, and
    fully random ones."""
    rng = random.Random(31)
    checked = 0
    for i in range(20):
        if i % 4 == 3:
            dealer = rng.randrange(4)
            calls = random_auction(rng, dealer, lambda legal, r: r.choice(legal[:6]) if r.random() < 0.6 else "P")
        else:
            calls, dealer = strong_or_random_auction(rng)
        checked += check_auction(calls, dealer)
    assert checked > 4000


def test_worth_listing_names_the_system_and_summarises_the_natural_rest():
    # the opening seat: the system's openings, pass, Blackwood; natural 3NT and 5C are left out
    listed, rest = worth_listing(preview([], N))
    calls = [p.call for p in listed]
    assert calls[0] == "P" and {"1C", "1NT", "2C", "2S", "3H", "4S", "4NT"} <= set(calls)
    assert "3NT" not in calls and "5C" not in calls and "X" not in calls and rest
    # a double is listed when it means something, else it goes with the natural rest
    assert "X" in [p.call for p in worth_listing(preview(["1D"], N))[0]]
    over_overcall = ["1H", "P", "1S", "2C"]  # N's rebid over W's 2C: the system has no double here
    assert by_call(over_overcall)["X"].kind == "natural"
    assert "X" not in [p.call for p in worth_listing(preview(over_overcall, N))[0]]
    # free bidding (no table entry for a bid): the cheapest bid in each strain and each game
    calls = ["1H", "P", "1S", "P", "2S", "P"]
    assert not any(p.kind == "table" and p.call[0].isdigit() for p in preview(calls, N))
    listed, rest = worth_listing(preview(calls, N))
    assert [p.call for p in listed] == ["P", "2NT", "3C", "3D", "3H", "3S", "3NT", "4H", "4S", "4NT", "5C", "5D"]
    assert rest


def test_the_preview_reads_the_calls_alone():
    """Public: ``preview`` takes the auction and the dealer, never a hand, so any two
    hands in the seat get the same text; calls in any of the engine's forms read alike."""
    as_views = [{"call": "bid", "level": 1, "strain": "NT"}, {"call": "pass"}]
    assert preview(as_views, N) == preview(["1NT", "P"], N) == preview(["bid 1NT", "pass"], N)
