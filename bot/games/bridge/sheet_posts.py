"""The posts of the bridge sheet: the deal just scored (what it wrote, side by side), the
We/They sheet as text and as a picture spec, and the settlement at the end. The played
table and the score-only sheet post the same; the sheet has no player names (None)."""

from __future__ import annotations

from bot.games.bridge.texts import SEATS, contract_text, name_of, side_name
from bot.i18n import t
from bot.render.common import esc
from engine.games.bridge.sheet import result_lines, sheet_table


def deal_post(event: dict, names: list[str] | None, lang: str) -> str:
    """The line about the deal just scored, then the sheet as a <pre> table."""
    board = event.get("board")
    paper = board is None
    if event["passed_out"]:
        head = (
            t(lang, "bridge.passed_out_paper", n=event["deal_no"])
            if paper
            else t(lang, "bridge.passed_out", board=board)
        )
    else:
        res = event["result"]
        outcome = (
            t(lang, "bridge.outcome.made")
            if res == 0
            else t(lang, "bridge.outcome.over", n=res)
            if res > 0
            else t(lang, "bridge.outcome.down", n=-res)
        )
        contract = esc(contract_text(event["contract"], lang))
        seat = SEATS[event["declarer"]]
        if paper:
            head = t(
                lang,
                "bridge.deal_result_paper",
                n=event["deal_no"],
                contract=contract,
                seat=seat,
                tricks=event["tricks"],
                outcome=outcome,
            )
        else:
            head = t(
                lang,
                "bridge.deal_result",
                board=board,
                contract=contract,
                seat=seat,
                name=name_of(names or [], event["declarer"]),
                tricks=event["tricks"],
                outcome=outcome,
            )
        how = event.get("how") or {}
        if "claimed" in how:
            head += " " + t(lang, "bridge.claim_note")
        elif "conceded_by" in how:
            head += " " + t(lang, "bridge.concede_note")
    lines = [head]
    doubling = (event.get("contract") or {}).get("doubling", 0)
    lines += written_lines(event.get("entries", []), lang, doubling)
    won = _games_won(event)
    if won:
        lines.append(t(lang, "bridge.game_won", side=side_name(won, lang)))
    lines.append(sheet_pre(event["sheet"], lang))
    return "\n".join(lines)


def _kind_text(kind: str, lang: str, doubling: int) -> str:
    if kind == "insult":
        kind = "insult_xx" if doubling == 2 else "insult_x"
    return t(lang, f"bridge.kind.{kind}")


def written_lines(entries: list[dict], lang: str, doubling: int = 0) -> list[str]:
    """What a deal (or the end of a rubber) wrote, one line per side, so that a summed
    cell of the sheet can be checked: "They: below the line 90; above the line 30 (overtricks) + 100 (game)"."""
    lines = []
    for side in ("NS", "EW"):
        mine = [e for e in entries if e["side"] == side]
        if not mine:
            continue
        parts = []
        below = sum(e["points"] for e in mine if e["line"] == "below")
        if below:
            parts.append(t(lang, "bridge.written.below", points=below))
        above = [f"{e['points']} ({_kind_text(e['kind'], lang, doubling)})" for e in mine if e["line"] == "above"]
        if above:
            parts.append(t(lang, "bridge.written.above", items=" + ".join(above)))
        lines.append(t(lang, "bridge.written", side=side_name(side, lang), parts="; ".join(parts)))
    return lines


def _games_won(event: dict) -> str | None:
    """The side that won a game with this deal, if any. Chicago writes its game premium on
    the deal (its game-block counter moves on after every deal in the clubs' scheme); a
    rubber starts a new game block."""
    entries = event.get("entries", [])
    if event["sheet"].get("chicago"):
        return next((e["side"] for e in entries if e["kind"] == "chicago_game"), None)
    below = [e for e in entries if e["line"] == "below"]
    if below and event["sheet"]["game"] > below[0]["game"]:
        return below[0]["side"]
    return None


def sheet_pre(sheet: dict, lang: str) -> str:
    return "<pre>" + esc(sheet_table(sheet, lambda key, **p: t(lang, key, **p))) + "</pre>"


def sheet_picture(sheet: dict, names: list[str] | None, lang: str) -> dict:
    """The We/They sheet as a picture spec (``bot.games.bridge.picture``)."""
    title = t(lang, "sheets.pic.bridge_chicago" if sheet.get("chicago") else "sheets.pic.bridge")
    return {"game": "bridge", "lang": lang, "title": title, "names": names, "sheet": sheet}


def over_title(sheet: dict, lang: str, stopped: bool = False) -> str:
    """ "The rubber is over", or the Chicago's own words."""
    key = "bridge.result.stopped" if stopped else "bridge.result.title"
    return t(lang, key + ("_chicago" if sheet.get("chicago") else ""))


def final_post(result: dict, sheet: dict, names: list[str] | None, lang: str) -> str:
    if "forfeit" in result and names:
        winner = "EW" if result["forfeit"] % 2 == 0 else "NS"
        lines = [
            over_title(sheet, lang),
            t(lang, "bridge.result.forfeit", name=name_of(names, result["forfeit"]), side=side_name(winner, lang)),
        ]
    elif not result.get("complete"):
        lines = [over_title(sheet, lang, stopped=True)]
    else:
        lines = [over_title(sheet, lang)]
    if not result.get("complete"):
        # what stopping wrote (the forfeit's rubber bonus, the unfinished-rubber premiums)
        last = [
            e
            for e in sheet["entries"]
            if e["kind"] in ("unfinished_game", "unfinished_part")
            or (e["kind"] == "rubber_bonus" and not sheet.get("complete"))
        ]
        lines += written_lines(last, lang)
    tr = lambda key, **p: t(lang, key, **p)  # noqa: E731
    settlement = {"diff": result["diff"], "units": result["units"]}
    lines += [
        esc(line)
        for line in result_lines(
            sheet, settlement, [names[s] for s in range(4)] if names and len(names) == 4 else None, tr
        )
    ]
    return "\n".join(lines)
