// Reads lance-cli's Arrow IPC stream output (`scan/take -f arrow`) with a real Arrow
// implementation (apache-arrow 18.1.0, the JS library) and checks it against the goldens
// rendered from Lance's own reading, for every kind:file fixture in data/fixtures/index.json.
//
// Usage: node scripts/check-arrow-ipc.mjs PATH/TO/lance-cli [PATH/TO/lance_tests]
//        (CTest: arrow_ipc_read_by_arrow_js)
//
// Per fixture:
//   * `scan FILE -f arrow` (default batches) and `scan FILE -f arrow --batch-size 37` (many record
//     batches) are decoded with tableFromIPC, rendered with gen-fixtures.mjs's renderer (the one
//     that wrote the goldens) into jsonl/json/csv/tsv, and compared byte for byte with
//     data/golden/<prefix>.*;
//   * the schema's names, nullability and types match index.json (dictionary columns arrive
//     decoded, as their value type);
//   * `take FILE --rows last,0,middle,0 -f arrow` equals those golden jsonl lines.
// Likewise `scan DIR --version V -f arrow` for every dataset version in data/datasets/index.json.
// With lance_tests: its hidden test "[.arrow-dump]" writes a stream and a file holding a column
// of every type (dictionary batches replaced between batches, field and schema metadata); they
// are decoded and rendered the same way and compared with the rows our renderer printed.
// Exit code 0 = all equal, 1 = a difference (printed), 77 = apache-arrow is not installed.

import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DATA = path.resolve(HERE, '..', 'data');
const require = createRequire(import.meta.url);

let arrow, gen;
try {
  arrow = require('apache-arrow');  // the same module instance gen-fixtures.mjs uses
  gen = await import('./gen-fixtures.mjs');  // its main() runs only when executed directly
} catch (e) {
  console.log(`skipped: cannot load apache-arrow / gen-fixtures.mjs (${e.message.split('\n')[0]})`);
  process.exit(77);
}
const { renderTable, renderGoldens, typeName } = gen;

const cli = process.argv[2];
const testsBinary = process.argv[3];
if (!cli || !fs.existsSync(cli) || (testsBinary && !fs.existsSync(testsBinary))) {
  console.error('usage: node scripts/check-arrow-ipc.mjs PATH/TO/lance-cli [PATH/TO/lance_tests]');
  process.exit(2);
}

/// lance-cli's stdout; a failing run throws an Error carrying its stderr.
function run(args) {
  try {
    return execFileSync(cli, args, { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    throw new Error(`lance-cli ${args.join(' ')} failed (exit ${e.status}): ${String(e.stderr).trim()}`);
  }
}

function firstDifference(got, want) {
  const g = got.split('\n'), w = want.split('\n');
  for (let i = 0; i < Math.max(g.length, w.length); i++) {
    if (g[i] !== w[i]) return `line ${i + 1}\n    got:  ${String(g[i]).slice(0, 300)}\n    want: ${String(w[i]).slice(0, 300)}`;
  }
  return '(identical)';
}

/// The Arrow type name index.json expects from us: dictionary columns (also nested ones) are
/// decoded, so `dictionary<values=V, indices=I, ordered=O>` becomes V.
function expectedType(name) {
  const head = 'dictionary<values=';
  for (let at = name.indexOf(head); at >= 0; at = name.indexOf(head)) {
    let depth = 0, end = at + head.length;
    for (; end < name.length; end++) {  // the end of V: ", indices=" at bracket depth 0
      const c = name[end];
      if (c === '<' || c === '(' || c === '[') depth++;
      else if (c === '>' || c === ')' || c === ']') depth--;
      else if (depth === 0 && name.startsWith(', indices=', end)) break;
    }
    const close = name.indexOf('>', end);
    name = name.slice(0, at) + name.slice(at + head.length, end) + name.slice(close + 1);
  }
  return name;
}

/// apache-arrow 18.1.0 has no LargeList: its IPC reader rejects the schema of a stream with
/// a large_list column. Such fixtures are reported as skipped; tests/test_arrow_ipc.cpp checks
/// them against the goldens with our own IPC reader.
const NO_LARGE_LIST = /Unrecognized type: "LargeList"/;

const index = JSON.parse(fs.readFileSync(path.join(DATA, 'fixtures', 'index.json'), 'utf8'));
const fixtures = index.fixtures.filter((f) => (f.kind || 'file') === 'file');
let failures = 0, checks = 0, skipped = 0;
const fail = (fx, msg) => { failures++; console.log(`FAIL ${fx.name}: ${msg}`); };

function checkFixture(fx) {
  const file = path.join(DATA, fx.file);
  const golden = (fmt) => fs.readFileSync(path.join(DATA, `${fx.golden_prefix}.${fmt}`), 'utf8');
  let ok = true;
  for (const extra of [[], ['--batch-size', '37']]) {
    const table = arrow.tableFromIPC(run(['scan', file, '-f', 'arrow', ...extra]));
    const names = table.schema.fields.map((f) => f.name);
    const wantNames = fx.columns.map((c) => c.name);
    if (JSON.stringify(names) !== JSON.stringify(wantNames)) { fail(fx, `columns ${names} != ${wantNames}`); ok = false; continue; }
    table.schema.fields.forEach((f, k) => {
      const want = fx.columns[k];
      const got = typeName(f.type);
      if (got !== expectedType(want.arrow_type)) { fail(fx, `column ${f.name}: type ${got}, want ${expectedType(want.arrow_type)}`); ok = false; }
      if (f.nullable !== want.nullable) { fail(fx, `column ${f.name}: nullable ${f.nullable}, want ${want.nullable}`); ok = false; }
    });
    if (table.numRows !== fx.num_rows) { fail(fx, `${table.numRows} rows, want ${fx.num_rows}`); ok = false; continue; }
    const cells = table.numRows ? renderTable(names, table) : names.map(() => []);
    const rendered = renderGoldens(names, cells, table.numRows);
    for (const fmt of ['jsonl', 'json', 'csv', 'tsv']) {
      checks++;
      const want = golden(fmt);
      if (rendered[fmt] !== want) { fail(fx, `scan ${extra.join(' ')} as ${fmt}: ${firstDifference(rendered[fmt], want)}`); ok = false; }
    }
  }
  if (fx.num_rows > 0) {
    const n = fx.num_rows;
    const rows = [n - 1, 0, Math.floor(n / 2), 0];
    const table = arrow.tableFromIPC(run(['take', file, '--rows', rows.join(','), '-f', 'arrow']));
    const names = table.schema.fields.map((f) => f.name);
    const got = renderGoldens(names, renderTable(names, table), table.numRows).jsonl;
    const lines = golden('jsonl').split('\n');
    const want = rows.map((r) => lines[r] + '\n').join('');
    checks++;
    if (got !== want) { fail(fx, `take ${rows}: ${firstDifference(got, want)}`); ok = false; }
  }
  if (ok) console.log(`ok   ${fx.name}`);
}

for (const fx of fixtures) {
  try {
    checkFixture(fx);
  } catch (e) {
    if (NO_LARGE_LIST.test(e.message)) {
      skipped++;
      console.log(`skip ${fx.name}: it has large_list columns, which apache-arrow 18.1.0 cannot decode`);
    } else {
      fail(fx, e.message);
    }
  }
}

// Dataset directories (data/datasets/index.json, when present): every listed version.
const dsIndexPath = path.join(DATA, 'datasets', 'index.json');
const datasets = fs.existsSync(dsIndexPath) ? JSON.parse(fs.readFileSync(dsIndexPath, 'utf8')).datasets : [];
for (const ds of datasets) {
  for (const v of ds.versions || []) {
    const label = { name: `dataset ${ds.name} version ${v.version}` };
    try {
      const table = arrow.tableFromIPC(run(['scan', path.join(DATA, ds.dir), '--version', String(v.version), '-f', 'arrow']));
      const names = table.schema.fields.map((f) => f.name);
      const cells = table.numRows ? renderTable(names, table) : names.map(() => []);
      const got = renderGoldens(names, cells, table.numRows).jsonl;
      const want = fs.readFileSync(path.join(DATA, `${v.golden_prefix}.jsonl`), 'utf8');
      checks++;
      if (got !== want) fail(label, firstDifference(got, want));
      else console.log(`ok   ${label.name}`);
    } catch (e) {
      fail(label, e.message);
    }
  }
}

if (testsBinary) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lance-arrow-every-type-'));
  try {
    execFileSync(testsBinary, ['[.arrow-dump]'], { env: { ...process.env, LANCE_ARROW_DUMP_DIR: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const name of ['every-type.arrows', 'every-type.arrow']) {
      checks++;
      const table = arrow.tableFromIPC(fs.readFileSync(path.join(dir, name)));
      const names = table.schema.fields.map((f) => f.name);
      const got = renderGoldens(names, renderTable(names, table), table.numRows).jsonl;
      const want = fs.readFileSync(path.join(dir, `${name}.jsonl`), 'utf8');
      const md = JSON.stringify([...table.schema.metadata]);
      const fieldMd = JSON.stringify([...table.schema.fields.find((f) => f.name === 'i32').metadata]);
      const dict = table.schema.fields.find((f) => f.name === 'dict');
      if (got !== want) { failures++; console.log(`FAIL ${name}: ${firstDifference(got, want)}`); }
      else if (md !== '[["origin","lance-cli test"]]' || fieldMd !== '[["lance:x","y"],["unit","cm"]]') { failures++; console.log(`FAIL ${name}: metadata ${md} ${fieldMd}`); }
      else if (typeName(dict.type) !== 'dictionary<values=string, indices=int8, ordered=0>') { failures++; console.log(`FAIL ${name}: dict is ${typeName(dict.type)}`); }
      else console.log(`ok   ${name}: ${table.schema.fields.length} columns of every type, ${table.batches.length} batches`);
    }
  } catch (e) {
    failures++;
    console.log(`FAIL every-type samples: ${e.message.split('\n')[0]}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`${fixtures.length} fixtures (${skipped} skipped), ${checks} comparisons, ${failures} failures`);
process.exit(failures ? 1 : 0);
