"""Every registered game has its whole manifest (``bot.games.base.GameUI``): an engine game,
its texts in both languages, its rules, commands, bench players; every list of games in
the bot and the benches is read from the registry; the layering contract covers every
game module and every shared one."""

from __future__ import annotations

import json
import string
import tomllib
from pathlib import Path

import pytest

from bot import game_commands, thinking
from bot.games import GameUI, all_uis, playable, registry, ui_for
from bot.i18n import LANGUAGES, catalog, engine_words
from engine.base import get_game

ROOT = Path(__file__).parent.parent
UIS = all_uis()
PLAYABLE = playable()


def overrides(ui: GameUI, method: str) -> bool:
    return getattr(type(ui), method) is not getattr(GameUI, method)


def keys(lang: str) -> set[str]:
    """The keys of the bot's own catalogs (the engine words come on top)."""
    return {k for path in (ROOT / "bot" / "locales" / lang).glob("*.json") for k in json.loads(path.read_text("utf-8"))}


def test_the_registry_has_the_games():
    assert {ui.name for ui in PLAYABLE} >= {"durak", "preferans", "preferans_ru", "king", "bridge", "whist"}
    assert len({ui.name for ui in UIS}) == len(UIS)


@pytest.mark.parametrize("ui", UIS, ids=lambda ui: ui.name)
def test_each_game_has_its_whole_manifest(ui: GameUI):
    game = get_game(ui.name)  # the engine game of the same name
    assert game.name == ui.name
    for method in ("group_text", "hand_text", "action_rows"):
        assert overrides(ui, method), f"{ui.name} lacks {method}"
    for lang in LANGUAGES:
        assert f"game.{ui.name}" in keys(lang), (lang, ui.name)
    low, high = game.seat_range(game.Options())
    if ui.score_for:  # a score-only sheet: of a registered game, kept in the group
        assert ui.score_for in {g.name for g in PLAYABLE} and ui.group_controls
        assert ui.bench_players == 0 and not ui.command and not ui.table_presets
        return
    assert low <= ui.bench_players <= high, (ui.name, ui.bench_players)
    commands = [ui.command] if ui.command else []
    commands += list(ui.table_presets)
    assert commands or any(ui.name == g for c in UIS for g, _ in c.choices.values()), f"nothing opens {ui.name}"
    for lang in LANGUAGES:
        for command in commands:
            assert f"command.{command}" in keys(lang), (lang, command)
        assert f"rules.{ui.name}" in keys(lang), (lang, ui.name)
    assert (ROOT / "docs" / "rules" / f"{ui.name}.md").is_file(), f"docs/rules/{ui.name}.md"
    if ui.export_files is not None:
        assert callable(ui.export_files)


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

    monkeypatch.setattr(thinking.concurrent.futures, "ProcessPoolExecutor", Pool)
    thinking.Thinker(workers=1)._executor()
    assert started["games"][-1] == "sixth" and started["games"][:-1] == names


def test_no_shared_module_names_a_game():
    """The shared modules' code (comments and docstrings aside) names no registered game."""
    import ast

    shared = sorted((ROOT / "bot").glob("*.py")) + sorted((ROOT / "bot" / "render").glob("*.py"))
    shared += [ROOT / "bot" / "games" / "base.py", ROOT / "bot" / "games" / "registry.py"]
    games = {ui.name for ui in UIS}
    found = []
    for path in shared:
        tree = ast.parse(path.read_text("utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                words = set(node.value.strip(string.punctuation + " ").split("."))
                if words & games or node.value in games:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value!r}")
    assert not found, found


def test_the_layering_contract_covers_every_game_and_shared_module():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["importlinter"]
    contract = next(c for c in config["contracts"] if c["name"] == "The shared bot modules import no game")
    game_modules = {
        f"bot.games.{path.stem}" for path in (ROOT / "bot" / "games").glob("*.py") if path.stem not in ("__init__",)
    } - {f"bot.games.{name}" for name in registry.SHARED}
    engines = {type(get_game(ui.name)).__module__.split(".")[:2][-1] for ui in UIS}
    assert game_modules <= set(contract["forbidden_modules"])
    assert {f"engine.{e}" for e in engines} <= set(contract["forbidden_modules"])
    shared = {f"bot.{path.stem}" for path in (ROOT / "bot").glob("*.py") if path.stem != "__init__"}
    assert shared | {"bot.render", "bot.games.base", "bot.games.registry"} <= set(contract["source_modules"])
