"""Playing many games: runs of bot games, on local processes or a Dask cluster."""
