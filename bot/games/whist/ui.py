"""Whist in Telegram: the group table message (trump, the trick on the table, tricks per
side, the score), the DM hand with buttons for the legal cards (and the trump choice),
the sheet after every deal and the rubber totals at the end. Input is always an engine
view (``engine.games.whist``); the sheet itself is ``engine.games.whist.sheet`` (as ``cardbot score``)."""

from __future__ import annotations

import sys

from bot.game_registry import register_ui
from bot.games.whist import deal_record
from bot.game_ui import GameUI, Rows, partnership_result_line
from bot.i18n import t
from bot.render.common import cards_text, chunk, esc, pre_table, suit_text
from engine.cards import label
from engine.games.whist.options import WhistOptions
from engine.games.whist.scoring import SIDES, Sheet
from engine.games.whist.sheet import sheet_text

SEATS = ("N", "E", "S", "W")
PRESETS = ("seed", "classical_long", "classical_short")
RUBBER_CHOICES = (10, 1, 2, 3, 5, None)


def next_rubbers(now: int | None) -> int | None:
    """The next choice of the "rubbers" option button (round the list)."""
    i = RUBBER_CHOICES.index(now) if now in RUBBER_CHOICES else -1
    return RUBBER_CHOICES[(i + 1) % len(RUBBER_CHOICES)]


# ---------------------------------------------------------------- small pieces
def side_name(side: str, lang: str) -> str:
    return t(lang, f"whist.side.{side}")


def seat_name(seat: int, names: list[str]) -> str:
    return f"{SEATS[seat]} {esc(names[seat])}"


def sheet_of(view: dict) -> Sheet:
    return Sheet.replay(WhistOptions.model_validate(view["options"]), view["entries"])


def sheet_block(view: dict, lang: str) -> str:
    return "<pre>" + esc(sheet_text(sheet_of(view), lang)) + "</pre>"


def rubbers_label(n, lang: str) -> str:
    return t(lang, "whist.opt.rubbers", n=n) if n else t(lang, "whist.opt.rubbers_none")


def variant_text(options: dict, lang: str) -> str:
    """Short: the preset, what differs from it among the lobby options, the match length."""
    full = WhistOptions.model_validate(options)
    preset = WhistOptions(preset=full.preset)
    parts = [t(lang, f"whist.preset.{full.preset}")]
    if full.trump_method != preset.trump_method:
        parts.append(t(lang, f"whist.opt.{full.trump_method}"))
    if full.must_trump != preset.must_trump:
        parts.append(t(lang, "whist.opt.must_trump" if full.must_trump else "whist.opt.free_discard"))
    parts.append(rubbers_label(full.match_rubbers_to_win, lang))
    return ", ".join(parts)


def score_lines(score: dict, lang: str) -> list[str]:
    cur, games = score["current"], score["games"]
    lines = [
        t(
            lang,
            "whist.score_line",
            ns=cur["NS"],
            ew=cur["EW"],
            target=score["target"],
            gns=games["NS"],
            gew=games["EW"],
        )
    ]
    target = score["match_rubbers_to_win"]
    lines.append(
        t(
            lang,
            "whist.match_line",
            ns=score["rubbers"]["NS"],
            ew=score["rubbers"]["EW"],
            cns=score["credited"]["NS"],
            cew=score["credited"]["EW"],
            to=(t(lang, "whist.match_to", n=target) if target else ""),
        )
    )
    return lines


def trick_line(plays: list, names: list[str]) -> str:
    return " · ".join(f"{SEATS[s]} {label(c)}" for s, c in plays)


def trump_line(view: dict, names: list[str], lang: str) -> str:
    if view["trump"] is None:
        if view["phase"] == "trump" and view.get("chooser") is not None:
            return t(lang, "whist.trump_choosing", who=seat_name(view["chooser"], names))
        return t(lang, "whist.trump_none")
    if view.get("turn_up"):
        return t(
            lang,
            "whist.trump_turned",
            suit=suit_text(view["trump"]),
            card=label(view["turn_up"]),
            who=seat_name(view["dealer"], names),
        )
    return t(lang, "whist.trump_line", suit=suit_text(view["trump"]))


def deal_line(view: dict, names: list[str], lang: str) -> str:
    score = view["score"]
    dealer = seat_name(view["dealer"], names) if view["dealer"] is not None else "—"
    return t(
        lang, "whist.deal_line", rubber=score["rubber_no"], game=score["game_no"], deal=view["deal_no"], dealer=dealer
    )


def tricks_line(view: dict, lang: str) -> str:
    text = t(lang, "whist.tricks_line", ns=view["tricks"]["NS"], ew=view["tricks"]["EW"])
    if view.get("honours_won") and (view["honours_won"]["NS"] or view["honours_won"]["EW"]):
        text += t(lang, "whist.honours_won", ns=view["honours_won"]["NS"], ew=view["honours_won"]["EW"])
    return text


def result_text(result: dict | None, names: list[str] | None, lang: str) -> str:
    """The end of the match; ``names`` None for a score-only sheet (sides, no players)."""
    if not result:
        return ""
    lines = []
    if names is None:
        if result.get("forfeit") is not None:
            lines.append(t(lang, "whist.result.closed"))
    elif result.get("forfeit") is not None:
        seat = result["forfeit"]
        lines.append(t(lang, "whist.result.forfeit", who=seat_name(seat, names), side=side_name(SIDES[seat % 2], lang)))
    elif result.get("stopped_by") is not None:
        lines.append(t(lang, "whist.result.stopped", who=seat_name(result["stopped_by"], names)))
    winner = result.get("winner")
    if winner and names is None:
        lines.append(t(lang, "whist.result.winner_side", side=side_name(winner, lang)))
    elif winner and names is not None:  # (names is None was the branch above)
        pair = " &amp; ".join(esc(names[s]) for s in range(len(names)) if SIDES[s % 2] == winner)
        lines.append(t(lang, "whist.result.winner", side=side_name(winner, lang), pair=pair))
    else:
        lines.append(t(lang, "whist.result.draw"))
    if result.get("unfinished_rubber"):
        lines.append(t(lang, "whist.result.unfinished"))
    return "\n".join(lines)


def totals_table(view: dict, names: list[str] | None, lang: str) -> str:
    """The rubber totals at the end of the match, and what each player wins."""
    sheet = sheet_of(view)
    we, they = side_name("NS", lang), side_name("EW", lang)
    rows = [[t(lang, "whist.sheet.rubber"), t(lang, "whist.sheet.games"), we, they]]
    for r in sheet.rubbers:
        rows.append(
            [str(r["n"]), f"{r['games']['NS']}:{r['games']['EW']}", str(r["total"]["NS"]), str(r["total"]["EW"])]
        )
    credited = sheet.credited
    rows.append([t(lang, "whist.sheet.credited"), "", str(credited["NS"]), str(credited["EW"])])
    balance = sheet.balance
    rows.append([t(lang, "whist.sheet.balance"), "", f"{balance['NS']:+d}", f"{balance['EW']:+d}"])
    table = pre_table(rows, align_right={2, 3})
    if names is None:
        return table
    amounts = sheet.players()
    player_rows = [[SEATS[s], names[s], f"{amounts[s]:+d}"] for s in range(len(names))]
    return table + "\n" + pre_table(player_rows, align_right={2})


# ---------------------------------------------------------------- group and DM
def deal_and_score_lines(view: dict, names: list[str], lang: str) -> list[str]:
    """The score; while a deal is on, its deal and trump lines before it and the tricks after."""
    if view["phase"] not in ("trump", "play"):
        return score_lines(view["score"], lang)
    lines = [deal_line(view, names, lang), trump_line(view, names, lang)]
    return lines + score_lines(view["score"], lang) + [tricks_line(view, lang)]


def group_text(view: dict, names: list[str], lang: str, header: str) -> str:
    lines = [f"<b>{esc(header)}</b>"]
    lines += deal_and_score_lines(view, names, lang)
    for seat, name in enumerate(names):
        turn = "▶️ " if seat in view["to_act"] else "▫️ "
        extra = t(lang, "whist.dealer_mark") if seat == view["dealer"] and view["phase"] in ("trump", "play") else ""
        lines.append(f"{turn}{SEATS[seat]} {esc(name)}{extra}")
    if view["trick"]:
        lines.append(t(lang, "whist.on_table", cards=trick_line(view["trick"], names)))
    if view.get("last_trick"):
        lt = view["last_trick"]
        lines.append(t(lang, "whist.last_trick", cards=trick_line(lt["plays"], names), winner=SEATS[lt["winner"]]))
    if view["phase"] == "over":
        lines.append("")
        lines.append(result_text(view["result"], names, lang))
    elif view["phase"] == "vote":
        lines.append(t(lang, "whist.vote_wait", who=", ".join(seat_name(s, names) for s in view["to_act"])))
    elif view["to_act"]:
        who = ", ".join(seat_name(s, names) for s in view["to_act"])
        lines.append(t(lang, f"whist.waiting.{view['phase']}", who=who))
    return "\n".join(lines)


def hand_text(view: dict, names: list[str], lang: str, header: str, legal: list[str]) -> str:
    seat = view["seat"]
    lines = [
        f"<b>{esc(header)}</b>",
        t(
            lang,
            "whist.you",
            seat=SEATS[seat],
            side=side_name(SIDES[seat % 2], lang),
            partner=seat_name((seat + 2) % 4, names),
        ),
    ]
    lines += deal_and_score_lines(view, names, lang)
    if view["trick"]:
        lines.append(t(lang, "whist.on_table", cards=trick_line(view["trick"], names)))
    elif view.get("last_trick"):
        lt = view["last_trick"]
        lines.append(t(lang, "whist.last_trick", cards=trick_line(lt["plays"], names), winner=SEATS[lt["winner"]]))
    lines.append(t(lang, "whist.your_cards", cards=cards_text(view.get("hand", []))))
    if view["phase"] == "over":
        lines.append(result_text(view["result"], names, lang))
    elif legal:
        verb = legal[0].split()[0]
        key = {"trump": "trump", "delegate": "trump", "play": "play", "next": "vote", "stop": "vote"}[verb]
        if key == "trump" and "delegate" not in legal:
            key = "trump_partner"  # the dealer passed the choice on; it cannot go back
        lines.append("👉 " + t(lang, f"whist.prompt.{key}"))
    elif view["to_act"]:
        who = ", ".join(seat_name(s, names) for s in view["to_act"])
        key = "vote_wait" if view["phase"] == "vote" else f"waiting.{view['phase']}"
        lines.append(t(lang, f"whist.{key}", who=who))
    return "\n".join(lines)


def action_rows(legal: list[str], view: dict, lang: str, mode: str, names: list[str]) -> tuple[Rows, list]:
    """Cards one row per suit (at most 7 a row); the trump choice; the after-rubber vote."""
    rows: Rows = []
    cards: dict[str, list[tuple[str, int]]] = {}
    verbs: list[tuple[str, int]] = []
    for i, action in enumerate(legal):
        verb, *args = action.split()
        if verb == "play":
            cards.setdefault(args[0][1], []).append((label(args[0]), i))
        elif verb == "trump":
            verbs.append((suit_text(args[0]), i))
        else:
            verbs.append((t(lang, f"whist.btn.{verb}"), i))
    for suit_cards in cards.values():
        rows += chunk(suit_cards, 7)
    if verbs:
        trump_buttons = [v for v in verbs if v[0] in ("♠", "♥", "♦", "♣")]
        other = [v for v in verbs if v not in trump_buttons]
        if trump_buttons:
            rows.append(trump_buttons)
        if other:
            rows.append(other)
    return rows, []


# ---------------------------------------------------------------- posts
def honours_notes(event: dict, lang: str) -> list[str]:
    """Honours that were taken but not written, and why (else the sheet looks wrong)."""
    lines = []
    if event.get("dropped"):
        d = event["dropped"]
        lines.append(t(lang, "whist.honours_dropped", side=side_name(d["side"], lang), points=d["points"]))
    if event.get("barred"):
        b = event["barred"]
        lines.append(t(lang, "whist.honours_barred", side=side_name(b["side"], lang), n=b["from"]))
    return lines


def deal_summary(event: dict, names: list[str], lang: str) -> str:
    entry = event["entry"]
    text = t(
        lang,
        "whist.deal_done",
        n=event["deal"],
        suit=suit_text(event.get("trump")),
        ns=entry["tricks"]["NS"],
        ew=entry["tricks"]["EW"],
        hns=entry["honours"]["NS"],
        hew=entry["honours"]["EW"],
    )
    for note in honours_notes(event, lang):
        text += "\n" + note
    game = event.get("game_won")
    if game:
        text += "\n" + t(lang, "whist.game_won", side=side_name(game["winner"], lang), value=game["value"])
    rubber = event.get("rubber_won")
    if rubber:
        text += "\n" + t(
            lang,
            "whist.rubber_won",
            side=side_name(rubber["winner"], lang),
            a=rubber["games"][rubber["winner"]],
            b=rubber["games"]["EW" if rubber["winner"] == "NS" else "NS"],
            premium=rubber["premium"],
        )
    return text


def final_post(result: dict, view: dict, names: list[str] | None, lang: str) -> str:
    return "\n".join([t(lang, "whist.match_over"), result_text(result, names, lang), totals_table(view, names, lang)])


def option_rows(options: dict, lang: str) -> Rows:
    full = WhistOptions.model_validate(options)
    return [
        [(t(lang, f"whist.preset.{full.preset}"), "preset")],
        [
            (t(lang, f"whist.opt.{full.trump_method}"), "trump_method"),
            (("✓ " if full.must_trump else "✗ ") + t(lang, "whist.opt.must_trump"), "must_trump"),
        ],
        [(rubbers_label(full.match_rubbers_to_win, lang), "rubbers")],
    ]


def next_option(options: dict, key: str) -> dict:
    full = WhistOptions.model_validate(options)
    if key == "preset":
        preset = PRESETS[(PRESETS.index(full.preset) + 1) % len(PRESETS)]
        new = {
            "preset": preset,
            "trump_method": full.trump_method,
            "match_rubbers_to_win": full.match_rubbers_to_win,
            "first_dealer": full.first_dealer,
        }
    elif key == "trump_method":
        new = {**full.dump(), "trump_method": "dealer_names" if full.trump_method == "turn_up" else "turn_up"}
    elif key == "must_trump":
        new = {**full.dump(), "must_trump": not full.must_trump}
    elif key == "rubbers":
        new = {**full.dump(), "match_rubbers_to_win": next_rubbers(full.match_rubbers_to_win)}
    else:
        raise KeyError(key)
    return WhistOptions.model_validate(new).dump()


def posts(events: list[dict], view: dict, names: list[str], lang: str, history: list[dict]) -> list[str]:
    out = []
    for event in events:
        if event["type"] == "deal_scored":
            out.append(deal_summary(event, names, lang) + "\n" + sheet_block(view, lang))
        elif event["type"] == "game_over":
            out.append(final_post(event["result"], view, names, lang))
    return out


result_line = partnership_result_line
deal_record_text = deal_record.deal_record_text
tricks_so_far = deal_record.tricks_so_far


class WhistUI(GameUI, module=sys.modules[__name__]):
    name = command = "whist"
    order = 6
    bench_players = 4
    seat_names = SEATS


register_ui(WhistUI())
