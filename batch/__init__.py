"""`python -m batch`: audit a platform's history on a Dask cluster, into Parquet you can query.

The package is library code of the engine's layer (no SQLite, no `records`): `inputs` plans
partitions of bounded size over files, folders and zips; `rows` turns audits into table rows;
`work` is the task a worker runs (audit a partition, write its Parquet files atomically);
`runner` runs tasks on Dask with retries and a progress line; `summary` counts and draws;
`driver` ties one batch together; `cli` is the command line. `__main__` is the command's
composition root, the one module allowed to reach up to `records` (for `--from-db`). See
docs/batch.md.
"""
