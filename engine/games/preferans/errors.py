"""Preferans error codes: every rejected action raises one of the ``engine.errors``
classes with a stable snake_case ``code`` from :data:`ERROR_CODES`, an English
``reason`` and the ``params`` (the bot translates the code with its catalog).
The codes every game shares are ``engine.errors.COMMON``."""

from __future__ import annotations

from engine.errors import IllegalAction, game_errors
from engine.preferans_family.errors import FAMILY_ERRORS

ERROR_CODES, error = game_errors(
    {
        **FAMILY_ERRORS,
        "single_step": (IllegalAction, "Bids go up one step at a time: the next bid is {next}."),
        "no_moje": (IllegalAction, "You can say 'moje' only over a bid of a player who speaks after you."),
        "igra_first_call": (IllegalAction, "Igra can only be your first call of the auction."),
        "after_igra": (IllegalAction, "After igra nobody bids numbers."),
        "naming_low": (IllegalAction, "Name a higher igra contract than {current}."),
        "no_hold": (IllegalAction, "You can hold only a contract named by a player who speaks after you."),
        "must_name": (IllegalAction, "The first igra caller names a contract."),
        "no_invite": (IllegalAction, "Only the second defender can invite, after the first passed."),
        "not_eligible": (IllegalAction, "You cannot kontra now."),
        "kontra_cap": (IllegalAction, "The kontra chain cannot go higher."),
    }
)
