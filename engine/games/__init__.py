"""The games, one package each (``engine.games.<name>``), found by name through the registry
(``engine.base``). Nothing but games lives here: what games share sits beside this package
(``engine.base``, ``engine.tricks``, ``engine.ddplay``, ``engine.preferans_family``…)."""
