"""Тысяча's score sheet (rules §5, §6): what a finished deal writes for each seat, and the
running totals with their болты and бочка. Pure: a deal in, the sheet's next line out."""

from __future__ import annotations

from typing import Any

from engine.jsondata import JsonDict

from .options import ThousandOptions


def rounded(points: int, step: int) -> int:
    """§5.2: to the nearest multiple of ``step``, a half going up (42 → 40, 43 → 45)."""
    return (points + step // 2) // step * step


def game_result(totals: list[int], deals: int, next_dealer: int, **extra: Any) -> JsonDict:
    """The game's result (§5.3): the totals, the one highest (None when it is shared; a
    forfeiting seat is never it), the deals played and who deals a rematch's first deal."""
    seats = [p for p in range(len(totals)) if p != extra.get("forfeit")]
    best = max(totals[p] for p in seats)
    leaders = [p for p in seats if totals[p] == best]
    result: JsonDict = {
        "totals": list(totals),
        "winner": leaders[0] if len(leaders) == 1 else None,
        "deals": deals,
        "next_dealer": next_dealer,
    }
    result.update(extra)
    return result


def score_deal(
    o: ThousandOptions,
    totals: list[int],
    bolts: list[int],
    barrel: list[int | None],
    deal: JsonDict,
) -> tuple[JsonDict, list[int], list[int], list[int | None]]:
    """The sheet's line for one deal and the new totals, болт counts and бочка tries.

    ``deal``: ``declarer``, ``contract``, ``dark``, ``conceded``, ``active`` (the seats
    dealt in), per seat ``taken`` (card points), ``married`` (marriage points), ``tricks``.
    ``barrel[seat]``: None off the бочка, else the deals already played on it. A deal from
    a paper sheet (``record``) says ``made`` instead of the declarer's points.
    """
    totals, bolts, barrel = list(totals), list(bolts), list(barrel)
    declarer, contract = deal["declarer"], deal["contract"]
    value = contract * (2 if deal.get("dark") else 1)
    if "made" in deal:
        made = bool(deal["made"]) and not deal["conceded"]
    else:
        made = not deal["conceded"] and deal["taken"][declarer] + deal["married"][declarer] >= contract
    delta = [0] * len(totals)
    marks: dict[str, list[str]] = {}

    def mark(seat: int, what: str) -> None:
        marks.setdefault(str(seat), []).append(what)

    for seat in deal["active"]:
        on_barrel = o.barrel and barrel[seat] is not None
        if seat == declarer:
            delta[seat] = value if made else -value
        elif on_barrel:
            mark(seat, "barrel_idle")  # §6.2: on the бочка only a won contract counts
        elif deal["conceded"]:
            delta[seat] = o.concede_points
        else:
            delta[seat] = rounded(deal["taken"][seat] + deal["married"][seat], o.rounding)
            if o.bolts and deal["tricks"][seat] == 0 and deal["married"][seat] == 0:
                bolts[seat] += 1
                mark(seat, "bolt")
                if bolts[seat] % 3 == 0:  # §6.1: every third болт costs
                    delta[seat] -= o.bolt_penalty
                    mark(seat, "bolt_penalty")
        new = totals[seat] + delta[seat]
        if o.barrel:
            new = _barrel_step(o, seat, seat == declarer, totals[seat], new, barrel, mark)
        if o.samosval and new == 555:  # §6.3
            new = 0
            mark(seat, "samosval")
        delta[seat] = new - totals[seat]
        totals[seat] = new
    entry = {
        "declarer": declarer,
        "contract": contract,
        "dark": bool(deal.get("dark")),
        "conceded": bool(deal["conceded"]),
        "made": made,
        "raw": [deal["taken"][s] + deal["married"][s] for s in range(len(totals))],
        "delta": delta,
        "totals": list(totals),
        "marks": marks,
    }
    return entry, totals, bolts, barrel


def _barrel_step(
    o: ThousandOptions, seat: int, declarer: bool, before: int, new: int, barrel: list[int | None], mark: Any
) -> int:
    """§6.2: a defender stops at the бочка; on it, ``barrel_tries`` deals to win a contract
    that reaches the target, else ``barrel_penalty`` off and down from it."""
    if barrel[seat] is None:
        if not declarer and before < o.barrel_at <= new:
            new = o.barrel_at
        if o.barrel_at <= new < o.target:
            barrel[seat] = 0
            mark(seat, "barrel_on")
        return new
    tries = (barrel[seat] or 0) + 1
    if new >= o.target:
        barrel[seat] = None
        return new
    if new < o.barrel_at:  # a lost contract knocks the seat off
        barrel[seat] = None
        return new
    if tries >= o.barrel_tries:
        barrel[seat] = None
        mark(seat, "barrel_fall")
        return new - o.barrel_penalty
    barrel[seat] = tries
    return new
