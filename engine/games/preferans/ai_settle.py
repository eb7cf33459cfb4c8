"""What one hand is worth to the declarer, in units of the contract's value v, from
its outcome: who defended, who said kontra, how many tricks the declarer took.

The unit is the settlement (rules §7) seen as "my result minus the mean of the other
two" (which is 1.5 × my result, the three summing to zero). With E the declarer's entry
(±v·M), P the defender penalties and S the soups written on him:
    worth = 1.5 · (10 · (2E + P) / 3 − S).
So a made contract with no soup is +10v, a failed one −17.5v (five tricks of soup),
an undefended one +10v, and each defender's penalty adds +5v.

The defenders' answer comes from a model of how an ordinary player defends (the simple
player's rules, ``ai_easy``): the strong declarer weighs, over sampled layouts, how
often nobody whists (a free win) or a weak whister ends below his quota.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import ai_easy

BETTEL = 6


@dataclass(frozen=True)
class Defence:
    """Who plays against the contract: ``players`` the writing defenders (the lone one,
    the pair, or the inviter alone when he invited), ``kontra`` those who doubled,
    ``invite`` whether the pair is an inviter with his invited partner."""

    players: tuple[int, ...]
    kontra: tuple[int, ...] = ()
    invite: bool = False


NO_PLAY = Defence(())


def modelled_defence(hands: dict[int, list[str]], declarer: int, number: int, two_needs_kontra: bool) -> Defence:
    """The defence an ordinary player's rules give (``ai_easy``): whist with an
    estimate of 2.5 defensive tricks, invite with 3.5 (here: always, not half the
    time), kontra with 4.5 (3 against a "two"). Bettel is always defended."""
    d1, d2 = (declarer + 1) % 3, (declarer + 2) % 3
    trump = {2: "S", 3: "D", 4: "H", 5: "C"}.get(number)
    est = {d: ai_easy.defence_estimate(hands[d], trump) for d in (d1, d2)}
    kontra_at = 3.0 if number == 2 else 4.5
    if number == BETTEL:
        return Defence((d1, d2))
    plays = [d for d in (d1, d2) if est[d] >= ai_easy.WHIST_MIN]
    invite = d1 not in plays and est[d2] >= ai_easy.INVITE_MIN
    kontra = tuple(d for d in plays if est[d] >= kontra_at)
    if two_needs_kontra and not kontra:
        return NO_PLAY
    if invite:
        return Defence((d2,), kontra, True)
    return Defence(tuple(plays), kontra)


def table_worth(
    declarer: int, defence: Defence, number: int, decl_tricks: int, own: dict[int, int] | None = None
) -> dict[int, float]:
    """Every seat's worth of the hand (units of v). ``own``: each independent whister's
    own tricks (default: the defenders' tricks split evenly)."""
    worth = {0: 0.0, 1: 0.0, 2: 0.0}
    if not defence.players:
        entries = {declarer: 1.0}
        soups: dict[int, float] = {}
    else:
        level = 2 if defence.kontra else 1
        mult = {d: (level if d in defence.kontra else 1) for d in defence.players}
        bettel = number == BETTEL
        made = decl_tricks == 0 if bettel else decl_tricks >= 6
        theirs = 5 if bettel or not made else 10 - decl_tricks
        entries = {declarer: float(level if made else -level)}
        soups = {}
        pair = len(defence.players) == 2
        for d in defence.players:
            if pair:
                mine = own[d] if own else theirs / 2
                quota_short = theirs < 4 and mine < 2
            else:
                mine = theirs
                quota_short = theirs < (4 if defence.invite else 2)
            if bettel:
                soups[d] = 0.0 if made else 5.0 * mult[d]
            else:
                soups[d] = mine * mult[d]
            if made and (d in defence.kontra or (quota_short and not bettel)):
                entries[d] = -float(mult[d])
    mean = sum(entries.values()) / 3
    for x in range(3):
        worth[x] = 10 * (entries.get(x, 0.0) - mean)
    for d, amount in soups.items():
        worth[d] += amount
        worth[declarer] -= amount
    return {x: 1.5 * w for x, w in worth.items()}


def worth(defence: Defence, number: int, decl_tricks: int, declarer: int) -> float:
    """The declarer's worth of the hand, in units of v (see the module docstring).
    Two independent whisters split their tricks as evenly as they can."""
    if len(defence.players) == 2 and number != BETTEL and decl_tricks >= 6:
        theirs = 10 - decl_tricks
        a, b = defence.players
        own = {a: (theirs + 1) // 2, b: theirs // 2}
        return table_worth(declarer, defence, number, decl_tricks, own)[declarer]
    return table_worth(declarer, defence, number, decl_tricks)[declarer]
