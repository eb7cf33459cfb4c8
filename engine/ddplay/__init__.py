"""Double-dummy card play shared by bridge and whist (their strong players).

- ``solver``: one DDS call (``endplay``'s bundled library) that scores every card of the
  hand on play in a position where all four hands are known;
- ``sampler``: deals the cards a seat cannot see to the hidden hands, consistently with
  what it has seen (hand sizes, suits a player showed out of, soft hand ranges; seat by
  seat against a per-seat misfit in ``sample_fitting``);
- ``chooser``: plays many sampled deals double dummy and picks the card with the best
  total, with the budget of samples fixed by the position and optionally raised within a
  budget of DDS search nodes (not a clock).
"""
