"""Every registered game has its whole manifest (``bot.game_ui.GameUI``): an engine game,
its texts in both languages, its rules, commands, bench players; every list of games in
the bot and the benches is read from the registry; the layering contract covers every
game module and every shared one."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from bot import game_commands, thinking
from bot.game_ui import GameUI
from bot.game_registry import all_uis, playable, ui_for
import bot.game_registry as registry
from bot.game_ui import MODULE_FUNCTIONS, REQUIRED_FUNCTIONS
from bot.game_registry import engine_words
from bot.i18n import LANGUAGES, catalog
from engine.base import games, get_game

ROOT = Path(__file__).parent.parent
UIS = all_uis()
PLAYABLE = playable()


def overrides(ui: GameUI, method: str) -> bool:
    return getattr(type(ui), method) is not getattr(GameUI, method)


def keys(lang: str) -> set[str]:
    """The keys of the bot's own catalogs (the engine words come on top)."""
    return {k for path in (ROOT / "bot" / "locales" / lang).glob("*.json") for k in json.loads(path.read_text("utf-8"))}


def manifest_gaps(ui: GameUI) -> list[str]:
    """What this game's manifest lacks: its engine game, its table, hand and buttons, its
    texts and rules in both languages, a command, the benches' players, its rules page and
    its tests (a playable game), the game it keeps the sheet of (a score-only sheet), the
    drawing of a picture it makes. Empty: the game has all of it."""
    gaps = []
    try:
        game = get_game(ui.name)  # the engine game of the same name
    except KeyError:
        return [f"no engine game {ui.name!r}"]
    required = [m for m in REQUIRED_FUNCTIONS if not (m == "hand_text" and ui.group_controls)]
    gaps += [f"no {method}" for method in required if not overrides(ui, method)]
    if overrides(ui, "picture") and not any(
        overrides(u, "draw_picture") for u in UIS + [ui] if u.name in (ui.name, ui.score_for)
    ):
        gaps.append("a picture nobody draws (draw_picture)")
    if ui.export_files is not None and not callable(ui.export_files):
        gaps.append("export_files is not callable")
    all_keys = {lang: keys(lang) for lang in LANGUAGES}
    for lang in LANGUAGES:
        gaps += [
            f"{lang}: no {key}"
            for key in (f"game.{ui.name}", f"rules.{ui.rules_of or ui.name}")
            if key not in all_keys[lang]
        ]
    if ui.score_for:  # a score-only sheet: of a registered game, kept in the group
        if ui.score_for not in {g.name for g in PLAYABLE}:
            gaps.append(f"keeps the sheet of {ui.score_for!r}, no playable game")
        if not ui.group_controls:
            gaps.append("a score-only sheet without group_controls")
        if ui.bench_players or ui.command or ui.table_presets:
            gaps.append("a score-only sheet with bench players or a command of its own")
        return gaps
    low, high = game.seat_range(game.Options())
    if not low <= ui.bench_players <= high:
        gaps.append(f"bench_players {ui.bench_players} outside {low}..{high}")
    commands = ([ui.command] if ui.command else []) + list(ui.table_presets)
    if not commands and not any(ui.name == g for c in UIS for g, _ in c.choices.values()):
        gaps.append("nothing opens it (command, table_presets or a chooser)")
    for lang in LANGUAGES:
        gaps += [f"{lang}: no command.{c}" for c in commands if f"command.{c}" not in all_keys[lang]]
    for path in (f"docs/rules/{ui.name}.md", f"tests/test_{ui.name}_rules.py"):
        if not (ROOT / path).is_file():
            gaps.append(f"no {path}")
    return gaps


def test_the_registry_has_the_games():
    assert {ui.name for ui in PLAYABLE} >= {"durak", "preferans", "preferans_ru", "king", "bridge", "whist"}
    assert len({ui.name for ui in UIS}) == len(UIS)


@pytest.mark.parametrize("ui", UIS, ids=lambda ui: ui.name)
def test_each_game_has_its_whole_manifest(ui: GameUI):
    assert manifest_gaps(ui) == []
    assert get_game(ui.name).name == ui.name


def test_a_game_without_part_of_its_manifest_fails():
    """The check above catches each missing part of a made-up game's manifest."""
    import types

    durak = ui_for("durak")
    module = types.ModuleType("sixth_ui")
    module.group_text = lambda view, names, lang, header: ""

    class Bare(GameUI, module=module):  # no engine game, nothing else
        name = command = "tysyacha"
        bench_players = 3

    assert manifest_gaps(Bare()) == ["no engine game 'tysyacha'"]

    class NoHand(GameUI, module=module):  # durak's engine and texts, but only a group text
        name = command = "durak"
        bench_players = 3

    assert manifest_gaps(NoHand()) == ["no hand_text", "no action_rows"]

    module.hand_text = durak.hand_text
    module.action_rows = durak.action_rows
    module.picture = lambda events, view, names, lang: {}

    class Parts(GameUI, module=module):
        name = "durak"
        command = "tysyacha"  # no command text in the catalogs
        bench_players = 9
        rules_of = "tysyacha"

    assert manifest_gaps(Parts()) == [
        "a picture nobody draws (draw_picture)",
        "ru: no rules.tysyacha",
        "en: no rules.tysyacha",
        "bench_players 9 outside 2..6",
        "ru: no command.tysyacha",
        "en: no command.tysyacha",
    ]

    class Whole(Parts):  # the same module bound once more, the gaps filled
        command = "durak"
        bench_players = 3
        rules_of = ""
        draw_picture = staticmethod(lambda spec: None)

    assert manifest_gaps(Whole()) == []

    class Sheet(GameUI, module=module):  # a score-only sheet of no playable game
        name = "durak"
        score_for = "tysyacha"
        bench_players = 3
        draw_picture = staticmethod(lambda spec: None)

    assert manifest_gaps(Sheet()) == [
        "keeps the sheet of 'tysyacha', no playable game",
        "a score-only sheet without group_controls",
        "a score-only sheet with bench players or a command of its own",
    ]


def test_a_manifest_name_that_is_no_function_is_refused():
    import types

    module = types.ModuleType("sixth_ui")
    module.picture = types.ModuleType("sixth_picture")  # a submodule, not the function
    with pytest.raises(TypeError, match="sixth_ui.picture"):

        class Sixth(GameUI, module=module):
            name = "sixth"


def test_the_ui_modules_bind_their_functions_without_forwarding_methods():
    """A game's UI class only declares: every manifest function is its module's own
    (bound by GameUI.__init_subclass__), no method written in the class forwards to one."""
    for ui in UIS:
        module = __import__(type(ui).__module__, fromlist=["_"])
        written = [
            name
            for name in MODULE_FUNCTIONS
            if name in vars(type(ui)) and not isinstance(vars(type(ui))[name], staticmethod)
        ]
        assert written == [], (ui.name, written)
        for name in MODULE_FUNCTIONS:
            if hasattr(module, name):
                assert getattr(type(ui), name) is getattr(module, name), (ui.name, name)


@pytest.mark.parametrize("ui", [ui for ui in UIS if ui.choices], ids=lambda ui: ui.name)
def test_a_chooser_offers_registered_games_in_both_languages(ui: GameUI):
    assert ui.command and ui.choice_words
    for game, options in ui.choices.values():
        get_game(game).Options(**options)  # the options are the game's
        assert ui_for(game).name == game
    for lang in LANGUAGES:
        assert f"{ui.choice_words}.choose" in keys(lang)
        for word in ui.choices:
            assert f"{ui.choice_words}.choice.{word}" in keys(lang)


def test_commands_and_choices_are_unique():
    commands = [c for ui in UIS for c in ([ui.command] if ui.command else []) + list(ui.table_presets)]
    assert len(commands) == len(set(commands))
    words = [w for ui in UIS for w in ui.choices]
    assert len(words) == len(set(words)) == len(game_commands.variant_choices())


def test_engine_words_reach_both_catalogs():
    for words in engine_words():
        assert set(words) == set(LANGUAGES) and set(words["ru"]) == set(words["en"])
        for lang in LANGUAGES:
            assert set(words[lang]) <= set(catalog(lang))


def test_every_list_of_games_is_the_registry(monkeypatch):
    from bench import command_flood, e2e_tables, engine_selfplay, restart

    names = [ui.name for ui in PLAYABLE]
    assert game_commands.playable_games() == names
    assert list(restart.GAMES) == list(e2e_tables.SEATS) == list(engine_selfplay.GAMES) == names
    assert list(command_flood.GAMES) == names
    assert restart.GAMES == e2e_tables.SEATS == {ui.name: ui.bench_players for ui in PLAYABLE}
    assert not hasattr(thinking, "GAMES")

    class Sixth(GameUI):  # a new game, registered once, shows up in the bot's lists
        name = command = "sixth"
        order = 99
        bench_players = 3

    monkeypatch.setitem(registry._UIS, "sixth", Sixth())
    assert game_commands.playable_games()[-1] == "sixth"
    started = {}

    class Pool:
        def __init__(self, workers, mp_context, initializer, initargs):
            started["games"] = initargs[0]

        def submit(self, fn):  # the thinker starts every worker at once
            done = thinking.concurrent.futures.Future()
            done.set_result(None)
            return done

    monkeypatch.setattr(thinking.concurrent.futures, "ProcessPoolExecutor", Pool)
    thinking.Thinker(workers=1)._executor()
    assert started["games"][-1] == "sixth" and started["games"][:-1] == names


def shared_modules() -> list[Path]:
    """Every module of bot/ and engine/ outside a game's package."""
    game_dirs = {ROOT / "bot" / "games" / p.name for p in (ROOT / "bot" / "games").iterdir() if p.is_dir()}
    game_dirs |= {ROOT / "engine" / p.name for p in (ROOT / "engine").iterdir() if (p / "__init__.py").is_file()}
    found = []
    for top in ("bot", "engine"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if not any(d in path.parents for d in game_dirs):
                found.append(path)
    return found


def names_of_games(path: Path, games: set[str]) -> list[str]:
    """The string constants of a module's code (docstrings aside) that name one of ``games``:
    a game's name as a word of the text ("durak, king" or "rules.durak")."""
    import ast
    import re

    tree = ast.parse(path.read_text("utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if set(re.findall(r"[a-z_]+", node.value.lower())) & games:
                found.append(f"{path.name}:{node.lineno} {node.value!r}")
    return found


def test_no_shared_module_names_a_game(tmp_path):
    """The shared modules' code (comments and docstrings aside) names no registered game:
    every list of games is read from the registries."""
    games = {ui.name for ui in UIS} | {ui.command for ui in UIS if ui.command}
    shared = shared_modules()
    assert ROOT / "bot" / "cli.py" in shared and ROOT / "engine" / "base.py" in shared
    assert not any("games/durak" in str(p) or "engine/games/durak" in str(p) for p in shared)
    found = [hit for path in shared for hit in names_of_games(path, games)]
    assert not found, found
    # the check sees a game named in code, the way bot/cli.py once listed them by hand
    planted = tmp_path / "planted.py"
    planted.write_text('"""Docstrings may say durak."""\nHELP = "durak, king, bridge"\n', "utf-8")
    assert len(names_of_games(planted, games)) == 1


def test_the_layering_contracts_name_no_game():
    """pyproject.toml never changes for a game: its contracts reach the games by wildcard
    (``engine.games.*``, ``bot.games.*``), and those two packages hold games only."""
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    config = tomllib.loads(text)["tool"]["importlinter"]
    names = {ui.name for ui in all_uis()} | {game.name for game in games()}
    named = {word for word in re.findall(r"[a-z_]+", json.dumps(config["contracts"])) if word in names}
    assert not named, named
    engine_packages = {p.name for p in (ROOT / "engine" / "games").iterdir() if (p / "__init__.py").is_file()}
    engine_modules = {p.stem for p in (ROOT / "engine" / "games").glob("*.py")}
    assert engine_modules == {"__init__"}, "engine/games/ holds game packages only"
    assert engine_packages == {type(game).__module__.split(".")[2] for game in games()}
    bot_packages = {p.name for p in (ROOT / "bot" / "games").iterdir() if (p / "__init__.py").is_file()}
    assert {p.stem for p in (ROOT / "bot" / "games").glob("*.py")} == {"__init__"}, "bot/games/ holds games only"
    assert bot_packages == {type(ui).__module__.split(".")[2] for ui in all_uis()}


def test_a_games_screens_import_its_own_engine_only():
    """import-linter's wildcards cannot pair bot.games.<g> with engine.games.<g>; the import
    graph (grimp, which import-linter reads) can."""
    import grimp

    graph = grimp.build_graph("bot", "engine", "storage")
    for package in sorted(p.name for p in (ROOT / "bot" / "games").iterdir() if (p / "__init__.py").is_file()):
        for module in graph.find_descendants(f"bot.games.{package}") | {f"bot.games.{package}"}:
            for imported in graph.find_modules_directly_imported_by(module):
                if imported.startswith("engine.games."):
                    assert imported.split(".")[2] == package, (module, imported)


def test_games_have_distinct_places_in_newgame():
    """/newgame lists the games by ``order``: a tie would leave their places to the walk order."""
    orders = [ui.order for ui in all_uis()]
    assert len(orders) == len(set(orders))
