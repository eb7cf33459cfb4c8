"""Frozen copies of the computer players as they were before the strong players:
the baseline that ``bench/ai_strength.py`` measures against. Never edit
these files: a change here moves the goalposts."""
