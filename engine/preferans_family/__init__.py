"""The preferans family: what Balkan preferans (``engine.games.preferans``) and Russian preferans
(``engine.games.preferans_ru``) play the same way, by docs/rules/preferans.md and
docs/rules/preferans_ru.md.

- ``deal``: the 32-card deck, the ``deal`` action, ten cards to each of three players and a
  talon of two, the order of a hand on the screen;
- ``play``: trick play with must-trump (follow suit, else trump, else anything);
- ``dd``: the card-only double-dummy solver both computer players search with;
- ``errors``: the rejections both games word the same way;
- ``facade``: the ``engine.base.Game`` parts of the played game and of the score-only sheet.

Each game keeps what is its own: the auction and the contracts (numbers 2-7 and igra, kontra
in the Balkan game; 6♠-10NT, мизер, вист and распасы in the Russian one) and the scoring.
The family registers no game and imports neither variant (pyproject.toml's contracts).
"""
