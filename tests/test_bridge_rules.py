"""Bridge rules (docs/rules/bridge.md §2–§4, §9): the deal, every call's legality, the
end of the auction, the declarer, the opening lead, dummy, following suit, the claim and
the concession, honours from the deal, passed-out deals, the forfeit, views and replay."""

from __future__ import annotations

import json
import random

import pytest

from engine.base import get_game
from engine.games.bridge import auction as A
from engine.games.bridge.rules import deal_action, sort_cards
from engine.cards import make_deck
from engine.errors import BadSyntax, EngineError, GameOver, IllegalAction, NotYourTurn

G = get_game("bridge")
N, E, S, W = range(4)


def deal_of(hands: list[list[str]], dealer: int = 0, board: int = 1) -> str:
    """The deal action that gives seat k exactly ``hands[k]`` (13 cards each)."""
    deck = [None] * 52
    slots = {seat: [i for i in range(52) if (dealer + 1 + i) % 4 == seat] for seat in range(4)}
    for seat, hand in enumerate(hands):
        for i, card in zip(slots[seat], hand):
            deck[i] = card
    return f"deal dealer={'NESW'[dealer]} board={board} " + " ".join(deck)


def fill(**given: list[str]) -> list[list[str]]:
    """Hands with the cards given per seat (N=[...], ...) and the rest in deck order."""
    hands = [list(given.get(s, [])) for s in "NESW"]
    used = {c for h in hands for c in h}
    rest = [c for c in make_deck(52) if c not in used]
    for h in hands:
        while len(h) < 13:
            h.append(rest.pop(0))
    return hands


def start(hands=None, dealer=0, options=None, board=1):
    state = G.initial_state(G.Options(**(options or {})), 4)
    hands = hands or fill()
    state, events = G.apply(state, None, deal_of(hands, dealer, board))
    return state


def run(state, *moves):
    """Apply (seat, action) pairs; returns the state and all events."""
    events = []
    for seat, action in moves:
        state, ev = G.apply(state, seat, action)
        events += ev
    return state, events


def refused(state, seat, action, kind=IllegalAction, code=None):
    before = json.dumps(G.dump(state), sort_keys=True)
    with pytest.raises(kind) as info:
        G.apply(state, seat, action)
    assert json.dumps(G.dump(state), sort_keys=True) == before  # nothing changed
    if code:
        assert info.value.code == code
    return info.value


# ------------------------------------------------------------------------- the deal
def test_deal_one_card_at_a_time_from_dealers_left():
    deck = make_deck(52)
    state, events = G.apply(G.initial_state(G.Options(), 4), None, "deal dealer=E board=1 " + " ".join(deck))
    assert state.hands[S][0] == deck[0] and state.hands[W][0] == deck[1]
    assert state.hands[N][0] == deck[2] and state.hands[E][0] == deck[3]
    assert all(len(h) == 13 for h in state.hands)
    assert events[0] == {
        "type": "deal",
        "board": 1,
        "dealer": E,
        "vulnerable": {"NS": False, "EW": False},
        "deal_no": 1,
    }
    assert G.to_act(state) == [E]  # the dealer calls first


def test_bad_deals_are_refused():
    init = G.initial_state(G.Options(), 4)
    deck = make_deck(52)
    refused(init, None, "deal dealer=N board=1 " + " ".join(deck[:51]), code="bad_deal")
    refused(init, None, "deal dealer=N board=1 " + " ".join(deck[:51] + deck[:1]), code="bad_deal")
    refused(init, None, "deal dealer=Q board=1 " + " ".join(deck), BadSyntax)
    refused(init, None, "deal N " + " ".join(deck), BadSyntax)
    refused(init, 0, "deal dealer=N board=1 " + " ".join(deck), code="system_only")
    with pytest.raises(EngineError):
        G.initial_state(G.Options(), 3)


def test_new_deal_and_rotation_across_rubbers():
    rng = random.Random(1)
    assert G.new_deal(G.Options(), 4, rng, []).startswith("deal dealer=N board=1 ")
    assert G.new_deal(G.Options(first_dealer="W"), 4, rng, []).startswith("deal dealer=W board=1 ")
    history = [{"next_dealer": 2, "next_board": 9}]
    assert G.new_deal(G.Options(), 4, rng, history).startswith("deal dealer=S board=9 ")
    # within a rubber the deal passes clockwise, passed-out deals included
    state = start(dealer=N)
    state, _ = run(state, (N, "pass"), (E, "pass"), (S, "pass"), (W, "pass"))
    assert state.phase == "deal" and G.to_act(state) == []
    action = G.system_action(state, rng)
    assert action.startswith("deal dealer=E board=2 ")
    refused(state, None, "deal dealer=N board=2 " + " ".join(make_deck(52)), code="bad_deal")
    refused(state, None, "deal dealer=E board=5 " + " ".join(make_deck(52)), code="bad_deal")
    state, _ = G.apply(state, None, action)
    assert state.dealer == E and G.system_action(state, rng) is None


# ------------------------------------------------------------------------- the auction
def calls_legal(state, seat):
    return G.legal_actions(state, seat)


def test_opening_calls_and_turns():
    state = start()
    legal = calls_legal(state, N)
    assert legal[0] == "pass" and "double" not in legal and "redouble" not in legal
    assert legal[1:] == [f"bid {b}" for b in A.BIDS] and len(legal) == 36
    assert calls_legal(state, E) == []
    refused(state, E, "pass", NotYourTurn)
    refused(state, N, "double", code="cannot_double")
    refused(state, N, "redouble", code="cannot_redouble")
    refused(state, N, "bid 8C", BadSyntax)
    refused(state, N, "bid 4", BadSyntax)
    refused(state, N, "play 2C", code="wrong_phase")


def test_bids_must_be_higher():
    state = start()
    state, _ = run(state, (N, "bid 1NT"))
    legal = calls_legal(state, E)
    assert legal == ["pass", "double"] + [f"bid {b}" for b in A.BIDS[5:]] and len(legal) == 32
    e = refused(state, E, "bid 1S", code="insufficient_bid")
    assert "1NT" in e.reason
    refused(state, E, "bid 1NT", code="insufficient_bid")
    state, _ = run(state, (E, "bid 2C"))
    assert "bid 2C" not in calls_legal(state, S) and "bid 2D" in calls_legal(state, S)


def test_double_and_redouble_legality():
    state = start()
    state, _ = run(state, (N, "bid 1H"))
    assert "double" in calls_legal(state, E)  # an opponent's undoubled bid
    state, _ = run(state, (E, "pass"))
    assert "double" not in calls_legal(state, S)  # partner's bid
    refused(state, S, "double", code="cannot_double")
    state, _ = run(state, (S, "pass"))
    assert "double" in calls_legal(state, W)  # 1H pass pass X is legal
    state, _ = run(state, (W, "double"))
    assert "double" not in calls_legal(state, N) and "redouble" in calls_legal(state, N)
    state, _ = run(state, (N, "pass"), (E, "pass"))
    assert "redouble" in calls_legal(state, S)  # the doubled side, after passes
    state, _ = run(state, (S, "redouble"))
    assert "redouble" not in calls_legal(state, W) and "double" not in calls_legal(state, W)
    refused(state, W, "redouble", code="cannot_redouble")
    state, _ = run(state, (W, "bid 2C"))  # a new bid cancels X and XX
    assert A.status(state.calls) == (0, None)
    assert "double" in calls_legal(state, N) and "redouble" not in calls_legal(state, N)
    # the doubling side may not redouble its own double
    s2 = start()
    s2, _ = run(s2, (N, "bid 1C"), (E, "double"), (S, "pass"))
    assert "redouble" not in calls_legal(s2, W) and "double" not in calls_legal(s2, W)


def test_auction_end_contract_declarer_and_lead():
    state = start()
    state, events = run(
        state,
        (N, "bid 1H"),
        (E, "pass"),
        (S, "bid 2H"),
        (W, "pass"),
        (N, "pass"),
        (E, "double"),
        (S, "pass"),
        (W, "pass"),
    )
    assert state.phase == "auction"  # three passes after the double are needed
    state, events = run(state, (N, "pass"))
    contract = next(e for e in events if e["type"] == "contract")
    assert contract == {
        "type": "contract",
        "contract": {"level": 2, "strain": "H", "doubling": 1},
        "declarer": N,
        "leader": E,
    }
    # N named hearts first: N declares although S made the final bid
    assert state.declarer == N and state.dummy == S and G.to_act(state) == [E]


def test_declarer_is_first_of_side_to_name_the_strain():
    state = start(dealer=E)
    state, _ = run(
        state,
        (E, "bid 1D"),
        (S, "bid 1S"),
        (W, "bid 2D"),
        (N, "bid 2NT"),
        (E, "pass"),
        (S, "bid 3NT"),
        (W, "pass"),
        (N, "pass"),
        (E, "pass"),
    )
    assert state.declarer == N  # N said NT first; S's 3NT is the final bid
    assert str(state.contract) == "3NT" and G.to_act(state) == [E]


def test_three_passes_do_not_end_before_fourth_player():
    state = start()
    state, _ = run(state, (N, "pass"), (E, "pass"), (S, "pass"))
    assert state.phase == "auction" and G.to_act(state) == [W]
    state, _ = run(state, (W, "bid 1C"), (N, "pass"), (E, "pass"))
    assert state.phase == "auction"
    state, _ = run(state, (S, "pass"))
    assert state.phase == "play" and state.declarer == W and G.to_act(state) == [N]


def test_passed_out_writes_nothing():
    state = start()
    state, events = run(state, (N, "pass"), (E, "pass"), (S, "pass"), (W, "pass"))
    scored = next(e for e in events if e["type"] == "deal_scored")
    assert scored["passed_out"] and scored["entries"] == []
    assert state.sheet.entries == [] and state.sheet.deals == 1 and state.boards[0]["passed_out"]


# ------------------------------------------------------------------------- the play
def hearts_deal():
    """N: all spades; E: all hearts; S: all diamonds; W: all clubs."""
    return [[r + s for r in "23456789TJQKA"] for s in "SHDC"]


def test_dummy_is_hidden_until_the_opening_lead_and_played_by_declarer():
    state = start(fill(N=["AS", "KS"], S=["2S", "3S"]))
    state, _ = run(state, (N, "bid 1NT"), (E, "pass"), (S, "pass"), (W, "pass"))
    assert state.declarer == N and state.dummy == S
    public = G.view(state, None)
    assert public["dummy_hand"] is None and "hand" not in public
    assert G.view(state, E)["dummy_hand"] is None and G.view(state, N)["dummy_hand"] is None
    lead = G.legal_actions(state, E)[0]
    state, events = run(state, (E, lead))
    assert any(e["type"] == "dummy" and e["seat"] == S for e in events)
    assert G.view(state, None)["dummy_hand"] == sort_cards(state.hands[S])
    # S (dummy) is due: the declarer acts with dummy's cards, dummy never acts
    assert G.to_act(state) == [N] and G.view(state, None)["turn"] == S
    legal = G.legal_actions(state, N)
    assert legal and all(a.split()[1] in state.hands[S] for a in legal if a.startswith("play"))
    assert G.legal_actions(state, S) == []
    refused(state, S, legal[0], NotYourTurn)
    card = legal[0].split()[1]
    state, events = run(state, (N, legal[0]))
    assert events[0] == {"type": "play", "seat": S, "card": card, "by": N}
    assert card not in state.hands[S]


def test_follow_suit_and_no_obligation_to_trump():
    hands = fill(N=["AS", "2H"], E=["KS", "3H"], S=["QS", "4H", "5H"], W=["JS", "AH"])
    state = start(hands)
    state, _ = run(state, (N, "bid 1H"), (E, "pass"), (S, "pass"), (W, "pass"))
    # N declares hearts; E leads
    state, _ = run(state, (E, "play KS"))
    legal = G.legal_actions(state, N)  # dummy S must follow with a spade
    assert legal == ["play QS"] or all(a.split()[1][1] == "S" for a in legal if a.startswith("play"))
    refused(state, N, "play 4H", code="must_follow")
    refused(state, N, "play AS", code="not_in_hand")  # N's own card, but dummy is due
    state, _ = run(state, (N, "play QS"))
    state, _ = run(state, (W, "play JS"), (N, "play AS"))
    assert state.tricks[-1]["winner"] == N and G.to_act(state) == [N]


def test_trump_wins_and_a_void_player_may_discard():
    state = start(hearts_deal())
    state, _ = run(state, (N, "bid 1C"), (E, "pass"), (S, "pass"), (W, "bid 1D"), (N, "pass"), (E, "pass"), (S, "pass"))
    assert state.declarer == W and str(state.contract) == "1D" and G.to_act(state) == [N]
    state, _ = run(state, (N, "play AS"))
    # E (void in spades) may discard a heart; dummy E? W declares, E is dummy: W plays E's cards
    assert G.to_act(state) == [W] and state.dummy == E
    state, _ = run(state, (W, "play 2H"), (S, "play 2D"), (W, "play 2C"))
    assert state.tricks[-1]["winner"] == S  # the only trump
    assert state.won == {"NS": 1, "EW": 0}


def play_out(state, rng=None):
    """Play the rest of the deal with the first legal card (no claims)."""
    rng = rng or random.Random(0)
    while state.phase == "play":
        seat = G.to_act(state)[0]
        card = next(a for a in G.legal_actions(state, seat) if a.startswith("play"))
        state, _ = G.apply(state, seat, card)
    return state


def test_thirteen_tricks_then_scored_and_next_deal():
    state = start()
    state, _ = run(state, (N, "bid 1C"), (E, "pass"), (S, "pass"), (W, "pass"))
    state = play_out(state)
    assert state.phase == "deal" and len(state.boards) == 1
    board = state.boards[0]
    assert len(board["play"]) == 13 and all(len(t["plays"]) == 4 for t in board["play"])
    assert state.last["tricks"] == board["tricks"]
    assert sum(1 for e in state.sheet.entries if e["deal"] == 1 and e["kind"] != "honours") >= 1


# ------------------------------------------------------------------------- claims
def claim_position():
    state = start(hearts_deal())
    # N: spades. N declares 1NT; E leads a heart; N's spades are all winners afterwards
    state, _ = run(state, (N, "bid 1NT"), (E, "pass"), (S, "pass"), (W, "pass"))
    state, _ = run(state, (E, "play AH"), (N, "play 2D"), (W, "play 2C"), (N, "play 2S"))
    return state  # E won trick 1 and leads again


def test_claim_only_by_declarer_on_lead():
    state = claim_position()
    assert G.to_act(state) == [E]
    assert not any(a.startswith("claim") for a in G.legal_actions(state, E))
    refused(state, E, "claim 12", code="claim_not_now")
    state, _ = run(state, (E, "play KH"), (N, "play 3D"), (W, "play 3C"), (N, "play 3S"))
    assert G.to_act(state) == [E]
    # E keeps the lead with hearts; give N the lead by having W... simply check the rule mid-trick
    refused(state, N, "claim 3", NotYourTurn)


def test_claim_accepted_and_rejected():
    state = start(hearts_deal())  # N: all spades
    state, _ = run(state, (N, "bid 1S"), (E, "pass"), (S, "pass"), (W, "pass"))
    assert not any(a.startswith("claim") for a in G.legal_actions(state, N))  # not yet
    state, _ = run(state, (E, "play AH"))
    assert not any(a.startswith("claim") for a in G.legal_actions(state, N))  # dummy follows, not a lead
    state, _ = run(state, (N, "play 2D"), (W, "play 2C"), (N, "play 2S"))  # N ruffs
    assert G.to_act(state) == [N] and G.view(state, None)["turn"] == N
    legal = G.legal_actions(state, N)
    claims = [a for a in legal if a.startswith("claim")]
    assert claims[0] == "claim 12" and claims[-1] == "claim 0" and len(claims) == 13
    refused(state, N, "claim 13", code="claim_too_many")
    claimed, events = run(state, (N, "claim 12"))
    assert events == [{"type": "claim", "seat": N, "tricks": 12, "remaining": 12}]
    assert claimed.phase == "claim" and sorted(G.to_act(claimed)) == [E, W]
    public = G.view(claimed, None)
    assert public["declarer_hand"] == sort_cards(claimed.hands[N])  # shown to the defenders
    assert G.legal_actions(claimed, E) == ["accept", "reject"] and G.legal_actions(claimed, N) == []
    refused(claimed, N, "accept", NotYourTurn)
    # a rejection: play goes on, the hand stays face up for the rest of the deal
    rejected, events = run(claimed, (W, "reject"))
    assert rejected.phase == "play" and G.to_act(rejected) == [N]
    assert G.view(rejected, None)["declarer_hand"] is not None
    # both accept: the claimed tricks are scored
    done, events = run(claimed, (E, "accept"))
    assert done.phase == "claim" and G.to_act(done) == [W]
    refused(done, E, "accept", NotYourTurn)  # answered already
    done, events = run(done, (W, "accept"))
    scored = next(e for e in events if e["type"] == "deal_scored")
    assert scored["tricks"] == 13 and scored["how"] == {"claimed": 12, "remaining": 12}
    assert done.boards[-1]["end"] == {"claimed": 12, "remaining": 12}
    # a partial claim leaves the rest to the defenders
    part, _ = run(state, (N, "claim 10"), (E, "accept"), (W, "accept"))
    assert part.last["tricks"] == 11 and part.last["result"] == 11 - 7


def test_defender_concedes_the_rest():
    state = start()
    state, _ = run(state, (N, "bid 1C"), (E, "pass"), (S, "pass"), (W, "pass"))
    assert "concede" in G.legal_actions(state, E)
    assert "concede" not in G.legal_actions(state, N)
    state, events = run(state, (E, "concede"))
    scored = next(e for e in events if e["type"] == "deal_scored")
    assert scored["tricks"] == 13 and scored["how"] == {"conceded_by": E, "tricks": 13}


# ------------------------------------------------------------------------- honours, vulnerability
def test_honours_from_the_hands_as_dealt_for_any_side():
    hands = fill(E=["AH", "KH", "QH", "JH"], N=["AS", "AC"])
    state = start(hands)
    state, _ = run(state, (N, "bid 1H"), (E, "pass"), (S, "pass"), (W, "pass"))
    state = play_out(state)
    assert state.last["honours"] == {"side": "EW", "held": 4}
    entry = next(e for e in state.sheet.entries if e["kind"] == "honours")
    assert entry["side"] == "EW" and entry["points"] == 100
    # switched off
    state = start(hands, options={"score_honours": False})
    state, _ = run(state, (N, "bid 1H"), (E, "pass"), (S, "pass"), (W, "pass"))
    state = play_out(state)
    assert not any(e["kind"] == "honours" for e in state.sheet.entries)
    # four aces in no trump
    state = start(fill(W=["AS", "AH", "AD", "AC"]))
    state, _ = run(state, (N, "bid 1NT"), (E, "pass"), (S, "pass"), (W, "pass"))
    state = play_out(state)
    assert state.last["honours"] == {"side": "EW", "held": 4}


def test_vulnerability_is_fixed_at_the_deal():
    state = start(hearts_deal())
    state, _ = run(state, (N, "bid 3NT"), (E, "pass"), (S, "pass"), (W, "pass"))
    state, _ = run(state, (E, "concede"))  # 13 tricks: NS game
    assert state.sheet.games["NS"] == 1
    state, events = G.apply(state, None, deal_action(1, 2, random.Random(2)))
    assert events[0]["vulnerable"] == {"NS": True, "EW": False}
    assert G.view(state, None)["vulnerable"] == {"NS": True, "EW": False}


# ------------------------------------------------------------------------- forfeit, game over
def test_forfeit_ends_the_rubber():
    state = start()
    refused(state, 1, "forfeit 1", code="system_only")
    refused(state, None, "forfeit 7", code="bad_seat")
    over, events = G.apply(state, None, "forfeit 1")
    assert G.is_over(over) and G.to_act(over) == []
    result = G.result(over)
    assert result["forfeit"] == 1 and result["winner"] == "NS" and not result["complete"]
    assert result["totals"] == {"NS": 700, "EW": 0} and result["amounts"] == [7, -7, 7, -7]
    assert events[-1] == {"type": "game_over", "result": result}
    refused(over, N, "pass", GameOver)


def test_whole_rubber_result_and_next_dealer():
    state = start(hearts_deal())
    state, _ = run(state, (N, "bid 7NT"), (E, "pass"), (S, "pass"), (W, "pass"), (E, "concede"))
    assert state.sheet.games == {"NS": 1, "EW": 0} and state.phase == "deal"
    state, _ = G.apply(state, None, deal_of(hearts_deal(), dealer=E, board=2))
    state, events = run(state, (E, "pass"), (S, "bid 7NT"), (W, "pass"), (N, "pass"), (E, "pass"), (W, "concede"))
    assert G.is_over(state) and events[-1]["type"] == "game_over"
    result = G.result(state)
    assert result["complete"] and result["games"] == {"NS": 2, "EW": 0} and result["winner"] == "NS"
    assert result["next_dealer"] == S and result["next_board"] == 3
    # 2 x (220 below + 60 overtricks... none: 13 tricks bid) + grand slams 750 / 1500 vul + games + 700
    assert result["totals"]["NS"] == 220 + 750 + 100 + 220 + 1500 + 100 + 700
    assert sum(result["amounts"]) == 0 and result["amounts"][N] == result["units"]["NS"]


# ------------------------------------------------------------------------- views, replay
def test_views_show_only_what_the_seat_may_see():
    state = start()
    for seat in range(4):
        v = G.view(state, seat)
        assert v["hand"] == sort_cards(state.hands[seat])
        assert v["dummy_hand"] is None and v["declarer_hand"] is None
        text = json.dumps(v)
        for other in range(4):
            if other != seat:
                assert not any(f'"{c}"' in text for c in state.hands[other])
    # a contract like 4S never appears as a card-like string in a view
    state, _ = run(state, (N, "bid 4S"), (E, "pass"), (S, "pass"), (W, "pass"))
    words = json.dumps(G.view(state, None)).replace('"', " ").replace(",", " ").split()
    assert "4S" not in words


def test_dump_load_round_trip_and_replay():
    rng = random.Random(11)
    state = G.initial_state(G.Options(), 4)
    log = [(None, G.new_deal(G.Options(), 4, rng, []))]
    state, _ = G.apply(state, None, log[0][1])
    steps = 0
    while not G.is_over(state) and steps < 1500:
        action = G.system_action(state, rng)
        if action:
            seat = None
        else:
            seat = G.to_act(state)[0]
            action = G.computer_action(G.view(state, seat), G.legal_actions(state, seat), rng, level="easy")
        state, _ = G.apply(state, seat, action)
        log.append((seat, action))
        steps += 1
        if steps % 37 == 0:
            data = json.loads(json.dumps(G.dump(state)))
            assert G.dump(G.load(data)) == G.dump(state)
    replayed = G.initial_state(G.Options(), 4)
    for seat, action in log:
        replayed, _ = G.apply(replayed, seat, action)
    assert G.dump(replayed) == G.dump(state)
