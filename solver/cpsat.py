"""OR-Tools' CP-SAT imported without pandas, once per process.

`ortools.sat.python.cp_model` imports pandas for its pandas helpers alone (`new_int_var_series` and
the like, which `solver.sat` never calls; at import time it only reads `pandas.Index` and
`pandas.Series`, for its annotations). On this machine pandas took 0.55 s of the module's 0.95 s
import, paid by every process whose first deal reaches the constraint model: `hanabi solve` on one
deal, each worker of `hanabi survey`, each `hanabi analyze`. A stand-in with those two names is in
`sys.modules` only while the module imports: a later `import pandas`, anywhere, gets the real one
(and `cp_model`'s pandas helpers stay unusable in this process). Where pandas is already imported,
the module imports as usual.
"""

from __future__ import annotations

import sys
import threading
from types import ModuleType

MODULE = "ortools.sat.python.cp_model"
_lock = threading.Lock()


def load() -> None:
    """Import `cp_model` (if not yet imported), without pandas unless it is imported already."""
    if MODULE in sys.modules:
        return
    with _lock:
        if MODULE in sys.modules or "pandas" in sys.modules:
            __import__(MODULE)
            return
        stand_in = ModuleType("pandas", "a stand-in while OR-Tools' cp_model imports (see solver.cpsat)")
        stand_in.Index = type("Index", (), {})  # type: ignore[attr-defined]
        stand_in.Series = type("Series", (), {})  # type: ignore[attr-defined]
        sys.modules["pandas"] = stand_in
        try:
            __import__(MODULE)
        finally:
            if sys.modules.get("pandas") is stand_in:
                del sys.modules["pandas"]
