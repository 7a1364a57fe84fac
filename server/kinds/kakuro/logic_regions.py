"""Technique 7, region sums: the "isolated neck" of seed 001, generalised.

Take a set ``W`` of runs. The across clues of ``W`` count every cell whose across run is
in ``W``, its down clues every cell whose down run is in ``W``; a cell with both runs in
``W`` cancels out. So the across clues minus the down clues equal the cells counted only
by an across run of ``W`` minus the cells counted only by a down run of ``W``. With what
the runs still need (the clue minus their placed digits), only open cells are left.

As a graph with the runs as nodes and every open cell an edge between its two runs,
those cells are the edges leaving ``W``: a region closed up to one open cell is a
*bridge* (the neck), up to two, three or four open cells a 2-, 3- or 4-edge *cut*. Cuts come from
one spanning forest: every non-tree edge gets a random 64-bit label, every tree edge the
XOR of the labels of the cycles through it; a set of edges is a cut exactly when its
labels XOR to zero (with probability 1 - 2^-64; each cut is checked by a walk anyway).
Bridges are labels 0, 2-cuts equal labels, 3-cuts a pair whose XOR is a third label,
4-cuts two pairs with the same XOR (only below FOUR_CUT_EDGES open cells: it is quadratic).

A region fixed up to one cell places it; up to two, three or four cells, the cells keep only
the digits some assignment with the right sum (or difference) uses. Regions fixed up to
fewer cells come first, then smaller regions.
"""

from __future__ import annotations

import itertools
import random
from typing import cast

from numgrid.server.core import cell_name
from numgrid.server.kinds.masks import bit
from numgrid.server.kinds.masks import digits_of
from numgrid.server.kinds.masks import single

from .techniques import DIGIT
from .techniques import Position
from .techniques import Step
from .techniques import Technique
from .techniques import make_step
from .techniques import names

CUT_LIMIT = 2000  # cuts of each size examined per search
MAX_OPEN = 4  # open cells a region may leave out
FOUR_CUT_EDGES = 400  # 4-cuts pair up all pairs of edges: only below this many open cells


def _adjacency(node_count: int, edges: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """For each node, its (neighbour, edge) pairs."""
    adjacent: list[list[tuple[int, int]]] = [[] for _ in range(node_count)]
    for e, (u, w) in enumerate(edges):
        adjacent[u].append((w, e))
        adjacent[w].append((u, e))
    return adjacent


def labels_of(edges: list[tuple[int, int]], adjacent: list[list[tuple[int, int]]]) -> list[int]:
    """A 64-bit label per edge such that a set of edges is a cut exactly when (with high
    probability) its labels XOR to zero: random labels off a spanning forest, each tree
    edge the XOR of the labels below it."""
    node_count = len(adjacent)
    parent_edge, seen = [-1] * node_count, [False] * node_count
    order: list[int] = []
    for root in range(node_count):
        if seen[root] or not adjacent[root]:
            continue
        seen[root] = True
        head = len(order)
        order.append(root)
        while head < len(order):
            u = order[head]
            head += 1
            for w, e in adjacent[u]:
                if not seen[w]:
                    seen[w], parent_edge[w] = True, e
                    order.append(w)
    tree = {e for e in parent_edge if e >= 0}
    rng = random.Random(len(edges))  # deterministic: the same position, the same steps
    labels, acc = [0] * len(edges), [0] * node_count
    for e, (u, w) in enumerate(edges):
        if e not in tree:
            labels[e] = rng.getrandbits(64)
            acc[u] ^= labels[e]
            acc[w] ^= labels[e]
    for u in reversed(order):  # children before parents
        e = parent_edge[u]
        if e >= 0:
            labels[e] = acc[u]
            a, b = edges[e]
            acc[a if b == u else b] ^= acc[u]
    return labels


def cuts(labels: list[int], size: int, poll=lambda: None) -> list[tuple[int, ...]]:
    """Edge sets of ``size`` (1-4) whose labels XOR to zero, at most CUT_LIMIT. The pairing
    loops (quadratic in the open cells) call ``poll`` as they go: it may raise to stop."""
    if size == 1:
        ones: list[tuple[int, ...]] = [(e,) for e, label in enumerate(labels) if label == 0]
        return ones[:CUT_LIMIT]
    by_label: dict[int, list[int]] = {}
    for e, label in enumerate(labels):
        if label:
            by_label.setdefault(label, []).append(e)
    if size == 2:
        groups = sorted((g for g in by_label.values() if len(g) > 1), key=len)
        pairs = (pair for group in groups for pair in itertools.combinations(group, 2))
        return list(itertools.islice(pairs, CUT_LIMIT))
    live = [e for e, label in enumerate(labels) if label]
    if size == 3:
        found: list[tuple[int, ...]] = []
        for k, e in enumerate(live):
            poll()
            for f in live[k + 1 :]:
                for g in by_label.get(labels[e] ^ labels[f], ()):
                    if g > f:
                        found.append((e, f, g))
                        if len(found) >= CUT_LIMIT:
                            return found
        return found
    if len(live) > FOUR_CUT_EDGES:
        return []
    by_xor: dict[int, list[tuple[int, int]]] = {}
    for k, e in enumerate(live):
        poll()
        for f in live[k + 1 :]:
            by_xor.setdefault(labels[e] ^ labels[f], []).append((e, f))
    quads: set[tuple[int, ...]] = set()
    for group in by_xor.values():
        for (e, f), (g, h) in itertools.combinations(group, 2):
            if len({e, f, g, h}) == 4:
                quads.add(tuple(sorted((e, f, g, h))))
                if len(quads) >= CUT_LIMIT:
                    return sorted(quads)
    return sorted(quads)


def _side(edges, adjacent, cut: tuple[int, ...]) -> set[int] | None:
    """The smaller side of ``cut`` (run indices), or None unless exactly ``cut`` leaves it."""

    def reach(start: int, limit: int) -> set[int]:
        side, todo = {start}, [start]
        while todo and len(side) <= limit:
            u = todo.pop()
            for w, e in adjacent[u]:
                if e not in cut and w not in side:
                    side.add(w)
                    todo.append(w)
        return side

    near, far = edges[cut[0]]
    side = reach(near, len(adjacent))
    if any((edges[e][0] in side) == (edges[e][1] in side) for e in cut):
        return None
    other = reach(far, len(side))
    return other if len(other) < len(side) and other.isdisjoint(side) else side


def _assignments(pos: Position, unknown: list[tuple[int, int]], value: int) -> list[int]:
    """Per open cell, the digits some assignment of sum ``value`` (with the coefficients,
    distinct within a run) gives it."""
    layout, masks = pos.layout, pos.masks
    clash = [
        (a, b)
        for a, b in itertools.combinations(range(len(unknown)), 2)
        if set(layout.cell_runs[unknown[a][0]]) & set(layout.cell_runs[unknown[b][0]])
    ]
    keep = [0] * len(unknown)
    for digits in itertools.product(*(digits_of(masks[i]) for i, _ in unknown)):
        if sum(c * d for (_, c), d in zip(unknown, digits, strict=True)) != value:
            continue
        if any(digits[a] == digits[b] for a, b in clash):
            continue
        for k, d in enumerate(digits):
            keep[k] |= bit(d)
    return keep


def _region(pos: Position, side: set[int]) -> tuple[Step, tuple] | None:
    layout, masks = pos.layout, pos.masks
    runs = sorted(side, key=lambda r: (not layout.across[r], layout.runs[r].cells))
    inside, unknown, seen, placed_any = [], [], set(), False
    need: dict[int, int] = {}
    for r in runs:
        need[r] = cast(int, layout.runs[r].clue)  # the layout's runs are the clued ones
        for i in layout.run_cells[r]:
            if single(masks[i]):
                need[r] -= DIGIT[masks[i]]
                placed_any = True
            if i in seen:
                continue
            seen.add(i)
            a, d = layout.cell_runs[i]
            coef = (a in side) - (d in side)
            if coef == 0:
                inside.append(i)
            elif not single(masks[i]):
                unknown.append((i, coef))
    if not 1 <= len(unknown) <= MAX_OPEN:
        return None
    across = [r for r in runs if layout.across[r]]
    down = [r for r in runs if not layout.across[r]]
    total_a, total_d = sum(need[r] for r in across), sum(need[r] for r in down)
    unknown.sort(key=lambda t: -t[1])  # write the equation with a positive first term
    sign = unknown[0][1]
    unknown = [(i, c * sign) for i, c in unknown]
    value = sign * (total_a - total_d)
    keep = _assignments(pos, unknown, value)
    removals = {i: masks[i] & ~k for (i, _), k in zip(unknown, keep, strict=True) if masks[i] & ~k}
    if not removals:
        return None

    def clues(group: list[int], total: int) -> str:
        if len(group) > 6:
            return f"{len(group)} runs adding up to {total}"
        shown = " + ".join(str(need[r]) for r in group)
        return f"{shown} = {total}" if len(group) > 1 else shown

    cells = layout.cells
    lhs = cell_name(cells[unknown[0][0]]) + "".join(
        f" {'+' if c > 0 else '-'} {cell_name(cells[i])}" for i, c in unknown[1:]
    )
    first, second = (total_a, total_d) if sign > 0 else (total_d, total_a)
    outside = names(cells[i] for i, _ in unknown)
    if placed_any:
        sums = f"the across runs still need {clues(across, total_a)} and the down runs "
        sums += f"{clues(down, total_d)} in open cells that are the same except {outside}"
    else:
        sums = f"the across clues {clues(across, total_a)} and the down clues "
        sums += f"{clues(down, total_d)} cover the same cells except {outside}"
    equation = f"{first} - {second} = {value}"
    reason = f"In the region of {len(inside)} cells and {len(side)} runs beside {outside}, {sums}"
    reason += f", and {equation}" if len(unknown) == 1 else f": {lhs} = {equation}"
    step = make_step(
        pos, Technique.REGION_SUM, removals, [layout.runs[r] for r in runs], inside, reason
    )
    return step, (not step.placements, len(unknown), len(side))


def region_sum(pos: Position) -> Step | None:
    """The best region-sum step: one that places a digit, fewest cells left out, then the
    smallest region. Cuts of one cell are searched first, then two, three, four. Polls the
    position's budget (:meth:`Position.poll`) while it searches."""
    layout, masks = pos.layout, pos.masks
    # (across, down): a white cell is in two runs
    edges = cast(
        "list[tuple[int, int]]",
        [tuple(layout.cell_runs[i]) for i, m in enumerate(masks) if not single(m)],
    )
    adjacent = _adjacency(len(layout.runs), edges)
    labels = labels_of(edges, adjacent)
    best = None
    for size in range(1, MAX_OPEN + 1):
        for cut in cuts(labels, size, pos.poll):
            pos.poll()
            side = _side(edges, adjacent, cut)
            found = _region(pos, side) if side is not None else None
            if found is not None and (best is None or found[1] < best[1]):
                best = found
        if best is not None:
            return best[0]
    return None
