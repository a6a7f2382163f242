"""The corpus suite: schemas nobody here wrote (tests/data/corpus/), drawn from and tested as contracts."""
