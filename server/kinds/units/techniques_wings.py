"""Wings, colouring, remote pairs and unique rectangles: patterns of a few cells with
two or three candidates, or of one digit's conjugate pairs (see :mod:`.techniques` for
the vocabulary)."""

from __future__ import annotations

from collections import deque

from numgrid.server.core import Step

from .techniques import CELLS_SLOT
from .techniques import Contradiction
from .techniques import Position
from .techniques import Technique
from .techniques import bit
from .techniques import digits_of
from .techniques import digits_said
from .techniques import make_step
from .techniques import members
from .techniques import removals_of
from .techniques import sees_all


def bivalues(pos: Position) -> list[int]:
    """The open cells with exactly two candidates."""
    masks, placed = pos.masks, pos.placed
    return [i for i, m in enumerate(masks) if not placed[i] and m.bit_count() == 2]


def _biggest(found: list[tuple[dict[int, int], Step]]) -> Step | None:
    if not found:
        return None
    return max(found, key=lambda f: sum(m.bit_count() for m in f[0].values()))[1]


# ---------------------------------------------------------------- wings


def xy_wing(pos: Position) -> Step | None:
    """A pivot holding a or b sees a pincer holding a or c and one holding b or c: one
    pincer is c whatever the pivot holds, so cells seeing both pincers lose c."""
    plan, masks = pos.plan, pos.masks
    twos = bivalues(pos)
    two_set = sum(1 << i for i in twos)
    for p in twos:
        pm = masks[p]
        wings = [
            i for i in members(plan.peer_sets[p] & two_set) if (masks[i] & pm).bit_count() == 1
        ]
        for x_at, x in enumerate(wings):
            for y in wings[x_at + 1 :]:
                xm, ym = masks[x], masks[y]
                if xm & ym & pm or xm == ym or (xm | ym | pm).bit_count() != 3:
                    continue
                c = xm & ym
                targets = sees_all(pos, (x, y)) & ~(1 << p)
                removals = removals_of(pos, targets, c)
                if removals:
                    a, b = digits_of(pm)
                    reason = (
                        f"{plan.cell(p)} holds {a} or {b}, and sees {plan.cell(x)} "
                        f"({digits_said(xm, 'or')}) and {plan.cell(y)} "
                        f"({digits_said(ym, 'or')}): whichever "
                        f"{plan.cell(p)} holds, one of them is {c.bit_length()} (an XY-Wing)"
                    )
                    return make_step(pos, Technique.XY_WING, removals, (), [p, x, y], reason)
    return None


def xyz_wing(pos: Position) -> Step | None:
    """A pivot holding a, b or c sees a pincer holding a or c and one holding b or c:
    one of the three is c, so cells seeing all three lose c."""
    plan, masks, placed = pos.plan, pos.masks, pos.placed
    two_set = sum(1 << i for i in bivalues(pos))
    for p, pm in enumerate(masks):
        if placed[p] or pm.bit_count() != 3:
            continue
        wings = [i for i in members(plan.peer_sets[p] & two_set) if masks[i] & ~pm == 0]
        for x_at, x in enumerate(wings):
            for y in wings[x_at + 1 :]:
                xm, ym = masks[x], masks[y]
                if xm == ym:
                    continue
                c = xm & ym
                targets = sees_all(pos, (p, x, y))
                removals = removals_of(pos, targets, c)
                if removals:
                    reason = (
                        f"{plan.cell(p)} holds {digits_said(pm, 'or')} and sees {plan.cell(x)} "
                        f"({digits_said(xm, 'or')}) and {plan.cell(y)} "
                        f"({digits_said(ym, 'or')}): one of the "
                        f"three is {c.bit_length()} (an XYZ-Wing)"
                    )
                    return make_step(pos, Technique.XYZ_WING, removals, (), [p, x, y], reason)
    return None


def conjugates(pos: Position, d: int) -> list[tuple[int, int, int]]:
    """The conjugate pairs of digit ``d``: ``(unit, cell, cell)`` for every unit where
    ``d`` has exactly two places."""
    memo = pos.memo(CELLS_SLOT)  # forgotten when ``d`` changes
    found = memo.get(d)
    if found is None:
        plan, where = pos.plan, pos.where[d]
        found = []
        for u, unit_set in enumerate(plan.unit_sets):
            places = where & unit_set
            if places and places & (places - 1) and places.bit_count() == 2:
                a, b = members(places)
                found.append((u, a, b))
        memo[d] = found
    return found


def _w_link(pos: Position, x: int, y: int, a: int) -> tuple[int, int, int] | None:
    """A conjugate pair of ``a`` (its unit and ends) whose ends see ``x`` and ``y``, one
    each, neither being one of them."""
    peers = pos.plan.peer_sets
    for u, s, t in conjugates(pos, a):
        if {s, t} & {x, y}:
            continue
        for s1, t1 in ((s, t), (t, s)):
            if peers[x] >> s1 & 1 and peers[y] >> t1 & 1:
                return u, s1, t1
    return None


def w_wing(pos: Position) -> Step | None:
    """Two cells holding a or b that do not see each other, and a conjugate pair of a
    whose ends see one each: if neither cell were b, both would be a and leave the pair
    no a; so one of them is b, and cells seeing both lose b."""
    plan, masks = pos.plan, pos.masks
    by_pair: dict[int, list[int]] = {}
    for i in bivalues(pos):
        by_pair.setdefault(masks[i], []).append(i)
    found = []
    for pm, cells in by_pair.items():
        for x_at, x in enumerate(cells):
            for y in cells[x_at + 1 :]:
                if plan.peer_sets[x] >> y & 1:
                    continue
                targets = sees_all(pos, (x, y))
                for a in digits_of(pm):
                    b = (pm & ~bit(a)).bit_length()
                    removals = removals_of(pos, targets, bit(b))
                    link = _w_link(pos, x, y, a) if removals else None
                    if link is None:
                        continue
                    u, s1, t1 = link
                    reason = (
                        f"{plan.cell(x)} and {plan.cell(y)} both hold {digits_said(pm, 'or')}; in "
                        f"{plan.name(u)}, {a} goes in {plan.cell(s1)} or {plan.cell(t1)}, which "
                        f"see one each: if neither were {b}, both would be {a} and leave "
                        f"{plan.name(u)} no {a} (a W-Wing)"
                    )
                    step = make_step(pos, Technique.W_WING, removals, [u], [x, y, s1, t1], reason)
                    found.append((removals, step))
    return _biggest(found)


# ---------------------------------------------------------------- colouring


def _colour(
    nodes: list[int], links: dict[int, list[int]]
) -> list[tuple[dict[int, int], dict[int, int]]]:
    """The connected parts of a graph, 2-coloured: per part, cell -> colour (0 or 1) and
    cell -> the cell it was reached from (for the chain between two cells)."""
    seen: set[int] = set()
    parts = []
    for start in nodes:
        if start in seen:
            continue
        colour, parent = {start: 0}, {start: -1}
        queue = deque([start])
        seen.add(start)
        while queue:
            i = queue.popleft()
            for j in links.get(i, ()):
                if j not in colour:
                    colour[j] = 1 - colour[i]
                    parent[j] = i
                    seen.add(j)
                    queue.append(j)
        parts.append((colour, parent))
    return parts


def _path(parent: dict[int, int], a: int, b: int) -> list[int]:
    """The tree path from ``a`` to ``b``."""
    up_a, i = [], a
    while i != -1:
        up_a.append(i)
        i = parent[i]
    on_a = {c: k for k, c in enumerate(up_a)}
    up_b, i = [], b
    while i not in on_a:
        up_b.append(i)
        i = parent[i]
    return up_a[: on_a[i] + 1] + up_b[::-1]


def simple_colouring(pos: Position, k: int) -> Step | None:
    """Digit ``k + 1``'s conjugate pairs, coloured: along them the colours alternate, and
    one colour holds the digit. Two cells of one colour that see each other make that
    colour false (a wrap); a cell seeing both colours loses the digit (a trap)."""
    d = k + 1
    plan = pos.plan
    pairs = conjugates(pos, d)
    if len(pairs) < 2:
        return None
    links: dict[int, list[int]] = {}
    for _, a, b in pairs:
        links.setdefault(a, []).append(b)
        links.setdefault(b, []).append(a)
    best = None
    for colour, parent in _colour(list(links), links):
        if len(colour) < 3:
            continue
        sets = [0, 0]
        for i, c in colour.items():
            sets[c] |= 1 << i
        for c in (0, 1):
            for i in members(sets[c]):
                clash = plan.peer_sets[i] & sets[c]
                if clash:
                    j = clash.bit_length() - 1
                    chain = _path(parent, i, j)
                    removals = dict.fromkeys(members(sets[c]), bit(d))
                    reason = (
                        f"{d} alternates along conjugate pairs {plan.cells(chain)}, so "
                        f"{plan.cell(i)} and {plan.cell(j)} hold {d} together or not at all, "
                        f"and they see each other (simple colouring)"
                    )
                    return make_step(pos, Technique.SIMPLE_COLOURING, removals, (), chain, reason)
        outside = pos.where[d] & ~(sets[0] | sets[1])
        for t in members(outside):
            one, other = plan.peer_sets[t] & sets[0], plan.peer_sets[t] & sets[1]
            if one and other:
                a, b = one.bit_length() - 1, other.bit_length() - 1
                chain = _path(parent, a, b)
                if best is None or len(chain) < len(best[1]):
                    best = (t, chain)
    if best is None:
        return None
    t, chain = best
    a, b = chain[0], chain[-1]
    reason = (
        f"{d} alternates along conjugate pairs {plan.cells(chain)}, so {plan.cell(a)} or "
        f"{plan.cell(b)} holds {d}, and {plan.cell(t)} sees both (simple colouring)"
    )
    return make_step(pos, Technique.SIMPLE_COLOURING, {t: bit(d)}, (), chain, reason)


def remote_pairs(pos: Position) -> Step | None:
    """Cells holding the same two digits, each seeing the next: the digits alternate
    along them, so a cell seeing two of them an odd number of links apart (three or
    more) loses both digits."""
    plan, masks = pos.plan, pos.masks
    by_pair: dict[int, list[int]] = {}
    for i in bivalues(pos):
        by_pair.setdefault(masks[i], []).append(i)
    best = None
    for pm, cells in by_pair.items():
        if len(cells) < 4:
            continue
        cell_set = sum(1 << i for i in cells)
        links = {i: list(members(plan.peer_sets[i] & cell_set)) for i in cells}
        for colour, parent in _colour(cells, links):
            if len(colour) < 4:
                continue
            if any(colour[i] == colour[j] for i in colour for j in links[i]):
                raise Contradiction(
                    f"{plan.cells(colour)} hold {digits_said(pm, 'or')}, each seeing the next, "
                    f"in a loop of odd length",
                    (),
                    [plan.coords[i] for i in colour],
                )
            sets = [0, 0]
            for i, c in colour.items():
                sets[c] |= 1 << i
            for t, m in enumerate(masks):
                if pos.placed[t] or not m & pm or colour.get(t) is not None:
                    continue
                one, other = plan.peer_sets[t] & sets[0], plan.peer_sets[t] & sets[1]
                if not (one and other):
                    continue
                pick = None
                for a in members(one):
                    for b in members(other):
                        chain = _path(parent, a, b)
                        if len(chain) >= 4 and (pick is None or len(chain) < len(pick)):
                            pick = chain
                if pick is None:
                    continue
                removals = {
                    j: masks[j] & pm
                    for j in range(len(masks))
                    if not pos.placed[j]
                    and masks[j] & pm
                    and j not in colour
                    and plan.peer_sets[j] >> pick[0] & 1
                    and plan.peer_sets[j] >> pick[-1] & 1
                }
                a, b = digits_of(pm)
                reason = (
                    f"{plan.cells(pick)} all hold {a} or {b}, each seeing the next, so the two "
                    f"digits alternate and {plan.cell(pick[0])} and {plan.cell(pick[-1])} hold "
                    f"one each (remote pairs)"
                )
                step = make_step(pos, Technique.REMOTE_PAIRS, removals, (), pick, reason)
                if best is None or len(removals) > len(best[0]):
                    best = (removals, step)
    return best[1] if best else None


# ---------------------------------------------------------------- unique rectangles


def unique_rectangle(pos: Position) -> Step | None:
    """With one solution known: four open cells at the corners of a rectangle, two in
    each of their units, cannot end up holding only a and b (the two digits could swap,
    giving a second solution). Type 1: three corners hold only a or b, so the fourth
    loses both. Type 2: two hold only a or b and the other two also c, so one of those
    is c, and cells seeing both lose c."""
    if not pos.unique:
        return None
    plan, masks = pos.plan, pos.masks
    n = plan.n
    twos = bivalues(pos)
    units = plan.cell_units
    for x_at, x in enumerate(twos):
        pm = masks[x]
        rx, cx = divmod(x, n)
        for y in twos[x_at + 1 :]:
            if masks[y] != pm:
                continue
            ry, cy = divmod(y, n)
            if ry == rx:
                others = [(r, (r * n + cx, r * n + cy)) for r in range(n) if r != rx]
            elif cy == cx:
                others = [(c, (rx * n + c, ry * n + c)) for c in range(n) if c != cx]
            else:
                continue
            for _, (p, q) in others:
                if pos.placed[p] or pos.placed[q]:
                    continue
                if masks[p] & pm != pm or masks[q] & pm != pm:
                    continue
                corners = (x, y, p, q)
                counts: dict[int, int] = {}
                for i in corners:
                    for u in units[i]:
                        counts[u] = counts.get(u, 0) + 1
                if any(c != 2 for c in counts.values()):
                    continue
                a, b = digits_of(pm)
                named = plan.cells(corners)
                if masks[p] == pm or masks[q] == pm:
                    roof = q if masks[p] == pm else p
                    if masks[roof] == pm:
                        raise Contradiction(
                            f"{named} hold only {a} or {b}: two solutions, or none",
                            (),
                            [plan.coords[i] for i in corners],
                        )
                    reason = (
                        f"{plan.cells(c for c in corners if c != roof)} hold only {a} or {b}; "
                        f"if {plan.cell(roof)} were {a} or {b} too, the two digits could swap in "
                        f"{named}, and the puzzle has one solution (a unique rectangle)"
                    )
                    return make_step(
                        pos, Technique.UNIQUE_RECTANGLE, {roof: pm}, (), corners, reason
                    )
                extra_p, extra_q = masks[p] & ~pm, masks[q] & ~pm
                if extra_p == extra_q and extra_p.bit_count() == 1:
                    removals = removals_of(pos, sees_all(pos, (p, q)), extra_p)
                    if removals:
                        c = extra_p.bit_length()
                        reason = (
                            f"{plan.cell(x)} and {plan.cell(y)} hold only {a} or {b}, and "
                            f"{plan.cell(p)} and {plan.cell(q)} also {c}: without {c} there, the "
                            f"two digits could swap in {named}, and the puzzle has one solution, "
                            f"so one of {plan.cell(p)} and {plan.cell(q)} is {c} (a unique "
                            f"rectangle)"
                        )
                        return make_step(
                            pos, Technique.UNIQUE_RECTANGLE, removals, (), corners, reason
                        )
    return None
