"""Preferans rules, phase by phase (docs/rules/preferans.md §3–§6.1), on hand-made deals."""

from __future__ import annotations

import random

import pytest

from engine.base import get_game
from engine.errors import BadSyntax, EngineError, GameOver, IllegalAction, NotYourTurn
from engine.games.preferans.rules import DECK
from engine.games.preferans.state import State

G = get_game("preferans")
A, B, C = 0, 1, 2

# Three fixed hands and a talon (dealt by seat, whoever deals).
H0 = ["AS", "KS", "QS", "JS", "TS", "AD", "KD", "AH", "KH", "AC"]  # strong spades
H1 = ["9S", "8S", "QD", "JD", "TD", "9D", "QH", "JH", "TH", "KC"]
H2 = ["7S", "8D", "7D", "9H", "8H", "7H", "QC", "JC", "TC", "9C"]
TALON = ["8C", "7C"]


def deal_action(dealer: int, hands: dict[int, list[str]], talon: list[str]) -> str:
    order = [(dealer + 1 + i) % 3 for i in range(3)]
    deck = []
    for seat in order:
        deck += hands[seat][:5]
    deck += talon
    for seat in order:
        deck += hands[seat][5:]
    assert sorted(deck) == sorted(DECK)
    return f"deal dealer={dealer} " + " ".join(deck)


def start(dealer=C, hands=None, talon=TALON, **options):
    hands = hands or {A: H0, B: H1, C: H2}
    state = G.initial_state(G.Options(**options), 3)
    state, events = G.apply(state, None, deal_action(dealer, hands, talon))
    return state


def run(state, *moves):
    """Apply (seat, action) pairs; each must be offered by legal_actions."""
    events = []
    for seat, action in moves:
        assert action in G.legal_actions(state, seat), (seat, action, G.legal_actions(state, seat))
        state, ev = G.apply(state, seat, action)
        events += ev
    return state, events


def refused(state, seat, action, kind=IllegalAction, code=None):
    before = G.dump(state)
    with pytest.raises(kind) as info:
        G.apply(state, seat, action)
    assert G.dump(state) == before
    if code:
        assert info.value.code == code, info.value.reason
    assert action not in G.legal_actions(state, seat) if seat is not None else True
    return info.value


# ------------------------------------------------------------------------------ deal §3
def test_deal_five_two_five_and_conservation():
    s = start(dealer=C)
    assert s.hands[A] == H0 and s.hands[B] == H1 and s.hands[C] == H2 and s.talon == TALON
    assert s.fh == A and G.to_act(s) == [A] and s.phase == "auction"
    # public view: no hand, no talon; a seat's view: its own cards only
    pub = G.view(s, None)
    assert "hand" not in pub and pub["talon"] is None
    assert G.view(s, B)["hand"] and set(G.view(s, B)["hand"]) == set(H1)


def test_deal_is_system_only_and_checked():
    state = G.initial_state(G.Options(), 3)
    deal = deal_action(C, {A: H0, B: H1, C: H2}, TALON)
    refused(state, A, deal, kind=EngineError)
    refused(state, None, deal.replace("7C", "7S", 1), code="bad_deal")
    refused(state, None, "deal dealer=5 " + " ".join(DECK), kind=BadSyntax)
    fixed = G.initial_state(G.Options(first_dealer="B"), 3)
    refused(fixed, None, deal, code="bad_deal")
    assert G.new_deal(G.Options(first_dealer="B"), 3, random.Random(1), []).startswith("deal dealer=1 ")
    with pytest.raises(EngineError):
        G.initial_state(G.Options(), 4)
    assert G.seat_range(G.Options()) == (3, 3)


def test_deal_passes_clockwise_after_every_hand():
    s = start(dealer=C)
    s, _ = run(s, (A, "pass"), (B, "pass"), (C, "pass"))
    assert s.phase == "deal" and G.to_act(s) == []
    nxt = G.system_action(s, random.Random(2))
    assert nxt.startswith("deal dealer=0 ")
    refused(s, None, nxt.replace("dealer=0", "dealer=2"), code="bad_deal")
    s, _ = G.apply(s, None, nxt)
    assert s.dealer == A and s.fh == B and s.hand_no == 2
    assert G.system_action(s, random.Random(2)) is None


# ------------------------------------------------------------------------------ auction §5.1
def test_auction_bids_moje_and_the_winner():
    s = start(dealer=C)  # FH A, SH B, dealer C
    assert G.legal_actions(s, A) == ["bid 2", "bid 3", "bid 4", "bid 5", "bid 6", "bid 7", "igra", "pass"]
    assert G.legal_actions(s, B) == []
    refused(s, B, "pass", kind=NotYourTurn)
    s, _ = run(s, (A, "bid 2"), (B, "bid 3"))
    assert "moje" not in G.legal_actions(s, C)  # the dealer comes after B
    refused(s, C, "moje", code="no_moje")
    refused(s, C, "bid 3", code="bid_too_low")
    s, _ = run(s, (C, "bid 4"), (A, "moje"))  # A before C: takes 4 over
    assert s.holder == A and s.high == 4
    assert "moje" not in G.legal_actions(s, B) and "igra" not in G.legal_actions(s, B)
    s, _ = run(s, (B, "pass"), (C, "pass"))
    assert s.declarer == A and s.bid == 4 and s.phase == "discard"


def test_third_player_without_a_call_still_speaks():
    s = start(dealer=C)
    s, _ = run(s, (A, "pass"), (B, "pass"))
    assert G.to_act(s) == [C] and s.phase == "auction"
    s, _ = run(s, (C, "bid 2"))
    assert s.declarer == C and s.bid == 2


def test_single_step_bids():
    s = start(dealer=C, single_step_bids=True)
    assert [a for a in G.legal_actions(s, A) if a.startswith("bid")] == ["bid 2"]
    refused(s, A, "bid 4", code="single_step")
    s, _ = run(s, (A, "bid 2"), (B, "bid 3"))
    assert [a for a in G.legal_actions(s, C) if a.startswith("bid")] == ["bid 4"]


def test_igra_only_as_first_call_and_numeric_callers_pass_automatically():
    s = start(dealer=C)
    s, _ = run(s, (A, "bid 2"), (B, "igra"))
    assert G.legal_actions(s, C) == ["igra", "pass"]
    refused(s, C, "bid 5", code="after_igra")
    s, events = run(s, (C, "pass"))
    # A made a numeric call: passed automatically; B is the only igra caller
    assert any(e.get("auto") for e in events if e["type"] == "call")
    assert s.declarer == B and s.igra and s.phase == "contract"
    assert G.legal_actions(s, B) == [
        "contract S",
        "contract D",
        "contract H",
        "contract C",
        "contract BETTEL",
        "contract SANS",
    ]
    assert s.hands[B] == H1 and s.talon == TALON  # igra never touches the talon
    assert G.view(s, B)["talon"] is None and G.view(s, None)["talon"] is None
    s2 = start(dealer=C)
    s2, _ = run(s2, (A, "bid 2"), (B, "bid 3"), (C, "pass"))
    refused(s2, A, "igra", code="igra_first_call")


def test_igra_naming_hold_and_concede():
    s = start(dealer=C)
    s, _ = run(s, (A, "igra"), (B, "igra"), (C, "igra"))
    assert s.phase == "naming" and s.callers == [A, B, C]
    assert G.legal_actions(s, A) == [f"name {c}" for c in ("S", "D", "H", "C", "BETTEL", "SANS")]
    refused(s, A, "concede", code="must_name")
    s, _ = run(s, (A, "name S"), (B, "name D"))
    assert "hold" not in G.legal_actions(s, C)
    refused(s, C, "name S", code="naming_low")
    s, _ = run(s, (C, "concede"))
    assert G.legal_actions(s, A) == ["name H", "name C", "name BETTEL", "name SANS", "hold", "concede"]
    s, _ = run(s, (A, "hold"))
    assert "hold" not in G.legal_actions(s, B)
    s, _ = run(s, (B, "name H"), (A, "concede"))
    assert s.declarer == B and s.igra and s.number == 4 and s.phase == "defence"


def test_all_pass_gives_refe_and_the_deal_moves_on():
    s = start(dealer=C)
    s, events = run(s, (A, "pass"), (B, "pass"), (C, "pass"))
    assert any(e["type"] == "all_pass" for e in events)
    scored = next(e for e in events if e["type"] == "deal_scored")
    assert scored["row"] == {**scored["row"], "type": "all_pass", "refe": True}
    assert s.pull.refe == (1, 1, 1) and s.pull.refe_rounds == 1


# ------------------------------------------------------------------------------ talon §5.3
def win_auction(s, seat_moves=((A, "bid 2"), (B, "pass"), (C, "pass"))):
    return run(s, *seat_moves)[0]


def test_talon_shown_to_everybody_then_discard_and_contract():
    s = win_auction(start(dealer=C))
    assert s.phase == "discard" and len(s.hands[A]) == 12
    assert G.view(s, None)["talon"] == TALON and G.view(s, B)["talon"] == TALON
    assert G.legal_actions(s, A) == [a for a in G.legal_actions(s, A) if a.startswith("discard ")]
    assert len(G.legal_actions(s, A)) == 12
    refused(s, A, "discard 7S", code="not_in_hand")
    s, _ = run(s, (A, "discard 8C"), (A, "discard 7C"))
    assert s.discards == ["8C", "7C"] and len(s.hands[A]) == 10
    assert "8C" not in str(G.view(s, B)) or G.view(s, B)["talon"] == TALON  # known talon, no discards
    assert "my_discards" not in G.view(s, B) and G.view(s, A)["my_discards"] == ["8C", "7C"]
    assert G.legal_actions(s, A)[0] == "contract S"
    s2 = win_auction(start(dealer=C), ((A, "bid 4"), (B, "pass"), (C, "pass")))
    s2, _ = run(s2, (A, "discard 8C"), (A, "discard 7C"))
    assert G.legal_actions(s2, A) == ["contract H", "contract C", "contract BETTEL", "contract SANS"]
    refused(s2, A, "contract D", code="contract_low")


def test_hidden_talon_only_the_declarer_sees_it():
    s = win_auction(start(dealer=C, show_talon=False))
    assert G.view(s, None)["talon"] is None and G.view(s, B)["talon"] is None
    assert G.view(s, A)["talon"] == TALON
    for seat in (None, B, C):
        text = str(G.view(s, seat))
        assert "8C" not in text and "7C" not in text


# ------------------------------------------------------------------------------ defence §5.4 + kontra §5.5
def to_defence(contract="C", **options):
    s = win_auction(start(dealer=C, **options))
    s, _ = run(s, (A, "discard 8C"), (A, "discard 7C"), (A, f"contract {contract}"))
    return s


def test_defence_choices():
    s = to_defence("C")
    assert s.phase == "defence" and G.to_act(s) == [B]  # D1 = the declarer's left
    assert G.legal_actions(s, B) == ["play", "pass"]
    refused(s, B, "invite", code="no_invite")
    s1, _ = run(s, (B, "play"))
    assert G.legal_actions(s1, C) == ["play", "pass"]
    s2, _ = run(s, (B, "pass"))
    assert G.legal_actions(s2, C) == ["play", "invite", "pass"]
    s3, _ = run(s2, (C, "invite"))
    assert s3.defence == {B: "invited", C: "invite"} and s3.phase == "kontra" and G.to_act(s3) == [C]


def test_both_pass_wins_without_play():
    s = to_defence("C")
    s, events = run(s, (B, "pass"), (C, "pass"))
    row = next(e for e in events if e["type"] == "deal_scored")["row"]
    assert row["outcome"] == "no_play" and s.pull.contract[A] == -20 and s.phase == "deal"


def test_kontra_chain_levels_and_who_raises():
    s = to_defence("C")
    s, _ = run(s, (B, "play"), (C, "play"))
    assert G.legal_actions(s, B) == ["kontra", "no"]
    s, _ = run(s, (B, "no"), (C, "kontra"))
    assert s.kontra == [C] and s.level == 1 and G.to_act(s) == [A]
    assert G.legal_actions(s, A) == ["raise", "stop"]
    s, _ = run(s, (A, "raise"))
    assert s.level == 2 and G.to_act(s) == [C]  # only kontra-ing defenders answer
    s, _ = run(s, (C, "raise"), (A, "raise"), (C, "raise"), (A, "raise"))
    assert s.level == 6 and G.to_act(s) == [C]  # no end by default
    s, _ = run(s, (C, "stop"))
    assert s.phase == "play" and s.level == 6


def test_both_defenders_kontra_and_either_may_raise():
    s = to_defence("C")
    s, _ = run(s, (B, "play"), (C, "play"), (B, "kontra"), (C, "kontra"), (A, "raise"))
    assert G.to_act(s) == [B]
    s, _ = run(s, (B, "stop"))
    assert G.to_act(s) == [C]
    s, _ = run(s, (C, "raise"))
    assert s.level == 3 and G.to_act(s) == [A]


def test_kontra_caps():
    s = to_defence("C", allow_subkontra=False)
    s, _ = run(s, (B, "play"), (C, "play"), (B, "kontra"), (C, "no"), (A, "raise"))
    assert s.level == 2 and s.phase == "play"
    s = to_defence("C", max_kontra_level=1)
    s, _ = run(s, (B, "play"), (C, "play"), (B, "kontra"), (C, "no"))
    assert s.level == 1 and s.phase == "play"
    s = to_defence("C", max_kontra_level=3)
    s, _ = run(s, (B, "play"), (C, "play"), (B, "kontra"), (C, "no"), (A, "raise"), (B, "raise"))
    assert s.level == 3 and s.phase == "play"


def test_lone_defender_kontra_invites_the_passed_one():
    s = to_defence("C")
    s, events = run(s, (B, "play"), (C, "pass"), (B, "kontra"))
    assert s.defence == {B: "invite", C: "invited"}
    assert any(e["type"] == "auto_invite" for e in events)
    s, _ = run(s, (A, "stop"))
    assert s.phase == "play" and sorted(G.view(s, None)["participants"]) == [A, B, C]


def test_the_two_must_be_kontrad():
    s = to_defence("S")
    s, events = run(s, (B, "play"), (C, "play"), (B, "no"), (C, "no"))
    row = next(e for e in events if e["type"] == "deal_scored")["row"]
    assert row["outcome"] == "no_play" and s.pull.contract[A] == -26
    s = to_defence("S", slovenian_two_refe=True)
    s, events = run(s, (B, "play"), (C, "play"), (B, "no"), (C, "no"))
    row = next(e for e in events if e["type"] == "deal_scored")["row"]
    assert row["outcome"] == "two_nothing" and s.pull.contract == (-30, -30, -30)
    assert s.pull.refe == (1, 1, 1)
    s = to_defence("S")
    s, _ = run(s, (B, "play"), (C, "play"), (B, "kontra"), (C, "no"), (A, "stop"))
    assert s.phase == "play"
    s = to_defence("S", two_requires_kontra=False)
    s, _ = run(s, (B, "play"), (C, "pass"), (B, "no"))
    assert s.phase == "play"


def test_bettel_skips_the_defence_and_fh_leads():
    s = win_auction(start(dealer=B), ((C, "bid 6"), (A, "pass"), (B, "pass")))  # FH = C declares
    s, _ = run(s, (C, "discard 8C"), (C, "discard 7C"), (C, "contract BETTEL"))
    assert s.phase == "kontra" and s.defence == {A: "play", B: "play"}
    s, _ = run(s, (A, "no"), (B, "no"))
    assert s.phase == "play" and s.trick_leader == C  # no exception in bettel


# ------------------------------------------------------------------------------ play §6.1
def to_play(contract="C", dealer=C, defence=("play", "play"), **options):
    s = to_defence(contract, **options) if dealer == C else None
    d1, d2 = defence
    s, _ = run(s, (B, d1), (C, d2))
    while s.phase == "kontra":
        s, _ = run(s, (G.to_act(s)[0], "no"))
    return s


def test_follow_suit_then_must_trump():
    s = to_play("C")  # A declares clubs; FH A leads
    assert s.trick_leader == A and G.to_act(s) == [A]
    s, _ = run(s, (A, "play AD"))
    assert G.legal_actions(s, B) == ["play QD", "play JD", "play TD", "play 9D"]
    refused(s, B, "play KC", code="must_follow")
    s, _ = run(s, (B, "play 9D"), (C, "play 8D"))
    s, _ = run(s, (A, "play AH"), (B, "play QH"), (C, "play 9H"))
    s, _ = run(s, (A, "play KH"), (B, "play JH"), (C, "play 8H"))
    s, _ = run(s, (A, "play KD"), (B, "play QD"), (C, "play 7D"))
    assert s.won == [4, 0, 0]
    s, _ = run(s, (A, "play TS"), (B, "play 9S"))
    assert G.legal_actions(s, C) == ["play 7S"]
    s, _ = run(s, (C, "play 7S"))
    s, _ = run(s, (A, "play JS"), (B, "play 8S"))
    # C has no spades left: he must trump
    assert G.legal_actions(s, C) == ["play QC", "play JC", "play TC", "play 9C"]
    refused(s, C, "play 7H", code="must_follow")


def test_lone_defender_two_handed_play():
    s = to_play("C", defence=("pass", "play"))
    assert G.view(s, None)["participants"] == [A, C]
    s, _ = run(s, (A, "play AD"), (C, "play 8D"))
    assert s.won == [1, 0, 0] and len(s.hands[B]) == 10 and s.trick == []
    assert G.to_act(s) == [A]


SANS_HANDS = {
    A: ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "AD", "7D"],
    B: ["AH", "KH", "QH", "JH", "TH", "AC", "KC", "QC", "JC", "TC"],
    C: ["KD", "QD", "JD", "TD", "9D", "8D", "9H", "8H", "7H", "9C"],
}


def a_declares_sans(dealer: int, auction: tuple, **options) -> State:
    """SANS_HANDS after ``auction``: A takes the talon, throws the ♣8 and ♣7 and
    declares sans; B and C both play it, neither says kontra."""
    s = start(dealer=dealer, hands=SANS_HANDS, talon=["8C", "7C"], **options)
    s, _ = run(
        s,
        *auction,
        (A, "discard 8C"),
        (A, "discard 7C"),
        (A, "contract SANS"),
        (B, "play"),
        (C, "play"),
        (B, "no"),
        (C, "no"),
    )
    return s


def test_defenders_fifth_trick_stops_play():
    s = a_declares_sans(C, ((A, "bid 7"), (B, "pass"), (C, "pass")))
    assert s.trick_leader == B  # sans: FH = declarer, so the next one leads
    events = []
    for card in ("AH", "KH", "QH", "JH", "TH"):
        for seat in (B, C, A):
            s, ev = run(s, (seat, f"play {card}" if seat == B else G.legal_actions(s, seat)[-1]))
            events += ev
    assert s.won[B] == 5 and s.phase == "deal"
    assert any(e["type"] == "play_over" and e["early"] for e in events)
    row = next(e for e in events if e["type"] == "deal_scored")["row"]
    assert row["made"] is False and row["tricks"] == [0, 5, 0]


def test_slovenian_sans_lead():
    auction = ((B, "pass"), (C, "pass"), (A, "bid 7"))  # A deals: FH = B
    s = a_declares_sans(A, auction, slovenian_sans_lead=True)
    assert s.trick_leader == C  # D2 leads into the declarer
    s = a_declares_sans(A, auction)
    assert s.trick_leader == B  # FH is not the declarer: FH leads


def test_bettel_stops_at_the_declarers_first_trick():
    hands = {
        C: ["AS", "7D", "8D", "7H", "8H", "7C", "8C", "9C", "9D", "9H"],
        A: ["KS", "QS", "AD", "KD", "QD", "AH", "KH", "QH", "AC", "KC"],
        B: ["JS", "TS", "9S", "8S", "7S", "JD", "TD", "JH", "TH", "QC"],
    }
    s = start(dealer=B, hands=hands, talon=["JC", "TC"])  # FH = C
    s, _ = run(
        s,
        (C, "bid 6"),
        (A, "pass"),
        (B, "pass"),
        (C, "discard JC"),
        (C, "discard TC"),
        (C, "contract BETTEL"),
        (A, "no"),
        (B, "no"),
    )
    s, events = run(s, (C, "play AS"), (A, "play KS"), (B, "play JS"))
    assert s.phase == "deal" and s.tricks_played == 1
    row = next(e for e in events if e["type"] == "deal_scored")["row"]
    assert row["tricks"] == [0, 0, 1] and row["made"] is False
    assert s.pull.soups[A][C] == 60 and s.pull.soups[B][C] == 60 and s.pull.contract[C] == -42


# ------------------------------------------------------------------------------ errors, forfeit
def test_bad_actions_change_nothing():
    s = start(dealer=C)
    refused(s, A, "bid 9", kind=BadSyntax)
    refused(s, A, "jump", kind=BadSyntax)
    refused(s, A, "play 7S", code="wrong_phase")
    refused(s, B, "bid 2", kind=NotYourTurn)
    refused(s, None, "pass", kind=NotYourTurn)
    refused(s, A, "contract X", kind=BadSyntax)


def test_forfeit_ends_the_pulka_with_a_penalty():
    s = start(dealer=C)
    s, events = G.apply(s, None, "forfeit 1")
    assert G.is_over(s) and s.pull.contract == (-30, -60, -30)
    res = G.result(s)
    assert res["forfeit"] == 1 and res["finished"] is False
    assert min(range(3), key=lambda i: int(res["settlement"][i])) == 1
    refused(s, A, "pass", kind=GameOver)
    refused(s, None, "forfeit 0", kind=GameOver)
