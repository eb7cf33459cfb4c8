"""Links to a table's group message, for a player's DM (the "your turn" ping, /mytables).

Telegram links to a message of a private supergroup as ``t.me/c/<id>/<message>`` where
``<id>`` is the chat id without its ``-100`` prefix (``t.me/c/<id>/<topic>/<message>`` in
a forum topic); only members of the group can open it. A basic group (ids without
``-100``) has no message links at all.
"""

from __future__ import annotations

from storage.models import TableRow

SUPERGROUP_PREFIX = "-100"


def group_message_link(table: TableRow) -> str | None:
    """The t.me link to the table's group message, or None where there can be none."""
    chat = str(table.chat_id)
    if not table.group_message_id or not chat.startswith(SUPERGROUP_PREFIX) or len(chat) <= len(SUPERGROUP_PREFIX):
        return None
    place = chat[len(SUPERGROUP_PREFIX) :]
    if table.thread_id:
        place += f"/{table.thread_id}"
    return f"https://t.me/c/{place}/{table.group_message_id}"
