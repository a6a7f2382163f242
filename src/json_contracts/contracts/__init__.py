"""Contract files: names, the file's shape and limits, the loaded model, loading a folder, serving it.

In data-flow order: :mod:`.names` (the safe-name rule and sort order), :mod:`.limits` (every
size and depth limit and the variables that set them), :mod:`.shape` (the contract file's own
fields), :mod:`.model` (``Contract``, ``LoadResult``: plain data), :mod:`.loading` (one folder,
every problem kept as a finding), :mod:`.store` (the set a long-running server answers from,
reloaded whole) and :mod:`.starter` (the starter contracts ``init`` copies).
"""
