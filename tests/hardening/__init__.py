"""The hostile-input suite: fuzzing, limits, the sandbox and no code execution, across every adapter."""
