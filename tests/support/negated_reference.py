"""An example whose NumPy definition gives the negated result, so that a harness's
check of a correct program fails: the benchmark tests' way of making a wrong result."""

from __future__ import annotations


class NegatedReference:
    """`example` with its `reference` negated; everything else is the example's."""

    def __init__(self, example):
        self.example = example

    def __getattr__(self, name):
        return getattr(self.example, name)

    def reference(self, *args):
        return -self.example.reference(*args)
