"""Bridge's error codes.

Every rejected action raises one of the ``engine.errors`` classes with a stable
snake_case ``code`` from :data:`ERROR_CODES`, an English ``reason`` (the template filled
with ``params``) and the ``params`` themselves, so the bot can translate the code.
The codes every game shares are ``engine.errors.COMMON``; bridge rewords two of them.
"""

from __future__ import annotations

from engine.errors import GameOver, IllegalAction, game_errors

ERROR_CODES, error = game_errors(
    {
        "game_over": (GameOver, "The rubber is over."),
        "not_in_hand": (IllegalAction, "{card} is not in the hand that plays now."),
        "insufficient_bid": (IllegalAction, "{bid} is not higher than the last bid {last}."),
        "cannot_double": (IllegalAction, "You can double only an opponent's last bid that is not doubled yet."),
        "cannot_redouble": (IllegalAction, "You can redouble only when an opponent doubled your side's last bid."),
        "must_follow": (IllegalAction, "Follow suit: play a {suit} card."),
        "claim_not_now": (IllegalAction, "Only the declarer may claim, on his turn to lead."),
        "claim_too_many": (IllegalAction, "Only {remaining} tricks remain."),
        "not_a_defender": (IllegalAction, "Only a defender can {verb}."),
        # the score-only sheet
        "entry_step": (IllegalAction, "The entry expects {expected} now."),
        "nothing_to_undo": (IllegalAction, "There is no entry to undo."),
        "bad_honours": (IllegalAction, "Honours {detail}."),
    }
)
