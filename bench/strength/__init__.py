"""Playing-strength matches, one module per game; ``bench/ai_strength.py`` runs them.

Each module has ``run(quick: bool, seed: int) -> list[Figure]``: it plays its matches
with fixed seeds and returns each measured figure with its 95 % interval and its goal.
"""
