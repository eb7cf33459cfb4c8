"""Malformed records and options for ``cardbot score`` / ``replay``: one short line on
stderr (at most 200 characters), exit status 2, never a traceback."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from engine.base import get_game
from engine.score import scored_games

ROOT = Path(__file__).resolve().parent.parent

RECORDS = {
    "deep": ("[" * 100_000).encode(),
    "not-utf8": b'\xff\xfe{"game": "durak"}',
    "game-is-a-number": b'{"game": 5, "players": 2, "actions": []}',
    "huge-integer": b'{"game": "durak", "players": ' + b"9" * 5000 + b"}",
    "overlong-action": json.dumps({"game": "durak", "players": 2, "seed": 1, "actions": ["x" * 1_200_000]}).encode(),
    "list": b"[1, 2, 3]",
    "not-json": b"{{{",
    "empty": b"",
}


@pytest.mark.parametrize("command", ["score", "replay"])
@pytest.mark.parametrize("name", sorted(RECORDS))
def test_malformed_record_is_one_short_line(tmp_path, capsys, command, name):
    path = tmp_path / f"{name}.json"
    path.write_bytes(RECORDS[name])
    assert main([command, str(path)]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    lines = out.err.splitlines()
    assert len(lines) == 1 and len(lines[0]) <= 200 and lines[0].startswith(f"cardbot {command}:"), out.err


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "--lang", "xx", "f"],
        ["bogus"],
        [],
        ["selfplay", "durak", "--games", "x"],
        ["replay"],
        ["score", "a", "b"],
    ],
)
def test_bad_options_are_one_line(capsys, argv):
    with pytest.raises(SystemExit) as exit:
        main(argv)
    assert exit.value.code == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and len(lines[0]) <= 200, lines


# ---------------------------------------------------------------- size (issue 43)
# Before, a 147 MB record took 1.9 GB and 50 s to be refused, and /dev/zero was read
# until MemoryError. The limit: engine.records.MAX_RECORD_BYTES, read no further.
RECORD_COMMANDS = ["score", "analyse", "replay"]
# a process reading without a limit hits this instead of the machine's memory
ADDRESS_SPACE = 3 * 1024**3


def cardbot(*args: str, stdin=None, input: bytes | None = None) -> subprocess.CompletedProcess:
    """``python -m bot.cli ARGS`` as its own process, its address space capped."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))

    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        stdin=stdin,
        input=input,
        capture_output=True,
        env=env,
        cwd=ROOT,
        preexec_fn=cap,
        timeout=600,
    )


def refused_in_one_line(done: subprocess.CompletedProcess, command: str, words: str) -> None:
    err = done.stderr.decode(errors="replace")
    assert done.returncode == 2 and done.stdout == b"", (done.returncode, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"cardbot {command}:") and words in lines[0], err
    assert len(lines[0]) <= 200


@pytest.mark.parametrize("command", RECORD_COMMANDS)
def test_a_record_one_byte_over_the_limit_is_refused_and_one_at_the_limit_read(tmp_path, capsys, command):
    from engine.records import MAX_RECORD_BYTES

    record = json.dumps({"game": "bridge", "players": 4, "deals": [], "actions": []}).encode()
    at_limit = tmp_path / "at.json"
    at_limit.write_bytes(record + b" " * (MAX_RECORD_BYTES - len(record)))
    assert main([command, str(at_limit)]) == 0, capsys.readouterr().err
    capsys.readouterr()
    over = tmp_path / "over.json"
    over.write_bytes(record + b" " * (MAX_RECORD_BYTES + 1 - len(record)))
    assert main([command, str(over)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err == f"cardbot {command}: {over} is over the 8 MiB a record may have\n", out.err


@pytest.mark.parametrize("command", RECORD_COMMANDS)
def test_dev_zero_is_refused_in_one_line(command):
    refused_in_one_line(cardbot(command, "/dev/zero"), command, "/dev/zero is over the 8 MiB")


def test_an_endless_pipe_is_refused_in_one_line():
    reader = subprocess.Popen(
        [sys.executable, "-c", "import sys\nwhile True: sys.stdout.buffer.write(b'[' * 65536)"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        done = cardbot("replay", "-", stdin=reader.stdout)
    finally:
        reader.kill()
        reader.wait()
        reader.stdout.close()
    refused_in_one_line(done, "replay", "standard input is over the 8 MiB")


def test_the_limit_is_in_the_help(capsys):
    for command in RECORD_COMMANDS:
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "at most 8 MiB" in capsys.readouterr().out


# ---------------------------------------------------------------- options (issue 43)
# What each command reads, with ``options`` set to the value under test.
OPTION_RECORDS = {
    "replay": {"game": "durak", "players": 2, "actions": []},
    "analyse": {"game": "bridge", "players": 4, "actions": []},
    # every scored game's empty sheet (``EMPTY`` of its record module)
    **{f"score {game}": get_game(game).record.EMPTY for game in scored_games()},
}
NOT_OBJECTS = {"list": [], "list-of-pairs": [["deck_size", 36]], "empty-string": "", "string": "acbl", "zero": 0}
NOT_OBJECTS |= {"false": False, "true": True}


@pytest.mark.parametrize("what", sorted(OPTION_RECORDS))
@pytest.mark.parametrize("options", sorted(NOT_OBJECTS))
def test_options_that_are_not_an_object_are_refused(tmp_path, capsys, what, options):
    path = tmp_path / "record.json"
    path.write_text(json.dumps({**OPTION_RECORDS[what], "options": NOT_OBJECTS[options]}))
    command = what.split()[0]
    assert main([command, str(path)]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert (
        out.err
        == f"cardbot {command}: options must be a JSON object (leave it out, or null, for the game's defaults)\n"
    )


@pytest.mark.parametrize("what", sorted(OPTION_RECORDS))
def test_null_options_are_the_defaults_like_no_options(tmp_path, capsys, what):
    """``"options": null`` is a player saying "no options": the game's defaults, exactly
    as if the key were left out (docs/records.md)."""
    command = what.split()[0]
    outputs = []
    for record in (OPTION_RECORDS[what], {**OPTION_RECORDS[what], "options": None}):
        path = tmp_path / "record.json"
        path.write_text(json.dumps(record))
        assert main([command, str(path)]) == 0, capsys.readouterr().err
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
