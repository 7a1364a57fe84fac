"""Chains and the trial: alternating inference chains (of one digit, of two-digit cells,
or of any candidates) and the last resort (see :mod:`.techniques` for the vocabulary).

A *node* is a candidate: digit ``d`` in cell ``i``, numbered ``i * N + d - 1``. A
*strong link* joins two nodes of which at least one is true (a conjugate pair in a unit,
or the two candidates of a two-digit cell); a *weak link* two that are not both true
(one digit in two peers, two digits of one cell). A chain from node A that starts and
ends with a strong link and alternates them with weak ones shows: if A is false, the
last node Z is true; so A or Z is, and every candidate that sees both goes. Chains are
found breadth first from every node, shortest first, within a bounded number of links.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from numgrid.server.chain import listed
from numgrid.server.core import Step

from . import native
from .techniques import CELLS_SLOT
from .techniques import Contradiction
from .techniques import Position
from .techniques import Technique
from .techniques import bit
from .techniques import digits_of
from .techniques import make_step
from .techniques import members
from .techniques import removals_of
from .techniques_wings import conjugates

X_LINKS = 11  # the longest X-chain looked for, in links
TURBOT_LINKS = 3  # two conjugate pairs joined at one end (a two-string kite, a turbot fish)
XY_LINKS = 15  # eight cells
AIC_LINKS = 11

SAME_CELL = -1  # a strong link's unit when it joins the two candidates of one cell

Links = dict[int, list[tuple[int, int]]]  # node -> [(node, unit or SAME_CELL)]


# ---------------------------------------------------------------- links


def _strong(pos: Position, digits: range | tuple[int, ...], units: bool, cells: bool) -> Links:
    """Strong links of the given digits: conjugate pairs in units, and/or two-digit
    cells."""
    n = pos.plan.n
    links: Links = {}
    if units:
        for d in digits:
            for u, a, b in conjugates(pos, d):
                na, nb = a * n + d - 1, b * n + d - 1
                links.setdefault(na, []).append((nb, u))
                links.setdefault(nb, []).append((na, u))
    if cells:
        for i, m in enumerate(pos.masks):
            if not pos.placed[i] and m.bit_count() == 2:
                a, b = digits_of(m)
                na, nb = i * n + a - 1, i * n + b - 1
                links.setdefault(na, []).append((nb, SAME_CELL))
                links.setdefault(nb, []).append((na, SAME_CELL))
    for node, found in links.items():  # a pair conjugate in two units is one link
        first: dict[int, tuple[int, int]] = {}
        for x in found:
            first.setdefault(x[0], x)
        links[node] = list(first.values())
    return links


def _weak(pos: Position, node: int, in_cell: bool, only: int) -> list[int]:
    """The nodes that cannot be true with ``node``: the digit in its peers (restricted to
    the cell set ``only``), and with ``in_cell`` the cell's other digits."""
    n = pos.plan.n
    i, k = divmod(node, n)
    d = k + 1
    out = [j * n + k for j in members(pos.plan.peer_sets[i] & pos.where[d] & only)]
    if in_cell:
        out.extend(i * n + e - 1 for e in digits_of(pos.masks[i] & ~bit(d)))
    return out


def _removals(pos: Position, a: int, z: int) -> dict[int, int]:
    """What ``a or z`` (two nodes) rules out."""
    n = pos.plan.n
    (ia, ka), (iz, kz) = divmod(a, n), divmod(z, n)
    peers = pos.plan.peer_sets
    if ka == kz:  # the digit leaves the open cells seeing both that still have it
        if ia == iz:
            return {}
        return removals_of(pos, peers[ia] & peers[iz], bit(ka + 1))
    if ia == iz:
        rest = pos.masks[ia] & ~(bit(ka + 1) | bit(kz + 1))
        return {ia: rest} if rest else {}
    out = {}
    if peers[ia] >> iz & 1:
        if pos.masks[ia] & bit(kz + 1):
            out[ia] = bit(kz + 1)
        if pos.masks[iz] & bit(ka + 1):
            out[iz] = bit(ka + 1)
    return out


def _search(
    pos: Position,
    strong: Links,
    weak: Callable[[int], list[int]],
    min_links: int,
    max_links: int,
    same_digit: bool = False,
) -> tuple[list[tuple[int, int]], dict[int, int]] | None:
    """The shortest chain with eliminations (most eliminations among the shortest; with
    ``same_digit``, one that ends on its first digit): its nodes with the unit of the
    link into each (strong links at odd places), and the eliminations. Chains from every
    start grow together, two links a round (a weak link and a strong one), so the search
    ends at the first length that finds one."""
    n = pos.plan.n
    hops: dict[int, list[tuple[int, int, int]]] = {}  # on node -> (off node, on node, unit)

    def onward(x: int) -> list[tuple[int, int, int]]:
        found = hops.get(x)
        if found is None:
            found = hops[x] = [(y, z, u) for y in weak(x) if y in strong for z, u in strong[y]]
        return found

    # per start: its parents (on node -> (on node before, off node between, unit)) and
    # the on nodes reached last
    runs: list[tuple[int, dict[int, tuple[int, int, int]], list[int]]] = []
    for start in sorted(strong):
        parent = {z: (-1, -1, u) for z, u in strong[start] if z != start}
        runs.append((start, parent, list(parent)))
    links = 1
    while links + 2 <= max_links and runs:
        pos.poll()
        links += 2
        best: tuple[int, int, int, dict[int, int]] | None = None
        alive = []
        for start, parent, frontier in runs:
            after = []
            for x in frontier:
                for y, z, u in onward(x):
                    if z in parent or z == start:
                        continue
                    parent[z] = (x, y, u)
                    after.append(z)
                    if links < min_links or (same_digit and (start - z) % n):
                        continue
                    removals = _removals(pos, start, z)
                    if removals:
                        lost = sum(m.bit_count() for m in removals.values())
                        if best is None or lost > best[0]:
                            best = (lost, start, z, removals)
            if after:
                frontier[:] = after
                alive.append((start, parent, frontier))
        if best is not None:
            _, start, z, removals = best
            parent = next(p for s, p, _ in runs if s == start)
            path: list[tuple[int, int]] = []
            while True:
                x, y, u = parent[z]
                path.append((z, u))
                if x < 0:
                    break
                path.append((y, 0))
                z = x
            path.append((start, -2))
            path.reverse()
            return path, removals
        runs = alive
    return None


# ---------------------------------------------------------------- sentences


def _node(pos: Position, node: int) -> tuple[str, int]:
    i, k = divmod(node, pos.plan.n)
    return pos.plan.cell(i), k + 1


def _sentence(pos: Position, chain: list[tuple[int, int]], name: str) -> str:
    """``if r1c2 were not 5, r1c7 would be 5 (row 1), so r4c7 not 5, so r4c3 5
    (column 3): r1c2 is 5 or r4c3 is (an X-chain)``."""
    first_cell, first_d = _node(pos, chain[0][0])
    parts = []
    for k, (node, unit) in enumerate(chain[1:], start=1):
        cell, d = _node(pos, node)
        if k % 2:
            why = "its other digit" if unit == SAME_CELL else pos.plan.name(unit)
            parts.append(f"{cell} is {d} ({why})")
        else:
            parts.append(f"{cell} is not {d}")
    last_cell, last_d = _node(pos, chain[-1][0])
    return (
        f"if {first_cell} were not {first_d}, then {listed(parts, 'and')}: so {first_cell} "
        f"is {first_d} or {last_cell} is {last_d} ({name})"
    )


def _step(
    pos: Position,
    technique: Technique,
    found: tuple[list[tuple[int, int]], dict[int, int]] | None,
    name: str,
) -> Step | None:
    if found is None:
        return None
    chain, removals = found
    n = pos.plan.n
    units = [u for _, u in chain if u >= 0]
    cells = [node // n for node, _ in chain]
    reason = functools.partial(_sentence, pos, chain, name)
    return make_step(pos, technique, removals, units, cells, reason)


# ---------------------------------------------------------------- techniques


def _x(pos: Position, k: int, min_links: int, max_links: int) -> tuple | None:
    d = k + 1
    strong = _strong(pos, (d,), True, False)
    if len(strong) < 4:
        return None
    return _search(pos, strong, lambda x: _weak(pos, x, False, -1), min_links, max_links)


def turbot_fish(pos: Position, k: int) -> Step | None:
    """Two conjugate pairs of one digit whose ends see each other: one of the far ends
    holds the digit (two pairs in parallel lines, a two-string kite, a turbot fish)."""
    found = _x(pos, k, TURBOT_LINKS, TURBOT_LINKS)
    return _step(pos, Technique.TURBOT_FISH, found, "a turbot fish")


def x_chain(pos: Position, k: int) -> Step | None:
    """An alternating chain of conjugate pairs and weak links of one digit."""
    return _step(pos, Technique.X_CHAIN, _x(pos, k, 3, X_LINKS), "an X-chain")


def xy_chain(pos: Position) -> Step | None:
    """A chain of two-digit cells, each sharing a digit with the next, that starts and
    ends on the same digit."""
    n = pos.plan.n
    strong = _strong(pos, range(1, n + 1), False, True)
    twos = 0
    for node in strong:
        twos |= 1 << (node // n)
    found = _search(pos, strong, lambda x: _weak(pos, x, False, twos), 3, XY_LINKS, True)
    return _step(pos, Technique.XY_CHAIN, found, "an XY-chain")


def aic(pos: Position) -> Step | None:
    """An alternating inference chain over any candidates."""
    n = pos.plan.n
    strong = _strong(pos, range(1, n + 1), True, True)
    found = _search(pos, strong, lambda x: _weak(pos, x, True, -1), 3, AIC_LINKS)
    return _step(pos, Technique.AIC, found, "an alternating inference chain")


# ---------------------------------------------------------------- trial

TRIAL_KEEP = 4  # refuted assumptions compared, the one with the shortest propagation told


def propagate(
    pos: Position, masks: list[int], changed: set[int] | None = None
) -> tuple[list[tuple[int, int]], str | None]:
    """Naked and hidden singles on plain masks, in place, to a fixpoint, from the cells
    whose candidates ``changed`` (None: every cell): the placements made (cell, digit)
    in order, and why the position fails, or None."""
    plan = pos.plan
    peers, unit_cells, cell_units, full = plan.peers, plan.unit_cells, plan.cell_units, plan.full
    done = pos.placed[:]  # truthy once a cell's digit has left its peers
    made: list[tuple[int, int]] = []
    todo = set(range(len(masks))) if changed is None else set(changed)
    while todo:
        cells, todo = todo, set()
        units: set[int] = set()
        for i in cells:
            units.update(cell_units[i])
            m = masks[i]
            if not m:
                return made, f"{plan.cell(i)} has no candidate left"
            if done[i] or m & (m - 1):
                continue
            done[i] = 1
            made.append((i, m.bit_length()))
            for j in peers[i]:
                left = masks[j]
                if left & m:
                    left &= ~m
                    masks[j] = left
                    if not left:
                        return made, f"{plan.cell(j)} has no candidate left"
                    units.update(cell_units[j])
                    if not left & (left - 1):
                        todo.add(j)
        for u in units:
            once = twice = 0
            ids = unit_cells[u]
            for c in ids:
                m = masks[c]
                twice |= once & m
                once |= m
            if once != full:
                d = (full & ~once).bit_length()
                return made, f"no cell of {plan.name(u)} can take {d}"
            sole = once & ~twice
            if not sole:
                continue
            for c in ids:
                m = masks[c] & sole
                if not m:
                    continue
                if m & (m - 1):  # even when they are all the cell holds
                    both = listed(digits_of(m), "and")
                    return made, f"in {plan.name(u)}, only {plan.cell(c)} can take {both}"
                if masks[c] != m:
                    masks[c] = m
                    todo.add(c)
    return made, None


def assume(
    pos: Position, i: int, d: int
) -> tuple[list[tuple[int, int]], str | None, dict[int, int]]:
    """Assume cell ``i`` holds ``d`` and follow singles: the placements, why they fail (or
    None) and per cell the candidates they remove (cells that lose none left out).
    Remembered until the position changes (forcing chains and the trial ask the same
    questions)."""
    memo = pos.memo(Technique.FORCING_CHAIN).setdefault("assumed", {})
    found = memo.get((i, d))
    if found is None:
        masks = pos.masks
        after = list(masks)
        after[i] = bit(d)
        made, why = propagate(pos, after, {i})
        gone = {}
        if why is None:
            for c, (m, a) in enumerate(zip(masks, after, strict=True)):
                if m != a:
                    gone[c] = m & ~a
        found = memo[(i, d)] = (made, why, gone)
    return found


def solve(
    pos: Position, masks: list[int], limit: int = 1, held: list[int] | None = None
) -> list[list[int]]:
    """Up to ``limit`` solutions from ``masks`` (singles, then the cell with fewest
    candidates first); each a list of digits. ``held``: per cell, digits to try last (a
    solution then holds as many others as it can)."""
    found: list[list[int]] = []

    def walk(masks: list[int], changed: set[int] | None) -> None:
        pos.poll()
        _, why = propagate(pos, masks, changed)
        if why is not None:
            return
        best, count = -1, 99
        for i, m in enumerate(masks):
            c = m.bit_count()
            if 1 < c < count:
                best, count = i, c
                if c == 2:
                    break
        if best < 0:
            found.append([m.bit_length() for m in masks])
            return
        choices = digits_of(masks[best])
        if held is not None:
            choices = tuple(sorted(choices, key=lambda d: bool(held[best] & bit(d))))
        for d in choices:
            trial = list(masks)
            trial[best] = bit(d)
            walk(trial, {best})
            if len(found) >= limit:
                return

    walk(list(masks), None)
    return found


def _witness(pos: Position) -> list[int]:
    """One solution agreeing with the candidates (all 0 if none): a trial never needs to
    test its digits, which no sound reasoning refutes."""
    memo = pos.memo(CELLS_SLOT)
    known = memo.get("witness")
    if known is not None and all(bit(w) & m for w, m in zip(known, pos.masks, strict=True)):
        return known
    found = solve(pos, list(pos.masks))
    witness = found[0] if found else [0] * len(pos.masks)
    memo["witness"] = witness
    return witness


def trial(pos: Position) -> Step | None:
    """Assume a candidate (cells with fewest candidates first), follow singles: if they
    reach a contradiction, the candidate goes. When no assumption fails that way, one
    that a search shows no filling of the grid can complete."""
    plan, masks, placed = pos.plan, pos.masks, pos.placed
    order = sorted(
        (i for i, m in enumerate(masks) if not placed[i] and m & (m - 1)),
        key=lambda i: (masks[i].bit_count(), i),
    )
    witness = _witness(pos)
    found = []
    for i in order:
        pos.poll()
        for d in digits_of(masks[i]):
            if witness[i] == d:
                continue
            made, why, _ = assume(pos, i, d)
            if why is not None:
                found.append((len(made), i, d, made, why))
        if len(found) >= TRIAL_KEEP:
            break
    if found:
        _, i, d, made, why = min(found)
        shown = [f"{plan.cell(c)} = {v}" for c, v in made[1:4]]
        if len(made) > 4:
            shown.append(f"{len(made) - 4} more singles")
        then = f"then {listed(shown, 'and')}, and " if shown else ""
        reason = f"Trial (a last resort): if {plan.cell(i)} were {d}, {then}{why}"
        return make_step(pos, Technique.TRIAL, {i: bit(d)}, (), [i], reason, joiner="; so ")
    if not any(witness):
        raise Contradiction("no filling of the grid agrees with the candidates")
    # The candidates some filling holds, which no search refutes: the witness's, and
    # each filling a search finds (on a grid of several solutions, a search a candidate
    # rather than one for every candidate: an empty 16x16 stalled in 30 s of them).
    held = [bit(w) for w in witness]
    for i in order:
        for d in digits_of(masks[i]):
            if held[i] & bit(d):
                continue
            after = list(masks)
            after[i] = bit(d)
            filled = solve(pos, after, held=held)
            if not filled:
                reason = (
                    f"Trial (a last resort): if {plan.cell(i)} were {d}, no filling of the grid "
                    f"would remain (a search through every choice finds none)"
                )
                return make_step(pos, Technique.TRIAL, {i: bit(d)}, (), [i], reason, joiner="; so ")
            for c, v in enumerate(filled[0]):
                held[c] |= bit(v)
    return None


# ---------------------------------------------------------------- forcing chains

Branch = tuple[list[tuple[int, int]], str | None]  # a branch's placements, why it failed
FORCING_MAX = 4  # the most branches (candidates of a cell, places of a digit) followed


def _agreed(
    pos: Position, branches: list[tuple[int, int]]
) -> tuple[dict[int, int], dict[int, int], list[Branch]] | None:
    """Follow singles from each assumption ``cell = digit``: what all those that do not
    fail place and remove (placements, removals as masks), and each branch's placements;
    None when fewer than two survive (one is a trial's business) or they agree on
    nothing."""
    common_place: dict[int, int] | None = None
    common_gone: dict[int, int] | None = None
    made_all: list[Branch] = []
    survivors = 0
    for i, d in branches:
        made, why, gone = assume(pos, i, d)
        made_all.append((made, why))
        if why is not None:
            continue  # a branch that fails allows any conclusion
        survivors += 1
        placed = {c: v for c, v in made if not pos.placed[c]}
        if common_place is None or common_gone is None:
            common_place, common_gone = placed, gone
        else:
            common_place = {c: v for c, v in common_place.items() if placed.get(c) == v}
            both = {c: g & gone.get(c, 0) for c, g in common_gone.items()}
            common_gone = {c: g for c, g in both.items() if g}
        if not common_place and not common_gone:
            return None
    if common_place is None or common_gone is None or survivors < 2:
        return None
    removals = {
        c: g for c, g in sorted(common_gone.items()) if not pos.placed[c] and c not in common_place
    }
    return common_place, removals, made_all


def _forcing_said(
    pos: Position,
    where: str,
    of_cell: bool,
    branches: list[tuple[int, int]],
    made_all: list[Branch],
    place: dict[int, int],
    removals: dict[int, int],
) -> str:
    """A forcing chain's sentence: the cell's candidates or the unit's places for a
    digit (``where``), how each branch reaches the conclusion named (the first
    placement, else the first elimination), and that conclusion."""
    plan = pos.plan
    if of_cell:
        head = f"{where} holds {listed([d for _, d in branches], 'or')}"
    else:
        spots = listed([plan.cell(c) for c, _ in branches], "or")
        head = f"in {where}, {branches[0][1]} goes in {spots}"
    if place:
        goal, v = min(place.items())
        said_goal = f"{plan.cell(goal)} = {v}"
    else:
        goal, m = min(removals.items())
        said_goal = f"{plan.cell(goal)} is not {listed(digits_of(m), 'or')}"
    parts = []
    for (i, d), (made, why) in zip(branches, made_all, strict=True):
        if why is not None:
            parts.append(f"if {plan.cell(i)} = {d}, singles end in a contradiction ({why})")
        elif i == goal:
            parts.append(f"if {plan.cell(i)} = {d}, at once")
        else:
            count = len(made) - 1
            singles = f"{count} single{'s' if count != 1 else ''}"
            parts.append(f"if {plan.cell(i)} = {d}, the {singles} that follow give it")
    kind = "a cell forcing chain" if of_cell else "a unit forcing chain"
    return f"{head}; {'; '.join(parts)}: either way {said_goal} ({kind})"


def _singles_screen(pos: Position) -> tuple[native.Tables, int, int] | None:
    """The position as the native engine holds it (its tables, the candidates, the
    placed cells' guards), to screen forcing chains with; None when that would not be
    :func:`propagate`'s singles: a position with singles of its own pending (propagate
    from an assumption takes only those its changes reach). Both take the shape's units,
    which hold every digit (cages are a puzzle's, not its shape's)."""
    t = native.tables(pos.plan.shape)
    base = t.position(pos.masks)
    done = t.guards_of([i for i, placed in enumerate(pos.placed) if placed])
    if native.settle(t, base, done, locked=False) != (base, done):
        return None
    return t, base, done


def _may_agree(pos: Position, branches: list[tuple[int, int]], placing: bool) -> bool:
    """Whether the branches' singles can agree on anything (a placement, with
    ``placing``): the native engine's singles reach the fixpoint :func:`propagate` does
    from the same assumption (singles remove candidates and reach one fixpoint whatever
    their order, or fail whatever it), in a fraction of its time. So only an option
    this admits is followed step by step (:func:`_agreed`, which finds the same)."""
    memo = pos.memo(Technique.FORCING_CHAIN)
    if "screen" not in memo:
        memo["screen"] = _singles_screen(pos)
        memo["fixpoints"] = {}  # per assumption (cell, digit): where its singles end
    screen = memo["screen"]
    if screen is None:
        return True
    t, base, done = screen
    fixpoints = memo["fixpoints"]
    undecided = t.undecided(base)
    union, survivors = 0, 0
    for i, d in branches:
        if (i, d) not in fixpoints:  # a cell's and its units' options share assumptions
            at = i * t.width
            start = (base & ~(t.digits << at)) | 1 << (at + d - 1)
            settled = native.settle(t, start, done, locked=False)
            fixpoints[i, d] = None if settled is None else settled[0]
        fixpoint = fixpoints[i, d]
        if fixpoint is not None:
            union |= fixpoint
            survivors += 1
            # the union of the survivors' fixpoints only grows: once it holds all of
            # base's candidates (nothing every survivor removes), or once no cell open
            # in base is down to one digit in it (none every survivor places), more
            # branches cannot bring agreement back
            if union == base or (placing and not undecided & ~t.undecided(union)):
                return False
    return survivors >= 2


def forcing_chain(pos: Position, placing: bool = False) -> Step | None:
    """Every candidate of a cell, or every place of a digit in a unit (two to four),
    followed by singles, reaches the same placement or elimination: one of them is
    true, so that conclusion is (a cell or unit forcing chain). With ``placing``, only
    one that places a digit."""
    plan, masks, placed = pos.plan, pos.masks, pos.placed
    order = sorted(
        (i for i, m in enumerate(masks) if not placed[i] and 1 < m.bit_count() <= FORCING_MAX),
        key=lambda i: (masks[i].bit_count(), i),
    )
    options: list[tuple[str, int, list[tuple[int, int]]]] = [
        (plan.cell(i), i, [(i, d) for d in digits_of(masks[i])]) for i in order
    ]
    for d in range(1, plan.n + 1):
        for u, unit_set in enumerate(plan.unit_sets):
            places = pos.where[d] & unit_set
            if 1 < places.bit_count() <= FORCING_MAX:
                options.append((plan.name(u), -1 - u, [(c, d) for c in members(places)]))
    options.sort(key=lambda o: len(o[2]))
    for where, key, branches in options:
        pos.poll()
        if not _may_agree(pos, branches, placing):
            continue
        agreed = _agreed(pos, branches)
        if agreed is None:
            continue
        place, removals, made_all = agreed
        if placing and not place:
            continue
        reason = functools.partial(
            _forcing_said, pos, where, key >= 0, branches, made_all, place, removals
        )
        cells = [c for c, _ in branches]
        units = [] if key >= 0 else [-1 - key]
        return make_step(pos, Technique.FORCING_CHAIN, removals, units, cells, reason, place=place)
    return None
