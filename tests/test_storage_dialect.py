"""How ``storage.dialect`` renders the one SQL text of ``storage.core`` for each backend
(the queries themselves run on both backends in test_storage.py)."""

from __future__ import annotations

import pytest

from storage.dialect import POSTGRES, SQLITE

QUERY = """UPDATE timers SET reminded = {true}
           WHERE table_id = :table_id AND version = :version AND expire_at <= :now
             AND remind_at <= :now AND reminded = {false}"""
PARAMS = {"table_id": 7, "version": 3, "now": 1.5, "unused": "x"}


def test_sqlite_question_marks_repeat_the_value():
    sql, args = SQLITE.render(QUERY, PARAMS)
    assert "reminded = 1" in sql and "reminded = 0" in sql
    assert sql.count("?") == 4 and ":" not in sql
    assert args == [7, 3, 1.5, 1.5]


def test_postgres_numbers_each_name_once():
    sql, args = POSTGRES.render(QUERY, PARAMS)
    assert "reminded = TRUE" in sql and "reminded = FALSE" in sql
    assert "expire_at <= $3" in sql and "remind_at <= $3" in sql
    assert args == [7, 3, 1.5]


def test_any_is_an_array_on_postgres_and_one_mark_an_element_on_sqlite():
    query = "UPDATE outbox SET done_at = :now WHERE id = ANY(:ids) AND done_at IS NULL"
    assert POSTGRES.render(query, {"now": 2.0, "ids": [4, 5, 6]}) == (
        "UPDATE outbox SET done_at = $1 WHERE id = ANY($2) AND done_at IS NULL",
        [2.0, [4, 5, 6]],
    )
    assert SQLITE.render(query, {"now": 2.0, "ids": [4, 5, 6]}) == (
        "UPDATE outbox SET done_at = ? WHERE id IN (?, ?, ?) AND done_at IS NULL",
        [2.0, 4, 5, 6],
    )
    sql, args = SQLITE.render(query, {"now": 2.0, "ids": [9]})  # another length
    assert sql.endswith("id IN (?) AND done_at IS NULL") and args == [2.0, 9]


def test_casts_and_words():
    sql, _ = POSTGRES.render("SELECT x::bigint FROM t WHERE id = :id {for_update}", {"id": 1})
    assert sql == "SELECT x::bigint FROM t WHERE id = $1 FOR UPDATE"
    sql, _ = SQLITE.render("SELECT {least}(a, b) FROM t WHERE id = :id {for_update}", {"id": 1})
    assert sql == "SELECT MIN(a, b) FROM t WHERE id = ? "
    with pytest.raises(KeyError):  # a word no dialect defines is an error, not SQL
        SQLITE.render("SELECT {nonsense}", {})
    with pytest.raises(KeyError):  # so is a parameter not given
        POSTGRES.render("SELECT :missing", {})


def test_chunks_keep_sqlite_lists_short():
    ids = list(range(1201))
    assert [len(c) for c in SQLITE.chunks(ids)] == [500, 500, 201]
    assert [len(c) for c in POSTGRES.chunks(ids)] == [1201]
    assert list(SQLITE.chunks([])) == [] and list(POSTGRES.chunks([])) == []
