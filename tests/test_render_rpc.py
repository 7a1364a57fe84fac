"""The Render RPC against a real ``numgrid-server``, through both clients, and the CLI's
``render --svg`` and ``print`` run as a user runs them (subprocesses): the server's
picture is the library's, bad input is INVALID_ARGUMENT with the details every method
gives, the files written are an SVG that draws and a PDF with the right pages."""

from __future__ import annotations

import asyncio
import io
import json
import os
import xml.etree.ElementTree as ET

import cairosvg
import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from numgrid.client import NumgridClient
from numgrid.client import NumgridError
from numgrid.client.aio import AsyncNumgridClient
from numgrid.server import pictures
from numgrid.server.kinds import KINDS
from numgrid.server.pictures import CELL
from numgrid.server.pictures import MARGIN
from numgrid.server.pictures import Highlight
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import puzzle_pb2 as pb
from PIL import Image
from pypdf import PdfReader
from support.client import numgrid
from support.corpus import corpus
from support.render import library_picture

MAX_CELLS = 10_000
CASES = [
    ("kakuro", "2_10x12"),
    ("kenken", "02_4x4"),
    ("skyscraper", "23_5x5"),
    ("kakurasu", "302_5x5"),
]
MULTIPLE = "puzzles/multiple-4x4.txt"


def problem(kind: str, key: str) -> str:
    return corpus(kind)[key]["problem"]


def text_input(content: str) -> pb.PuzzleInput:
    return pb.PuzzleInput(text=pb.PuzzleText(content=content))


def details(error: grpc.RpcError) -> tuple[list[tuple[str, str]], str]:
    """The BadRequest violations and the ErrorInfo reason of a failed call."""
    status = rpc_status.from_call(error)
    violations, reason = [], ""
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            violations += [(v.field, v.description) for v in bad.field_violations]
        elif detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            reason = info.reason
    return violations, reason


# ---------------------------------------------------------------- the RPC


def test_render_logs_one_line(stub, server_process):
    mark = server_process.log_mark()
    stub.Render(service_pb2.RenderRequest(puzzle=text_input(problem("kenken", "02_4x4"))))
    lines = [line for line in server_process.log_since(mark) if "method=Render" in line]
    assert len(lines) == 1 and "status=OK" in lines[0] and "kind=kenken" in lines[0]


def test_an_invalid_puzzle_is_invalid_argument_as_for_solve(stub):
    text = "3 3\n- 4, 6,\n,3 0 0\n,7 0 x\n"  # a bad token
    with pytest.raises(grpc.RpcError) as rendered:
        stub.Render(service_pb2.RenderRequest(puzzle=text_input(text)), timeout=30)
    with pytest.raises(grpc.RpcError) as solved:
        stub.Solve(service_pb2.SolveRequest(puzzle=text_input(text)), timeout=30)
    assert rendered.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert rendered.value.details() == solved.value.details()
    assert details(rendered.value) == details(solved.value)
    assert details(rendered.value)[0]  # with its field violations


@pytest.mark.parametrize(
    "fields, field, reason",
    [
        ({"highlights": [{"cell": {"row": 4, "column": 0}}]}, "highlights[0].cell", "HIGHLIGHT"),
        (
            {"highlights": [{"cell": {"row": 0, "column": 0}, "highlight": 9}]},
            "highlights[0].highlight",
            "HIGHLIGHT",
        ),
        (
            {"highlights": [{"cell": {"row": 0, "column": 0}}, {"cell": {"row": 0, "column": 0}}]},
            "highlights[1].cell",
            "HIGHLIGHT",
        ),
        ({"format": 7}, "format", "INVALID_PUZZLE"),
    ],
)
def test_bad_highlights_and_formats_are_invalid_argument(stub, fields, field, reason):
    from google.protobuf import json_format

    request = json_format.ParseDict(fields, service_pb2.RenderRequest())
    request.puzzle.CopyFrom(text_input(problem("kenken", "02_4x4")))
    with pytest.raises(grpc.RpcError) as failed:
        stub.Render(request, timeout=30)
    assert failed.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    violations, got = details(failed.value)
    assert [f for f, _ in violations] == [field]
    assert reason in got


def test_the_solution_of_a_puzzle_with_several_is_invalid_argument(stub):
    with open(MULTIPLE) as f:
        text = f.read()
    request = service_pb2.RenderRequest(puzzle=text_input(text), show_solution=True)
    with pytest.raises(grpc.RpcError) as failed:
        stub.Render(request, timeout=30)
    assert failed.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    violations, reason = details(failed.value)
    assert violations == [
        ("show_solution", "the puzzle has several solutions, so there is no solution to draw")
    ]
    assert reason == "NO_UNIQUE_SOLUTION"
    assert stub.Render(service_pb2.RenderRequest(puzzle=text_input(text))).svg  # bare: fine


# ---------------------------------------------------------------- the clients


def test_both_clients_render_the_same_picture(server_process):
    text = problem("kenken", "02_4x4")
    marks = {(0, 0): "hint", (3, 3): "mistake"}
    with NumgridClient(server_process.target, timeout=30) as client:
        picture = client.render(text, show_solution=True, highlights=marks)
        with pytest.raises(NumgridError) as failed:
            client.render(text, highlights={(9, 9): "hint"})
        with pytest.raises(ValueError, match="unknown highlight"):
            client.render(text, highlights={(0, 0): "bold"})

    async def go():
        async with AsyncNumgridClient(server_process.target, timeout=30) as client:
            return await client.render(text, show_solution=True, highlights=marks)

    assert asyncio.run(go()) == picture
    assert picture.solution == ((3, 4, 1, 2), (2, 3, 4, 1), (1, 2, 3, 4), (4, 1, 2, 3))
    expected = library_picture(
        KINDS["kenken"],
        text,
        show_entries=False,
        show_solution=True,
        highlights={(0, 0): Highlight.HINT, (3, 3): Highlight.MISTAKE},
    )
    assert picture.svg == expected.svg
    assert failed.value.code == "INVALID_ARGUMENT"
    assert failed.value.violations[0].field == "highlights[0].cell"


# ---------------------------------------------------------------- the CLI


def png(svg: str) -> Image.Image:
    return Image.open(io.BytesIO(cairosvg.svg2png(bytestring=svg.encode()))).convert("RGB")


def test_render_svg_writes_the_picture(tmp_path, server):
    out = tmp_path / "kenken.svg"
    done = numgrid(
        "render",
        *server,
        "--svg",
        str(out),
        "--solution",
        "--mistake",
        "r1c2",
        "puzzles/kenken-4x4.txt",
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "puzzles/kenken-4x4.txt: RENDERED"
    assert lines[-1].startswith(f"picture: {out} (")
    svg = out.read_text()
    root = ET.fromstring(svg)
    assert root.tag == f"{{{pictures.SVG_NS}}}svg"
    image = png(svg)
    assert image.size == (int(root.get("width")), int(root.get("height")))
    x, y = MARGIN + 2.85 * CELL, MARGIN + 1.85 * CELL  # r1c2's bottom right corner
    fill = pictures.HIGHLIGHT_FILL[Highlight.MISTAKE]
    pixel = image.getpixel((int(x), int(y)))
    assert all(
        abs(a - int(fill[i : i + 2], 16)) <= 3 for a, i in zip(pixel, (1, 3, 5), strict=True)
    )


def test_render_svg_of_several_files_fills_a_folder(tmp_path):
    folder = tmp_path / "pictures"
    files = ["puzzles/kenken-4x4.txt", "puzzles/kakuro-10x12.txt"]
    done = numgrid("render", "--json", "--svg", str(folder), *files)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["svg"] for r in records] == [
        str(folder / "kenken-4x4.svg"),
        str(folder / "kakuro-10x12.svg"),
    ]
    for record in records:
        ET.fromstring((folder / os.path.basename(record["svg"])).read_text())
        assert record["board"] and record["width"] > 0


def test_render_svg_of_a_puzzle_without_a_unique_solution(tmp_path):
    out = tmp_path / "x.svg"
    done = numgrid("render", "--svg", str(out), "--solution", MULTIPLE)
    assert done.returncode == 1 and not out.exists()
    assert "several solutions" in done.stdout


def test_render_options_need_svg():
    done = numgrid("render", "--solution", "puzzles/kenken-4x4.txt")
    assert done.returncode == 2 and "go with --svg OUT" in done.stderr


def write_puzzles(folder, count: int) -> list[str]:
    """``count`` corpus puzzles of every kind in turn, one file each."""
    folder.mkdir()
    names = []
    for i in range(count):
        kind, key = CASES[i % len(CASES)]
        keys = list(corpus(kind))
        key = keys[i // len(CASES)]
        path = folder / f"{i:02d}-{kind}-{key}.txt"
        path.write_text(problem(kind, key))
        names.append(str(path))
    return names


def test_print_a_book_of_a_folder(tmp_path, server):
    write_puzzles(tmp_path / "in", 9)
    book = tmp_path / "book.pdf"
    pages = tmp_path / "pages"
    done = numgrid(
        "print",
        *server,
        str(tmp_path / "in"),
        "--per-page",
        "4",
        "-o",
        str(book),
        "--svg-pages",
        str(pages),
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    assert "9 puzzles on pages 1-3, their solutions on pages 4-6" in done.stdout
    assert len(PdfReader(book).pages) == 6  # 3 pages of puzzles, 3 of solutions
    svgs = sorted(pages.iterdir())
    assert [p.name for p in svgs] == [f"page-{i:03d}.svg" for i in range(1, 7)]
    first, fourth = (ET.fromstring(p.read_text()) for p in (svgs[0], svgs[3]))
    texts = [e.text for e in first.iter() if e.tag.endswith("text")]
    assert "Puzzles" in texts and "1. 00-kakuro-2_10x12.txt \u00b7 Kakuro 10x12" in texts
    assert "Solutions" in [e.text for e in fourth.iter() if e.tag.endswith("text")]
    nested = [e for e in first if e.tag.endswith("svg")]
    assert len(nested) == 4  # four puzzles on the first page, each the server's picture
    assert png(svgs[0].read_text()).size[0] > 0


def test_print_names_the_x_variant_and_one_puzzle_has_its_solution(tmp_path):
    plain = "3x3:5c1b7a7_2_8_3a5_4p7_8a1a6a5a9a4a3a7_1p4_8a6_1_9_5a8b9c2"  # sgt-solo's
    crossed = "3x3x:l8a4b9b2b1b7_2a5e3_6a9c4a2_4e8a6_1b9b5b8b2a5l"
    captions = []
    for name, text in (("plain.txt", plain), ("crossed.txt", crossed)):
        (tmp_path / name).write_text(text + "\n")
        pages = tmp_path / f"{name}-pages"
        done = numgrid("print", str(tmp_path / name), "--svg-pages", str(pages))
        assert done.returncode == 0, done.stderr
        assert "1 puzzle on page 1, its solution on page 2" in done.stdout
        first = ET.fromstring((pages / "page-001.svg").read_text())
        captions += [e.text for e in first.iter() if e.tag.endswith("text") and name in e.text]
    assert captions == ["1. plain.txt \u00b7 Sudoku 9x9", "1. crossed.txt \u00b7 Sudoku X 9x9"]


def test_print_a_dataset_leaves_out_what_has_no_unique_solution(tmp_path):
    data = {key: corpus("kenken")[key] for key in list(corpus("kenken"))[:4]}
    with open(MULTIPLE) as f:
        data["several"] = {"problem": f.read()}
    dataset = tmp_path / "set.json"
    # Not named "KenKen": a dataset's name decides its kind, and "several" is a Kakuro.
    dataset.write_text(json.dumps({"name": "mixed", "count": len(data), "data": data}))
    book = tmp_path / "book.pdf"
    done = numgrid("print", "--json", str(dataset), "--per-page", "1", "-o", str(book))
    assert done.returncode == 1  # one left out
    (record,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert record["puzzles"] == 4 and record["pages"] == 8
    assert [e["source"] for e in record["left_out"]] == ["several"]
    assert "several: left out: the puzzle has several solutions" in done.stderr
    assert len(PdfReader(book).pages) == 8


def test_print_says_which_extra_a_pdf_needs(tmp_path):
    blocker = tmp_path / "blocked"
    blocker.mkdir()
    (blocker / "cairosvg.py").write_text("raise ImportError('No module named cairosvg')\n")
    done = numgrid(
        "print",
        "puzzles/kenken-4x4.txt",
        "-o",
        str(tmp_path / "b.pdf"),
        env={"PYTHONPATH": str(blocker)},
    )
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert "pip install 'numgrid[pictures]'" in line and "--svg-pages" in line
    assert not (tmp_path / "b.pdf").exists()


def test_print_needs_an_output():
    done = numgrid("print", "puzzles/kenken-4x4.txt")
    assert done.returncode == 2 and "-o FILE.pdf or --svg-pages DIR" in done.stderr
