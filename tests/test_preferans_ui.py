"""Preferans texts as players read them (QA review): prompts that name only the choices
the buttons offer, the kontra waiting line, the sheet's legend and signs, the score
table's hand count, and a computer player that does not stretch a pulka endlessly."""

from __future__ import annotations

import random

from bot.game_registry import all_uis

all_uis()
from bot.games.preferans.ui import group_text, hand_text, result_lines, sheet_post  # noqa: E402
from bot.games.preferans.score import group_text as score_group_text  # noqa: E402
from engine.base import get_game  # noqa: E402
from engine.games.preferans import ai_easy as ai  # noqa: E402
from engine.games.preferans.sheet import sheet_text  # noqa: E402
from tests.test_preferans_rules import A, B, C, run, start  # noqa: E402

G = get_game("preferans")
NAMES = ["Аня", "Борис", "Вера"]


def dm(state, seat, lang="ru"):
    return hand_text(G.view(state, seat), NAMES, lang, "Преферанс", G.legal_actions(state, seat))


def prompt(state, seat, lang="ru"):
    return next(line for line in dm(state, seat, lang).splitlines() if line.startswith("👉"))


def test_auction_prompt_names_only_the_calls_on_the_buttons():
    s = start()  # dealer C: A first hand, B second
    assert prompt(s, A) == "👉 Ваша заявка: число, «игра» или пас."  # no «моя» yet
    s, _ = run(s, (A, "bid 2"), (B, "bid 3"), (C, "pass"))
    # A may take B's 3 over ("моя") but may not say igra after a number
    assert prompt(s, A) == "👉 Ваша заявка: число, «моя» или пас."
    assert prompt(s, A, "en") == "👉 Your call: a number, hold (moje) or pass."
    s, _ = run(s, (A, "bid 7"))
    assert G.legal_actions(s, B) == ["pass"] and prompt(s, B) == "👉 Ваша заявка: пас."


def test_defence_prompt_offers_invite_only_when_it_is_a_button():
    s = start()
    s, _ = run(s, (A, "bid 2"), (B, "pass"), (C, "pass"), (A, "discard 8C"), (A, "discard 7C"), (A, "contract H"))
    assert G.legal_actions(s, B) == ["play", "pass"]
    assert prompt(s, B) == "👉 Вист или пас?"
    assert prompt(s, B, "en") == "👉 Whist (play) or pass?"
    s, _ = run(s, (B, "pass"))
    assert "invite" in G.legal_actions(s, C)
    assert prompt(s, C) == "👉 Вист, пас или пригласить партнёра?"


def test_naming_prompt_follows_the_buttons():
    s = start()
    s, _ = run(s, (A, "igra"), (B, "igra"), (C, "pass"))
    assert G.legal_actions(s, A)[0] == "name S" and "hold" not in G.legal_actions(s, A)
    assert prompt(s, A) == "👉 Назначьте игру (контракт без прикупа)."
    s, _ = run(s, (A, "name D"))
    assert "hold" not in G.legal_actions(s, B)  # B speaks after A: he cannot hold A's igra
    assert prompt(s, B) == "👉 Назначьте игру выше или уступите."
    s, _ = run(s, (B, "name H"))
    assert "hold" in G.legal_actions(s, A)
    assert prompt(s, A) == "👉 Назначьте игру выше, держите или уступите."


def test_kontra_waiting_line_reads_as_a_sentence():
    s = start()
    s, _ = run(
        s,
        (A, "bid 2"),
        (B, "pass"),
        (C, "pass"),
        (A, "discard 8C"),
        (A, "discard 7C"),
        (A, "contract H"),
        (B, "play"),
        (C, "pass"),
    )
    text = group_text(G.view(s, None), NAMES, "ru", "Преферанс")
    assert "▶️ решает Борис: контра или без контры" in text and "контра? —" not in text
    assert "▶️ Борис decides: kontra or not" in group_text(G.view(s, None), NAMES, "en", "P")


def test_zero_result_has_no_plus_sign_and_the_sheet_has_a_legend():
    # Slovenian "two" without kontra: nobody writes anything, so the settlement is 0 each
    s = start(slovenian_two_refe=True)
    s, _ = run(
        s,
        (A, "bid 2"),
        (B, "pass"),
        (C, "pass"),
        (A, "discard 8C"),
        (A, "discard 7C"),
        (A, "contract S"),
        (B, "pass"),
        (C, "pass"),
    )
    assert [str(x) for x in s.pull.summary["settlement"]] == ["0", "0", "0"]
    post = sheet_post(G.view(s, None), NAMES, "ru", s.last_row, 1)
    assert "+0" not in post
    table = post.split("<pre>")[1].split("</pre>")[0].split("\n\n")[0]
    assert table.splitlines()[-1].split() == ["Расчёт", "0", "0", "0"]
    assert "+0" not in "\n".join(result_lines({"settlement": [0, 5, -5]}, NAMES, "ru"))
    # the legend under the table names the columns' players and explains the rows and marks
    legend = " ".join(post.split("<pre>")[1].split("</pre>")[0].split("\n\n")[1].split("\n"))
    assert legend.startswith("1 — " + NAMES[0] + " 2 — ") and "Юха на N: что игрок столбца написал игроку N" in legend
    assert legend.endswith("Шляпа: ∧ надета, ∨ снята. Расчёт округлён до целых.") and post.endswith("</pre>")
    text = " ".join(sheet_text(s.pull.summary, [], NAMES, "en", 30, 1).split("\n"))  # wrapped at 40
    assert "Soup on N: what the column's player wrote" in text and "Refe: ─ unused, ╱ used" in text


def test_score_table_counts_hands_without_broken_plurals():
    game = get_game("preferans_score")
    s = game.initial_state(game.Options(), 3)
    s, _ = game.apply(s, None, "start")
    for step in [
        "declarer C",
        "contract D",
        "igra no",
        "d1 play",
        "d2 play",
        "kontra none",
        "tricks 6",
        "tricks 2",
        "confirm",
    ]:
        s, _ = game.apply(s, 0, step)
    ru = score_group_text(game.view(s, None), NAMES, "ru", "Запись")
    en = score_group_text(game.view(s, None), NAMES, "en", "Sheet")
    assert "Колонки контрактов (записано раздач: 1): Аня −30 · Борис −30 · Вера −24" in ru
    assert "после 1 раздач" not in ru
    assert "Contract columns (hands written: 1):" in en and "after 1 hands" not in en


def computer_pulka(seed: int) -> tuple[int, list[tuple[float, str]]]:
    """A whole pulka (bula 30) of three computers: its length and every defence decision
    (the defender's own estimate, his decision)."""
    rng = random.Random(seed)
    s = G.initial_state(G.Options(), 3)
    s, _ = G.apply(s, None, G.new_deal(G.Options(), 3, rng, []))
    decisions = []
    while not G.is_over(s):
        assert s.hand_no < 400, "the pulka does not end"
        system = G.system_action(s, rng)
        if system:
            s, _ = G.apply(s, None, system)
            continue
        seat = G.to_act(s)[0]
        view, legal = G.view(s, seat), G.legal_actions(s, seat)
        action = G.computer_action(view, legal, rng, level="easy")
        if s.phase == "defence":
            decisions.append((ai.defence_estimate(view["hand"], view["trump"]), action))
        s, _ = G.apply(s, seat, action)
    return s.hand_no, decisions


def test_computers_whist_only_with_a_safe_two_tricks_so_a_pulka_ends():
    # Whisting on an estimate of 2 (short of the quota half the time) or on a whim
    # would write defender penalties in about every other made contract, which cancel
    # the declarer's gain: a pulka of 30 would take ~90 hands (up to 270), not ~30.
    lengths, decisions = [], []
    for seed in range(8):
        n, d = computer_pulka(seed)
        lengths.append(n)
        decisions += d
    assert sum(lengths) / len(lengths) < 45, lengths
    assert all(a == "pass" for e, a in decisions if e < ai.WHIST_MIN)
    assert any(a != "pass" for e, a in decisions)


def test_kontra_prompt_says_what_a_kontra_changes():
    def after(contract, b, c, *more, **options):
        s = start(**options)
        s, _ = run(
            s,
            (A, "bid 2"),
            (B, "pass"),
            (C, "pass"),
            (A, "discard 8C"),
            (A, "discard 7C"),
            (A, f"contract {contract}"),
            (B, b),
            (C, c),
            *more,
        )
        return s

    # an unkontra'd "two" is not played (§5.6); a lone kontra brings the partner in (§5.5)
    text = dm(after("S", "play", "pass"), B)
    assert "Без контры «два» не играется: Аня запишет его без игры." in text
    assert "Скажете контру — Вера вступит в игру вместе с вами" in text
    assert "nobody writes anything" in dm(after("S", "play", "play", slovenian_two_refe=True), B, "en")
    # once B said kontra the two is played anyway; hearts need no kontra; both play: no partner note
    assert "не играется" not in dm(after("S", "play", "play", (B, "kontra")), C)
    plain = dm(after("H", "play", "play"), B)
    assert "не играется" not in plain and "вступит" not in plain
    assert "не играется" not in dm(after("S", "play", "play", two_requires_kontra=False), B)
