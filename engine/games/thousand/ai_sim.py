"""The strong player's tools: deals of the hidden cards consistent with what a seat has
seen (``worlds``), and quick playouts of a deal's remaining tricks by the easy policy."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from engine.jsondata import JsonDict

from . import cards as C
from .ai_easy import card_choice


def voids(view: JsonDict) -> dict[int, set[str]]:
    """Suits each seat has shown it lacks: it did not follow (and, when it did not trump
    either, the trump of that moment). The trump changes with marriages, so it is replayed."""
    out: dict[int, set[str]] = {}
    trump: str | None = None
    marriages = list(view["marriages"])
    tricks = [view["played"][i : i + 3] for i in range(0, len(view["played"]), 3)]
    if view["trick"]:
        tricks.append(view["trick"])
    for trick in tricks:
        lead_seat, lead = trick[0]
        if marriages and marriages[0][0] == lead_seat and lead[0] in "KQ" and lead[1] == marriages[0][1]:
            trump = marriages.pop(0)[1]
        for seat, card in trick[1:]:
            if card[1] != lead[1]:
                out.setdefault(seat, set()).add(lead[1])
                if trump and card[1] != trump:
                    out[seat].add(trump)
    return out


def worlds(view: JsonDict, rng: random.Random, tries: int = 20) -> Iterator[dict[int, list[str]]]:
    """Endless hands of the other seats: the unseen cards dealt to fit their counts, the
    voids they showed, the marriage partners they must still hold, and the прикуп (the
    declarer holds what it took and did not give away or play)."""
    me, declarer = view["seat"], view["declarer"]
    hand = list(view["hand"] or [])
    counts = view["hand_counts"]
    others = [s for s in view["active"] if s != me]
    seen = set(hand) | {c for _, c in view["played"]} | {c for _, c in view["trick"]}
    pinned: dict[int, list[str]] = {s: [] for s in others}
    for seat, suit in view["marriages"]:
        for r in "KQ":
            card = r + suit
            if seat != me and card not in seen:
                pinned[seat].append(card)
                seen.add(card)
    for to, card in view.get("gifts") or []:
        if to != me and card not in seen:
            pinned[to].append(card)
            seen.add(card)
    talon = [c for c in (view["talon"] or []) if c not in seen]
    other_defender = [s for s in others if s != declarer]
    void = voids(view)
    while True:
        for _ in range(tries):
            pool = [c for c in C.DECK if c not in seen and c not in talon]
            hands = {s: list(pinned[s]) for s in others}
            held_talon = list(talon)
            if me != declarer and declarer is not None and talon and other_defender:
                # the declarer's gift to the other defender: a прикуп card or one of its own
                pick = rng.randrange(len(talon) + len(pool))
                gift = (talon + pool)[pick]
                (held_talon if gift in talon else pool).remove(gift)
                hands[other_defender[0]].append(gift)
            if declarer in hands:
                hands[declarer] += held_talon
            rng.shuffle(pool)
            ok = True
            for seat in others:
                need = counts[seat] - len(hands[seat])
                if need < 0:
                    ok = False
                    break
                bad = void.get(seat, set())
                fits = [c for c in pool if c[1] not in bad]
                if len(fits) < need:
                    ok = False
                    break
                take = fits[:need]
                hands[seat] += take
                taken = set(take)
                pool = [c for c in pool if c not in taken]
            if ok and not pool and all(not (set(c[1] for c in hands[s]) & void.get(s, set())) for s in others):
                break
        else:
            # no fit in ``tries``: deal the unseen cards by count alone
            pool = [
                c for c in C.DECK if c not in set(hand) | {c for _, c in view["played"]} | {c for _, c in view["trick"]}
            ]
            rng.shuffle(pool)
            hands = {}
            for seat in others:
                hands[seat], pool = pool[: counts[seat]], pool[counts[seat] :]
        hands[me] = hand
        yield hands


def playout(
    hands: dict[int, list[str]],
    active: list[int],
    leader: int,
    trick: list[list[Any]],
    trump: str | None,
    taken: list[int],
    tricks: list[int],
    married: list[int],
    after_trick: bool,
    rng: random.Random,
    first: str | None = None,
) -> tuple[list[int], list[int]]:
    """Play the deal out (``first``: the action of the seat to play now) by the easy
    policy; the seats' card points and marriage points at the end."""
    hands = {s: list(h) for s, h in hands.items()}
    taken, tricks, married = list(taken), list(tricks), list(married)
    plays = [list(p) for p in trick]
    seat = leader
    for _ in plays:
        seat = active[(active.index(seat) + 1) % 3]
    action = first
    while hands[seat]:
        hand = hands[seat]
        if action is None:
            can = not plays and bool(C.marriages(hand)) and (not after_trick or tricks[seat] > 0)
            action = card_choice(hand, [c for _, c in plays], trump, can, rng)
        verb, card = action.split()
        if verb == "marry":
            trump = card[1]
            married[seat] += C.MARRIAGE[trump]
        hand.remove(card)
        plays.append([seat, card])
        action = None
        if len(plays) == 3:
            cards = [c for _, c in plays]
            winner = plays[C.trick_winner(cards, trump)][0]
            taken[winner] += C.points(cards)
            tricks[winner] += 1
            plays = []
            seat = winner
        else:
            seat = active[(active.index(seat) + 1) % 3]
    return taken, married
