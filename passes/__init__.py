"""Optimisations within a level, one pass per module; analyses in passes/analysis/,
the rewriting helpers several passes share in passes/utils/. A pass never imports
another pass."""
