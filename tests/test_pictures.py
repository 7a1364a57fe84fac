"""Pictures of real corpus puzzles, drawn by each kind (``Kind.picture.draw``) and turned into
PNG by cairosvg, are checked pixel by pixel where it matters: a KenKen's cage borders
bold exactly between cells of different cages, a Kakuro clue cell's light diagonal, the
colour of a highlighted cell, a Kakurasu's shaded cells where the published solution
shades them, a Skyscraper's clues outside the grid where the puzzle has them."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import cairosvg
import pytest
from numgrid.server import pictures
from numgrid.server.kinds import KINDS
from numgrid.server.kinds.kakurasu import formats as kakurasu_formats
from numgrid.server.kinds.kenken import formats as kenken_formats
from numgrid.server.kinds.skyscraper import formats as skyscraper_formats
from numgrid.server.kinds.skyscraper.model import SIDES
from numgrid.server.kinds.skyscraper.model import Side
from numgrid.server.pictures import CELL
from numgrid.server.pictures import MARGIN
from numgrid.server.pictures import Contents
from numgrid.server.pictures import Highlight
from PIL import Image
from support.corpus import corpus

MAX_CELLS = 10_000


def read(kind: str, key: str):
    """The corpus puzzle ``key`` of ``kind`` and its published solution."""
    entry = corpus(kind)[key]
    puzzle = KINDS[kind].formats.read(entry["problem"], None, MAX_CELLS).puzzle
    return puzzle, entry["solution"]


def png(picture: pictures.Picture) -> Image.Image:
    image = Image.open(io.BytesIO(cairosvg.svg2png(bytestring=picture.svg.encode())))
    assert image.size == (picture.width, picture.height)
    return image.convert("RGB")


def dark(pixel) -> bool:
    return sum(pixel) < 3 * 100


def light(pixel) -> bool:
    return min(pixel) > 180


def close(pixel, colour: str, tolerance: int = 3) -> bool:
    wanted = tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, wanted, strict=True))


def origin(band: int = 0) -> float:
    """Where the grid starts (x and y) in a picture with ``band`` cells of clues around."""
    return MARGIN + band * CELL


def at(image: Image.Image, x: float, y: float):
    return image.getpixel((int(x), int(y)))


# ---------------------------------------------------------------- KenKen


@pytest.mark.parametrize("key", ["02_4x4", "90_9x9"])
def test_kenken_cage_borders_are_bold_between_cages_only(key):
    puzzle, _ = read("kenken", key)
    image = png(KINDS["kenken"].picture.draw(puzzle, Contents()))
    o, n, cage = origin(), puzzle.size, puzzle.cage_of
    borders = insides = 0
    for r in range(n):
        for c in range(n - 1):  # the line between (r, c) and (r, c + 1), low in the cell
            pixel = at(image, o + (c + 1) * CELL, o + r * CELL + CELL * 0.8)
            if cage[(r, c)] != cage[(r, c + 1)]:
                assert dark(pixel), f"no cage border between r{r}c{c} and r{r}c{c + 1}"
                borders += 1
            else:
                assert light(pixel), f"a bold line inside the cage of r{r}c{c}: {pixel}"
                insides += 1
    for r in range(n - 1):
        for c in range(n):  # the line between (r, c) and (r + 1, c), right in the cell
            pixel = at(image, o + c * CELL + CELL * 0.8, o + (r + 1) * CELL)
            same = cage[(r, c)] == cage[(r + 1, c)]
            assert light(pixel) if same else dark(pixel), (r, c, pixel)
    assert borders and insides  # the puzzle has both, so both were checked


def test_kenken_labels_sit_in_each_cages_first_cell():
    puzzle, _ = read("kenken", "02_4x4")
    image = png(KINDS["kenken"].picture.draw(puzzle, Contents()))
    o = origin()
    first = {cage.clue_cell for cage in puzzle.cages}
    for r in range(puzzle.size):
        for c in range(puzzle.size):
            corner = [
                at(image, o + c * CELL + dx, o + r * CELL + dy)
                for dx in range(5, 20)
                for dy in range(5, 14)
            ]
            assert any(map(dark, corner)) == ((r, c) in first), (r, c)
    labels = [e.text for e in ET.fromstring(KINDS["kenken"].picture.draw(puzzle, Contents()).svg)]
    assert "16\u00d7" in labels and "2\u00f7" in labels and "3\u2212" in labels  # 16x 2/ 3-


def test_entries_and_solution_in_their_own_inks():
    puzzle, published = read("kenken", "02_4x4")
    solution = kenken_formats.read_solution(published)
    entries = tuple(
        tuple(digit if r == 0 else 0 for digit in row) for r, row in enumerate(solution)
    )
    image = png(KINDS["kenken"].picture.draw(puzzle, Contents(entries, solution)))
    o = origin()

    def inks(cell):
        r, c = cell
        box = [
            at(image, o + c * CELL + dx, o + r * CELL + dy)
            for dx in range(8, CELL - 8)
            for dy in range(16, CELL - 3)
        ]
        return any(close(p, pictures.SOLUTION_INK, 60) for p in box), any(map(dark, box))

    assert inks((0, 1)) == (False, True)  # entered: black
    assert inks((2, 1))[0]  # from the solution: blue
    bare = png(KINDS["kenken"].picture.draw(puzzle, Contents()))
    assert light(at(bare, o + 1.5 * CELL, o + 2.6 * CELL))  # no digit without contents


# ---------------------------------------------------------------- Kakuro


def test_kakuro_clue_cells_have_a_light_diagonal_on_dark():
    puzzle, _ = read("kakuro", "2_10x12")
    image = png(KINDS["kakuro"].picture.draw(puzzle, Contents()))
    o = origin()
    both = [
        (r, c)
        for r, row in enumerate(puzzle.squares)
        for c, sq in enumerate(row)
        if sq is not None and sq.down is not None and sq.across is not None
    ]
    assert both
    for r, c in both:
        x, y = o + c * CELL, o + r * CELL
        for t in (0.25, 0.5, 0.75):  # on the diagonal, top left to bottom right
            assert light(at(image, x + t * CELL, y + t * CELL)), (r, c, t)
        assert dark(at(image, x + 0.5 * CELL, y + 0.15 * CELL))  # above it
        assert dark(at(image, x + 0.15 * CELL, y + 0.5 * CELL))  # below it
        for t in (0.08, 0.92):  # no anti-diagonal (its ends, clear of the numbers)
            assert dark(at(image, x + t * CELL, y + (1 - t) * CELL)), (r, c, t)
    black = [
        (r, c)
        for r, row in enumerate(puzzle.squares)
        for c, sq in enumerate(row)
        if sq is not None and sq.down is None and sq.across is None
    ]
    for r, c in black:  # no clue: dark all over, no diagonal
        assert dark(at(image, o + (c + 0.5) * CELL, o + (r + 0.5) * CELL))
    for r, c in puzzle.white_cells:
        assert light(at(image, o + (c + 0.5) * CELL, o + (r + 0.5) * CELL))


def test_kakuro_clue_numbers_are_drawn_in_their_halves():
    puzzle, _ = read("kakuro", "2_10x12")
    svg = KINDS["kakuro"].picture.draw(puzzle, Contents()).svg
    texts = [e.text for e in ET.fromstring(svg) if e.tag.endswith("text")]
    clues = [
        str(v)
        for row in puzzle.squares
        for sq in row
        if sq is not None
        for v in (sq.down, sq.across)
        if v is not None
    ]
    assert sorted(texts) == sorted(clues)


# ---------------------------------------------------------------- highlights


def test_highlighted_cells_take_their_colour():
    puzzle, _ = read("kenken", "02_4x4")
    marks = {(1, 1): Highlight.HINT, (2, 3): Highlight.MISTAKE}
    image = png(KINDS["kenken"].picture.draw(puzzle, Contents(highlights=marks)))
    o = origin()
    for r in range(puzzle.size):
        for c in range(puzzle.size):
            pixel = at(image, o + (c + 0.85) * CELL, o + (r + 0.85) * CELL)
            style = marks.get((r, c))
            expected = pictures.HIGHLIGHT_FILL[style] if style else pictures.PAPER
            assert close(pixel, expected), ((r, c), pixel)
    assert pictures.HIGHLIGHT_FILL[Highlight.HINT] != pictures.HIGHLIGHT_FILL[Highlight.MISTAKE]


def test_a_highlighted_clue_cell_gets_a_frame():
    puzzle, _ = read("kakuro", "2_10x12")
    clue = next(
        (r, c)
        for r, row in enumerate(puzzle.squares)
        for c, sq in enumerate(row)
        if sq is not None and sq.across is not None
    )
    image = png(
        KINDS["kakuro"].picture.draw(puzzle, Contents(highlights={clue: Highlight.MISTAKE}))
    )
    x, y = origin() + clue[1] * CELL, origin() + clue[0] * CELL
    assert close(at(image, x + 4, y + CELL * 0.6), pictures.HIGHLIGHT_FILL[Highlight.MISTAKE])
    assert dark(at(image, x + CELL * 0.5, y + CELL * 0.15))  # still a dark cell inside


# ---------------------------------------------------------------- Kakurasu


def test_kakurasu_shades_the_solutions_cells():
    puzzle, published = read("kakurasu", "302_5x5")
    solution = kakurasu_formats.read_solution(published)
    o = origin(1)
    image = png(KINDS["kakurasu"].picture.draw(puzzle, Contents(solution=solution)))
    bare = png(KINDS["kakurasu"].picture.draw(puzzle, Contents()))
    shaded = 0
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            centre = (o + (c + 0.5) * CELL, o + (r + 0.5) * CELL)
            if solution[r][c] == 1:
                assert dark(at(image, *centre)), (r, c)
                shaded += 1
            else:
                assert light(at(image, *centre)), (r, c)
            assert light(at(bare, *centre))
    assert 0 < shaded < puzzle.rows * puzzle.cols


def test_kakurasu_weights_and_clues_around_the_grid():
    puzzle, published = read("kakurasu", "302_5x5")
    svg = KINDS["kakurasu"].picture.draw(puzzle, Contents()).svg
    texts = [e.text for e in ET.fromstring(svg) if e.tag.endswith("text")]
    weights = [str(i + 1) for i in range(puzzle.cols)] + [str(i + 1) for i in range(puzzle.rows)]
    clues = [str(v) for v in (*puzzle.column_clues, *puzzle.row_clues) if v is not None]
    assert sorted(texts) == sorted(weights + clues)
    # A highlighted shaded cell keeps a frame of its colour around the shade.
    solution = kakurasu_formats.read_solution(published)
    cell = next((r, c) for r, row in enumerate(solution) for c, v in enumerate(row) if v == 1)
    contents = Contents(solution=solution, highlights={cell: Highlight.HINT})
    image = png(KINDS["kakurasu"].picture.draw(puzzle, contents))
    x, y = origin(1) + cell[1] * CELL, origin(1) + cell[0] * CELL
    assert close(at(image, x + 3, y + CELL / 2), pictures.HIGHLIGHT_FILL[Highlight.HINT])
    assert dark(at(image, x + CELL / 2, y + CELL / 2))


# ---------------------------------------------------------------- Skyscraper


def test_skyscraper_clues_are_outside_the_grid_where_given():
    puzzle, published = read("skyscraper", "23_5x5")
    image = png(KINDS["skyscraper"].picture.draw(puzzle, Contents()))
    n, o = puzzle.size, origin(1)
    seen = {True: 0, False: 0}
    for side in SIDES:
        for i, clue in enumerate(puzzle.clues(side)):
            r, c = side.clue_cell(i, n)
            box = [  # the clue's place, off the grid's frame
                at(image, o + c * CELL + dx, o + r * CELL + dy)
                for dx in range(4, CELL - 4)
                for dy in range(4, CELL - 4)
            ]
            assert any(map(dark, box)) == bool(clue), (side, i, clue)
            seen[bool(clue)] += 1
    assert seen[True] and seen[False]
    # Inside the grid of the bare puzzle (no givens): nothing but lines.
    for r in range(n):
        for c in range(n):
            assert light(at(image, o + (c + 0.5) * CELL, o + (r + 0.5) * CELL))
    # The solution's empty lots are crossed out (the cross's middle is dark).
    solution = skyscraper_formats.read_solution(published)
    solved = png(KINDS["skyscraper"].picture.draw(puzzle, Contents(solution=solution)))
    lots = [(r, c) for r in range(n) for c in range(n) if solution[r][c] == -1]
    assert len(lots) == n * (n - puzzle.height)
    for r, c in lots:
        assert dark(at(solved, o + (c + 0.5) * CELL, o + (r + 0.5) * CELL))
    assert Side.TOP in SIDES
