"""Rewriting helpers that several passes (and lowerings) share: not passes themselves."""
