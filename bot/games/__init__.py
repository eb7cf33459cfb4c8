"""The games' Telegram presentation, one package per game and nothing else: each registers
its ``GameUI`` (the game's manifest, ``bot.game_ui``) with ``bot.game_registry``, which finds
them by walking this package. The shared modules reach a game only through that registry."""
