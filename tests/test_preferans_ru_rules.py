"""Russian preferans rules, phase by phase (docs/rules/preferans_ru.md §3–§5), on hand-made deals."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.base import get_game
from engine.errors import BadOptions, BadSyntax, EngineError, GameOver, IllegalAction, NotYourTurn
from engine.games.preferans_ru.rules import DECK

G = get_game("preferans_ru")
A, B, C, D = 0, 1, 2, 3

# One suit each: every trick of a deal is easy to predict.
HA = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "AC", "KC"]
HB = ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "7C", "8C"]
HC = ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "9C", "TC"]
TALON = ["JC", "QC"]


def deal_action(dealer: int, hands: dict[int, list[str]], talon: list[str], players: int = 3) -> str:
    """A deal action giving ``hands[seat]`` to each active seat (the first hand's cards first)."""
    active = [(dealer + 1 + i) % players for i in range(players)][:3]
    deck = [c for seat in active for c in hands[seat]] + talon
    assert sorted(deck) == sorted(DECK)
    return f"deal dealer={dealer} " + " ".join(deck)


def start(
    dealer: int = C,
    hands: dict[int, list[str]] | None = None,
    talon: list[str] = TALON,
    players: int = 3,
    **options: Any,
) -> Any:
    hands = hands or {A: HA, B: HB, C: HC}
    state = G.initial_state(G.Options(**options), players)
    state, _ = G.apply(state, None, deal_action(dealer, hands, talon, players))
    return state


def run(state: Any, *moves: tuple[int, str]) -> tuple[Any, list[dict]]:
    """Apply (seat, action) pairs; each must be offered by legal_actions."""
    events: list[dict] = []
    for seat, action in moves:
        assert action in G.legal_actions(state, seat), (seat, action, G.legal_actions(state, seat))
        state, ev = G.apply(state, seat, action)
        events += ev
    return state, events


def refused(
    state: Any, seat: int | None, action: str, kind: type[EngineError] = IllegalAction, code: str | None = None
) -> EngineError:
    before = G.dump(state)
    with pytest.raises(kind) as info:
        G.apply(state, seat, action)
    assert G.dump(state) == before
    if code:
        assert info.value.code == code, info.value.reason
    if seat is not None:
        assert action not in G.legal_actions(state, seat)
    return info.value


def play_out(state: Any) -> tuple[Any, list[dict]]:
    """Play the first legal card until the deal is scored."""
    events: list[dict] = []
    while state.phase == "play":
        seat = G.to_act(state)[0]
        state, ev = G.apply(state, seat, G.legal_actions(state, seat)[0])
        events += ev
    return state, events


def declare(
    state: Any, seat: int, bid: str, contract: str | None = None, discards: tuple[str, str] | None = None
) -> Any:
    """``seat`` wins the auction with ``bid`` (the others pass), discards and names ``contract``."""
    while state.phase == "auction":
        who = G.to_act(state)[0]
        action = f"bid {bid}" if who == seat and state.high is None else "pass"
        state, _ = run(state, (who, action))
    hand = state.hands[seat]
    for card in discards or (hand[-1], hand[-2]):
        state, _ = run(state, (seat, f"discard {card}"))
    if contract:
        state, _ = run(state, (seat, f"contract {contract}"))
    return state


# ---------------------------------------------------------------------------------- §3 deal
def test_3_deal_three_players_ten_each_and_a_face_down_talon() -> None:
    s = start()
    pub = G.view(s, None)
    assert pub["hand_counts"] == [10, 10, 10] and len(s.talon) == 2
    assert pub["talon"] is None and pub["first_hand"] == A and G.to_act(s) == [A]
    assert G.view(s, A)["hand"] and set(G.view(s, A)["hand"]) == set(HA)


def test_3_1_four_players_the_dealer_sits_out() -> None:
    s = start(dealer=D, hands={A: HA, B: HB, C: HC}, players=4)
    assert G.view(s, None)["hand_counts"] == [10, 10, 10, 0]
    assert G.view(s, D)["hand"] == [] and G.to_act(s) == [A]
    assert G.legal_actions(s, D) == []
    s2 = start(dealer=B, hands={C: HA, D: HB, A: HC}, players=4)
    assert G.view(s2, None)["active"] == [C, D, A] and G.to_act(s2) == [C]
    assert G.view(s2, None)["hand_counts"][B] == 0


def test_3_4_the_deal_passes_left_after_every_hand_raspasy_included() -> None:
    s = start()
    s, _ = run(s, (A, "pass"), (B, "pass"), (C, "pass"))
    s, _ = play_out(s)
    assert s.phase == "deal"
    assert G.system_action(s, random.Random(1)).startswith("deal dealer=0 ")
    refused(s, None, deal_action(C, {A: HC, B: HA, C: HB}, TALON), code="bad_deal")


def test_3_4_option_dealer_stays_on_all_pass() -> None:
    s = start(dealer_stays_on_all_pass=True)
    s, _ = run(s, (A, "pass"), (B, "pass"), (C, "pass"))
    s, _ = play_out(s)
    assert G.system_action(s, random.Random(1)).startswith(f"deal dealer={C} ")


def test_deal_is_the_system_s_and_a_bad_deck_is_refused() -> None:
    s = G.initial_state(G.Options(), 3)
    refused(s, 0, deal_action(C, {A: HA, B: HB, C: HC}, TALON), code="system_only")
    refused(s, None, "deal dealer=2 " + " ".join(DECK[:31] + DECK[:1]), code="bad_deal")
    with pytest.raises(BadOptions):
        G.initial_state(G.Options(), 5)


# ---------------------------------------------------------------------------------- §5.1 auction
def test_5_1_pass_is_final_and_bids_must_rise() -> None:
    s = start()
    s, _ = run(s, (A, "pass"), (B, "bid 7S"))
    refused(s, C, "bid 6H", code="bid_too_low")
    refused(s, A, "bid 8S", kind=NotYourTurn)
    s, _ = run(s, (C, "bid 7C"))
    assert G.to_act(s) == [B]  # the passed first hand is skipped for good
    s, _ = run(s, (B, "bid 7D"), (C, "pass"))
    assert s.phase == "discard" and s.declarer == B and s.bid == "7D"


def test_5_1_order_of_bids_misere_between_8nt_and_9s() -> None:
    s = start()
    legal = G.legal_actions(s, A)
    bids = [a.split()[1] for a in legal if a.startswith("bid")]
    assert bids[:6] == ["6S", "6C", "6D", "6H", "6NT", "7S"]
    assert bids[bids.index("MISERE") - 1] == "8NT" and bids[bids.index("MISERE") + 1] == "9S"
    assert bids[-1] == "10NT" and "MISERE_NOTALON" not in bids and legal[-1] == "pass"


def test_5_1_misere_only_as_a_first_call_and_an_outbid_misere_bidder_only_passes() -> None:
    s = start()
    s, _ = run(s, (A, "bid 6S"), (B, "bid MISERE"))
    assert s.misere_bidder == B
    refused(s, C, "bid 8NT", code="bid_too_low")
    s, _ = run(s, (C, "bid 9S"))
    refused(s, A, "bid MISERE", code="misere_first_call")
    s, _ = run(s, (A, "pass"))
    assert G.legal_actions(s, B) == ["pass"]
    refused(s, B, "bid 9H", code="misere_only_pass")
    s, _ = run(s, (B, "pass"))
    assert s.declarer == C and s.bid == "9S"


def test_5_1_a_misere_not_outbid_wins() -> None:
    s = start()
    s, _ = run(s, (A, "bid MISERE"), (B, "pass"), (C, "pass"))
    assert s.declarer == A and s.bid == "MISERE" and s.phase == "discard"


def test_5_1_end_a_all_pass_gives_raspasy() -> None:
    s = start()
    s, events = run(s, (A, "pass"), (B, "pass"), (C, "pass"))
    assert s.raspasy and s.phase == "play" and any(e["type"] == "all_pass" for e in events)


def test_5_1_end_c_the_third_calls_once() -> None:
    s = start()
    s, _ = run(s, (A, "pass"), (B, "pass"))
    assert G.to_act(s) == [C]
    won, _ = run(s, (C, "bid 6S"))
    assert won.declarer == C and won.phase == "discard"
    passed, _ = run(s, (C, "pass"))
    assert passed.raspasy


def test_5_1_jump_bids_off_allows_the_next_step_only() -> None:
    s = start(jump_bids=False)
    assert [a for a in G.legal_actions(s, A) if a.startswith("bid")] == ["bid 6S", "bid MISERE"]
    refused(s, A, "bid 7S", code="one_step")
    s, _ = run(s, (A, "bid 6S"))
    assert [a for a in G.legal_actions(s, B) if a.startswith("bid")] == ["bid 6C", "bid MISERE"]


def test_5_1_here_lets_the_senior_hold_the_bid() -> None:
    refused(run(start(), (A, "bid 6S"), (B, "bid 6C"), (C, "pass"))[0], A, "here", code="no_here")
    s = start(here=True)
    s, _ = run(s, (A, "bid 6S"), (B, "bid 6C"))
    assert "here" not in G.legal_actions(s, C)  # C speaks after B
    s, _ = run(s, (C, "pass"), (A, "here"))
    assert s.holder == A and s.high == "6C" and G.to_act(s) == [B]
    assert "here" not in G.legal_actions(s, B)
    s, _ = run(s, (B, "pass"))
    assert s.declarer == A and s.bid == "6C"


def test_5_1_here_not_over_a_misere() -> None:
    s = start(here=True)
    s, _ = run(s, (A, "bid 6S"), (B, "bid MISERE"), (C, "pass"))
    assert "here" not in G.legal_actions(s, A)


def test_5_1_misere_without_talon_option() -> None:
    refused(start(), A, "bid MISERE_NOTALON", kind=BadSyntax)
    s = start(misere_without_talon=True)
    s, events = run(s, (A, "bid MISERE_NOTALON"), (B, "pass"), (C, "pass"))
    assert s.contract == "MISERE" and s.phase == "play" and G.view(s, None)["talon"] is None
    assert len(s.hands[A]) == 10 and not any(e["type"] == "talon" for e in events)


def test_5_5_exit_minimum_after_raspasy_series() -> None:
    s = start(system="leningrad")
    for n, dealer in ((1, C), (2, A)):
        if n == 2:
            s, _ = G.apply(s, None, deal_action(dealer, {B: HA, C: HB, A: HC}, TALON))
        s, _ = run(s, *((x, "pass") for x in G.view(s, None)["active"]))
        s, _ = play_out(s)
        assert G.view(s, None)["series"] == n
    s, _ = G.apply(s, None, deal_action(B, {C: HA, A: HB, B: HC}, TALON))
    assert G.view(s, None)["exit_level"] == 7
    refused(s, C, "bid 6NT", code="below_exit")
    legal = G.legal_actions(s, C)
    assert "bid 7S" in legal and "bid MISERE" in legal  # мизер whatever the exit minimum
    s = declare(s, C, "7S", "7S")
    s, _ = run(s, (A, "pass"), (B, "pass"))
    assert G.view(s, None)["series"] == 0 and G.view(s, None)["exit_level"] == 6


def test_5_5_raspasy_reset_keeps_the_run_after_a_seven() -> None:
    """With raspasy_reset made_8_or_misere a made 7 does not end the run: series 2, exit 7 still."""
    s = start(system="leningrad", raspasy_reset="made_8_or_misere")
    for n, dealer in ((1, C), (2, A)):
        if n == 2:
            s, _ = G.apply(s, None, deal_action(dealer, {B: HA, C: HB, A: HC}, TALON))
        s, _ = run(s, *((x, "pass") for x in G.view(s, None)["active"]))
        s, _ = play_out(s)
    s, _ = G.apply(s, None, deal_action(B, {C: HA, A: HB, B: HC}, TALON))
    s = declare(s, C, "7S", "7S")
    s, _ = run(s, (A, "pass"), (B, "pass"))
    assert G.view(s, None)["series"] == 2 and G.view(s, None)["exit_level"] == 7


# ---------------------------------------------------------------------------------- §5.2 talon, discard, contract
def test_5_2_talon_shown_when_taken_discard_hidden_contract_not_lower() -> None:
    s = start()
    for seat in (None, A, B, C):
        assert G.view(s, seat)["talon"] is None
    s, events = run(s, (A, "bid 7S"), (B, "pass"), (C, "pass"))
    assert next(e for e in events if e["type"] == "talon")["cards"] == TALON
    for seat in (None, A, B, C):
        assert G.view(s, seat)["talon"] == TALON
    assert len(s.hands[A]) == 12
    s, _ = run(s, (A, "discard JC"), (A, "discard QC"))
    assert len(s.hands[A]) == 10 and s.phase == "contract"
    assert G.view(s, A)["my_discards"] == ["JC", "QC"]
    assert "my_discards" not in G.view(s, B) and "my_discards" not in G.view(s, None)
    refused(s, A, "contract 6NT", code="contract_low")
    refused(s, A, "contract MISERE", code="contract_low")
    assert G.legal_actions(s, A)[0] == "contract 7S" and G.legal_actions(s, A)[-1] == "contract 10NT"
    refused(s, A, "discard 7S", code="wrong_phase")
    s, _ = run(s, (A, "contract 8H"))
    assert s.contract == "8H" and s.phase == "whist" and G.to_act(s) == [B]


def test_5_2_discard_only_own_cards() -> None:
    s, _ = run(start(), (A, "bid 6S"), (B, "pass"), (C, "pass"))
    refused(s, A, "discard AH", code="not_in_hand")
    refused(s, A, "discard XX", kind=BadSyntax)


def test_5_2_misere_takes_the_talon_too_and_has_no_whist_phase() -> None:
    s, events = run(start(), (A, "bid MISERE"), (B, "pass"), (C, "pass"))
    assert G.view(s, None)["talon"] == TALON
    s, events = run(s, (A, "discard AC"), (A, "discard KC"))
    assert s.contract == "MISERE" and s.phase == "play" and G.view(s, None)["trump"] is None


# ---------------------------------------------------------------------------------- §5.3 whist
def test_5_3_first_whist_pass_second_half_only_after_a_pass_on_6_and_7() -> None:
    s = declare(start(), A, "6S", "6S")
    assert G.legal_actions(s, B) == ["whist", "pass"]
    after_whist, _ = run(s, (B, "whist"))
    assert G.legal_actions(after_whist, C) == ["whist", "pass"]
    refused(after_whist, C, "half", code="no_half")
    after_pass, _ = run(s, (B, "pass"))
    assert G.legal_actions(after_pass, C) == ["whist", "pass", "half"]
    eight = declare(start(), A, "8S", "8S")
    eight, _ = run(eight, (B, "pass"))
    assert G.legal_actions(eight, C) == ["whist", "pass"]
    no_half = declare(start(half_whist=[]), A, "6S", "6S")
    no_half, _ = run(no_half, (B, "pass"))
    assert "half" not in G.legal_actions(no_half, C)


def test_5_3_both_pass_no_play_the_game_counts() -> None:
    s = declare(start(), A, "6S", "6S")
    s, events = run(s, (B, "pass"), (C, "pass"))
    assert s.phase == "deal" and s.last_row["played"] is False
    assert G.view(s, None)["sheet"]["pool"] == [2, 0, 0]


def test_5_3_half_whist_stands_or_the_first_whists_alone() -> None:
    s = declare(start(), A, "6S", "6S")
    s, _ = run(s, (B, "pass"), (C, "half"))
    assert G.to_act(s) == [B] and G.legal_actions(s, B) == ["whist", "pass"]
    stands, _ = run(s, (B, "pass"))
    assert stands.phase == "deal" and stands.last_row["played"] is False
    sheet = G.view(stands, None)["sheet"]
    assert sheet["pool"] == [2, 0, 0] and sheet["whists"][C][A] == 4  # (4/2)·2 (§6.2)
    alone, _ = run(s, (B, "whist"))
    assert alone.phase == "open_choice" and alone.lone == B and G.to_act(alone) == [B]
    assert alone.whist[B] == "whist" and alone.whist[C] == "pass"


def test_5_3_two_whisters_play_closed() -> None:
    s = declare(start(), A, "6S", "6S")
    s, _ = run(s, (B, "whist"), (C, "whist"))
    assert s.phase == "play" and G.to_act(s) == [A]
    s, _ = run(s, (A, "play AS"))
    for seat in (None, A, B, C):
        assert G.view(s, seat)["open_hands"] == {}


def test_5_3_lone_whister_open_hands_face_up_after_the_opening_lead() -> None:
    s = declare(start(), A, "6S", "6S", discards=("JC", "QC"))
    s, _ = run(s, (B, "whist"), (C, "pass"), (B, "open"))
    assert s.phase == "play" and G.view(s, None)["open_hands"] == {}
    s, events = run(s, (A, "play AC"))
    assert any(e["type"] == "hands_open" for e in events)
    pub = G.view(s, None)["open_hands"]
    assert set(pub) == {str(B), str(C)} and set(pub[str(C)]) == set(HC)
    assert str(A) not in pub  # the declarer's hand stays hidden
    assert set(G.view(s, B)["open_hands"]) == {str(C)}
    s, _ = run(s, (B, "play 7C"))
    # C passed: his cards are now played by the lone whister B
    assert s.turn == C and G.to_act(s) == [B]
    assert G.legal_actions(s, C) == []
    assert G.legal_actions(s, B) == ["play TC", "play 9C"]
    refused(s, C, "play 9C", kind=NotYourTurn)
    s, _ = run(s, (B, "play 9C"))
    assert s.won[A] == 1 and s.hands[C].count("9C") == 0


def test_5_3_open_before_lead_option() -> None:
    s = declare(start(open_timing="before_lead"), A, "6S", "6S")
    s, _ = run(s, (B, "pass"), (C, "whist"), (C, "open"))
    assert set(G.view(s, None)["open_hands"]) == {str(B), str(C)}


def test_5_3_lone_whister_closed_each_plays_his_own_hidden_hand() -> None:
    s = declare(start(), A, "6S", "6S", discards=("JC", "QC"))
    s, _ = run(s, (B, "whist"), (C, "pass"), (B, "closed"))
    s, _ = run(s, (A, "play AC"), (B, "play 7C"))
    assert G.to_act(s) == [C]
    for seat in (None, A, B, C):
        assert G.view(s, seat)["open_hands"] == {}
    s, _ = play_out(s)
    assert s.last_row["played"] is True and sum(s.won) == 10


def test_5_3_ten_checked_skips_whisting_defenders_play_open() -> None:
    s = declare(start(ten_checked=True), A, "10S", "10S", discards=("JC", "QC"))
    assert s.phase == "play" and G.to_act(s) == [A]
    s, _ = run(s, (A, "play AS"))
    assert set(G.view(s, None)["open_hands"]) == {str(B), str(C)}
    s, _ = play_out(s)
    assert s.last_row["whist"] and s.last_row["played"]


def test_5_3_stalingrad_six_spades_is_whisted_by_both() -> None:
    s = declare(start(stalingrad=True), A, "6S", "6S")
    assert s.phase == "play" and s.whist[B] == s.whist[C] == "whist"
    s = declare(start(stalingrad=True), A, "6S", "6C")
    assert s.phase == "whist"


# ---------------------------------------------------------------------------------- §5.4 play
def test_5_4_first_hand_leads_follow_suit_else_trump() -> None:
    s = start()
    s, _ = run(s, (A, "pass"), (B, "bid 6H"), (C, "pass"))
    s, _ = run(s, (B, "discard 7C"), (B, "discard 8C"), (B, "contract 6H"), (C, "whist"), (A, "whist"))
    assert G.to_act(s) == [A]  # the first hand leads though B declared
    s, _ = run(s, (A, "play AS"))
    assert set(G.legal_actions(s, B)) == {f"play {r}H" for r in "AKQJT987"}  # void in spades: trump
    refused(s, B, "play JC", code="must_follow")
    s, _ = run(s, (B, "play 7H"))
    assert set(G.legal_actions(s, C)) == {f"play {c}" for c in HC}  # void, no trumps: anything
    s, events = run(s, (C, "play 7D"))
    assert next(e for e in events if e["type"] == "trick")["winner"] == B
    assert G.to_act(s) == [B]
    s, _ = play_out(s)
    assert sum(s.won) == 10 and s.tricks_played == 10


def test_5_4_misere_catchers_open_after_the_lead_declarer_hidden() -> None:
    s, _ = run(start(), (A, "pass"), (B, "bid MISERE"), (C, "pass"))
    s, _ = run(s, (B, "discard AH"), (B, "discard KH"))
    assert G.view(s, None)["open_hands"] == {} and G.to_act(s) == [A]
    s, _ = run(s, (A, "play 7S"))
    pub = G.view(s, None)
    assert set(pub["open_hands"]) == {str(A), str(C)} and pub["trump"] is None
    assert str(B) not in pub["open_hands"]
    assert G.to_act(s) == [B]
    s, _ = play_out(s)
    assert s.last_row["contract"] == "MISERE"


def test_5_4_misere_open_after_first_trick_option() -> None:
    s, _ = run(start(misere_open_timing="after_first_trick"), (A, "bid MISERE"), (B, "pass"), (C, "pass"))
    s, _ = run(s, (A, "discard AC"), (A, "discard KC"), (A, "play 7S"))
    assert G.view(s, None)["open_hands"] == {}
    s, _ = run(s, *[(G.to_act(s)[0], G.legal_actions(s, G.to_act(s)[0])[0])])
    s, _ = run(s, *[(G.to_act(s)[0], G.legal_actions(s, G.to_act(s)[0])[0])])
    assert set(G.view(s, None)["open_hands"]) == {str(B), str(C)}


def test_5_4_raspasy_talon_cards_fix_the_suit_of_tricks_1_and_2_and_never_win() -> None:
    ha = HA[:8] + ["JC", "QC"]
    s = start(hands={A: ha, B: HB, C: HC}, talon=["AC", "KC"])
    s, events = run(s, (A, "pass"), (B, "pass"), (C, "pass"))
    assert G.view(s, None)["turned"] == ["AC"] and G.to_act(s) == [A]
    assert set(G.legal_actions(s, A)) == {"play JC", "play QC"}
    assert set(G.legal_actions(s, A)) and G.view(s, None)["trump"] is None
    s, events = run(s, (A, "play JC"), (B, "play 8C"), (C, "play TC"))
    assert next(e for e in events if e["type"] == "trick")["winner"] == A  # JC: the talon's ace never wins
    assert G.view(s, None)["turned"] == ["AC", "KC"] and G.to_act(s) == [A]  # first hand again
    s, events = run(s, (A, "play QC"), (B, "play 7C"), (C, "play 9C"))
    assert next(e for e in events if e["type"] == "trick")["winner"] == A
    assert G.to_act(s) == [A]
    s, _ = run(s, (A, "play 7S"))
    assert set(G.legal_actions(s, B)) == {f"play {r}H" for r in "AKQJT987"}  # no trumps on распасы
    s, _ = play_out(s)
    assert s.last_row["raspasy"] and sum(s.won) == 10


def test_5_4_raspasy_without_talon_in_rostov() -> None:
    s, _ = run(start(system="rostov"), (A, "pass"), (B, "pass"), (C, "pass"))
    assert G.view(s, None)["turned"] == [] and len(G.legal_actions(s, A)) == 10


# ---------------------------------------------------------------------------------- scoring and the end §6.4
def test_6_a_made_game_goes_to_the_pool_and_the_game_ends_when_every_pool_is_full() -> None:
    s = declare(start(pool=2), A, "6S", "6S")
    s, _ = run(s, (B, "pass"), (C, "pass"))
    assert not G.is_over(s) and G.view(s, None)["sheet"]["pool"] == [2, 0, 0]
    s, _ = G.apply(s, None, deal_action(A, {B: HA, C: HB, A: HC}, TALON))
    s = declare(s, B, "6S", "6S")
    s, _ = run(s, (C, "pass"), (A, "pass"))
    s, _ = G.apply(s, None, deal_action(B, {C: HA, A: HB, B: HC}, TALON))
    s = declare(s, C, "6S", "6S")
    s, events = run(s, (A, "pass"), (B, "pass"))
    assert G.is_over(s) and G.result(s)["finished"] is True
    assert sum(int(x) for x in G.result(s)["settlement"]) == 0
    refused(s, A, "pass", kind=GameOver, code="game_over")


def test_forfeit_ends_the_pulka_with_the_settlement_now() -> None:
    s, _ = G.apply(start(), None, "forfeit 1")
    assert G.is_over(s) and G.result(s)["forfeit"] == 1 and G.result(s)["finished"] is False


def test_dump_load_round_trip_mid_deal() -> None:
    s = declare(start(), A, "6S", "6S")
    s, _ = run(s, (B, "whist"), (C, "pass"), (B, "open"), (A, "play AS"))
    again = G.load(G.dump(s))
    assert G.dump(again) == G.dump(s) and G.view(again, B) == G.view(s, B)


def test_3_1_four_players_the_dealer_never_calls_nor_plays() -> None:
    s = start(dealer=D, players=4)
    s, _ = run(s, (A, "pass"), (B, "pass"), (C, "pass"))
    assert s.raspasy and G.to_act(s) == [A]
    for _ in range(3):
        seat = G.to_act(s)[0]
        assert seat != D
        s, _ = run(s, (seat, G.legal_actions(s, seat)[0]))
    assert s.tricks_played == 1 and G.legal_actions(s, D) == []
    s, _ = play_out(s)
    assert s.won[D] == 0 and sum(s.won) == 10 and s.next_dealer == A
    # the next deal: A deals and sits out, B is the first hand
    s, _ = G.apply(s, None, deal_action(A, {B: HA, C: HB, D: HC}, TALON, players=4))
    assert G.to_act(s) == [B] and G.view(s, None)["hand_counts"][A] == 0
    s = declare(s, B, "6S", "6S")
    assert s.defenders() == (C, D)
