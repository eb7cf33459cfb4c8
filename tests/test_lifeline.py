"""Nothing of the bot outlives it: ``cardbot run`` gets SIGKILL while its computers think
in their process pool (bot/thinking.py), and every process it started -- the forkserver,
the pool's workers, multiprocessing's resource tracker -- must end on its own within
seconds (bot/lifeline.py). Before, each kill left them running (~135 MB a worker)."""

from __future__ import annotations

import uuid

from tests.chaos_harness import Chaos
from tests.lifeline_harness import MARK_VAR, computers_think, kill_marked, until_none_left

# seconds: a bounded wait, not a timing goal (the processes end in milliseconds on a
# free machine; this only stops the test from waiting forever if they do not)
SURVIVORS_WAIT_S = 30.0


async def test_no_process_of_the_bot_survives_its_sigkill(tmp_path):
    mark = uuid.uuid4().hex
    env = {MARK_VAR: mark, "CARDBOT_COMPUTER_WORKERS": "2"}
    try:
        async with Chaos(str(tmp_path / "bot.sqlite3"), tmp_path, seed=1, env=env) as chaos:
            before = await computers_think(chaos, mark)
            chaos.bot.kill()
            left = await until_none_left(mark, SURVIVORS_WAIT_S)
    finally:
        kill_marked(mark)  # a failure must not leave them behind either
    started = "\n".join(f"  {p}" for p in before)
    assert len(before) >= 4, f"the bot, its forkserver, a worker and the tracker were expected:\n{started}"
    assert not left, "still running after the bot's SIGKILL:\n" + "\n".join(f"  {p}" for p in left)
