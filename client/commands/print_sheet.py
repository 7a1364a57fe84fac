"""``numgrid print``: a print sheet of puzzles for a booklet, their solutions after them.

The inputs are those of ``unique`` (files, directories, JSONL files, dataset JSON files;
:func:`numgrid.client.batch_cli.expand`). Each puzzle is drawn by the server (the
Render RPC, once bare and once with its unique solution), and the pictures are laid out
client-side on pages of ``--per-page`` puzzles, numbered, with a caption (number, id,
kind and size); the solutions follow on pages of their own, in the same order and
places. A puzzle the server cannot read, or without a unique solution, is left out
(said on stderr; exit 1).

The pages are SVG documents (:func:`page`); ``--svg-pages DIR`` writes them as they are,
``-o FILE.pdf`` turns each into a PDF page with cairosvg and joins them with pypdf, the
``pictures`` extra (``pip install 'numgrid[pictures]'``).
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from numgrid.v1 import puzzle_pb2

from ..batch import BatchItem
from ..batch_cli import Order
from ..batch_cli import expand
from ..batch_cli import items
from ..cli_args import braces
from ..cli_args import choice
from ..cli_args import positive_int
from ..cli_output import FAILURE
from ..cli_output import NOT_HAPPY
from ..cli_output import OK
from ..cli_output import PROG
from ..cli_output import NoServer
from ..cli_output import UsageError
from ..cli_output import deadline
from ..client import NumgridClient
from ..progress import ProgressBar
from ..render import kind_of
from ..render import shape
from ..types import NumgridError
from ..types import Picture
from ..types import plural
from .base import Command
from .base import Connect
from .base import files_argument

SVG_NS = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG_NS)
EXTRA = "pictures"
MAX_PER_PAGE = 12
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # millimetres, portrait
MARGIN = 15.0  # mm around the page
HEADER = 8.0  # mm: the page's heading ("Puzzles", "Solutions") and its number
CAPTION = 6.0  # mm under each picture
GAP = 6.0  # mm between pictures
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
CALLS_AT_ONCE = 4  # Render calls in flight


def arguments(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help=f"write the book as a PDF (needs the {EXTRA} extra: pip install 'numgrid[{EXTRA}]')",
    )
    sub.add_argument(
        "--svg-pages",
        metavar="DIR",
        help="write each page as an SVG file into DIR (page-001.svg, ...)",
    )
    sub.add_argument(
        "--per-page",
        metavar="N",
        type=positive_int,
        default=4,
        help=f"puzzles on a page, 1 to {MAX_PER_PAGE} (default 4); solutions likewise",
    )
    sub.add_argument(
        "--paper",
        type=choice("--paper", "paper", list(PAPERS)),
        metavar=braces(list(PAPERS)),
        default="a4",
        help="the paper size (default a4)",
    )
    sub.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress bar on stderr (default: for two or more puzzles when stderr is a "
        "terminal)",
    )
    files_argument(sub)


# ---------------------------------------------------------------- the pages


@dataclass(frozen=True)
class Entry:
    """One puzzle of the book: its number, caption and both pictures."""

    number: int
    caption: str
    puzzle: Picture
    solution: Picture


def caption(number: int, source: str, puzzle: puzzle_pb2.Puzzle) -> str:
    """``3. 02_4x4 · Title 4x4``: a file's name without its folders, the kind's title
    (and its variant's name: ``Title X 9x9``)."""
    name = os.path.basename(source) if os.sep in source else source
    rows, cols = shape(puzzle)
    drawing = kind_of(puzzle)
    title = " ".join(filter(None, (drawing.title, drawing.variant(getattr(puzzle, drawing.name)))))
    return f"{number}. {name} \u00b7 {title} {rows}x{cols}"


def layout(per_page: int) -> tuple[int, int]:
    """Columns and rows of the places on a portrait page: 1x1, 1x2, 2x2, 2x3, 3x3, 3x4."""
    cols = 1 if per_page <= 2 else 2 if per_page <= 6 else 3
    return cols, math.ceil(per_page / cols)


def _text(parent: ET.Element, x: float, y: float, text: str, size: float, anchor: str) -> None:
    element = ET.SubElement(
        parent,
        "text",
        {"x": f"{x:g}", "y": f"{y:g}", "font-size": f"{size:g}", "text-anchor": anchor},
    )
    element.text = text


def page(
    entries: list[Entry],
    *,
    solutions: bool,
    per_page: int,
    number: int,
    paper: str = "a4",
) -> str:
    """One page as an SVG document in millimetres: its heading and number, and each
    entry's picture (the solution's with ``solutions``) in its place, with its caption."""
    width, height = PAPERS[paper]
    root = ET.Element(
        f"{{{SVG_NS}}}svg",
        {
            "width": f"{width:g}mm",
            "height": f"{height:g}mm",
            "viewBox": f"0 0 {width:g} {height:g}",
            "font-family": FONT,
        },
    )
    ET.SubElement(root, "rect", {"width": "100%", "height": "100%", "fill": "#ffffff"})
    heading = "Solutions" if solutions else "Puzzles"
    _text(root, MARGIN, MARGIN + 4, heading, 5, "start")
    _text(root, width - MARGIN, MARGIN + 4, str(number), 4, "end")
    cols, rows = layout(per_page)
    top = MARGIN + HEADER
    place_w = (width - 2 * MARGIN - (cols - 1) * GAP) / cols
    place_h = (height - top - MARGIN - (rows - 1) * GAP) / rows
    for i, entry in enumerate(entries):
        x = MARGIN + (i % cols) * (place_w + GAP)
        y = top + (i // cols) * (place_h + GAP)
        picture = entry.solution if solutions else entry.puzzle
        room_h = place_h - CAPTION
        scale = min(place_w / picture.width, room_h / picture.height)
        w, h = picture.width * scale, picture.height * scale
        top_of = y + (room_h - h) / 2
        drawn = ET.fromstring(picture.svg)
        drawn.set("x", f"{x + (place_w - w) / 2:.2f}")
        drawn.set("y", f"{top_of:.2f}")
        drawn.set("width", f"{w:.2f}")
        drawn.set("height", f"{h:.2f}")
        root.append(drawn)
        _text(root, x + place_w / 2, top_of + h + CAPTION - 2, entry.caption, 3.5, "middle")
    return ET.tostring(root, encoding="unicode")


def pages(entries: list[Entry], per_page: int, paper: str = "a4") -> list[str]:
    """The puzzles' pages, then the solutions' pages, numbered from 1."""
    chunks = [entries[i : i + per_page] for i in range(0, len(entries), per_page)]
    out: list[str] = []
    for solutions in (False, True):
        for chunk in chunks:
            number = len(out) + 1
            out.append(
                page(chunk, solutions=solutions, per_page=per_page, number=number, paper=paper)
            )
    return out


def pdf(pages_svg: list[str]) -> bytes:
    """The pages as one PDF: each SVG page drawn by cairosvg, joined by pypdf."""
    import cairosvg
    from pypdf import PdfReader
    from pypdf import PdfWriter

    writer = PdfWriter()
    for svg in pages_svg:
        writer.append(PdfReader(io.BytesIO(cairosvg.svg2pdf(bytestring=svg.encode()))))
    writer.compress_identical_objects()  # the fonts every page embeds, once
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def missing_extra() -> str | None:
    """The sentence saying the pictures extra is missing, or None when it is there."""
    try:
        import cairosvg  # noqa: F401  # loads libcairo: OSError when it is not installed
        import pypdf  # noqa: F401
    except (ImportError, OSError) as e:
        return (
            f"a PDF needs the {EXTRA} extra ({e}): pip install 'numgrid[{EXTRA}]', "
            "or write SVG pages with --svg-pages DIR"
        )
    return None


# ---------------------------------------------------------------- the command


def _draw(
    client: NumgridClient, args: argparse.Namespace, item: BatchItem
) -> tuple[Picture, Picture]:
    """The puzzle bare, and with its unique solution (both Render calls)."""
    limit = args.timeout
    options = {
        "format": item.format or (None if args.format == "auto" else args.format),
        "kind": item.kind or (None if args.kind == "auto" else args.kind),
        "engine": args.engine,
        "timeout": deadline(limit),
    }
    bare = client.render(item.puzzle, **options)
    solved = client.render(item.puzzle, show_solution=True, time_limit=limit, **options)
    return bare, solved


def _check(args: argparse.Namespace) -> None:
    if not args.output and not args.svg_pages:
        raise UsageError("print needs -o FILE.pdf or --svg-pages DIR (or both)")
    if args.per_page > MAX_PER_PAGE:
        raise UsageError(f"--per-page: at most {MAX_PER_PAGE} puzzles fit on a page")
    if args.output:
        sentence = missing_extra()
        if sentence:
            raise UsageError(sentence)


def run(args: argparse.Namespace, connect: Connect, width: int) -> int:
    """``numgrid print``: the exit code (0 every puzzle printed, 1 some left out, 2 none
    printed or a usage error)."""
    try:
        _check(args)
    except UsageError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return FAILURE
    sources = expand(args.files)
    total = sum(s.count for s in sources)
    order = Order("print")
    fmt = None if args.format == "auto" else args.format
    kind = None if args.kind == "auto" else args.kind
    todo = items(sources, fmt, kind, set(), order)
    show = args.progress if args.progress is not None else total > 1 and sys.stderr.isatty()
    entries: list[Entry] = []
    left_out: list[dict] = []

    def leave_out(source: str, message: str, progress: ProgressBar) -> None:
        left_out.append({"source": source, "message": message})
        progress.error(f"{PROG}: {source}: left out: {message}")

    with ProgressBar(total, show, "drawing") as progress:
        client = connect()
        with ThreadPoolExecutor(CALLS_AT_ONCE) as pool:
            for item, future in _in_order(pool, todo, lambda it: _draw(client, args, it)):
                for _, out in order.drain():  # unreadable files and lines
                    leave_out(out.source, out.errors[0]["message"], progress)
                    progress.advance()
                try:
                    bare, solved = future.result()
                except NumgridError as e:
                    if e.code == "UNAVAILABLE":
                        raise NoServer(e.message) from None
                    leave_out(item.id, e.message, progress)
                else:
                    number = len(entries) + 1
                    text = caption(number, item.id, bare.puzzle)
                    entries.append(Entry(number, text, bare, solved))
                progress.advance()
        for _, out in order.drain():
            leave_out(out.source, out.errors[0]["message"], progress)
    if not entries:
        print(f"{PROG}: no puzzle to print", file=sys.stderr)
        return FAILURE
    return _write(args, entries, left_out)


def _in_order(pool, todo, work) -> Iterator:
    """``(item, future)`` for each item of ``todo`` in order, at most CALLS_AT_ONCE
    running ahead of the one handed out."""
    window: list = []
    for item in todo:
        window.append((item, pool.submit(work, item)))
        if len(window) >= CALLS_AT_ONCE:
            yield window.pop(0)
    yield from window


def _write(args: argparse.Namespace, entries: list[Entry], left_out: list[dict]) -> int:
    sheets = pages(entries, args.per_page, args.paper)
    written = []
    try:
        if args.svg_pages:
            folder = Path(args.svg_pages)
            folder.mkdir(parents=True, exist_ok=True)
            for i, svg in enumerate(sheets, 1):
                (folder / f"page-{i:03d}.svg").write_text(svg, encoding="utf-8")
            written.append(str(folder))
        if args.output:
            Path(args.output).write_bytes(pdf(sheets))
            written.append(args.output)
    except OSError as e:
        print(f"{PROG}: cannot write {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        return FAILURE
    half = len(sheets) // 2
    code = NOT_HAPPY if left_out else OK
    if args.json:
        record = {
            "command": "print",
            "status": "PRINTED",
            "outputs": written,
            "puzzles": len(entries),
            "pages": len(sheets),
            "solution_pages_from": half + 1,
            "left_out": left_out,
        }
        print(json.dumps(record))
    else:
        more = f"; {len(left_out)} left out" if left_out else ""
        print(
            f"{' and '.join(written)}: {plural(len(entries), 'puzzle')} on "
            f"{_pages(1, half)}, {'its solution' if len(entries) == 1 else 'their solutions'} "
            f"on {_pages(half + 1, len(sheets))}{more}"
        )
    return code


def _pages(first: int, last: int) -> str:
    return f"page {first}" if first == last else f"pages {first}-{last}"


HELP = "a print sheet (PDF or SVG pages): puzzles, then their solutions on later pages"
MORE = (
    "FILE may also be a directory (its puzzle files), a JSONL file or a dataset JSON, "
    "as for unique. Each puzzle is drawn by the server (Render); a puzzle without a unique "
    "solution is left out."
)
COMMAND = Command("print", HELP, arguments, run, more=MORE)
