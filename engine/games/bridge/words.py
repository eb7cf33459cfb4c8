"""The words of the rubber-bridge score sheet (``sheet.py``), in every language the bot
speaks. They live in the engine because ``cardbot score --text`` prints the sheet without
the bot; the bot's catalogs (``bot/i18n.py``) merge them, so a posted sheet and a printed
one use the same words. Keys and placeholders must match in both languages
(tests/test_i18n.py)."""

from __future__ import annotations

from typing import Any

from .sheet import Tr

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "bridge.we": "We",
        "bridge.they": "They",
        "bridge.sheet.rubber_no": "Rubber {n}",
        "bridge.sheet.games": "Games",
        "bridge.sheet.vul": "Vulnerable",
        "bridge.sheet.this_game": "This game",
        "bridge.sheet.above": "Above",
        "bridge.sheet.below": "Below",
        "bridge.sheet.total": "Total",
        "bridge.sheet.yes": "yes",
        "bridge.sheet.no": "no",
        "bridge.sheet.incomplete": "The rubber is not finished; settled as it stands:",
        "bridge.result.rubber": "{side} win the rubber {score}.",
        "bridge.result.chicago": "{side} win the Chicago.",
        "bridge.sheet.chicago_deal": "Chicago, deal {n} of 4",
        "bridge.sheet.chicago_no": "Chicago {n}",
        "bridge.sheet.chicago_incomplete": "The four deals are not all played; settled as it stands:",
        "bridge.result.totals": "Totals: We {we} — They {they}",
        "bridge.result.diff": "{side} are ahead by {diff} points; in units of 100: {units}.",
        "bridge.result.even": "Equal totals: nobody pays.",
        "bridge.result.players": "Settlement: {players}",
        "bridge.result.sides": "Settlement per player: We {we}, They {they}",
    },
    "ru": {
        "bridge.we": "Мы",
        "bridge.they": "Они",
        "bridge.sheet.rubber_no": "Роббер {n}",
        "bridge.sheet.games": "Партии",
        "bridge.sheet.vul": "После партии",
        "bridge.sheet.this_game": "Эта партия",
        "bridge.sheet.above": "Над чертой",
        "bridge.sheet.below": "Под чертой",
        "bridge.sheet.total": "Итого",
        "bridge.sheet.yes": "да",
        "bridge.sheet.no": "нет",
        "bridge.sheet.incomplete": "Роббер не закончен; расчёт по текущей записи:",
        "bridge.result.rubber": "«{side}» выиграли роббер {score}.",
        "bridge.result.chicago": "«{side}» выиграли «чикаго».",
        "bridge.sheet.chicago_deal": "Чикаго, сдача {n} из 4",
        "bridge.sheet.chicago_no": "Чикаго {n}",
        "bridge.sheet.chicago_incomplete": "Сыграны не все четыре сдачи; расчёт по текущей записи:",
        "bridge.result.totals": "Итого: Мы {we} — Они {they}",
        "bridge.result.diff": "«{side}» впереди на {diff} очков; в вистах (по 100 очков): {units}.",
        "bridge.result.even": "Итоги равны: никто не платит.",
        "bridge.result.players": "Расчёт: {players}",
        "bridge.result.sides": "Расчёт на каждого: Мы {we}, Они {they}",
    },
}


def translator(lang: str) -> Tr:
    """``tr(key, **params)`` in ``lang`` (English for a language without words); like the
    bot's ``t``, an unknown key shows itself."""
    words = WORDS.get(lang, WORDS["en"])

    def tr(key: str, **params: Any) -> str:
        text = words.get(key, WORDS["en"].get(key, key))
        return text.format(**params) if params else text

    return tr
