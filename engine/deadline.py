"""When a computer player must have answered: the caller's clock, seen through a small protocol.

The engine reads no clock. A caller that wants an answer in time (the bot: bot/thinking.py)
passes a ``Deadline`` built on its own clock; the searches ask ``expired()`` between
layouts, worlds or every few thousand solver nodes, and answer with the best choice found
so far, or with the cheaper player's choice when they found nothing yet (``anytime``).
With ``NEVER`` (the default) no search is ever cut: tests and benchmarks stay reproducible
by their seed, whatever the machine's load.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from typing import Any, Callable, Protocol, TypeVar

T = TypeVar("T")


class Deadline(Protocol):
    def expired(self) -> bool:
        """True once the answer is due: stop searching and answer now."""

    def remaining(self) -> float:
        """Seconds left by the caller's clock (``math.inf``: no deadline)."""


class _Never:
    def expired(self) -> bool:
        return False

    def remaining(self) -> float:
        return math.inf

    def __repr__(self) -> str:
        return "NEVER"


class _Expired:
    def expired(self) -> bool:
        return True

    def remaining(self) -> float:
        return 0.0

    def __repr__(self) -> str:
        return "EXPIRED"


NEVER: Deadline = _Never()  # no deadline: budgets of work only
EXPIRED: Deadline = _Expired()  # already due: the quickest answer


class AfterChecks:
    """Expires at the ``n``-th question: a deadline for tests that cut a search at a
    reproducible point (no clock)."""

    def __init__(self, n: int) -> None:
        self.left = n

    def expired(self) -> bool:
        self.left -= 1
        return self.left < 0

    def remaining(self) -> float:
        return math.inf if self.left > 0 else 0.0


class Pace:
    """For a search of costly steps (a 13-card double-dummy solve): another step starts
    only while one as slow as the slowest so far still fits before the deadline, so the
    answer is not late by a whole step. Durations come from the deadline's own clock."""

    def __init__(self, deadline: Deadline) -> None:
        self.deadline = deadline
        self.mark = deadline.remaining()
        self.slowest = 0.0

    def room_for_another(self) -> bool:
        # expired() first: a deadline without a clock (AfterChecks) only expires by it
        if self.deadline.expired():
            return False
        now = self.deadline.remaining()
        if now == math.inf:
            return True
        self.slowest = max(self.slowest, self.mark - now)
        self.mark = now
        return now > self.slowest


class OutOfTime(Exception):
    """The deadline came before the search had any answer: the caller plays the cheaper
    player's choice instead (``anytime``)."""


def anytime(search: Callable[[], str], cheap: Callable[[], str], deadline: Deadline) -> str:
    """``search()``'s answer; ``cheap()``'s when the deadline has already passed or the
    search ran out of time before finding anything."""
    if deadline.expired():
        return cheap()
    try:
        return search()
    except OutOfTime:
        return cheap()


def complete_cache(maxsize: int) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """An LRU cache (of positional arguments) for a search that takes a keyword
    ``deadline``: a result is kept only when the deadline had not passed by its end, so a
    search cut short is never reused as if it were complete (and a complete one, the
    same as with ``NEVER``, is)."""

    def wrap(fn: Callable[..., T]) -> Callable[..., T]:
        store: OrderedDict[tuple[Any, ...], T] = OrderedDict()

        def cached(*args: Any, deadline: Deadline = NEVER) -> T:
            if args in store:
                store.move_to_end(args)
                return store[args]
            value = fn(*args, deadline=deadline)
            if not deadline.expired():
                store[args] = value
                if len(store) > maxsize:
                    store.popitem(last=False)
            return value

        cached.cache_clear = store.clear  # type: ignore[attr-defined]
        cached.__doc__ = fn.__doc__
        cached.__wrapped__ = fn  # type: ignore[attr-defined]
        return cached

    return wrap
