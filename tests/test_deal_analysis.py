"""After the deal: the analysis of finished deals (engine/games/<game>/analysis.py).

The double-dummy figures are checked against endplay's own solver entry points (a
different road to DDS than the one the analysis takes) on fixed deals, the preferans
figures against a plain brute-force search on small endings, and the costly cards by
their bookkeeping: the double-dummy result at the lead, moved by every costly card's
loss, is the result the table actually took."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.analysis_core import analyse_record
from engine.games.bridge.analysis import analyse as analyse_bridge
from engine.games.preferans import analysis as balkan
from engine.games.preferans_ru import analysis as russian
from engine.records import RecordError
from engine.tricks import playable, winning_index
from tests.deal_records import play_record

SEATS = "NESW"
# every player holds one whole suit: a side declaring in one of its two suits takes all
# 13 tricks (partner ruffs the lead), in the other side's suits or no trump none (the
# opening leader runs his suit)
ONE_SUIT_EACH = [[r + s for r in "23456789TJQKA"] for s in "SHDC"]  # N spades, E hearts, S diamonds, W clubs


def dealt_in_order(hands: list[list[str]], dealer: int) -> str:
    """A bridge deal action giving ``hands``: the deck is dealt one card at a time
    clockwise from the dealer's left."""
    deck = [hands[(dealer + 1 + i % 4) % 4][i // 4] for i in range(52)]
    return f"deal dealer={SEATS[dealer]} board=1 " + " ".join(deck)


def endplay_deal(hands: list[list[str]]):
    from endplay.types import Deal

    from engine.ddplay.review import pbn

    return Deal.from_pbn(pbn(hands))


def endplay_declarer_tricks(hands: list[list[str]], declarer: int, strain: str) -> int:
    """The declarer's tricks by endplay's solve_board: his left-hand opponent on lead."""
    from endplay.dds import solve_board
    from endplay.types import Denom, Player

    deal = endplay_deal(hands)
    deal.first = Player((declarer + 1) % 4)
    deal.trump = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs, "NT": Denom.nt}[strain]
    return 13 - max(tricks for _, tricks in solve_board(deal))


def test_one_suit_each_declarer_takes_all_in_his_suit_and_none_elsewhere():
    record = play_record("bridge", 1, 4, first_deal=dealt_in_order(ONE_SUIT_EACH, 0))
    deal = analyse_bridge(record)[0]
    assert deal["hands"]["N"] == ONE_SUIT_EACH[0]
    for i, seat in enumerate(SEATS):
        own = {"SHDC"[i], "SHDC"[(i + 2) % 4]}
        assert deal["dd"][seat] == {s: 13 if s in own else 0 for s in ("C", "D", "H", "S", "NT")}


@pytest.mark.parametrize("seed", [3, 11])
def test_bridge_table_par_and_contract_against_endplay(seed):
    record = play_record("bridge", seed, 4, deals=2, policy="computer")
    deals = analyse_bridge(record)
    assert len(deals) == 2
    for deal in deals:
        hands = [deal["hands"][s] for s in SEATS]
        for i, seat in enumerate(SEATS):
            for strain in ("CDHS"[(i + seed) % 4], "NT"):  # two strains a seat keep the test short
                assert deal["dd"][seat][strain] == endplay_declarer_tricks(hands, i, strain)
        for contract in deal["par"]["contracts"]:  # "4SN+1": the table's tricks give the result
            level, strain = int(contract[0]), "NT" if contract[1:3] == "NT" else contract[1]
            rest = contract[1 + len(strain) :].lstrip("X")
            made = deal["dd"][rest[0]][strain] - 6 - level
            assert rest[1:] == ("=" if made == 0 else f"{made:+d}")
        if deal["contract"] is not None:
            strain = deal["contract"][1:].rstrip("X")
            assert deal["dd_tricks"] == deal["dd"][deal["declarer"]][strain]


def costly_balance(deal, declarer_side: set[str], wants_few: bool = False) -> int:
    """The result the costly cards predict: the double-dummy figure at the lead, lowered
    by the declarer's side's losses and raised by the other side's (on мизер the other way)."""
    sign = -1 if wants_few else 1
    moved = sum(c["loss"] * (-sign if c["seat"] in declarer_side else sign) for c in deal["costly"])
    return deal["dd_tricks"] + moved


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_bridge_costly_cards_account_for_the_result(seed):
    deals = [d for d in analyse_bridge(play_record("bridge", seed, 4, deals=3)) if d["contract"]]
    assert deals
    for deal in deals:
        if len(deal["tricks"]) == 13:
            declarer = SEATS.index(deal["declarer"])
            side = {SEATS[declarer], SEATS[(declarer + 2) % 4]}
            assert costly_balance(deal, side) == deal["result"]


def endplay_costly(deal) -> list[dict]:
    """The costly cards of a played deal by endplay alone: its ``Deal`` plays the cards
    and ``solve_board`` scores the player's cards before each one."""
    from endplay.dds import solve_board
    from endplay.types import Card, Denom, Player

    strain = deal["contract"][1:].rstrip("X")
    table = endplay_deal([deal["hands"][s] for s in SEATS])
    table.trump = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs, "NT": Denom.nt}[strain]
    table.first = Player(SEATS.index(deal["tricks"][0]["leader"]))
    out = []
    for k, trick in enumerate(deal["tricks"], start=1):
        for seat, card in trick["cards"]:
            scores = {"SHDC"[c.suit.value] + c.rank.abbr: tricks for c, tricks in solve_board(table)}
            loss = max(scores.values()) - scores[card[1] + card[0]]
            if loss:
                out.append({"trick": k, "seat": seat, "card": card, "loss": loss})
            table.play(Card(card[1] + card[0]))
    return out


def test_bridge_costly_losses_against_endplay():
    deals = [d for d in analyse_bridge(play_record("bridge", 7, 4, deals=2)) if d["contract"]]
    assert any(d["costly"] for d in deals)
    for deal in deals:
        assert deal["costly"] == endplay_costly(deal)


def test_whist_sides_and_costly_cards():
    for deal in analyse_record(play_record("whist", 4, 4, deals=2))["deals"]:
        hands = [deal["hands"][s] for s in SEATS]
        leader = SEATS.index(deal["tricks"][0]["leader"])
        strain = deal["trump"] or "NT"
        # the table's declarer is the seat on the leader's right
        defenders = endplay_declarer_tricks(hands, (leader + 3) % 4, strain)
        assert deal["dd_tricks"]["NS" if (leader + 3) % 2 == 0 else "EW"] == defenders
        assert sum(deal["dd_tricks"].values()) == 13
        side = "NS" if leader % 2 == 0 else "EW"
        leaders = {SEATS[leader], SEATS[(leader + 2) % 4]}
        predicted = deal["dd_tricks"][side] - sum(
            c["loss"] * (1 if c["seat"] in leaders else -1) for c in deal["costly"]
        )
        assert predicted == deal["result"][side]


# ---------------------------------------------------------------- preferans: brute force
def brute_force(
    hands: dict[int, list[str]], order: list[int], declarer: int, trump, leader: int, wants_few: bool
) -> int:
    """The declarer's tricks with everybody's best play, by trying every card: the
    declarer maximises them (on мизер/Bettel minimises), the others do the opposite."""

    def value(hands: dict[int, tuple[str, ...]], leader: int) -> int:
        if not hands[declarer]:
            return 0
        seats = order[order.index(leader) :] + order[: order.index(leader)]
        best: int | None = None

        def trick(i: int, played: list[tuple[int, str]]) -> int:
            if i == len(seats):
                winner = played[winning_index([c for _, c in played], trump)][0]
                rest = {s: tuple(c for c in hands[s] if c not in {card for _, card in played}) for s in hands}
                return (winner == declarer) + value(rest, winner)
            seat = seats[i]
            led = played[0][1][1] if played else None
            results = [trick(i + 1, played + [(seat, c)]) for c in playable(list(hands[seat]), led, trump, True)]
            high = (seat == declarer) != wants_few
            return max(results) if high else min(results)

        best = trick(0, [])
        return best

    return value({s: tuple(h) for s, h in hands.items()}, leader)


def small_ending(rng: random.Random, cards: int, seats: list[int]) -> dict[int, list[str]]:
    deck = [r + s for r in "789TJQKA" for s in "SDHC"]
    rng.shuffle(deck)
    return {s: deck[i * cards : (i + 1) * cards] for i, s in enumerate(seats)}


@pytest.mark.parametrize("seed", range(6))
def test_balkan_solver_figures_match_brute_force(seed):
    rng = random.Random(seed)
    seats = [0, 1, 2] if seed % 3 else [0, 2]  # a two-handed play (the passed defender out) too
    hands = small_ending(rng, 4 if len(seats) == 3 else 5, seats)
    declarer = rng.choice(seats)
    leader = rng.choice(seats)
    full = [hands.get(s, []) for s in range(3)]
    for number, trump in ((2, "S"), (5, "C"), (7, None), (6, None)):
        bettel = number == 6
        got = balkan.declarer_tricks(full, seats, declarer, leader, number)
        assert got == brute_force(hands, seats, declarer, trump, leader, wants_few=bettel)


@pytest.mark.parametrize("seed", range(4))
def test_russian_figures_match_brute_force(seed):
    rng = random.Random(100 + seed)
    seats = [0, 1, 2]
    hands = small_ending(rng, 4, seats)
    declarer, leader = rng.choice(seats), rng.choice(seats)
    full = [hands[s] for s in range(3)]
    for contract, trump in (("6H", "H"), ("6NT", None), ("MISERE", None)):
        got = russian.declarer_tricks(full, seats, declarer, leader, contract)
        assert got == brute_force(hands, seats, declarer, trump, leader, wants_few=contract == "MISERE")


def test_preferans_costly_cards_account_for_the_result():
    checked = 0
    for seed, (name, module) in itertools.product(range(1), (("preferans", balkan), ("preferans_ru", russian))):
        for deal in module.analyse(play_record(name, seed, 3, deals=4)):
            if deal["dd_tricks"] is None or deal["contract"] == "BETTEL" or len(deal["tricks"]) < 10:
                continue
            wants_few = deal["contract"] in ("MISERE", "MISERE_NOTALON")
            assert costly_balance(deal, {deal["declarer"]}, wants_few) == deal["result"][deal["declarer"]]
            checked += 1
    assert checked >= 4


def test_preferans_best_contract_and_whist_verdict_follow_the_figures():
    for seed in range(2):
        for deal in balkan.analyse(play_record("preferans", seed, 3, deals=4)):
            if deal["dd_by_contract"] is None:
                continue
            made = [c for c, n in deal["dd_by_contract"].items() if n >= 6]
            order = ["S", "D", "H", "C", "SANS"]
            assert deal["best_contract"] == (max(made, key=order.index) if made else None)
            if deal["whist_right"] is not None:
                assert deal["whist_right"] == (deal["dd_tricks"] < 6)


def test_king_gives_hands_and_tricks_and_no_figures():
    deals = analyse_record(play_record("king", 1, 4, deals=2))["deals"]
    assert [d["no"] for d in deals] == [1, 2]
    for deal in deals:
        assert deal["dd"] is None
        assert sum(len(h) for h in deal["hands"].values()) == 32
        assert len(deal["tricks"]) == 8
        for trick in deal["tricks"]:  # each winner leads the next trick
            assert len(trick["cards"]) == 4
        assert [t["leader"] for t in deal["tricks"][1:]] == [t["winner"] for t in deal["tricks"][:-1]]


def test_a_record_that_does_not_replay_or_has_no_analysis_is_refused():
    with pytest.raises(RecordError):
        analyse_record({"game": "bridge", "players": 4, "actions": ["deal dealer=N board=1 2S"]})
    durak = play_record("durak", 1, 2)
    with pytest.raises(RecordError, match="no deal analysis"):
        analyse_record(durak)
    with pytest.raises(RecordError):
        analyse_record(["not", "a", "record"])


def test_pbn_export_carries_the_par_and_the_double_dummy_table():
    from engine.analysis_core import deals_of
    from engine.games.bridge.analysis import dd_summary
    from engine.games.bridge.pbn import export

    _, deals = deals_of(play_record("bridge", 2, 4, deals=2))
    state = deals[-1].final
    summaries = {r["board"]: dd_summary(r["hands"], r["dealer"], r["vulnerable"]) for r in state.boards}
    plain = export(state, ["a", "b", "c", "d"])
    text = export(state, ["a", "b", "c", "d"], dd=summaries)
    assert "OptimumResultTable" not in plain  # only with a summary
    for board, summary in summaries.items():
        section = text.split(f'[Board "{board}"]')[1].split("[Event")[0]
        assert f'[OptimumScore "NS {summary["par"]["score"]}"]' in section
        assert '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]' in section
        rows = section.split('Result\\2R"]\n')[1].strip().splitlines()
        assert len(rows) == 20
        for row in rows:
            seat, strain, tricks = row.split()
            assert summary["dd"][seat][strain] == int(tricks)
        side_contracts = section.split('[ParContract "')[1].split('"]')[0].split("; ")
        assert all(c.split()[0] in ("NS", "EW") for c in side_contracts)


@pytest.mark.parametrize(
    "name,players", [("bridge", 4), ("whist", 4), ("preferans", 3), ("preferans_ru", 3), ("king", 4)]
)
def test_a_deal_cut_short_by_the_record_is_not_finished(name, players):
    """Only a finished deal may be shown to people who did not see its cards: the
    analysis says which deals the record finished."""
    record = play_record(name, 2, players, deals=2)
    deals = analyse_record(record)["deals"]
    assert [d["finished"] for d in deals] == [True, True]
    last_deal = max(i for i, a in enumerate(record["actions"]) if a.startswith("deal "))
    cut = dict(record, actions=record["actions"][: last_deal + 2])
    assert [d["finished"] for d in analyse_record(cut)["deals"]] == [True, False]


@pytest.mark.parametrize("name", ["bridge", "whist"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_record_cut_inside_the_last_trick_is_analysed(name, seed):
    """A record may stop anywhere (``cardbot analyse``): cut after the first, second and
    third card of the last trick, the play so far is there and the costly cards are
    found — also once North has no card left while others still have one."""
    record = play_record(name, seed, 4)
    plays = [i for i, a in enumerate(record["actions"]) if a.split(": ")[-1].startswith("play ")]
    for at in plays[-4:-1]:
        (deal,) = analyse_record(dict(record, actions=record["actions"][: at + 1]))["deals"]
        assert not deal["finished"] and len(deal["tricks"]) == 13 and deal["tricks"][-1]["winner"] is None
        assert all(c["trick"] <= 13 for c in deal["costly"])
