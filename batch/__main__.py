"""`python -m batch`: the command's composition root.

This is the one module of `audit/` that imports `records/`, and tests/test_layers.py names it
as the exemption: `--from-db` reads the service's SQLite store, which the engine's layer may
not touch, while the command belongs with the engine (`python -m audit` audits one hand,
`python -m batch` a history). Like `app.py` for the service, this file only wires the
store's reader (`batch.store_source.plan_store`) into the library's command line
(`batch.cli`); nothing in `audit/` imports it, so the layer below stays free of SQLite.

The guard is needed: a local cluster starts its workers with multiprocessing's spawn, which
imports this module again in each worker (as `__mp_main__`).
"""
import sys

from batch.cli import run
from batch.store_source import plan_store

if __name__ == "__main__":
    sys.exit(run(sys.argv[1:], store_planner=plan_store))
