"""factstore's eval suites: each eval has a name, a dataset loader, a runner and a primary
metric with its direction. Runs are written as Parquet and compared across runs with DuckDB.
Evals reach the store only through its public API."""
