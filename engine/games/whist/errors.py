"""Whist's error codes (both engines: the played game and the score-only sheet).

Every rejected action raises one of the ``engine.errors`` classes with a stable
snake_case ``code`` from :data:`ERROR_CODES`, an English ``reason`` (the template
filled with ``params``) and the ``params`` themselves, so the bot can translate it.
The codes every game shares are ``engine.errors.COMMON``; whist rewords ``game_over``
and has no ``bad_seat`` (a bad seat is ``bad_syntax`` here).
"""

from __future__ import annotations

from engine.errors import GameOver, IllegalAction, game_errors

ERROR_CODES, error = game_errors(
    {
        "game_over": (GameOver, "The match is over."),
        "players_only": (IllegalAction, "Only a player can {verb}."),
        "must_follow": (IllegalAction, "You must follow suit: you hold {suit}."),
        "must_trump": (IllegalAction, "You cannot follow suit and hold a trump: you must trump."),
        "no_delegation": (IllegalAction, "Only the dealer can pass the trump choice, and only once."),
        "already_voted": (IllegalAction, "You have already answered."),
        "bad_entry": (IllegalAction, "Impossible entry: {detail}."),
        "nothing_to_undo": (IllegalAction, "There is no entry to undo."),
    },
    drop=("bad_seat",),
)
