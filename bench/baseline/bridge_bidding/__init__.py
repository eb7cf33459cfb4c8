"""Frozen copy of the strong computer's bidding as of commit 426e2e3 (2026-12-03), the
opponent of the duplicate auction match (bench/strength/bridge_auction.py): later changes
to ``engine/games/bridge/bidding/`` and ``engine/games/bridge/inference.py`` are measured against it.

Copied file by file: ``bidder.py`` is ``engine/games/bridge/bidding/__init__.py`` (``choose_call``),
``inference.py`` is ``engine/games/bridge/inference.py``; hand, placement, slam and system keep
their names. Only the imports were changed, to point inside this package. Never edit these
files: a change here moves the goalposts.
"""

from .bidder import choose_call

__all__ = ["choose_call"]
