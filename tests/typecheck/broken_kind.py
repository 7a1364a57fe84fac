"""Kinds the type checker must refuse (tests/test_typecheck.py runs mypy on this file;
nothing imports or runs it).

``rebuilt`` passes every field of a kind to ``Kind(...)`` and is accepted. The other two
break it once each, and the checker says so on the line marked ``# expect:``: a kind
without ``explain``, and a kind whose ``explain`` is a function of the wrong shape.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from numgrid.server.kinds.base import Kind

P = TypeVar("P")


def rebuilt(kind: Kind[P]) -> Kind[P]:
    return Kind(
        name=kind.name,
        title=kind.title,
        rank=kind.rank,
        formats=kind.formats,
        wire=kind.wire,
        techniques=kind.techniques,
        thresholds=kind.thresholds,
        maker=kind.maker,
        sniff=kind.sniff,
        read=kind.read,
        write=kind.write,
        check=kind.check,
        validate=kind.validate,
        cpsat_model=kind.cpsat_model,
        native_search=kind.native_search,
        solution_text=kind.solution_text,
        read_solution=kind.read_solution,
        value_text=kind.value_text,
        picture=kind.picture,
        next_step=kind.next_step,
        explain=kind.explain,
        last_resort=kind.last_resort,
    )


def without_explain(kind: Kind[P]) -> Kind[P]:
    return Kind(  # expect: Missing positional argument "explain" in call to "Kind"
        name=kind.name,
        title=kind.title,
        rank=kind.rank,
        formats=kind.formats,
        wire=kind.wire,
        techniques=kind.techniques,
        thresholds=kind.thresholds,
        maker=kind.maker,
        sniff=kind.sniff,
        read=kind.read,
        write=kind.write,
        check=kind.check,
        validate=kind.validate,
        cpsat_model=kind.cpsat_model,
        native_search=kind.native_search,
        solution_text=kind.solution_text,
        read_solution=kind.read_solution,
        value_text=kind.value_text,
        picture=kind.picture,
        next_step=kind.next_step,
        last_resort=kind.last_resort,
    )


def explaining_with_next_step(kind: Kind[P]) -> Kind[P]:
    return replace(kind, explain=kind.next_step)  # expect: Argument "explain" to "replace"
