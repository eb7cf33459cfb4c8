"""Fast, open-handed play-outs of the rest of one King deal, for the strong player's
determinizations (ai_strong.py). Nothing here sees a real game: it gets four sampled
hands and plays them out.

- ``TrickDeal``: deals 1–6 and 9–12. ``rollout`` lets every seat play a simple heuristic
  (``pick``: duck / dump the dangerous card in the penalty deals, win cheaply in the trump
  deals); ``solve`` is an exact max-n search (every seat maximises its OWN points in the
  deal, ties go to the heuristic's move) used once few cards are left.
- ``count_rollout``: deal 7; ``domino_rollout``: deal 8.
Each returns the four seats' points in the deal from here on (deal 4: the whole deal's,
as its bachelor rule is not a sum over tricks).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.cards import RANK_VALUE as RV

from .options import KingOptions
from .scoring import queens_score, scoring_cards

# a position at a trick's start: the sorted hands, the leader, the queens taken (deal 4)
MemoKey = tuple[tuple[tuple[str, ...], ...], int, tuple[int, ...] | None]

ORDER = "789TJQKA"
STEP = {r: i for i, r in enumerate(ORDER)}


def _wins(card: str, best: str, trump: str | None) -> bool:
    """Does ``card`` beat the trick's best card so far?"""
    if card[1] == best[1]:
        return RV[card[0]] > RV[best[0]]
    return trump is not None and card[1] == trump


class TrickDeal:
    """The rules and the scoring of one trick deal, prepared once per decision."""

    def __init__(self, no: int, trump: str | None, options: KingOptions) -> None:
        o = options
        self.no, self.trump, self.o = no, trump, o
        self.positive = no >= 9
        self.no_heart_lead = (no == 2 and o.deal2_no_heart_lead) or (no == 6 and o.deal6_no_heart_lead)
        self.must_kh = no == 6 and o.deal6_must_discard_kh
        self.must_ruff = o.trump_must_ruff
        self.scoring = scoring_cards(no, o)
        self.per_card = {2: o.deal2_per_heart, 3: o.deal3_per_card, 6: o.deal6_penalty}.get(no, 0)
        self.per_trick = o.deal1_per_trick if no == 1 else o.trump_per_trick if no >= 9 else 0
        self.memo: dict[MemoKey, list[int]] = {}

    # ---- rules ----------------------------------------------------------------------
    def legal(self, hand: list[str], plays: list[tuple[int, str]]) -> list[str]:
        if not plays:
            if self.no_heart_lead:
                other = [c for c in hand if c[1] != "H"]
                if other:
                    return other
            return hand
        led = plays[0][1][1]
        follow = [c for c in hand if c[1] == led]
        if follow:
            return follow
        if self.must_kh and "KH" in hand:
            return ["KH"]
        if self.must_ruff and self.trump:
            trumps = [c for c in hand if c[1] == self.trump]
            if trumps:
                return trumps
        return hand

    def trick_points(self, cards: list[str], winner: int, done: int, pts: list[int], queens: list[int]) -> None:
        """Add one finished trick (``done`` tricks before it) to ``pts`` / ``queens``."""
        no = self.no
        if no == 1 or no >= 9:
            pts[winner] += self.per_trick
        elif no == 5:
            if done >= 6:
                pts[winner] += self.o.deal5_per_trick
        elif no == 4:
            queens[winner] += sum(1 for c in cards if c[0] == "Q")
        else:  # 2, 3, 6: per scoring card
            k = sum(1 for c in cards if c in self.scoring)
            if k:
                pts[winner] += k * self.per_card

    def finished(self, hands: list[list[str]]) -> bool:
        """Deals 2, 3, 4 and 6 are decided once no scoring card is left in any hand."""
        if self.no in (2, 3, 4, 6):
            need = self.scoring
            return not any(c in need for h in hands for c in h)
        return False

    def result(self, pts: list[int], queens: list[int]) -> list[int]:
        if self.no == 4:
            return queens_score(queens, self.o)
        return pts

    # ---- the heuristic every seat plays in a roll-out ------------------------------
    def danger(self, card: str) -> tuple[int, int]:
        no = self.no
        special = 0
        if no in (2, 6) and card == "KH":
            special = 3
        elif no == 2 and card[1] == "H":
            special = 2
        elif card in self.scoring:
            special = 2
        elif no == 4 and card[0] in "KA":
            special = 1
        return (special, RV[card[0]])

    def pick(self, hand: list[str], plays: list[tuple[int, str]], done: int) -> str:
        cards = self.legal(hand, plays)
        if len(cards) == 1:
            return cards[0]
        trump = self.trump
        if self.positive:
            if not plays:
                return max(cards, key=lambda c: (RV[c[0]], c[1] == trump))
            best = self._best(plays)
            winning = [c for c in cards if _wins(c, best, trump)]
            if winning:
                return min(winning, key=lambda c: (c[1] == trump, RV[c[0]]))
            return min(cards, key=lambda c: (c[1] == trump, RV[c[0]]))
        early5 = self.no == 5 and done < 5  # deal 5: get rid of high cards while it is free
        if not plays:
            if early5:
                return max(cards, key=lambda c: RV[c[0]])
            return min(cards, key=lambda c: (self.danger(c)[0], RV[c[0]]))
        best = self._best(plays)
        losing = [c for c in cards if not _wins(c, best, trump)]
        led = plays[0][1][1]
        if early5:
            return max(cards, key=lambda c: (c[1] != led, RV[c[0]]))
        if losing:
            if cards[0][1] == led:
                return max(losing, key=lambda c: RV[c[0]])  # the highest that still ducks
            return max(losing, key=self.danger)  # void: throw the worst card away
        if len(plays) == 3:  # last to play and must win: win with the worst card
            return max(cards, key=self.danger)
        return min(cards, key=lambda c: (self.danger(c)[0], -RV[c[0]]))

    def _best(self, plays: list[tuple[int, str]]) -> str:
        best = plays[0][1]
        for _, c in plays[1:]:
            if _wins(c, best, self.trump):
                best = c
        return best

    # ---- play-outs ------------------------------------------------------------------
    def rollout(
        self,
        hands: list[list[str]],
        plays: list[tuple[int, str]],
        leader: int,
        done: int,
        queens: list[int],
        exact_at: int = 0,
    ) -> list[int]:
        """Play the deal out with ``pick`` for every seat; hands are changed in place.
        Switches to the exact ``solve`` at a trick boundary with at most ``exact_at``
        cards per hand left."""
        pts = [0, 0, 0, 0]
        queens = list(queens)
        plays = list(plays)
        while True:
            if len(plays) == 4:
                cards = [c for _, c in plays]
                w = plays[self._win_index(cards)][0]
                self.trick_points(cards, w, done, pts, queens)
                done += 1
                leader, plays = w, []
                if self.no == 6 and "KH" in cards:
                    break
            if not plays:
                if self.finished(hands) or done == 8:
                    break
                if len(hands[leader]) <= exact_at:
                    fut = self.solve(hands, leader, done, queens)
                    if self.no == 4:
                        return fut
                    return [a + b for a, b in zip(pts, fut)]
                seat = leader
            else:
                seat = (plays[-1][0] + 1) % 4
            card = self.pick(hands[seat], plays, done)
            hands[seat].remove(card)
            plays.append((seat, card))
        return self.result(pts, queens)

    def exact(
        self, hands: list[list[str]], plays: list[tuple[int, str]], leader: int, done: int, queens: list[int]
    ) -> list[int]:
        """Like ``rollout`` (same return), but every remaining card by ``solve``; for the
        decision itself when few cards are left."""
        plays = list(plays)
        if len(plays) < 4:
            return self._trick(hands, plays, leader, done, list(queens))
        cards = [c for _, c in plays]
        w = plays[self._win_index(cards)][0]
        pts, q = [0, 0, 0, 0], list(queens)
        self.trick_points(cards, w, done, pts, q)
        if self.no == 6 and "KH" in cards:
            return pts
        fut = self.solve(hands, w, done + 1, q)
        return fut if self.no == 4 else [a + b for a, b in zip(pts, fut)]

    def _win_index(self, cards: list[str]) -> int:
        best = 0
        for i in range(1, 4):
            if _wins(cards[i], cards[best], self.trump):
                best = i
        return best

    # ---- exact max-n search ---------------------------------------------------------
    def solve(self, hands: list[list[str]], leader: int, done: int, queens: list[int]) -> list[int]:
        """Points of the rest of the deal (deal 4: the whole deal) when every seat plays to
        maximise its own points; at a tie a seat keeps the heuristic's move (tried
        first). Memoised on the position at each trick's start."""
        if done == 8 or self.finished(hands):
            return self.result([0, 0, 0, 0], queens) if self.no == 4 else [0, 0, 0, 0]
        key: MemoKey = (tuple(tuple(sorted(h)) for h in hands), leader, tuple(queens) if self.no == 4 else None)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        out = self._trick(hands, [], leader, done, queens)
        self.memo[key] = out
        return out

    def _trick(
        self, hands: list[list[str]], plays: list[tuple[int, str]], leader: int, done: int, queens: list[int]
    ) -> list[int]:
        seat = leader if not plays else (plays[-1][0] + 1) % 4
        hand = hands[seat]
        cards = self.legal(hand, plays)
        first = self.pick(hand, plays, done)
        order = [first] + [c for c in _distinct(cards, hands, plays, seat, self) if c != first]
        best_val = None
        for card in order:
            hand.remove(card)
            plays.append((seat, card))
            if len(plays) == 4:
                tcards = [c for _, c in plays]
                w = plays[self._win_index(tcards)][0]
                pts, q = [0, 0, 0, 0], list(queens)
                self.trick_points(tcards, w, done, pts, q)
                if self.no == 6 and "KH" in tcards:
                    val = pts
                else:
                    fut = self.solve(hands, w, done + 1, q)
                    val = fut if self.no == 4 else [a + b for a, b in zip(pts, fut)]
            else:
                val = self._trick(hands, plays, leader, done, queens)
            plays.pop()
            hand.append(card)
            if best_val is None or val[seat] > best_val[seat]:
                best_val = val
        hand.sort()
        assert best_val is not None, "a seat to play holds a card"
        return best_val


def _distinct(
    cards: list[str], hands: list[list[str]], plays: list[tuple[int, str]], seat: int, deal: TrickDeal
) -> list[str]:
    """The cards worth trying: of this seat's cards of one suit with no other live card
    (another hand's, or one in the trick) between them and that score the same, only the
    lowest; they play the same in every line."""
    if len(cards) <= 1:
        return cards
    live: dict[str, list[int]] = {c[1]: [] for c in cards}  # suit -> ranks of the other live cards
    for s, h in enumerate(hands):
        if s != seat:
            for c in h:
                if c[1] in live:
                    live[c[1]].append(RV[c[0]])
    for _, c in plays:
        if c[1] in live:
            live[c[1]].append(RV[c[0]])
    out = []
    prev = None
    for c in sorted(cards, key=lambda c: (c[1], RV[c[0]])):
        if (
            prev is not None
            and prev[1] == c[1]
            and (prev in deal.scoring) == (c in deal.scoring)
            and not any(RV[prev[0]] < r < RV[c[0]] for r in live[c[1]])
        ):
            prev = c
            continue
        out.append(c)
        prev = c
    return out


# ---------------------------------------------------------------------------------
# deal 7: card count
# ---------------------------------------------------------------------------------


def count_pick(hand: list[str], total: int, nxt: int | None, values: Mapping[str, int]) -> str:
    """The highest card that crosses no threshold, else the card worth least."""
    if nxt is None:
        return min(hand, key=lambda c: values[c[0]])
    safe = [c for c in hand if total + values[c[0]] < nxt]
    if safe:
        return max(safe, key=lambda c: (values[c[0]], RV[c[0]]))
    return min(hand, key=lambda c: (values[c[0]], RV[c[0]]))


def count_rollout(
    hands: list[list[str]],
    turn: int,
    total: int,
    open_at: list[tuple[int, int]],
    values: Mapping[str, int],
) -> list[int]:
    """Points each seat still gets in deal 7. ``open_at``: the thresholds not yet
    crossed, ``[(total, points), ...]`` in order."""
    pts = [0, 0, 0, 0]
    k = 0
    while k < len(open_at) and any(hands):
        hand = hands[turn]
        if hand:
            card = count_pick(hand, total, open_at[k][0], values)
            hand.remove(card)
            total += values[card[0]]
            while k < len(open_at) and total >= open_at[k][0]:
                pts[turn] += open_at[k][1]
                k += 1
        turn = (turn + 1) % 4
    return pts


# ---------------------------------------------------------------------------------
# deal 8: jacks layout
# ---------------------------------------------------------------------------------


def fits(card: str, rows: dict[str, list[int]]) -> bool:
    row = rows.get(card[1])
    if card[0] == "J":
        return row is None
    if row is None:
        return False
    i = STEP[card[0]]
    return i == row[1] + 1 or i == row[0] - 1


def domino_pick(hand: list[str], rows: dict[str, list[int]]) -> str | None:
    """The playable card that frees most of this hand's own cards next (its suit held
    most), a jack last when another card will do."""
    cards = [c for c in hand if fits(c, rows)]
    if not cards:
        return None
    return max(cards, key=lambda c: (sum(1 for h in hand if h[1] == c[1]), c[0] != "J", RV[c[0]]))


def domino_play(rows: dict[str, list[int]], card: str) -> None:
    i = STEP[card[0]]
    row = rows.get(card[1])
    if row is None:
        rows[card[1]] = [i, i]
    elif i > row[1]:
        row[1] = i
    else:
        row[0] = i


def domino_rollout(hands: list[list[str]], turn: int, rows: dict[str, list[int]], penalty: int) -> list[int]:
    """Deal 8 played out: the seat left holding cards gets ``penalty``."""
    pts = [0, 0, 0, 0]
    for _ in range(400):
        if sum(1 for h in hands if h) <= 1:
            break
        hand = hands[turn]
        if hand:
            card = domino_pick(hand, rows)
            if card is not None:
                hand.remove(card)
                domino_play(rows, card)
        turn = (turn + 1) % 4
    left = [s for s in range(4) if hands[s]]
    if len(left) == 1:
        pts[left[0]] = penalty
    return pts
