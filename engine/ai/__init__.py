"""The AI players: four graded levels behind one call, ``choose_action``.

``easy`` plays the lowest legal card; ``normal`` plays and bids by rules of thumb;
``hard`` samples the unseen cards consistently with everything seen and looks ahead
(rollouts, then an exact double-dummy solve near the end); ``expert`` solves every sample
double dummy from the first trick on (the compiled solver, ``_dds.c``) and bids by playing
contracts out on sampled deals.  See docs/ai.md.
"""

from engine.ai.player import LEVELS, UnknownLevel, choose_action

__all__ = ["LEVELS", "UnknownLevel", "choose_action"]
