"""A process the bot starts ends with the bot, however the bot ends (SIGKILL included).

The computers think in a process pool started through multiprocessing's forkserver
(bot/thinking.py): the bot starts the forkserver and the resource tracker, the forkserver
forks the pool's workers. The two helpers end by themselves once every process holding
their pipe has ended: the bot and the workers. A worker does not: it waits for work on a
queue whose writing end it holds itself, so after a SIGKILL of the bot it waited forever
(~135 MB each), and kept the forkserver and the tracker alive with it.

So each worker watches the bot (``end_with_parent``, called first by the pool's
initializer): a thread waits on the bot's end of the pipe the worker was started through
(``multiprocessing.parent_process().sentinel``), which the kernel closes the moment the
bot dies however it dies, and exits the worker then. The bot, not the worker's own parent
(the forkserver): ``PR_SET_PDEATHSIG`` would watch the forkserver, which outlives the bot
as long as a worker does. The thread blocks in ``poll`` (no CPU) and needs the GIL only
for an instant, which a search running in the worker's main thread gives up every few
milliseconds.

tests/test_lifeline.py kills the real ``cardbot run`` while a worker exists and waits for
every process of it to end; ``python -m bench.orphans`` counts what N kills leave behind.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from multiprocessing.connection import wait

ORPHANED = 70  # the worker's exit status once the bot is gone (EX_SOFTWARE)


def end_with_parent() -> bool:
    """In a multiprocessing child: exit as soon as the process that started it ends.
    False (nothing to watch) in a process multiprocessing did not start."""
    parent = multiprocessing.parent_process()
    if parent is None or parent.sentinel is None:
        return False
    threading.Thread(target=_exit_when_ready, args=(parent.sentinel,), name="lifeline", daemon=True).start()
    return True


def _exit_when_ready(sentinel: int) -> None:
    """``sentinel`` becomes readable at end of file: when the bot's end of the pipe closes."""
    wait([sentinel])
    os._exit(ORPHANED)  # nobody is left to take a result: no clean-up to wait for
