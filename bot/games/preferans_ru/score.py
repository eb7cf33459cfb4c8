"""``/score sochi|leningrad|rostov`` (or ``/score preferans_ru``): the пулька of Russian
preferans played with real cards.

The seated people (3, or 4 with the dealer sitting out) are the players, clockwise in the
order they joined. Anybody seated presses the entry buttons under the group message:
the declarer (or распасы), the contract, the whist decisions, the tricks, then "write".
"Undo" strikes out the last hand. After every hand the sheet is posted exactly as
``cardbot score --text`` prints it (engine/games/preferans_ru/sheet.py)."""

from __future__ import annotations

import sys
from fractions import Fraction
from typing import Any

from bot.game_registry import register_ui
from bot.game_ui import GameUI, Rows, settlement_result_line
from bot.i18n import t
from bot.render.common import chunk, esc
from engine.games.preferans_ru.options import SYSTEMS, PreferansRuOptions
from engine.games.preferans_ru.record import play
from engine.games.preferans_ru.scoring import finished, fnum, settlement
from engine.games.preferans_ru.sheet import SUIT, WORDS, sheet_text, shown

LETTERS = "ABCD"
POOLS = (10, 20, 30, 40, 50)
HALF_CHOICES: tuple[tuple[int, ...], ...] = ((6, 7), (6,), ())
# the table conventions of §7.1: their values in the order a button cycles them
CONVENTIONS: dict[str, tuple[str, ...]] = {
    "whist_quota": ("shared", "personal", "personal_if_short"),
    "raspasy_reset": ("any_deal", "made_game", "made_8_or_misere"),
    "consolation_rate": ("price", "ten"),
    "raspasy_tie": ("full", "split"),
}
# /score <alias>: the three systems open the sheet with their preset
PRESETS: dict[str, dict[str, Any]] = {system: {"system": system} for system in SYSTEMS}


def _name(names: list[str], letter: str) -> str:
    i = LETTERS.index(letter)
    return names[i] if i < len(names) else letter


def contract_label(contract: str, lang: str) -> str:
    if contract == "MISERE":
        return t(lang, "prefru_score.misere")
    strain = contract[-2:] if contract.endswith("NT") else contract[-1]
    # "7 ♥" with a space: the contract, not a card (cards never show in the group)
    return contract[: -len(strain)] + " " + (t(lang, "prefru_score.nt") if strain == "NT" else SUIT[strain])


def sheet_block(view: dict[str, Any], names: list[str], lang: str, last: bool) -> str:
    """The sheet (the same text as ``cardbot score --text``) in a <pre> block."""
    done = play(view["record"])
    letters = {p: _name(names, p) for p in done.players}
    line = done.lines[-1] if last and done.lines else None
    text = sheet_text(done.sheet, done.options, lang, line, len(done.lines), names=letters)
    return f"<pre>{esc(text)}</pre>"


def progression(start: Fraction, gains: list[Fraction]) -> list[str]:
    """A cell as written on paper: the running total after every hand that changed it
    ("2.4.6"), from a start that was not zero."""
    out = [shown(start)] if start else []
    total = start
    for gain in gains:
        if gain:
            total += gain
            out.append(shown(total))
    return out


def sheet_picture(view: dict[str, Any], names: list[str], lang: str) -> dict[str, Any]:
    """The пулька as a picture spec (``bot.games.preferans_ru.picture``): per seat the пуля, гора and
    висты progressions, the settlement (exact numbers; the picture rounds them while the
    game goes on). Made from the §9 record in the public view: it holds no card."""
    done = play(view["record"])
    sheet, players = done.sheet, done.players
    gains = [line.gain for line in done.lines]

    def cell(total: Fraction, gained: list[Fraction]) -> list[str]:
        return progression(total - sum(gained, Fraction(0)), gained)

    seats = []
    for p in players:
        pool = [g.pool.get(p, Fraction(0)) for g in gains]
        mountain = [g.mountain.get(p, Fraction(0)) for g in gains]
        whists = {}
        for j, q in enumerate(players):
            if q != p:
                on_q = [g.whists.get(p, {}).get(q, Fraction(0)) for g in gains]
                whists[str(j)] = cell(sheet.whists[p][q], on_q)
        seats.append(
            {"pool": cell(sheet.pool[p], pool), "mountain": cell(sheet.mountain[p], mountain), "whists": whists}
        )
    w = WORDS.get(lang, WORDS["en"])
    title = w["title"].format(system=w[done.options.system], pool=done.options.pool)
    if done.lines:
        title += w["hand_n"].format(n=len(done.lines))
    result = settlement(sheet, done.options)
    return {
        "game": "preferans_ru",
        "lang": lang,
        "title": title,
        "names": [_name(names, p) for p in players],
        "pool": done.options.pool,
        "system": w[done.options.system],
        "seats": seats,
        "settlement": [fnum(result[p]) for p in players],
        # closed: the pool is full, or the game ended early (a forfeit): exact numbers then
        "finished": finished(sheet, done.options) or bool(view.get("result")),
    }


def pending_text(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    p = view["pending"]
    if p is None:
        return []
    if p.get("all_pass"):
        parts = [t(lang, "prefru_score.all_pass")]
    else:
        parts = [esc(_name(names, p["declarer"]))]
        if "contract" in p:
            parts.append(contract_label(p["contract"], lang))
        for who, decision in p.get("whist", {}).items():
            parts.append(f"{esc(_name(names, who))} — {t(lang, 'prefru_score.btn.' + decision)}")
    if p.get("tricks"):
        done = ", ".join(f"{esc(_name(names, who))} {n}" for who, n in p["tricks"].items())
        parts.append(t(lang, "prefru_score.tricks_done", tricks=done))
    return [t(lang, "prefru_score.entry", text=" · ".join(parts))]


def prompt(view: dict[str, Any], names: list[str], lang: str) -> str:
    p = view["pending"]
    if p is None:
        return t(lang, "prefru_score.prompt.new")
    step = p["step"]
    if step == "tricks":
        return t(lang, "prefru_score.prompt.tricks", name=esc(_name(names, p["ask"][0])))
    if step in ("first", "second", "again"):
        first, second = view["defenders"]
        who = second if step == "second" else first
        return t(lang, f"prefru_score.prompt.{step}", name=esc(_name(names, who)))
    return t(lang, f"prefru_score.prompt.{step}")


def group_text(view: dict[str, Any], names: list[str], lang: str, header: str) -> str:
    lines = [f"<b>{esc(header)}</b>"]
    order = ", ".join(f"{i + 1}. {esc(n)}" for i, n in enumerate(names))
    lines.append(t(lang, "prefru_score.players", players=order))
    if view["started"]:
        lines.append(sheet_block(view, names, lang, last=False))
    if view["result"]:
        lines.append(t(lang, "prefru_score.over"))
        lines += result_lines(view, names, lang)
    elif view["started"]:
        if view["players"] == 4:
            lines.append(t(lang, "prefru_score.dealer", name=esc(_name(names, view["dealer"]))))
        lines += pending_text(view, names, lang)
        lines.append("👉 " + prompt(view, names, lang))
    return "\n".join(lines)


def result_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """The settlement, best first (exact fractions at the end, §6.5)."""
    settle = view["settlement"]
    value = {p: _fraction(x) for p, x in settle.items()}
    lines = [t(lang, "prefru_score.result.title")]
    for p in sorted(settle, key=lambda p: -value[p]):
        shown = str(settle[p]).replace("-", "−")
        lines.append(f"{esc(_name(names, p))}: <b>{'+' if value[p] > 0 else ''}{shown}</b>")
    return lines


def _fraction(x: int | str) -> float:
    if isinstance(x, str) and "/" in x:
        a, b = x.split("/")
        return int(a) / int(b)
    return float(x)


def action_label(action: str, view: dict[str, Any], names: list[str], lang: str) -> str:
    verb, *args = action.split()
    arg = args[0] if args else ""
    if verb == "declarer":
        return _name(names, arg)
    if verb == "contract":
        return contract_label(arg, lang)
    if verb in ("first", "second", "again"):
        return t(lang, f"prefru_score.btn.{arg}")
    if verb == "tricks":
        return arg
    return t(lang, f"prefru_score.btn.{verb}")


def action_rows(legal: list[str], view: dict[str, Any], lang: str, mode: str, names: list[str]) -> tuple[Rows, list]:
    main: list[tuple[str, Any]] = []
    tail: list[tuple[str, Any]] = []
    for i, action in enumerate(legal):
        item = (action_label(action, view, names, lang), i)
        (tail if action.split()[0] in ("cancel", "undo", "allpass") else main).append(item)
    first = legal[0].split()[0] if legal else ""
    size = {"tricks": 6, "contract": 5}.get(first, 4)
    return chunk(main, size) + ([tail] if tail else []), []


def conventions_shown(full: PreferansRuOptions) -> list[str]:
    """The §7.1 conventions that change something at this table: the end of a распасы run
    only where the run counts (a price progression, or exits above 6), the consolation
    rate only in Ростов, the tie only with распасы on whists."""
    shown = ["whist_quota"]
    if full.raspasy_progression != "none" or set(full.raspasy_exit) != {6}:
        shown.append("raspasy_reset")
    if full.system == "rostov":
        shown.append("consolation_rate")
    if full.raspasy == "whists":
        shown.append("raspasy_tie")
    return shown


def _convention_label(full: PreferansRuOptions, key: str, lang: str) -> str:
    return t(lang, f"prefru_score.opt.{key}.{getattr(full, key)}")


def variant_text(options: dict[str, Any], lang: str) -> str:
    """The system and pool, then every convention the table plays otherwise than §6."""
    full = PreferansRuOptions.model_validate(options)
    text = t(lang, "prefru_score.variant", system=t(lang, f"prefru_score.system.{full.system}"), pool=full.pool)
    changed = [key for key in conventions_shown(full) if getattr(full, key) != CONVENTIONS[key][0]]
    return ", ".join([text, *(_convention_label(full, key, lang) for key in changed)])


def option_rows(options: dict[str, Any], lang: str) -> Rows:
    full = PreferansRuOptions.model_validate(options)
    half = ",".join(str(level) for level in full.half_whist) or t(lang, "prefru_score.opt.none")
    conventions = [(_convention_label(full, key, lang), key) for key in conventions_shown(full)]
    return [
        [
            (t(lang, f"prefru_score.system.{full.system}"), "system"),
            (t(lang, "prefru_score.opt.pool", n=full.pool), "pool"),
        ],
        [
            (t(lang, f"prefru_score.opt.overflow.{full.pool_overflow}"), "pool_overflow"),
            (t(lang, "prefru_score.opt.half", levels=half), "half_whist"),
        ],
        *chunk(conventions, 2),
    ]


def next_option(options: dict[str, Any], key: str) -> dict[str, Any]:
    """Cycle one lobby option. A new system brings its whole preset (§6.6); the pool size,
    help, half-whist and the conventions chosen in the lobby stay where the new system
    plays them (a Ростов-only one goes back to its default elsewhere)."""
    full = PreferansRuOptions.model_validate(options)
    kept: dict[str, Any] = {"pool": full.pool, "pool_overflow": full.pool_overflow, "half_whist": full.half_whist}
    if key == "system":
        system = SYSTEMS[(SYSTEMS.index(full.system) + 1) % len(SYSTEMS)]
        applies = conventions_shown(PreferansRuOptions(system=system))
        kept.update({"system": system, **{k: getattr(full, k) for k in CONVENTIONS if k in applies}})
        return PreferansRuOptions.model_validate(kept).model_dump(mode="json")
    new = full.model_dump()
    if key in CONVENTIONS and key in conventions_shown(full):
        values = CONVENTIONS[key]
        new[key] = values[(values.index(getattr(full, key)) + 1) % len(values)]
    elif key == "pool":
        new["pool"] = POOLS[(POOLS.index(full.pool) + 1) % len(POOLS)] if full.pool in POOLS else POOLS[0]
    elif key == "pool_overflow":
        new["pool_overflow"] = "mountain" if full.pool_overflow == "help" else "help"
    elif key == "half_whist":
        i = HALF_CHOICES.index(full.half_whist) if full.half_whist in HALF_CHOICES else -1
        new["half_whist"] = HALF_CHOICES[(i + 1) % len(HALF_CHOICES)]
    else:
        raise KeyError(key)
    return PreferansRuOptions.model_validate(new).model_dump(mode="json")


def picture(events: list[dict], view: dict[str, Any], names: list[str], lang: str) -> dict[str, Any]:
    return sheet_picture(view, names, lang)


def posts(
    events: list[dict[str, Any]],
    view: dict[str, Any],
    names: list[str],
    lang: str,
    history: list[dict[str, Any]],
) -> list[str]:
    out = []
    over = any(e["type"] == "game_over" for e in events)
    for e in events:
        if e["type"] in ("deal_scored", "entry_undone"):
            text = sheet_block(view, names, lang, last=e["type"] == "deal_scored")
            if e["type"] == "entry_undone":
                text = t(lang, "prefru_score.undone") + "\n" + text
            if over:
                text += "\n" + "\n".join(result_lines(view, names, lang))
            out.append(text)
    if over and not any(e["type"] == "deal_scored" for e in events):
        out.append("\n".join([sheet_block(view, names, lang, last=False), *result_lines(view, names, lang)]))
    return out


# borrowed from the modules they live in, under the manifest's names
result_line = settlement_result_line


class PreferansRuScoreUI(GameUI, module=sys.modules[__name__]):
    name = "preferans_ru_score"
    command = ""
    order = 92
    group_controls = True
    score_for = "preferans_ru"
    score_presets = PRESETS


register_ui(PreferansRuScoreUI())
