"""soacc's tests. A package only so that the helpers they share import as
`tests.support...` (pyproject.toml puts the repository root on pytest's pythonpath;
test modules themselves are imported with --import-mode=importlib and never import
each other)."""
