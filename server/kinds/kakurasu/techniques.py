"""The techniques of the logical Kakurasu solver, simplest first, each a short function.

Vocabulary, named once:

- *layout* (of a puzzle): the puzzle compiled to indices: cell ``(r, c)`` is ``r * C + c``,
  lines ``0..R+C-1`` (rows, then columns) as in ``puzzle.lines``; a line's position ``j``
  weighs ``j + 1``.
- *position*: every cell's value: shaded (1), white (-1) or open (0).
- *option* (of a line): a set of its positions whose weights make its clue, as a mask
  (bit ``j`` for position ``j``; :func:`.sums.options`). Options *with the shaded cells*
  hold every shaded cell of the line; *live* options also leave out every white one.
- *step*: one deduction: cells shaded or left white (placements of 1 and -1; a cell has
  two values, so ruling one out places the other and a step never eliminates), the line
  that justifies it, and one sentence with the numbers.
- *contradiction*: a position that no shading completes; raised, never returned.

A technique looks at one line (or, the trial, at the whole position) and returns a step
or ``None``; it never changes the position. Every step is implied by the rules and the
position alone: no technique assumes the solution is unique.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable
from collections.abc import Iterable
from dataclasses import dataclass

from numgrid.server.chain import Contradiction
from numgrid.server.chain import Memos
from numgrid.server.chain import capital
from numgrid.server.chain import listed
from numgrid.server.chain import names
from numgrid.server.chain import said
from numgrid.server.core import Budget
from numgrid.server.core import Cell
from numgrid.server.core import Grid
from numgrid.server.core import PuzzleError
from numgrid.server.core import Step
from numgrid.server.core import cell_name

from .checks import check_puzzle
from .model import OPEN
from .model import SHADED
from .model import WHITE
from .model import Line
from .model import Puzzle
from .sums import options
from .sums import weight_of
from .sums import weights_of

SAY = {SHADED: "shaded", WHITE: "white"}  # a value in a sentence
OPTIONS_SHOWN = 4  # most options a sentence lists; more are counted


def value_text(value: int) -> str:
    """How a cell's value reads: ``shaded``, ``white`` (``open`` for 0)."""
    return SAY.get(value, "open")


class Technique(enum.IntEnum):
    """The techniques, simplest first; the value is the difficulty rank."""

    SUM_BOUNDS = 1  # a weight above what a line still needs is white; one it cannot miss, shaded
    COMBINATIONS = 2  # the options of a line's clue with its shaded cells agree on a cell
    CROSSING = 3  # ... once the white cells (most often left so by crossing lines) are out
    TRIAL = 4  # last resort: an assumption, techniques 1-3, a contradiction


# ---------------------------------------------------------------- layout


@dataclass(frozen=True, eq=False)
class Layout:
    """A well-formed puzzle compiled to indices."""

    puzzle: Puzzle
    cols: int
    cells: tuple[Cell, ...]  # cell i is (i // C, i % C)
    lines: tuple[Line, ...]  # rows, then columns
    line_cells: tuple[tuple[int, ...], ...]  # per line, its cells in order of weight
    cell_lines: tuple[tuple[int, int], ...]  # per cell: (its row, its column)


@functools.lru_cache(maxsize=32)
def layout_of(puzzle: Puzzle) -> Layout:
    """Compile ``puzzle``; raise :class:`PuzzleError` if it is not well formed."""
    errors = [f for f in check_puzzle(puzzle) if f.is_error]
    if errors:
        raise PuzzleError(errors)
    rows, cols = puzzle.rows, puzzle.cols
    index = {cell: i for i, cell in enumerate(puzzle.cells)}
    return Layout(
        puzzle=puzzle,
        cols=cols,
        cells=puzzle.cells,
        lines=puzzle.lines,
        line_cells=tuple(tuple(index[c] for c in line.cells) for line in puzzle.lines),
        cell_lines=tuple((i // cols, rows + i % cols) for i in range(rows * cols)),
    )


# ---------------------------------------------------------------- position


class Position(Memos):
    """Every cell's value, plus what each technique found per line (forgotten for the
    lines of a cell that changes, so a chain of steps only re-examines what changed).
    The trial :meth:`poll`\\ s the position's ``budget``, if any."""

    def __init__(self, layout: Layout, values: Iterable[int], budget: Budget | None = None):
        super().__init__(budget, len(Technique) + 1)
        self.layout = layout
        self.values = list(values)
        # assumptions (cell, value) the trial's screen refuted: still refuted later, as a
        # position only gains decided cells
        self.refuted: list[tuple[int, int]] = []

    def copy(self) -> Position:
        other = Position(self.layout, self.values, self.budget)
        self.copy_memos(other)
        other.refuted = list(self.refuted)
        return other

    @property
    def solved(self) -> bool:
        return all(self.values)

    def candidates(self) -> dict[Cell, tuple[int, ...]]:
        return {
            cell: (value,) if value else (WHITE, SHADED)
            for cell, value in zip(self.layout.cells, self.values, strict=True)
        }

    def grid(self) -> Grid:
        """Decided values, ``0`` for open cells."""
        cols = self.layout.cols
        return tuple(tuple(self.values[r : r + cols]) for r in range(0, len(self.values), cols))

    def apply(self, step: Step) -> None:
        """Make the step's placements (an elimination places the other value)."""
        cols = self.layout.cols
        for (r, c), value in step.placements:
            self.place(r * cols + c, value)
        for (r, c), value in step.eliminations:
            self.place(r * cols + c, -value)

    def place(self, i: int, value: int) -> None:
        if self.values[i] == value:
            return
        if self.values[i] != OPEN:
            cell = cell_name(self.layout.cells[i])
            raise Contradiction(
                f"{cell} cannot be both shaded and white",
                [self.layout.lines[x] for x in self.layout.cell_lines[i]],
                [self.layout.cells[i]],
            )
        self.values[i] = value
        for x in self.layout.cell_lines[i]:
            for memo in self._memo:
                memo.pop(x, None)
        self.memo(Technique.TRIAL).clear()


@dataclass(frozen=True)
class View:
    """One line as a position has it: masks over its positions."""

    line: Line
    cells: tuple[int, ...]  # the line's cell indices, in order of weight
    shaded: int
    white: int
    open: int
    need: int  # what the open cells must still add up to (for a line with a clue)

    def cells_of(self, mask: int) -> list[int]:
        return [i for j, i in enumerate(self.cells) if mask >> j & 1]


VIEWS = 0  # memo slot of the lines' views (each technique's slot is its value)


def view(pos: Position, x: int) -> View:
    """Line ``x`` as the position has it (kept until one of its cells changes)."""
    memo = pos.memo(VIEWS)
    found = memo.get(x)
    if found is None:
        cells = pos.layout.line_cells[x]
        shaded = white = 0
        for j, i in enumerate(cells):
            if pos.values[i] == SHADED:
                shaded |= 1 << j
            elif pos.values[i] == WHITE:
                white |= 1 << j
        line = pos.layout.lines[x]
        open_ = ((1 << len(cells)) - 1) & ~(shaded | white)
        need = 0 if line.clue is None else line.clue - weight_of(shaded)
        found = memo[x] = View(line, cells, shaded, white, open_, need)
    return found


# ---------------------------------------------------------------- words


def plus(mask: int) -> str:
    """The weights of a mask added: ``1+2+4``."""
    return "+".join(map(str, weights_of(mask)))


def described(pos: Position, v: View, mask: int) -> str:
    """Cells and their weights: ``r2c4 (5)``, ``r2c1 and r2c4 (2+5)``."""
    cells = [pos.layout.cells[i] for i in v.cells_of(mask)]
    return f"{names(cells)} ({plus(mask)})"


def outcome(pos: Position, placements: dict[int, int]) -> str:
    """``r2c1 and r2c4 are shaded; r2c0 stays white``."""
    parts = []
    for value, one, more in ((SHADED, "is", "are"), (WHITE, "stays", "stay")):
        cells = [pos.layout.cells[i] for i in sorted(placements) if placements[i] == value]
        if cells:
            parts.append(f"{names(cells)} {one if len(cells) == 1 else more} {SAY[value]}")
    return "; ".join(parts)


def make_step(
    pos: Position,
    technique: Technique,
    placements: dict[int, int],
    v: View,
    cells: Iterable[int],
    reason: Callable[[], str],
) -> Step:
    """A step placing ``placements`` (cell index -> value), justified by the line of ``v``
    and ``cells``; ``reason()`` says why (not asked of a quiet position)."""
    layout = pos.layout
    return Step(
        technique,
        tuple((layout.cells[i], placements[i]) for i in sorted(placements)),
        (),
        (v.line,),
        tuple(layout.cells[i] for i in cells),
        said(pos, lambda: f"{capital(reason())}, so {outcome(pos, placements)}."),
    )


def subject(pos: Position, v: View) -> str:
    """``row 2 (clue 9)``, and ``, with r2c4 (5) shaded,`` when some cells are."""
    if not v.shaded:
        return v.line.name
    return f"{v.line.name}, with {described(pos, v, v.shaded)} shaded,"


def made(need: int, found: list[int], free: int) -> str:
    """How ``need`` is made by the options' parts over the ``free`` positions: ``7 = 2+5
    or 3+4``; many options are counted, with the weights they all take or leave."""
    parts = [option & free for option in found]
    if len(parts) == 1:
        return f"{need} = {plus(parts[0]) or 0} only"
    if len(parts) <= OPTIONS_SHOWN:
        return f"{need} = {listed(plus(part) for part in parts)}"
    always, ever = free, 0
    for part in parts:
        always &= part
        ever |= part
    said = [f"{need} can be made {len(parts)} ways"]
    if always:
        said.append(f"each with {listed(weights_of(always), 'and')}")
    if free & ~ever:
        said.append(f"none with {listed(weights_of(free & ~ever))}")
    return ", ".join(said)


# ---------------------------------------------------------------- 1. sum bounds


def sum_bounds(pos: Position, x: int) -> Step | None:
    """What a line still needs against its open weights: one heavier than that is white;
    one without which the others fall short is shaded."""
    v = view(pos, x)
    if v.line.clue is None or not v.open:
        return None
    need, room = v.need, weight_of(v.open)
    if need < 0:
        raise Contradiction(
            f"{v.line.name}: its shaded cells weigh {weight_of(v.shaded)}, more than {v.line.clue}",
            [v.line],
            [pos.layout.cells[i] for i in v.cells_of(v.shaded)],
        )
    if room < need:
        raise Contradiction(
            f"{subject(pos, v)} needs {need} more, but its open cells weigh {room} in all",
            [v.line],
            [pos.layout.cells[i] for i in v.cells],
        )
    heavy = v.open >> need << need  # the weights above what it needs (bit j weighs j + 1)
    needed = v.open >> (room - need) << (room - need)  # without which the rest fall short
    if not heavy | needed:
        return None
    placements = {i: WHITE for i in v.cells_of(heavy)} | {i: SHADED for i in v.cells_of(needed)}

    def reason() -> str:
        if need == 0:
            return f"{v.line.name} is made by {described(pos, v, v.shaded)}"
        parts = []
        if heavy:
            which = weights_of(heavy)
            noun, verb = ("weight", "is") if len(which) == 1 else ("weights", "are")
            parts.append(f"{noun} {listed(which, 'and')} {verb} more than that")
        if needed == v.open:
            noun, verb = ("weight", "makes") if v.open.bit_count() == 1 else ("weights", "make")
            parts.append(f"its open {noun} {plus(v.open)} {verb} exactly that")
        elif needed:
            parts.append(
                f"its open weights {plus(v.open)} add up to {room}, and without "
                f"{listed(weights_of(needed))} the rest make less than {need}"
            )
        more = " more" if v.shaded else ""
        return f"{subject(pos, v)} needs {need}{more}: {'; '.join(parts)}"

    return make_step(pos, Technique.SUM_BOUNDS, placements, v, v.cells_of(v.shaded), reason)


# ---------------------------------------------------------------- 2-3. combinations


def _agreed(v: View, found: list[int]) -> dict[int, int]:
    """The open cells every option shades (1) or none does (-1)."""
    always, ever = -1, 0
    for option in found:
        always &= option
        ever |= option
    placements = {i: SHADED for i in v.cells_of(always & v.open)}
    placements.update({i: WHITE for i in v.cells_of(v.open & ~ever)})
    return placements


def _with_shaded(pos: Position, v: View) -> list[int]:
    """The options of the line's clue that hold its shaded cells; Contradiction if none."""
    found = [o for o in options(len(v.cells), v.line.clue) if o & v.shaded == v.shaded]
    if not found:
        raise Contradiction(
            f"{subject(pos, v)} cannot be made from the rest of its weights",
            [v.line],
            [pos.layout.cells[i] for i in v.cells_of(v.shaded)],
        )
    return found


def combinations(pos: Position, x: int) -> Step | None:
    """The options of a line's clue that hold its shaded cells (its white ones aside)
    agree on an open cell."""
    v = view(pos, x)
    if v.line.clue is None or not v.open:
        return None
    found = _with_shaded(pos, v)
    placements = _agreed(v, found)
    if not placements:
        return None
    more = " more" if v.shaded else ""

    def reason() -> str:
        return f"{subject(pos, v)} needs {v.need}{more}: {made(v.need, found, v.open | v.white)}"

    return make_step(pos, Technique.COMBINATIONS, placements, v, v.cells_of(v.shaded), reason)


def crossing(pos: Position, x: int) -> Step | None:
    """As :func:`combinations`, without the options that shade a white cell: the white
    cells, most often left so by the crossing lines, narrow the line's options down."""
    v = view(pos, x)
    if v.line.clue is None or not v.open:
        return None
    held = _with_shaded(pos, v)
    blocking = 0  # the white cells some option takes
    for option in held:
        blocking |= option & v.white
    if not blocking:  # the options are those of :func:`combinations`
        return None
    found = [o for o in held if not o & v.white]
    whites = names(pos.layout.cells[i] for i in v.cells_of(blocking))
    be = "is" if blocking.bit_count() == 1 else "are"
    named = v.cells_of(v.shaded | blocking)
    if not found:
        raise Contradiction(
            f"{subject(pos, v)} cannot be made: every way takes "
            f"{whites if be == 'is' else 'one of ' + whites}, which {be} white",
            [v.line],
            [pos.layout.cells[i] for i in named],
        )
    placements = _agreed(v, found)
    if not placements:
        return None
    more = " more" if v.shaded else ""

    def reason() -> str:
        return (
            f"{subject(pos, v)} needs {v.need}{more}, and {whites} {be} white: "
            f"{made(v.need, found, v.open)}"
        )

    return make_step(pos, Technique.CROSSING, placements, v, named, reason)


LINE = "line"  # what a technique looks at (or chain.WHOLE)
SCOPES = {LINE: (sum_bounds, combinations, crossing)}  # the trial is :mod:`.logic`'s
