"""Writers of different keys of one table's settings at once never lose each other's
write (issue 43, item 7). The bot has two kinds: the sender remembering which post
carries the Rematch buttons (``bot.delivery``, outside any move) and a move storing the
deal the 🔍 button offers (``bot.consequences``, in its versioned commit). Each round
starts both at once, on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio

from bot.delivery import Delivery
from storage.factory import repository_for
from storage.models import ActionRow

ROUNDS = 100
GROUP = -1001


async def test_the_sender_and_a_move_writing_other_settings_keys_lose_nothing(database):
    repo = repository_for(database)
    await repo.open()
    try:
        table = await repo.create_table(GROUP, 0, "durak", {}, 1, "en", {"timer": 0, "title": "t"})
        delivery = Delivery(None, repo, None, None, None, None)
        lost = []
        for i in range(ROUNDS):
            senders_copy = await repo.get_table(table.id)  # the sender's table, read before the move
            moved = await repo.get_table(table.id)
            assert senders_copy is not None and moved is not None
            post = [1, 1000 + i, None]
            deal = [1, moved.version + 1]
            move = ActionRow(table.id, moved.version + 1, 1, 0, f"move {i}")
            await asyncio.gather(
                delivery._set_setting(senders_copy, "rematch_post", post),
                repo.commit_actions(
                    table.id, moved.version, [move], table_fields={"settings_changes": {"last_deal": deal}}
                ),
            )
            stored = await repo.get_table(table.id)
            assert stored is not None
            if stored.settings.get("rematch_post") != post or stored.settings.get("last_deal") != deal:
                lost.append(i)
            assert stored.settings["timer"] == 0 and stored.settings["title"] == "t"
            assert senders_copy.settings["rematch_post"] == post  # the sender's copy follows
        assert lost == [], f"a write lost in {len(lost)} of {ROUNDS} rounds"

        # and the sender's removal of its key leaves the others alone
        stale = await repo.get_table(table.id)
        assert stale is not None
        await delivery._set_setting(stale, "rematch_post", None)
        stored = await repo.get_table(table.id)
        assert stored is not None and "rematch_post" not in stored.settings and stored.settings["last_deal"]
    finally:
        await repo.close()
