"""What follows from a move: a pure step, with no storage, no clock and no Telegram.

Given the table as read, its seats, the game state before and after the committed
actions and the engine's events (plus the series so far, the clock reading and when
each seat last pressed, all read by the caller), :func:`consequences` says everything
the move causes: which messages are refreshed or sent (outbox rows, each addressed to
the one chat allowed to see it), the turn timer, the result with its history row and
rating update, the snapshot and the table fields. The service writes all of it in one
storage transaction; the sender later draws each row from the state it then reads.

Every Bot API call counts against Telegram's limits, so a hand message is redrawn
only when its reader needs it (see :func:`dm_rows`); the group gets one refresh per
move, or its table is sent anew below a deal's score sheet.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from engine.analysis_core import has_deal_analysis
from engine.base import get_game
from storage.models import BETWEEN, OutboxItem, SeatRow, TableRow, TimerRow
from storage.models import FinishedGame
from storage.repository import RateFn
from bot.game_registry import ui_for
from bot.ratings import ending
from bot.screens import seat_names
from bot.sheet_mode import DEFAULT_MODE, sheet_payloads

REMIND_AT = 0.75  # remind when this share of the turn time has passed
ACTIVE_PLAYER_WINDOW = 45.0  # seconds: a player who pressed this recently gets no "your turn" ping

Actions = list[tuple[int | None, str]]  # (seat, action); seat None for the system's


@dataclass
class Consequences:
    """Everything one commit writes besides its action rows."""

    version: int  # the table's version after the actions
    table_fields: dict[str, Any]
    timer: TimerRow | None  # None: no turn timer (off, only computers to act, game over)
    result: dict | None  # the game's result when it just ended
    finished: FinishedGame | None  # ... its row in the group's history
    rate: RateFn | None  # ... and its players' rating update (None: not rated)
    snapshot: dict | None  # the state dumped, when this commit stores one
    pressed: set[int]  # seats that count as having just pressed (no ping for them soon)
    chat_id: int  # the table's group, where the posts go
    table_id: int
    game_no: int
    rows_before: list[OutboxItem] = field(default_factory=list)  # refreshes and DM rows
    rows_after: list[OutboxItem] = field(default_factory=list)  # what must follow the posts
    texts: list[str] = field(default_factory=list)  # the group posts (score sheets)
    picture: dict | None = None  # the sheet's picture, when the game draws one
    lang: str = "en"
    # a deal ended and can be shown (bot.deal_view): its "🔍" goes under the last post
    deal_seq: int | None = None

    @property
    def needs_sheet_mode(self) -> bool:
        """Does the group's ``/sheets`` mode matter (is there a picture to send)?"""
        return self.picture is not None

    def outbox(self, sheet_mode: str = DEFAULT_MODE) -> list[OutboxItem]:
        """The outbox rows in sending order, the posts as the group's sheet mode wants."""
        over = self.result is not None
        payloads = sheet_payloads(self.texts, self.picture, sheet_mode, over, self.lang)
        posts = []
        for i, payload in enumerate(payloads):
            last = i == len(payloads) - 1  # the Rematch buttons go under the game's last post
            posts.append(
                OutboxItem(
                    "post",
                    self.chat_id,
                    self.table_id,
                    payload={
                        **payload,
                        "game_no": self.game_no,
                        "game_over": over and last,
                        **({"deal_seq": self.deal_seq} if last and self.deal_seq is not None else {}),
                    },
                )
            )
        return [*self.rows_before, *posts, *self.rows_after]


def consequences(
    table: TableRow,
    seats: list[SeatRow],
    before: Any,
    after: Any,
    actions: Actions,
    events: list[dict],
    *,
    history: list[dict],
    now: float,
    last_press: Mapping[int, float],
    table_fields: dict | None = None,
    snapshot: bool = False,
) -> Consequences:
    """What committing ``actions`` (already applied to ``before``, giving ``after`` and
    ``events``) causes. ``seats`` in seat order; ``before`` None for a new game's deal;
    ``history``: the results of the series' games before this one; ``last_press``: seat
    -> when it last pressed (or got a new hand message), as far as the caller knows."""
    game, ui = get_game(table.game), ui_for(table.game)
    fields = dict(table_fields or {})
    rows: list[OutboxItem] = []
    pressed = pressed_seats(seats, before, actions)
    if not ui.group_controls:
        recent = {**last_press, **{seat: now for seat in pressed}}
        rows += dm_rows(table, seats, before, after, actions, events, now=now, last_press=recent)
    version = table.version + len(actions)
    result = None
    timer: TimerRow | None = None
    finished: FinishedGame | None = None
    rate: RateFn | None = None
    if game.is_over(after):
        result = game.result(after)
        assert result is not None, "a game that is over has a result"
        history = history + [result]
        fields["status"] = BETWEEN
        snapshot = True
        finished, rate = ending(table, seats, result or {}, now)
    else:
        timer = timer_for(table, version, after, seats, now)
    names = seat_names(seats)
    view = game.view(after, None)
    texts = ui.posts(events, view, names, table.lang, history)
    deal_seq = version if texts and ends_shown_deal(table.game, events) else None
    if deal_seq is not None:  # the players' hand messages offer it from now on
        # one key, set in the settings as stored (the sender may be writing another)
        fields["settings_changes"] = {**fields.get("settings_changes", {}), "last_deal": [table.game_no, deal_seq]}
    after_posts: list[OutboxItem] = []
    if next_deal(ui, before, events):
        # the previous deal's sheet was posted below the table: the table follows it
        rows.insert(0, OutboxItem("restack", table.chat_id, table.id))
    elif ui.group_controls and texts and result is None:
        # a score-only table's buttons follow the sheet just posted: the keyboard to
        # enter the next deal sits under the group message, kept last
        after_posts.append(OutboxItem("restack", table.chat_id, table.id))
    elif before is None or table_fields or ui.refreshes_group(events, len(texts), result is not None):
        rows.insert(0, OutboxItem("group", table.chat_id, table.id))
    return Consequences(
        version=version,
        table_fields=fields,
        timer=timer,
        result=result,
        finished=finished,
        rate=rate,
        snapshot=game.dump(after) if snapshot else None,
        pressed=pressed,
        chat_id=table.chat_id,
        table_id=table.id,
        game_no=table.game_no,
        rows_before=rows,
        rows_after=after_posts,
        texts=texts,
        picture=ui.picture(events, view, names, table.lang) if texts else None,
        lang=table.lang,
        deal_seq=deal_seq,
    )


def pressed_seats(seats: list[SeatRow], before: Any, actions: Actions) -> set[int]:
    """The seats that acted; at a game's first deal every seat, since its first hand
    message is a new message and notifies like a ping would."""
    acted = {seat for seat, _ in actions if seat is not None}
    return acted | ({s.seat for s in seats} if before is None else set())


def next_deal(ui: Any, before: Any, events: list[dict]) -> bool:
    """A deal of a game that had one before: every deal ends with its score sheet."""
    return before is not None and not ui.group_controls and any(e.get("type") == "deal" for e in events)


def timer_for(table: TableRow, version: int, state: Any, seats: list[SeatRow], now: float) -> TimerRow | None:
    """The turn timer, when the table has one and a person must act."""
    seconds = table.settings.get("timer", 0)
    waiting = get_game(table.game).to_act(state)
    if not seconds or not any(not seats[s].is_computer for s in waiting):
        return None
    return TimerRow(table.id, version, now + seconds * REMIND_AT, now + seconds)


def _own_cards(game: Any, state: Any, seat: int) -> list | None:
    """The cards a seat holds, as its own view shows them (None before the deal)."""
    return None if state is None else game.view(state, seat).get("hand")


def dm_rows(
    table: TableRow,
    seats: list[SeatRow],
    before: Any,
    after: Any,
    actions: Actions,
    events: list[dict],
    *,
    now: float,
    last_press: Mapping[int, float],
) -> list[OutboxItem]:
    """What the players' DMs need after these actions. A hand message is redrawn only
    when its reader needs it: they acted, their turn began or ended, they must act now
    (their buttons must be right), their own cards changed, or a milestone passed (a
    trick or bout ended, a deal began or ended) — not for every card someone else plays.
    A "your turn" ping (a new message: it notifies) goes only to a player who has not
    pressed for a while: someone playing right now sees the redrawn hand anyway."""
    game, ui = get_game(table.game), ui_for(table.game)
    acted = {seat for seat, _ in actions if seat is not None}
    was_waiting = set(game.to_act(before)) if before is not None else set()
    now_waiting = set(game.to_act(after))
    everyone = (
        before is None or None in (seat for seat, _ in actions) or game.is_over(after) or ui.redraws_every_hand(events)
    )
    rows: list[OutboxItem] = []
    # nobody to act and not over: the system deals the next deal at once, and that
    # redraws every hand; drawing the finished deal in between would be wasted
    dealing_next = not now_waiting and not game.is_over(after)
    for s in seats:
        if s.is_computer or dealing_next:
            continue
        needs = (
            everyone
            or s.seat in acted
            or s.seat in was_waiting
            or s.seat in now_waiting
            or _own_cards(game, before, s.seat) != _own_cards(game, after, s.seat)
        )
        if needs:
            rows.append(OutboxItem("hand", s.user_id, table.id, target=s.seat))
    for seat in sorted(now_waiting - was_waiting):
        recently = now - last_press.get(seat, float("-inf")) < ACTIVE_PLAYER_WINDOW
        if not seats[seat].is_computer and not recently:
            rows.append(OutboxItem("ping", seats[seat].user_id, table.id, target=seat))
    for seat in sorted(was_waiting - now_waiting):  # their turn is over: the ping goes
        if not seats[seat].is_computer:
            rows.append(OutboxItem("unping", seats[seat].user_id, table.id, target=seat))
    return rows


# "🔍 The deal" (bot.deal_view) goes under the sheet of a deal that ended: which games have it
def shows_deals(game: str) -> bool:
    """Whether this game's sheets carry the button: a played game with a deal analysis."""
    ui = ui_for(game)
    return not ui.group_controls and ui.deal_record_text is not None and has_deal_analysis(game)


def ends_shown_deal(game: str, events: list[dict]) -> bool:
    """These events end a deal whose sheet gets the button."""
    return any(e.get("type") == "deal_scored" for e in events) and shows_deals(game)
