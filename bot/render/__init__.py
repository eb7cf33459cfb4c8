"""Turn engine views into texts and inline keyboards. Renderers see views only, never
engine state, so a hidden card can reach a chat only through a bug in ``view``."""
