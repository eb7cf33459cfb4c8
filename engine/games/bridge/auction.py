"""The auction (rules §3): which calls are legal, when it ends, the contract and the declarer.

Calls are kept as short strings: ``"P"`` (pass), ``"X"`` (double), ``"XX"`` (redouble) and
bids ``"1C"`` … ``"7NT"``. Call ``i`` of an auction is made by seat ``(dealer + i) % 4``.
"""

from __future__ import annotations

from engine.jsondata import JsonDict

from .scoring import STRAINS, Contract

BIDS = [f"{level}{strain}" for level in range(1, 8) for strain in STRAINS]
BID_RANK = {bid: i for i, bid in enumerate(BIDS)}


def bid_parts(bid: str) -> tuple[int, str]:
    return int(bid[0]), bid[1:]


def caller(dealer: int, index: int) -> int:
    return (dealer + index) % 4


def last_bid(calls: list[str]) -> tuple[int, str] | None:
    """(index, bid) of the last bid, or None."""
    for i in range(len(calls) - 1, -1, -1):
        if calls[i] in BID_RANK:
            return i, calls[i]
    return None


def status(calls: list[str]) -> tuple[int, int | None]:
    """(doubling of the last bid: 0/1/2, index of the last X or XX after it)."""
    found = last_bid(calls)
    start = found[0] + 1 if found else 0
    level, at = 0, None
    for i in range(start, len(calls)):
        if calls[i] == "X":
            level, at = 1, i
        elif calls[i] == "XX":
            level, at = 2, i
    return level, at


def legal_calls(calls: list[str], dealer: int) -> list[str]:
    """The calls the player to act may make now, in a stable order: pass, double,
    redouble, then the bids from the lowest up."""
    seat = caller(dealer, len(calls))
    out = ["P"]
    found = last_bid(calls)
    if found is not None:
        index, bid = found
        mine = caller(dealer, index) % 2 == seat % 2
        doubling, at = status(calls)
        if doubling == 0 and not mine:
            out.append("X")
        if doubling == 1 and mine:  # the double was made by an opponent of the bidder's side
            out.append("XX")
        first = BID_RANK[bid] + 1
    else:
        first = 0
    out.extend(BIDS[first:])
    return out


def why_illegal(calls: list[str], dealer: int, call: str) -> tuple[str, JsonDict] | None:
    """None if ``call`` is legal now, else (error code, params)."""
    if call in legal_calls(calls, dealer):
        return None
    if call in BID_RANK:
        found = last_bid(calls)
        return "insufficient_bid", {"bid": call, "last": found[1] if found else "-"}
    if call == "X":
        return "cannot_double", {}
    return "cannot_redouble", {}


def finished(calls: list[str]) -> bool:
    """Four passes as the first four calls, or three passes after a bid (§3)."""
    if len(calls) < 4:
        return False
    if last_bid(calls) is None:
        return len(calls) >= 4  # all passes (only doubles need a bid, so these are 4 passes)
    return calls[-3:] == ["P", "P", "P"]


def passed_out(calls: list[str]) -> bool:
    return len(calls) >= 4 and last_bid(calls) is None


def contract_and_declarer(calls: list[str], dealer: int) -> tuple[Contract, int]:
    """For a finished auction with a bid: the contract and the declarer — the first
    player of the contracting side to name the final strain (§3)."""
    found = last_bid(calls)
    assert found is not None, "the auction has a bid"
    index, bid = found
    level, strain = bid_parts(bid)
    side = caller(dealer, index) % 2
    doubling, _ = status(calls)
    for i, call in enumerate(calls):
        if call in BID_RANK and caller(dealer, i) % 2 == side and bid_parts(call)[1] == strain:
            return Contract(level, strain, doubling), caller(dealer, i)
    raise AssertionError("the last bid names its own strain")  # pragma: no cover
