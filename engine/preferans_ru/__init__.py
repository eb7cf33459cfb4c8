"""Russian preferans (Сочи, Ленинград, Ростов): rules in docs/rules/preferans_ru.md."""
