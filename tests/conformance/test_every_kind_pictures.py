"""Every kind draws its puzzles: an SVG document of its size, the same every time, that
cairosvg turns into a PNG; every corpus puzzle draws; and the Render RPC answers the
library's own picture, with the solution and a highlight or bare."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import cairosvg
from numgrid.server import pictures
from numgrid.server.pictures import CELL
from numgrid.server.pictures import MARGIN
from numgrid.server.pictures import Contents
from numgrid.server.pictures import Highlight
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import puzzle_pb2 as pb
from PIL import Image
from support.corpus import corpus
from support.corpus import corpus_ids
from support.corpus import corpus_puzzle
from support.facts import MAX_CELLS
from support.facts import facts
from support.render import library_picture
from support.rpc import text


def test_a_picture_is_an_svg_document_of_its_size(kind):
    puzzle, _ = corpus_puzzle(kind.name, facts(kind).corpus_key)
    picture = kind.picture.draw(puzzle, Contents())
    root = ET.fromstring(picture.svg)
    assert root.tag == f"{{{pictures.SVG_NS}}}svg"
    assert (root.get("width"), root.get("height")) == (str(picture.width), str(picture.height))
    title = root.find(f"{{{pictures.SVG_NS}}}title").text
    assert title.startswith(kind.title) and title.endswith(f" {puzzle.rows}x{puzzle.cols}")
    assert kind.picture.draw(puzzle, Contents()).svg == picture.svg  # the same every time
    image = Image.open(io.BytesIO(cairosvg.svg2png(bytestring=picture.svg.encode())))
    assert image.size == (picture.width, picture.height)


def test_every_corpus_puzzle_draws(kind):
    """Every puzzle of the corpus (every corpus_step-th) gives an SVG that parses and whose
    size is its grid's (and the clues drawn around it) plus the margins."""
    band = facts(kind).picture_band
    for key in corpus_ids(kind.name)[:: facts(kind).corpus_step]:
        puzzle, solution = corpus_puzzle(kind.name, key)
        picture = kind.picture.draw(puzzle, Contents(solution=solution))
        ET.fromstring(picture.svg)
        assert picture.width == 2 * MARGIN + (puzzle.cols + band) * CELL, key
        assert picture.height >= 2 * MARGIN + (puzzle.rows + band) * CELL, key


def test_render_gives_the_librarys_picture(stub, kind):
    problem = corpus(kind.name)[facts(kind).corpus_key]["problem"]
    cell = (1, 1)
    # the kind named: a corpus text may fit two kinds, and detection never picks one
    named = pb.PuzzleKind.Value(f"PUZZLE_KIND_{kind.name.upper()}")
    request = service_pb2.RenderRequest(
        puzzle=text(problem, named),
        show_solution=True,
        highlights=[
            service_pb2.HighlightedCell(
                cell=pb.CellRef(row=1, column=1), highlight=service_pb2.HIGHLIGHT_MISTAKE
            )
        ],
    )
    reply = stub.Render(request, timeout=30)
    expected = library_picture(
        kind,
        problem,
        show_entries=False,
        show_solution=True,
        highlights={cell: Highlight.MISTAKE},
    )
    assert reply.svg == expected.svg
    assert (reply.width, reply.height) == (expected.width, expected.height)
    assert reply.puzzle.WhichOneof("kind") == kind.name
    assert len(reply.solution.rows) == kind.formats.read(problem, None, MAX_CELLS).puzzle.rows
    bare = stub.Render(service_pb2.RenderRequest(puzzle=text(problem, named)), timeout=30)
    assert bare.svg != reply.svg and not bare.HasField("solution")
    assert (
        bare.svg
        == library_picture(
            kind, problem, show_entries=False, show_solution=False, highlights={}
        ).svg
    )
