"""Malformed records and options for ``cardbot score`` / ``replay``: one short line on
stderr (at most 200 characters), exit status 2, never a traceback."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

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
