"""The line under a ``/rules`` summary that points to the full rules in the repository
(``docs/rules/<game>.md``). The repository's web address is configured in one place, the
``CARDBOT_RULES_URL`` setting (``bot/config.py``): the folder that holds the rules files,
e.g. ``https://github.com/<owner>/<repo>/blob/main/docs/rules``. Without it the line names
the file in the repository instead of linking to it, so a bot never shows a dead link."""

from __future__ import annotations

from html import escape

from bot.i18n import t

RULES_DIR = "docs/rules"


def full_rules_line(game: str, lang: str, base_url: str | None) -> str:
    """HTML: a link to the full rules of ``game``, or their path when no address is set."""
    name = f"{game}.md"
    path = f"{RULES_DIR}/{name}"
    if not base_url:
        return t(lang, "rules.full_path", path=escape(path))
    url = f"{base_url.rstrip('/')}/{name}"
    return t(lang, "rules.full_link", url=escape(url, quote=True), path=escape(path))
