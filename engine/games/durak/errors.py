"""Durak's error codes.

Every rejected action raises one of the ``engine.errors`` classes with a stable
snake_case ``code`` from :data:`ERROR_CODES`, an English ``reason`` (the template
filled with ``params``) and the ``params`` themselves, so the bot can translate
the code with its own catalog. The codes every game shares are ``engine.errors.COMMON``.
"""

from __future__ import annotations

from engine.errors import IllegalAction, game_errors

ERROR_CODES, error = game_errors(
    {
        "not_on_table": (IllegalAction, "{card} is not an unbeaten attack card on the table."),
        "does_not_beat": (IllegalAction, "{cover} does not beat {attack}."),
        "mixed_ranks": (IllegalAction, "An attack must be cards of one rank."),
        "rank_not_on_table": (IllegalAction, "No card of the rank of {card} is face up on the table."),
        "too_many_cards": (IllegalAction, "Too many cards: at most {limit} more can go on the table now."),
        "no_transfer": (IllegalAction, "Transfers are not played in this game."),
        "transfer_after_beat": (IllegalAction, "You cannot transfer once a card is beaten."),
        "transfer_rank": (IllegalAction, "To transfer, play a card of the rank of the unbeaten cards."),
    }
)
