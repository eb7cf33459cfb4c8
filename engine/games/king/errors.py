"""King's error codes.

Every rejected action raises one of the ``engine.errors`` classes with a stable
snake_case ``code`` from :data:`ERROR_CODES`, an English ``reason`` (the template
filled with ``params``) and the ``params`` themselves. The codes every game shares
are ``engine.errors.COMMON``.
"""

from __future__ import annotations

from engine.errors import IllegalAction, game_errors

ERROR_CODES, error = game_errors(
    {
        "must_follow": (IllegalAction, "You must follow suit: play a card of the suit led ({suit})."),
        "must_trump": (IllegalAction, "You cannot follow suit, so you must play a trump ({suit})."),
        "no_heart_lead": (IllegalAction, "You may not lead a heart while you hold another suit."),
        "must_discard_kh": (IllegalAction, "You cannot follow suit and hold the king of hearts: play it."),
        "not_playable": (IllegalAction, "{card} does not fit the layout: play a jack or the next card of a row."),
        "cannot_pass": (IllegalAction, "You cannot pass: {detail}."),
    }
)
