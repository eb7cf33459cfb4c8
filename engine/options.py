"""Reading a game's options model from what the bot or a record hands in."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from engine.errors import common_error

M = TypeVar("M", bound=BaseModel)


def parse_model(model: type[M], options: Any, *, from_other_models: bool = False) -> M:
    """``model`` from an instance of it, a plain dict or None (the defaults). A validation
    error becomes ``bad_options`` naming the first bad field. ``from_other_models``: another
    pydantic model is read through its ``model_dump()`` (the games that accept one)."""
    if isinstance(options, model):
        return options
    if options is None:
        return model()
    if from_other_models and isinstance(options, BaseModel):
        options = options.model_dump()
    try:
        return model.model_validate(options)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "options"
        detail = f"{where}: {first.get('msg', 'invalid')}"
        raise common_error("bad_options", detail=detail) from None


OPTIONS_NOT_AN_OBJECT = "options must be a JSON object (leave it out, or null, for the game's defaults)"


def record_options(record: dict[str, Any]) -> dict[str, Any]:
    """A record's ``options`` (docs/records.md): the object given; ``{}`` -- the game's
    defaults -- when the key is left out or is null, as a player who names no options
    means. Anything else (a list, a string, a number, true or false) is no set of options,
    not even an empty one: ``ValueError(OPTIONS_NOT_AN_OBJECT)``."""
    options = record.get("options")
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ValueError(OPTIONS_NOT_AN_OBJECT)
    return options
