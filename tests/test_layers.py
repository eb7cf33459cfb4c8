"""The layering contracts of pyproject.toml ([tool.importlinter]) hold for the project,
and they do catch a violation: a copy of the contracts run on a small fake tree where the
engine imports the bot and one game imports another must report both as broken."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent
LINT = [sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()"]


def lint(config: Path, cwd: Path, pythonpath: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    return subprocess.run(
        [*LINT, "--no-cache", str(config)], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def test_the_project_keeps_its_layers():
    done = lint(ROOT / "pyproject.toml", ROOT, ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"Contracts: (\d+) kept, 0 broken", done.stdout)


def test_a_violation_breaks_the_contracts(tmp_path):
    for name in [
        "engine.base",
        "engine.games.bridge.record",
        "engine.games.durak.rules",
        "engine.games.king.state",
        "storage.repo",
        "bot.i18n",
        "bot.screens",
        "bot.sender",
        "bot.service",
        "bot.delivery",
        "bot.pacing",
        "bot.table_states",
        "bot.table_core",
        "bot.computers",
        "bot.lobby",
        "bot.play",
        "bot.timers",
        "bot.chat_admin",
        "bot.game_registry",
        "bot.games.durak.ui",
    ]:  # a small tree shaped like the project's, every module an empty package
        parts = name.split(".")
        for depth in range(1, len(parts) + 1):
            package = tmp_path.joinpath(*parts[:depth])
            package.mkdir(parents=True, exist_ok=True)
            (package / "__init__.py").touch()
    (tmp_path / "engine" / "games" / "bridge" / "record" / "__init__.py").write_text("import bot.i18n\n")
    (tmp_path / "engine" / "games" / "durak" / "rules" / "__init__.py").write_text(
        "from engine.games.king import state\n"
    )
    (tmp_path / "bot" / "screens" / "__init__.py").write_text("import bot.games.durak\n")
    (tmp_path / "engine" / "base" / "__init__.py").write_text("import engine.games\nimport engine.games.durak.rules\n")
    (tmp_path / "bot" / "game_registry" / "__init__.py").write_text("import bot.games\n")
    (tmp_path / "bot" / "games" / "durak" / "ui" / "__init__.py").write_text("import engine.games.durak.rules\n")
    project = tmp_path / "pyproject.toml"
    project.write_text((ROOT / "pyproject.toml").read_text(encoding="utf-8"), encoding="utf-8")

    done = lint(project, tmp_path, tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "The engine imports neither the bot nor the storage BROKEN" in done.stdout
    assert "No game imports another game (engine) BROKEN" in done.stdout
    assert "No game imports another game (bot) KEPT" in done.stdout
    assert "The shared engine modules import no game BROKEN" in done.stdout
    assert "engine.base -> engine.games.durak.rules" in done.stdout
    assert "bot.games.durak.ui" not in done.stdout  # a game's screens may use its own engine
    assert "engine.games.bridge.record -> bot.i18n" in done.stdout
    assert "The storage does not import the bot KEPT" in done.stdout
    assert "The shared bot modules import no game BROKEN" in done.stdout
    assert "bot.screens -> bot.games.durak" in done.stdout
