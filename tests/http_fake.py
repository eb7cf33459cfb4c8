"""The emulator served over HTTP now ships in the package (bot/emulator/http_api.py), where
``cardbot demo`` uses it too. This module keeps the old import path and names."""

from bot.emulator.http_api import STRING_PARAMS, HttpBotApi, _decode, _QueueingApp  # noqa: F401 (re-exported)
