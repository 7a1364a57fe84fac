#!/usr/bin/env node
// Calling numgrid from Node.js: solve a puzzle, then send a broken one and decode the
// google.rpc error details the server attaches to its INVALID_ARGUMENT.
//
//   node solve.js [HOST:PORT] [PUZZLE] [BROKEN_PUZZLE]
//
// HOST:PORT defaults to $NUMGRID_SERVER, else 127.0.0.1:50051; the puzzles default to
// the repository's puzzles/kakuro-10x12.txt and puzzles/broken-clues.txt. The service's
// .proto files are read from the repository's proto/ at run time (no generated code).
// Exit 0 when the puzzle was solved and the broken one refused with decoded details.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');
const googleProtoFiles = require('google-proto-files');

const REPO = path.resolve(__dirname, '..', '..');
const PROTO_DIR = path.join(REPO, 'proto'); // numgrid/v1/*.proto
const GOOGLE_DIR = path.dirname(googleProtoFiles.getProtoPath()); // google/rpc/*.proto
const DEADLINE_MS = 30_000;

// ------------------------------------------------------------------ the service

// keepCase: the fields keep their .proto names (solution.rows, field_violations), as in
// the Python client and the proto docs; enums as their names ('VERDICT_UNIQUE').
const LOAD_OPTIONS = { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true };

function numgridService(target) {
  const definition = protoLoader.loadSync('numgrid/v1/numgrid_service.proto', {
    ...LOAD_OPTIONS,
    includeDirs: [PROTO_DIR],
  });
  const { NumgridService } = grpc.loadPackageDefinition(definition).numgrid.v1;
  return new NumgridService(target, grpc.credentials.createInsecure());
}

// Promise-returning unary call with a deadline.
function call(client, method, request) {
  return new Promise((resolve, reject) => {
    const deadline = new Date(Date.now() + DEADLINE_MS);
    client[method](request, { deadline }, (error, response) =>
      error ? reject(error) : resolve(response),
    );
  });
}

function puzzleText(file) {
  // Format and kind are detected by the server (PUZZLE_FORMAT_UNSPECIFIED, ...).
  return { text: { content: fs.readFileSync(file, 'utf8') } };
}

// ------------------------------------------------------------------ error details

// The rich status travels in the trailer `grpc-status-details-bin`: a google.rpc.Status
// whose `details` are Any messages. Their types come from Google's common protos
// (google/rpc/error_details.proto) and numgrid's own (numgrid.v1.Finding).
function detailTypes() {
  const root = new protobuf.Root();
  root.resolvePath = (origin, target) => {
    for (const dir of [PROTO_DIR, GOOGLE_DIR]) {
      const candidate = path.join(dir, target);
      if (fs.existsSync(candidate)) return candidate;
    }
    return protobuf.util.path.resolve(origin, target); // google/protobuf/*: built in
  };
  root.loadSync(
    ['google/rpc/status.proto', 'google/rpc/error_details.proto', 'numgrid/v1/puzzle.proto'],
    { keepCase: true },
  );
  return root;
}

const TO_OBJECT = { enums: String, longs: Number, defaults: false, arrays: true };

// [{type: 'google.rpc.BadRequest', value: {...}}, ...] from a failed call, or [] if the
// server sent no rich status.
function decodeDetails(error, root) {
  const [bytes] = error.metadata ? error.metadata.get('grpc-status-details-bin') : [];
  if (!bytes) return [];
  const Status = root.lookupType('google.rpc.Status');
  const status = Status.decode(bytes);
  return status.details.map((any) => {
    const name = any.type_url.slice(any.type_url.lastIndexOf('/') + 1);
    let type;
    try {
      type = root.lookupType(name);
    } catch {
      return { type: name, value: null }; // a detail this program does not know
    }
    return { type: name, value: type.toObject(type.decode(any.value), TO_OBJECT) };
  });
}

const cellName = (cell) => `r${cell.row || 0}c${cell.column || 0}`;

function describe(detail) {
  const v = detail.value;
  switch (detail.type) {
    case 'google.rpc.BadRequest':
      return (v.field_violations || []).map((f) => `  BadRequest: ${f.field}: ${f.description}`);
    case 'google.rpc.ErrorInfo': {
      const metadata = Object.entries(v.metadata || {}).map(([k, x]) => `${k}=${x}`);
      return [`  ErrorInfo: ${v.reason} (${v.domain}) ${metadata.join(' ')}`.trimEnd()];
    }
    case 'google.rpc.RetryInfo':
      return [`  RetryInfo: retry in ${v.retry_delay.seconds || 0}s`];
    case 'numgrid.v1.Finding':
      return [`  Finding ${v.code} at ${(v.cells || []).map(cellName).join(' ')}: ${v.message}`];
    default:
      return [`  ${detail.type}${v ? `: ${JSON.stringify(v)}` : ' (not decoded)'}`];
  }
}

// ------------------------------------------------------------------ the example

function gridLines(grid) {
  // 0 where there is no digit (a Kakuro clue or black cell), -1 for a cell kept empty.
  return grid.rows.map((row) => row.values.map((v) => (v > 0 ? String(v) : '-')).join(' '));
}

async function main() {
  const [target, puzzle, broken] = [
    process.argv[2] || process.env.NUMGRID_SERVER || '127.0.0.1:50051',
    process.argv[3] || path.join(REPO, 'puzzles', 'kakuro-10x12.txt'),
    process.argv[4] || path.join(REPO, 'puzzles', 'broken-clues.txt'),
  ];
  const client = numgridService(target);
  let ok = true;
  try {
    const solved = await call(client, 'Solve', { puzzle: puzzleText(puzzle) });
    const grade = solved.difficulty ? solved.difficulty.grade.replace('GRADE_', '') : '-';
    console.log(`${path.basename(puzzle)}: ${solved.verdict.replace('VERDICT_', '')}, grade ${grade}`);
    if (solved.solution) console.log(gridLines(solved.solution).join('\n'));
    ok = solved.verdict === 'VERDICT_UNIQUE';

    try {
      await call(client, 'Validate', { puzzle: puzzleText(broken) });
      console.log(`${path.basename(broken)}: accepted (expected INVALID_ARGUMENT)`);
      ok = false;
    } catch (error) {
      if (error.code === undefined) throw error; // not a gRPC status: a bug here
      const code = Object.keys(grpc.status).find((k) => grpc.status[k] === error.code);
      console.log(`${path.basename(broken)}: ${code}: ${error.details}`);
      const details = decodeDetails(error, detailTypes());
      for (const detail of details) console.log(describe(detail).join('\n'));
      ok = ok && error.code === grpc.status.INVALID_ARGUMENT && details.length > 0;
    }
  } catch (error) {
    console.error(`solve.js: ${target}: ${error.details || error.message}`);
    ok = false;
  } finally {
    client.close();
  }
  process.exitCode = ok ? 0 : 1;
}

main();
