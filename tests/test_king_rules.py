"""King: every rule of docs/rules/king.md checked on hand-made deals (the
section numbers are the rules file's), the scoring table, options and errors."""

from __future__ import annotations

import random

import pytest

from engine.base import get_game
from engine.cards import make_deck
from engine.errors import BadOptions, BadSyntax, GameOver, IllegalAction, NotYourTurn
from engine.games.king import KingOptions, State, deal_score, places, queens_score
from engine.games.king.errors import ERROR_CODES
from engine.games.king.rules import packets

G = get_game("king")
N, E, S, W = range(4)
DECK = make_deck(32)


# ---------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------


def deck_for(hands: list[list[str]], dealer: int) -> list[str]:
    """The deck whose packets (§3.3) give ``hands`` (each seat's cards in packet order)."""
    deck = [None] * 32
    for i in range(4):
        h = hands[(dealer + 1 + i) % 4]
        assert len(h) == 8
        deck[3 * i : 3 * i + 3] = h[:3]
        deck[12 + 3 * i : 15 + 3 * i] = h[3:6]
        deck[24 + 2 * i : 26 + 2 * i] = h[6:8]
    assert sorted(deck) == sorted(DECK), "the hands must hold the 32 cards once each"
    return deck


def fill(hands: dict[int, list[str]]) -> list[list[str]]:
    """Complete partial hands with the remaining cards (in deck order) to 8 each."""
    used = {c for h in hands.values() for c in h}
    rest = [c for c in DECK if c not in used]
    out = []
    for seat in range(4):
        h = list(hands.get(seat, []))
        while len(h) < 8:
            h.append(rest.pop(0))
        out.append(h)
    return out


def at_deal(no: int, hands: list[list[str]] | None = None, dealer: int = W, seed: int = 0, **options) -> State:
    """A state right after deal ``no`` was dealt by ``dealer`` (earlier deals skipped)."""
    opts = KingOptions(**options)
    s = G.initial_state(opts, 4)
    if no > 1:
        s.deal_no, s.dealer, s.first_dealer = no - 1, (dealer - 1) % 4, (dealer - no + 1) % 4
    if hands is None:
        deck = list(DECK)
        random.Random(seed).shuffle(deck)
    else:
        deck = deck_for(hands, dealer)
    s, _ = G.apply(s, None, f"deal {no} dealer={dealer} " + " ".join(deck))
    return s


def play(s: State, *actions: str) -> tuple[State, list[dict]]:
    """Apply actions, each by whoever must act now."""
    events: list[dict] = []
    for a in actions:
        s, ev = G.apply(s, G.to_act(s)[0], a)
        events += ev
    return s, events


def play_out(s: State, rng=None) -> tuple[State, list[dict]]:
    """Play the current deal to its end with the first legal action (or random ones)."""
    events: list[dict] = []
    no = s.deal_no
    while s.phase not in ("deal", "over") and s.deal_no == no:
        seat = G.to_act(s)[0]
        legal = G.legal_actions(s, seat)
        s, ev = G.apply(s, seat, rng.choice(legal) if rng else legal[0])
        events += ev
    return s, events


def refused(s: State, seat, action: str, kind: type, code: str) -> None:
    before = G.dump(s)
    with pytest.raises(kind) as info:
        G.apply(s, seat, action)
    assert info.value.code == code, info.value.reason
    assert G.dump(s) == before


# ---------------------------------------------------------------------------------
# options, setup, dealing (§2, §3, §9)
# ---------------------------------------------------------------------------------


def test_options_are_exactly_the_rules_table():
    o = KingOptions().model_dump(mode="json")
    assert o == {
        "first_dealer": "random",
        "stop_when_decided": True,
        "deal1_per_trick": -2,
        "deal2_per_heart": -2,
        "deal2_no_heart_lead": True,
        "deal3_cards": "J",
        "deal3_per_card": -4,
        "deal4_per_queen": -2,
        "deal4_bachelor_rule": True,
        "deal4_bachelor_per_queen": -4,
        "deal4_all_four_bonus": 8,
        "deal5_per_trick": -4,
        "deal6_penalty": -8,
        "deal6_no_heart_lead": False,
        "deal6_must_discard_kh": False,
        "deal7_values": {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0},
        "deal7_thresholds": [[25, -1], [50, -3], [75, -5], [100, -7]],
        "deal7_stop_at_100": True,
        "deal8_penalty": -8,
        "deal8_free_pass": False,
        "trump_per_trick": 3,
        "trump_must_ruff": True,
    }
    assert G.Options is KingOptions and G.rules_version == 1
    assert G.seat_range(KingOptions()) == (4, 4)
    assert KingOptions.model_validate(o) == KingOptions()


@pytest.mark.parametrize(
    "bad",
    [
        {"colour": 1},
        {"first_dealer": "X"},
        {"deal3_cards": "Q"},
        {"deal7_thresholds": [[50, -1], [25, -3]]},
        {"deal7_values": {"A": -1}},
    ],
)
def test_bad_options(bad):
    with pytest.raises(BadOptions):
        G.initial_state(bad, 4)


@pytest.mark.parametrize("players", [3, 5, True])
def test_only_four_players(players):
    with pytest.raises(BadOptions):
        G.initial_state(KingOptions(), players)


def test_packets_three_three_two_from_the_dealers_left():
    deck = [f"d{i}" for i in range(32)]
    hands = packets(deck, dealer=S)  # F = W
    assert hands[W] == ["d0", "d1", "d2", "d12", "d13", "d14", "d24", "d25"]
    assert hands[N] == ["d3", "d4", "d5", "d15", "d16", "d17", "d26", "d27"]
    assert hands[E] == ["d6", "d7", "d8", "d18", "d19", "d20", "d28", "d29"]
    assert hands[S] == ["d9", "d10", "d11", "d21", "d22", "d23", "d30", "d31"]


def test_first_deal_and_dealer_rotation():
    rng = random.Random(3)
    s = G.initial_state(KingOptions(first_dealer="S"), 4)
    action = G.new_deal(KingOptions(first_dealer="S"), 4, rng, [])
    assert action.startswith("deal 1 dealer=2 ") and len(action.split()) == 35
    s, events = G.apply(s, None, action)
    assert events[0] == {"type": "deal", "no": 1, "contract": "tricks", "dealer": S, "first": W}
    assert all(len(h) == 8 for h in s.hands) and G.to_act(s) == [W]
    assert G.system_action(s, rng) is None  # mid-deal: nothing for the system
    dealers, choosers = [S], []
    for no in range(1, 13):
        if s.phase == "choose":
            choosers.append(G.to_act(s)[0])
        s, _ = play_out(s, rng)
        if no < 12:
            nxt = G.system_action(s, rng)
            assert nxt.startswith(f"deal {no + 1} dealer={(s.dealer + 1) % 4} ")
            s, _ = G.apply(s, None, nxt)
            dealers.append(s.dealer)
    assert dealers == [S, W, N, E] * 3
    assert choosers == [W, N, E, S]  # F of deals 9–12: each seat chooses once
    assert G.is_over(s) and G.system_action(s, rng) is None and G.to_act(s) == []


def test_random_first_dealer_and_rematch_by_lot():
    seen = {
        int(G.new_deal(KingOptions(), 4, random.Random(i), [{"totals": [0] * 4}]).split()[2][7:]) for i in range(40)
    }
    assert seen == {0, 1, 2, 3}


def test_deal_action_is_checked():
    s = G.initial_state(KingOptions(first_dealer="N"), 4)
    deck = " ".join(DECK)
    refused(s, 0, f"deal 1 dealer=0 {deck}", IllegalAction, "system_only")
    refused(s, None, f"deal 2 dealer=0 {deck}", IllegalAction, "bad_deal")
    refused(s, None, f"deal 1 dealer=1 {deck}", IllegalAction, "bad_deal")  # first_dealer is N
    refused(s, None, f"deal 1 dealer=5 {deck}", IllegalAction, "bad_deal")
    refused(s, None, "deal 1 dealer=0 " + " ".join(DECK[:-1] + DECK[:1]), IllegalAction, "bad_deal")
    refused(s, None, "deal 1 dealer=0 7S", IllegalAction, "bad_deal")
    refused(s, None, "deal one dealer=0", BadSyntax, "bad_syntax")
    refused(s, None, "deal 1 dealer=0 ZZ", BadSyntax, "bad_syntax")
    refused(s, 0, "play 7S", NotYourTurn, "not_your_turn")
    s, _ = G.apply(s, None, f"deal 1 dealer=0 {deck}")
    refused(s, None, f"deal 2 dealer=1 {deck}", IllegalAction, "wrong_phase")
    s, _ = play_out(s)
    refused(s, None, f"deal 2 dealer=2 {deck}", IllegalAction, "bad_deal")  # E deals deal 2
    s2, _ = G.apply(s, None, f"deal 2 dealer=1 {deck}")
    assert s2.deal_no == 2 and s2.dealer == E


@pytest.mark.parametrize(
    "action", ["", "fly", "play", "play 6S", "play 7S 8S", "name X", "until", "highest S", "pass now", 42]
)
def test_bad_syntax(action):
    s = at_deal(1)
    refused(s, G.to_act(s)[0], action, BadSyntax, "bad_syntax")


def test_error_codes_are_documented():
    assert set(ERROR_CODES) >= {
        "bad_syntax",
        "not_your_turn",
        "must_follow",
        "must_trump",
        "no_heart_lead",
        "must_discard_kh",
        "not_playable",
        "cannot_pass",
    }


# ---------------------------------------------------------------------------------
# trick play (§5)
# ---------------------------------------------------------------------------------


def test_follow_suit_and_the_trick_winner_leads():
    hands = fill({N: ["7S", "AS", "7H"], E: ["9S", "8H"], S: ["TS", "AH"], W: ["8S", "KS"]})
    s = at_deal(1, hands, dealer=W)  # N leads
    assert G.to_act(s) == [N]
    s, _ = play(s, "play 7S")
    assert G.legal_actions(s, E) == ["play 9S"]
    refused(s, E, "play 8H", IllegalAction, "must_follow")
    refused(s, N, "play AS", NotYourTurn, "not_your_turn")
    refused(s, E, "play AS", IllegalAction, "not_in_hand")
    assert G.legal_actions(s, N) == []
    s, ev = play(s, "play 9S", "play TS", "play 8S")
    trick = next(e for e in ev if e["type"] == "trick")
    assert trick == {"type": "trick", "no": 1, "winner": S, "cards": ["7S", "9S", "TS", "8S"]}
    assert G.to_act(s) == [S] and s.won[S] == ["7S", "9S", "TS", "8S"]


def test_a_discard_never_wins_in_no_trump_deals():
    s = at_deal(1, _no_clubs_for(E), dealer=W)
    assert "AS" in s.hands[E]
    s, ev = play(s, "play 7C", "play AS", "play 8C", "play 9C")
    assert next(e for e in ev if e["type"] == "trick")["winner"] == W


def _no_clubs_for(seat: int) -> list[list[str]]:
    """Hands where ``seat`` holds no club and N holds 7C, S 8C, W 9C."""
    clubs = [c for c in DECK if c[1] == "C" and c not in ("7C", "8C", "9C")]
    others = [c for c in DECK if c[1] != "C"]
    hands = {N: ["7C"], S: ["8C"], W: ["9C"], E: []}
    hands[E] = others[:8]
    rest = clubs + others[8:]
    for x in (N, S, W):
        while len(hands[x]) < 8:
            hands[x].append(rest.pop(0))
    return [hands[x] for x in range(4)]


def trump_state(hands, dealer=W, mode="name S", **options):
    s = at_deal(9, hands, dealer=dealer, **options)
    s, _ = play(s, mode)
    return s


# N leads clubs; E and S are void in clubs, E holds two spades (trumps) and S five
CLUBS_LEAD_HANDS = [
    ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "AS"],
    ["7S", "KS", "AH", "KH", "QH", "JH", "TH", "9H"],
    ["8S", "9S", "TS", "JS", "QS", "8H", "7H", "AD"],
    ["7C", "KD", "QD", "JD", "TD", "9D", "8D", "7D"],
]


def test_must_trump_but_no_duty_to_overtrump():
    # N (F, chooser) leads; E is void in clubs and holds two trumps (spades)
    s = trump_state(CLUBS_LEAD_HANDS)
    assert s.trump == "S" and G.to_act(s) == [N]
    s, _ = play(s, "play KC")
    assert G.legal_actions(s, E) == ["play 7S", "play KS"]  # any trump, not only a higher one
    refused(s, E, "play AH", IllegalAction, "must_trump")
    s, _ = play(s, "play 7S")
    # S is void in clubs too: must trump, and 8S (lower than nothing? higher than 7S) is fine
    assert set(G.legal_actions(s, S)) == {f"play {c}" for c in ["8S", "9S", "TS", "JS", "QS"]}
    s, ev = play(s, "play 8S", "play 7C")
    assert next(e for e in ev if e["type"] == "trick")["winner"] == S


def test_without_must_ruff_a_void_player_discards_freely():
    s = trump_state(CLUBS_LEAD_HANDS, trump_must_ruff=False)
    s, _ = play(s, "play KC")
    assert len(G.legal_actions(s, E)) == 8


def test_deal2_no_heart_lead_while_holding_another_suit():
    hands = fill({N: ["AH", "KH", "7S"], E: [], S: [], W: []})
    s = at_deal(2, hands, dealer=W)
    assert "play AH" not in G.legal_actions(s, N)
    refused(s, N, "play AH", IllegalAction, "no_heart_lead")
    s_off = at_deal(2, hands, dealer=W, deal2_no_heart_lead=False)
    assert "play AH" in G.legal_actions(s_off, N)
    # only hearts left: a heart may be led
    all_hearts = [c for c in DECK if c[1] == "H"]
    hands = fill({N: all_hearts})
    s = at_deal(2, hands, dealer=W)
    assert len(G.legal_actions(s, N)) == 8
    # deal 6 has no restriction by default, one with deal6_no_heart_lead
    hands = fill({N: ["AH", "7S"]})
    assert "play AH" in G.legal_actions(at_deal(6, hands, dealer=W), N)
    assert "play AH" not in G.legal_actions(at_deal(6, hands, dealer=W, deal6_no_heart_lead=True), N)


def test_deal6_must_discard_the_king_of_hearts():
    s_hands = _no_clubs_for(E)
    if "KH" not in s_hands[E]:
        holder = next(x for x in range(4) if "KH" in s_hands[x])
        swap = next(c for c in s_hands[E] if c[1] != "C")
        s_hands[holder][s_hands[holder].index("KH")] = swap
        s_hands[E][s_hands[E].index(swap)] = "KH"
    s = at_deal(6, s_hands, dealer=W, deal6_must_discard_kh=True)
    s, _ = play(s, "play 7C")
    assert G.legal_actions(s, E) == ["play KH"]
    refused(s, E, "play " + next(c for c in s.hands[E] if c != "KH"), IllegalAction, "must_discard_kh")
    s = at_deal(6, s_hands, dealer=W)
    s, _ = play(s, "play 7C")
    assert len(G.legal_actions(s, E)) == 8


def test_deal6_ends_with_the_trick_that_holds_the_king():
    hands = _no_clubs_for(E)
    if "KH" not in hands[E]:
        holder = next(x for x in range(4) if "KH" in hands[x])
        swap = next(c for c in hands[E] if c[1] != "C")
        hands[holder][hands[holder].index("KH")] = swap
        hands[E][hands[E].index(swap)] = "KH"
    s = at_deal(6, hands, dealer=W)
    s, ev = play(s, "play 7C", "play KH", "play 8C", "play 9C")
    scored = next(e for e in ev if e["type"] == "deal_scored")
    assert scored["no"] == 6 and scored["scores"] == [0, 0, 0, -8] and scored["facts"] == {"king": W}
    assert s.phase == "deal" and all(len(h) == 7 for h in s.hands)  # the rest stays in the hands


# ---------------------------------------------------------------------------------
# early stop (stop_when_decided) and deal ends
# ---------------------------------------------------------------------------------


@pytest.mark.parametrize("stop", [True, False])
def test_deal4_stops_once_all_queens_are_taken(stop):
    hands = [
        ["AS", "AH", "AD", "AC", "KS", "KH", "KD", "KC"],
        ["QS", "QH", "QD", "QC", "JS", "JH", "JD", "JC"],
        ["TS", "TH", "TD", "TC", "9S", "9H", "9D", "9C"],
        ["8S", "8H", "8D", "8C", "7S", "7H", "7D", "7C"],
    ]
    s = at_deal(4, hands, dealer=W, stop_when_decided=stop)
    events = []
    for suit in "SHDC":
        s, ev = play(s, f"play A{suit}", f"play Q{suit}", f"play T{suit}", f"play 8{suit}")
        events += ev
    scored = [e for e in events if e["type"] == "deal_scored"]
    if stop:
        assert scored and scored[0]["scores"] == [8, 0, 0, 0] and len(s.winners) == 4
        assert s.phase == "deal"
    else:
        assert not scored and s.phase == "play"
        s, ev = play_out(s)
        assert next(e for e in ev if e["type"] == "deal_scored")["scores"] == [8, 0, 0, 0]


def test_early_stop_in_deal2_only_with_the_option():
    rng = random.Random(5)
    for seed in range(30):
        for stop in (True, False):
            s = at_deal(2, None, dealer=W, seed=seed, stop_when_decided=stop)
            s, ev = play_out(s, rng)
            scored = next(e for e in ev if e["type"] == "deal_scored")
            assert sum(scored["scores"]) == -16
            hearts_left = [c for h in s.hands for c in h if c[1] == "H"]
            assert not hearts_left
            if not stop:
                assert len(s.winners) == 8
            elif len(s.winners) < 8:
                # stopped early: the hearts were all taken by the last trick, not before
                last = s.last_trick["plays"]
                assert any(c[1] == "H" for _, c in last)


# ---------------------------------------------------------------------------------
# trump choice (§3.4)
# ---------------------------------------------------------------------------------


def chooser_hands(first3, packet2, last2=("7D", "8D")):
    """Hands for deal 9 dealt by W: N is F and gets first3 + packet2 + last2."""
    used = set(first3) | set(packet2) | set(last2)
    rest = [c for c in DECK if c not in used]
    return [list(first3) + list(packet2) + list(last2), rest[:8], rest[8:16], rest[16:24]]


def test_trump_choice_waits_for_the_chooser_with_three_cards():
    hands = chooser_hands(["AS", "KS", "7H"], ["9C", "JH", "8S"])
    s = at_deal(9, hands, dealer=W)
    assert s.phase == "choose" and G.to_act(s) == [N]
    assert s.hands[N] == ["AS", "KS", "7H"] and not any(s.hands[1:])
    assert G.legal_actions(s, N) == [
        "name S",
        "name H",
        "name D",
        "name C",
        "until S",
        "until H",
        "until D",
        "until C",
        "highest",
    ]
    assert G.legal_actions(s, E) == []
    v_e, v_pub = G.view(s, E), G.view(s, None)
    assert v_e["hand"] == [] and "hand" not in v_pub
    assert "AS" not in str(v_e) and "9C" not in str(v_e) and "9C" not in str(G.view(s, N))
    refused(s, N, "play AS", IllegalAction, "wrong_phase")
    refused(s, E, "name S", NotYourTurn, "not_your_turn")


@pytest.mark.parametrize(
    "mode,packet2,turned,trump",
    [
        ("name D", ["9C", "JH", "8S"], [], "D"),
        ("until H", ["9C", "JH", "8S"], ["9C", "JH"], "H"),  # stops at the first heart
        ("until C", ["9C", "JH", "8S"], ["9C"], "C"),  # the first card is a club
        ("until D", ["9C", "JH", "8S"], ["9C", "JH", "8S"], "H"),  # no diamond: the highest (J)
        ("until D", ["9C", "9H", "8S"], ["9C", "9H", "8S"], "C"),  # equal ranks: the first turned
        ("highest", ["9C", "AH", "AS"], ["9C", "AH", "AS"], "H"),  # A twice: the first turned
        ("highest", ["TC", "7H", "KS"], ["TC", "7H", "KS"], "S"),
    ],
)
def test_trump_choice_procedures(mode, packet2, turned, trump):
    hands = chooser_hands(
        [
            "AS" if "AS" not in packet2 else "KD",
            "KS" if "KS" not in packet2 else "QD",
            "7H" if "7H" not in packet2 else "QC",
        ],
        packet2,
    )
    s = at_deal(9, hands, dealer=W)
    s2, ev = G.apply(s, N, mode)
    assert s2.trump == trump and s2.turned == turned
    verb, *arg = mode.split()
    assert ev == [
        {"type": "trump", "seat": N, "mode": verb, "asked": arg[0] if arg else None, "turned": turned, "trump": trump}
    ]
    assert all(len(h) == 8 for h in s2.hands) and s2.hands[N] == hands[N]
    assert G.to_act(s2) == [N] and s2.phase == "play"
    pub = G.view(s2, None)
    assert pub["turned"] == turned and pub["trump"] == trump
    # the chooser's first three and any unturned cards stay private
    private = set(hands[N]) - set(turned)
    for seat in (None, E, S, W):
        words: set[str] = set()
        _strings(G.view(s2, seat), words)
        assert not words & private


# ---------------------------------------------------------------------------------
# deal 7: card count (§6)
# ---------------------------------------------------------------------------------


def test_deal7_own_example_and_thresholds():
    s = at_deal(7, fill({W: ["KD"], N: ["AS"]}), dealer=S)  # W is F
    # bring the total to 70 by hand: the rules' own example starts there
    s.total, s.awards = 70, [E, S, None, None]
    assert G.to_act(s) == [W]
    s, ev = play(s, "play KD")
    assert s.total == 74 and not [e for e in ev if e["type"] == "threshold"]
    s, ev = play(s, "play AS")
    assert s.total == 85 and [e for e in ev if e["type"] == "threshold"] == [
        {"type": "threshold", "seat": N, "at": 75, "points": -5}
    ]
    assert s.awards == [E, S, N, None]


@pytest.mark.parametrize("stop", [True, False])
def test_deal7_totals_and_stop_at_100(stop):
    rng = random.Random(7)
    for seed in range(40):
        s = at_deal(7, None, seed=seed, deal7_stop_at_100=stop)
        s, ev = play_out(s, rng)
        scored = next(e for e in ev if e["type"] == "deal_scored")
        assert sum(scored["scores"]) == -16
        lays = [e for e in ev if e["type"] == "lay"]
        marks = [e for e in ev if e["type"] == "threshold"]
        assert [m["at"] for m in marks] == [25, 50, 75, 100]
        assert len({id(m) for m in marks}) == 4
        if stop:
            assert lays[-1]["total"] >= 100 and lays[-2]["total"] < 100
        else:
            assert len(lays) == 32 and lays[-1]["total"] == 120
        # one card scores at most one threshold
        seq = [e for e in ev if e["type"] in ("lay", "threshold")]
        for a, b in zip(seq, seq[1:]):
            assert not (a["type"] == b["type"] == "threshold")


# ---------------------------------------------------------------------------------
# deal 8: jacks layout (§7)
# ---------------------------------------------------------------------------------


def test_deal8_own_example_of_legal_plays():
    s = at_deal(8, fill({N: ["8H", "KH", "QS", "TS", "JD", "JC", "7S", "AD"]}), dealer=W)
    s.rows = {"H": ["9", "Q"], "S": ["J", "J"]}
    s.turn = N
    assert G.legal_actions(s, N) == ["play TS", "play QS", "play 8H", "play KH", "play JD", "play JC"]
    refused(s, N, "play 7S", IllegalAction, "not_playable")
    refused(s, N, "play AD", IllegalAction, "not_playable")
    refused(s, N, "pass", IllegalAction, "cannot_pass")


def test_deal8_first_jack_holder_clockwise_starts():
    hands = [
        ["7S", "8S", "9S", "TS", "7H", "8H", "9H", "TH"],
        ["QS", "KS", "AS", "QH", "KH", "AH", "7D", "8D"],
        ["JS", "JH", "JD", "JC", "9D", "TD", "QD", "KD"],
        ["AD", "7C", "8C", "9C", "TC", "QC", "KC", "AC"],
    ]
    s0 = G.initial_state(O, 4)
    s0.deal_no, s0.dealer, s0.first_dealer = 7, S, N
    s, ev = G.apply(s0, None, "deal 8 dealer=3 " + " ".join(deck_for(hands, W)))
    assert [e for e in ev if e["type"] == "pass"] == [
        {"type": "pass", "seat": N, "auto": True},
        {"type": "pass", "seat": E, "auto": True},
    ]
    assert G.to_act(s) == [S] and G.legal_actions(s, S) == ["play JS", "play JH", "play JD", "play JC"]
    assert G.view(s, None)["passed"] == [N, E]
    s, ev = play(s, "play JH")
    # W cannot play, N can (TH): W passes automatically, N is next
    assert ev[-1] == {"type": "pass", "seat": W, "auto": True} and G.to_act(s) == [N]
    assert G.legal_actions(s, N) == ["play TH"]


def test_deal8_passes_and_the_end():
    rng = random.Random(8)
    for seed in range(60):
        s = at_deal(8, None, seed=seed)
        s, ev = play_out(s, rng)
        scored = next(e for e in ev if e["type"] == "deal_scored")
        left = [x for x in range(4) if s.hands[x]]
        assert len(left) == 1 and scored["scores"][left[0]] == -8 and sum(scored["scores"]) == -8
        assert scored["facts"] == {"left": left[0]}
        for lo, hi in s.rows.values():
            assert "789TJQKA".index(lo) <= 4 <= "789TJQKA".index(hi)


def test_deal8_free_pass_and_its_limit():
    hands = [
        ["JS", "JH", "7S", "8S", "9S", "TS", "7H", "8H"],
        ["JD", "7D", "8D", "9D", "TD", "QD", "KD", "AD"],
        ["JC", "7C", "8C", "9C", "TC", "QC", "KC", "AC"],
        ["QS", "KS", "AS", "QH", "KH", "AH", "9H", "TH"],
    ]
    s = at_deal(8, hands, dealer=W, deal8_free_pass=True)
    assert G.legal_actions(s, N) == ["play JS", "play JH", "pass"]
    s, ev = play(s, "pass")
    assert ev == [{"type": "pass", "seat": N, "auto": False}] and G.to_act(s) == [E]
    s, ev = play(s, "pass", "pass")
    assert ev[-1] == {"type": "pass", "seat": W, "auto": True}  # W holds no jack
    assert s.passed == [N, E, S, W] and G.to_act(s) == [N]
    # everyone else has passed since the last card: N must play
    assert G.legal_actions(s, N) == ["play JS", "play JH"]
    refused(s, N, "pass", IllegalAction, "cannot_pass")
    s, _ = play(s, "play JS")
    assert s.passed == [] and "pass" in G.legal_actions(s, E)
    refused(at_deal(8, hands, dealer=W), N, "pass", IllegalAction, "cannot_pass")


# ---------------------------------------------------------------------------------
# scoring (§8)
# ---------------------------------------------------------------------------------

O = KingOptions()


def test_scoring_table():
    assert deal_score(1, {"tricks": [2, 3, 1, 2]}, O) == [-4, -6, -2, -4]
    assert deal_score(2, {"hearts": [3, 0, 4, 1]}, O) == [-6, 0, -8, -2]
    assert deal_score(3, {"cards": [1, 1, 2, 0]}, O) == [-4, -4, -8, 0]
    assert deal_score(3, {"cards": [1, 3, 2, 2]}, KingOptions(deal3_cards="KJ", deal3_per_card=-2)) == [-2, -6, -4, -4]
    assert deal_score(5, {"last_two": [2, 2]}, O) == [0, 0, -8, 0]
    assert deal_score(5, {"last_two": [0, 3]}, O) == [-4, 0, 0, -4]
    assert deal_score(6, {"king": 1}, O) == [0, -8, 0, 0]
    assert deal_score(7, {"thresholds": [0, 1, 0, 3]}, O) == [-6, -3, 0, -7]
    assert deal_score(8, {"left": 3}, O) == [0, 0, 0, -8]
    for no in range(9, 13):
        assert deal_score(no, {"tricks": [2, 2, 1, 3]}, O) == [6, 6, 3, 9]


def test_queens_and_the_bachelor():
    assert queens_score([2, 1, 1, 0], O) == [-8, -4, -4, 0]  # the rules' own example
    assert queens_score([1, 1, 1, 1], O) == [-2, -2, -2, -2]
    assert queens_score([0, 4, 0, 0], O) == [0, 8, 0, 0]
    assert queens_score([3, 1, 0, 0], O) == [-12, -4, 0, 0]
    off = KingOptions(deal4_bachelor_rule=False)
    assert queens_score([2, 1, 1, 0], off) == [-4, -2, -2, 0]
    assert queens_score([0, 0, 4, 0], off) == [0, 0, 8, 0]
    assert deal_score(4, {"queens": [2, 1, 1, 0]}, O) == [-8, -4, -4, 0]


@pytest.mark.parametrize(
    "no,facts",
    [
        (1, {"tricks": [2, 2, 2, 1]}),
        (2, {"hearts": [9, 0, 0, 0]}),
        (4, {"queens": [1, 1, 1]}),
        (5, {"last_two": [0]}),
        (6, {"king": 4}),
        (7, {"thresholds": [0, 1]}),
        (8, {"left": -1}),
        (9, {"tricks": None}),
        (13, {}),
        (3, {"cards": [1, 1, 1, True]}),
    ],
)
def test_bad_facts(no, facts):
    with pytest.raises(ValueError):
        deal_score(no, facts, O)


def test_places_share_and_forfeit_last():
    assert places([5, 7, 5, -3]) == [2, 1, 2, 4]
    assert places([0, 0, 0, 0]) == [1, 1, 1, 1]
    assert places([9, 7, 5, -3], last=0) == [4, 1, 2, 3]


# ---------------------------------------------------------------------------------
# forfeit, game over, views
# ---------------------------------------------------------------------------------


def test_forfeit_ends_the_game_and_the_idle_seat_is_last():
    rng = random.Random(2)
    s = at_deal(1, None)
    s, _ = play_out(s, rng)
    s, _ = G.apply(s, None, G.system_action(s, rng))
    s, _ = play(s, G.legal_actions(s, G.to_act(s)[0])[0])
    refused(s, 1, "forfeit 1", IllegalAction, "system_only")
    refused(s, None, "forfeit 7", IllegalAction, "bad_seat")
    idle = G.to_act(s)[0]
    s2, ev = G.apply(s, None, f"forfeit {idle}")
    assert ev[0] == {"type": "forfeit", "seat": idle, "deal": 2}
    res = G.result(s2)
    assert res["forfeit"] == idle and res["places"][idle] == 4 and res["deals"] == 1
    assert ev[-1] == {"type": "game_over", "result": res}
    assert G.is_over(s2) and G.to_act(s2) == [] and G.legal_actions(s2, idle) == []
    refused(s2, None, "forfeit 0", GameOver, "game_over")
    refused(G.initial_state(O, 4), None, "forfeit 0", IllegalAction, "wrong_phase")


def test_dump_load_round_trip_and_views():
    s = at_deal(9, None, seed=4)
    s, _ = play(s, "until H")
    s, _ = play(s, G.legal_actions(s, G.to_act(s)[0])[0])
    data = G.dump(s)
    assert G.dump(G.load(data)) == data
    import json

    assert json.loads(json.dumps(data)) == data
    pub = G.view(s, None)
    assert "hand" not in pub and pub["to_act"] == G.to_act(s)
    for seat in range(4):
        v = G.view(s, seat)
        assert sorted(v["hand"]) == sorted(s.hands[seat])
        others = {c for x in range(4) if x != seat for c in s.hands[x]} - set(s.turned)
        words = set()
        _strings(v, words)
        assert not words & others
    json.dumps(pub)


def _strings(obj, out):
    if isinstance(obj, str):
        out.update(obj.split())
    elif isinstance(obj, dict):
        for v in obj.values():
            _strings(v, out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _strings(v, out)
