"""What a game module tells the bot: its manifest. A game's UI module defines the manifest's
functions at module level under the manifest's names (``group_text``, ``hand_text``,
``action_rows``, ``posts`` ...) and one subclass that names the module:
``class DurakUI(GameUI, module=sys.modules[__name__])``; ``__init_subclass__`` binds those
functions as staticmethods, the way ``engine.facade.RulesFacade`` binds a rules module, so
no method only forwards. Register one instance with ``bot.games.register_ui``;
tests/test_game_manifest.py checks that every registered game has all of it. Every function
works from engine *views* (never from state), so nothing hidden can reach a chat from here
unless the engine's ``view`` leaks it."""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable

from bot.i18n import t
from bot.render.common import seat_name, signed
from engine.standings import PARTNERSHIPS

Rows = list[list[tuple[str, Any]]]
# export_files(states, names, event, stem, dealt) -> [(file name, bytes)]: the games of a
# table (engine states) as files for other programs; each file name starts with ``stem``;
# ``dealt``: per game, the times (epoch seconds) its deals were dealt, in order
ExportFiles = Callable[[list, list[str], str, str, list[list[float]]], list[tuple[str, bytes]]]

# The manifest's functions: a UI module's module-level function of one of these names is
# the game's (bound by GameUI.__init_subclass__); the rest keep GameUI's defaults. A function
# from another module is bound by an assignment (``draw_picture = king_picture``), not by an
# import alone: ``ruff --fix`` removes an import nothing in the module uses.
MODULE_FUNCTIONS = (
    "title",
    "variant_text",
    "lobby_lines",
    "option_rows",
    "next_option",
    "group_text",
    "hand_text",
    "action_rows",
    "posts",
    "picture",
    "draw_picture",
    "result_line",
    "deal_record_text",
    "tricks_so_far",
)
# the ones without a default: every game shows its table, its hands and its buttons (a
# score-only table has no hands: GameUI.hand_text shows it the group's message)
REQUIRED_FUNCTIONS = ("group_text", "hand_text", "action_rows")


class GameUI:
    name = ""  # the engine's game name
    # The game whose rules text ("rules.<game>" in the catalogs) /rules shows; "": this one.
    rules_of = ""
    command = ""  # the group command that opens a table, e.g. "durak"
    order = 100  # position in /newgame
    # Fixed seat names (bridge: N E S W): players choose a seat in the lobby and seats
    # keep their place; None = seats are filled in order of joining.
    seat_names: tuple[str, ...] | None = None
    # Score-only tables: the action buttons sit under the group message and any seated
    # person may press them; nobody gets a hand in a DM.
    group_controls = False
    # For a score-only table: the game whose paper sheet it keeps (``/score <score_for>``).
    score_for: str | None = None
    # More words for ``/score <word>`` opening this table with these options
    # (Russian preferans: ``/score sochi`` -> {"system": "sochi"}).
    score_presets: dict[str, dict[str, Any]] = {}
    # Group commands that open this game with these options (Russian preferans:
    # ``/sochi`` -> {"system": "sochi"}), besides ``command``.
    table_presets: dict[str, dict[str, Any]] = {}
    # ``/<command>`` asks which variant the group plays, unless the command names one
    # (``/preferans sochi``): choice word -> (game name, options). Its buttons send
    # ``pf:<choice>``; the texts are "<choice_words>.choose" and "<choice_words>.choice.<word>".
    choices: dict[str, tuple[str, dict[str, Any]]] = {}
    choice_words = ""
    # Words the engine prints without the bot (the bridge sheet): {lang: {key: text}},
    # merged into the catalogs.
    words: dict[str, dict[str, str]] = {}
    # The game's tables as files for other programs (``/export``, /history's files), or
    # None: the game has none.
    export_files: ExportFiles | None = None
    # "🔍 The deal" (bot.deal_view): deal_record_text(analysis of one deal, names, lang) ->
    # the DM's HTML; None: the game has no deal analysis (durak, the score sheets).
    deal_record_text: Callable[[dict, list[str], str], str] | None = None
    # "📜 Tricks" (bot.trick_view): tricks_so_far(a seat's view) -> the current deal's tricks
    # in order, each {"leader", "cards": [[seat, card], ...], "winner"}, the trick on the
    # table last with "winner" None (a seat None: a card of no player's, e.g. a turned
    # talon card). Only what the view shows; None: the game has no tricks (durak).
    tricks_so_far: Callable[[dict], list[dict]] | None = None
    # Players at a table of this game in the benchmarks (bench/); 0: a score-only sheet,
    # not benchmarked.
    bench_players = 0
    # Engine events after which the group's table message is redrawn. A group may get
    # about 20 messages a minute, so the table shows the game trick by trick (bout by
    # bout in durak), not card by card; each player's DM shows every card at once.
    group_milestones = frozenset(
        {
            "deal",
            "trick",
            "bout",
            "talon",
            "contract",
            "trump",
            "all_pass",
            "passed_out",
            "claim_accepted",
            "concede",
            "forfeit",
            "game_over",
        }
    )

    # ---------------------------------------------------------------- lobby
    def title(self, options: dict, lang: str) -> str:
        """The game's name as a table with these options shows it (bridge: "Chicago" when
        it scores four-deal rounds)."""
        return t(lang, f"game.{self.name}")

    def variant_text(self, options: dict, lang: str) -> str:
        """Short description of the options for headers, e.g. "podkidnoy, 36 cards"."""
        return ""

    def lobby_lines(self, options: dict, lang: str) -> list[str]:
        """Lines the lobby shows under its title: what an option means when its button
        is too short to say it (bridge: what the scoring preset changes)."""
        return []

    def option_rows(self, options: dict, lang: str) -> Rows:
        """Lobby option buttons as rows of (label, option key); pressing sends ``o:<key>``."""
        return []

    def next_option(self, options: dict, key: str) -> dict:
        """The options after pressing option ``key`` (cycle a value, toggle a flag).
        Raise KeyError for an unknown key."""
        raise KeyError(key)

    # ---------------------------------------------------------------- during a game
    def group_text(self, view: dict, names: list[str], lang: str, header: str) -> str:
        raise NotImplementedError

    def hand_text(self, view: dict, names: list[str], lang: str, header: str, legal: list[str]) -> str:
        """A seat's DM. A score-only table has no hands: a seat sees the group's message."""
        if self.group_controls:
            return self.group_text(view, names, lang, header)
        raise NotImplementedError

    def action_rows(
        self, legal: list[str], view: dict, lang: str, mode: str, names: list[str]
    ) -> tuple[Rows, list[tuple[str, str]]]:
        """Buttons for the seat's legal actions as rows of (label, index into ``legal``),
        and keyboard switches [(label, mode)] (e.g. durak's blind covers). ``mode`` is the
        keyboard the player switched to ("normal" by default). Keep it under 100 buttons."""
        raise NotImplementedError

    def posts(self, events: list[dict], view: dict, names: list[str], lang: str, history: list[dict]) -> list[str]:
        """Texts (HTML) to post in the group as new messages after an action, e.g. the
        score sheet after a deal. ``view`` is the public view after the action;
        ``history`` the results of the finished games of this table (this one included)."""
        return []

    def picture(self, events: list[dict], view: dict, names: list[str], lang: str) -> dict | None:
        """The score sheet the posts of these events show, as a picture spec for
        ``bot.render.pictures.draw`` (JSON: it travels in the outbox). Asked only when
        ``posts`` gave something; None: this game has no picture of its sheet."""
        return None

    def draw_picture(self, spec: dict) -> Any:
        """The PIL image of a picture spec this game made (``picture``), drawn with the
        helpers of ``bot.render.pictures``. KeyError: the game has no picture."""
        raise KeyError(self.name)

    # Engine events after which every player's hand message is redrawn (besides the hands
    # of whoever acted or acts now, which always are). A hand whose reader waits is not
    # redrawn for every decision of the others, so what it shows must not go stale between
    # these events (a game that redraws its group more often keeps its hands to this set).
    hand_milestones = group_milestones

    def redraws_every_hand(self, events: list[dict]) -> bool:
        """Whether an action with these events redraws every player's hand message."""
        return self.group_controls or any(event.get("type") in self.hand_milestones for event in events)

    def refreshes_group(self, events: list[dict], posts: int, game_over: bool) -> bool:
        """Whether an action with these events redraws the group's table message. A deal
        that ends with a score sheet post and goes on to the next deal leaves the redraw
        to the next deal: the sheet already tells the group how it ended."""
        if self.group_controls:
            return True  # the group message is the score-only table's keyboard
        if posts and not game_over:
            return False
        return any(event.get("type") in self.group_milestones for event in events)

    def result_line(self, result: dict, names: list[str], lang: str) -> str:
        """The outcome of a finished game in one short line of /history (HTML); ``names``
        are the seats' names, escaped. A ``forfeit`` seat is added after it by the caller."""
        return t(lang, "history.no_winner")

    def rules_text(self, lang: str) -> str:
        return t(lang, f"rules.{self.rules_of or self.name}")

    def __init_subclass__(cls, module: ModuleType | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if module is None:
            return
        for name in MODULE_FUNCTIONS:
            # a method the subclass writes itself wins; a function the module lacks keeps the default
            if name in cls.__dict__ or not hasattr(module, name):
                continue
            function = getattr(module, name)
            if not callable(function):  # e.g. a submodule imported under a manifest name
                raise TypeError(f"{module.__name__}.{name} is a manifest name but not a function")
            setattr(cls, name, staticmethod(function))


def partnership_result_line(result: dict, names: list[str], lang: str) -> str:
    """/history's line of a partnership game (``result["winner"]`` is "NS" or "EW"): the
    winning pair, else no winner."""
    winner = result.get("winner")
    if winner not in ("NS", "EW"):
        return t(lang, "history.no_winner")
    seats = PARTNERSHIPS[0] if winner == "NS" else PARTNERSHIPS[1]
    return t(lang, "history.won", names=", ".join(names[s] for s in seats if s < len(names)))


def settlement_result_line(result: dict, names: list[str], lang: str) -> str:
    """/history's line of a game settled in points per seat (``result["settlement"]``):
    each seat's amount, seat by seat."""
    return " · ".join(f"{seat_name(names, i)} {signed(v)}" for i, v in enumerate(result["settlement"]))
