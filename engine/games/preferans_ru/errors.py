"""Russian preferans error codes (docs/rules/preferans_ru.md): every rejected action raises
one of the ``engine.errors`` classes with a stable ``code`` from :data:`ERROR_CODES`; the
bot translates the code with its catalog (``engine.<code>``)."""

from __future__ import annotations

from engine.errors import IllegalAction, game_errors
from engine.preferans_family.errors import FAMILY_ERRORS

ERROR_CODES, error = game_errors(
    {
        **FAMILY_ERRORS,
        "below_exit": (IllegalAction, "After распасы the lowest game is {level} (§5.5)."),
        "one_step": (IllegalAction, "Bids go up one step at a time: the next bid is {next}."),
        "misere_first_call": (IllegalAction, "Misère can only be your first call, below a misère."),
        "misere_only_pass": (IllegalAction, "A misère bidder who is outbid can only pass."),
        "no_here": (IllegalAction, "You can say 'here' only over a game bid of a player who speaks after you."),
        "no_half": (IllegalAction, "Half-whist only for the second defender after a pass, on {levels}."),
    }
)
