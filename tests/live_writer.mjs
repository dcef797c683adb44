// CTest live_writer_consistency: lance-cli reads a table while LanceDB keeps writing to it.
//
//   node tests/live_writer.mjs LANCE_CLI        (run from the source directory; tests/live_writer.sh)
//
// Phase 1 (consistency). A LanceDB 0.31.0 (Lance 8.0) writer loops for a bounded number of
// rounds and seconds: add, delete, update, mergeInsert, optimize() (compaction) and once
// addColumns. Meanwhile two reader loops run lance-cli `scan --stats=json`, `take --stats=json`
// and `count --json` on the latest version, over and over. Every run must succeed and say
// which version it read; afterwards each result is compared with Lance's own reading of that
// version (tbl.checkout(v): query().toArrow(), takeOffsets(), countRows()), rendered by
// scripts/gen-fixtures.mjs exactly as the goldens of the suite. A half-written manifest read
// as a version, or a mix of two versions, shows up as a failed run or a mismatch.
//
// Phase 2 (cleanup under reads). The writer appends and runs optimize({cleanupOlderThan: now}),
// which removes every version but the newest, while lance-cli scans. Lance's reading of each
// version is recorded before it can be cleaned up. A run either matches the version it says it
// read, or exits 1 saying a file of that version is missing (a cleanup) and suggesting --version.
//
// Phase 3 (the cleanup case, deterministic). Version 3 of a table is read after optimize()
// with cleanupOlderThan removed its data and deletion files: its manifest is put back as a
// reader that had opened version 3 just before the cleanup would still see it. lance-cli
// must exit 1 with that message; the latest version still reads.
//
// Exit 0 when all holds, 1 otherwise (with the first mismatches on stderr).
import { createRequire } from 'node:module';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { makeTable, renderTable, Rng, sentence } from '../scripts/gen-fixtures.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(HERE, '..', 'scripts', 'package.json'));
const arrow = require('apache-arrow');
const lancedb = require('@lancedb/lancedb');

const CLI = path.resolve(process.argv[2] || 'build/lance-cli');
const PHASE1_ROUNDS = 40, PHASE1_SECONDS = 20;
const PHASE2_ROUNDS = 12, PHASE2_SECONDS = 10;
const TAKE_ROWS = [0, 5, 9];  // the table always keeps more than 10 rows

const failures = [];
const fail = (msg) => { failures.push(msg); if (failures.length <= 10) console.error(`FAIL: ${msg}`); };

function run(args) {
  return new Promise((resolve) => {
    execFile(CLI, args, { maxBuffer: 64 << 20, timeout: 30000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, signal: err?.signal ?? null, out: stdout, err: stderr });
    });
  });
}

/// The JSON line of --stats=json on stderr.
function statsOf(stderr) {
  const line = stderr.split('\n').find((l) => l.startsWith('{'));
  return line ? JSON.parse(line) : null;
}

// id int64 not null, name utf8, score float64 (exact binary fractions, so every renderer agrees)
function batch(start, n, withDbl, tag) {
  const rng = new Rng(`live-${start}-${tag}`);
  const ids = Array.from({ length: n }, (_, i) => BigInt(start + i));
  const cols = [
    { name: 'id', type: new arrow.Int64(), values: ids, nullable: false },
    { name: 'name', type: new arrow.Utf8(), values: ids.map(() => `${tag} ${sentence(rng, 1, 2)}`) },
    { name: 'score', type: new arrow.Float64(), values: ids.map(() => (rng.chance(0.1) ? null : rng.int(-10000, 10000) / 8)) },
  ];
  if (withDbl) cols.push({ name: 'dbl', type: new arrow.Int64(), values: ids.map((v) => v * 2n) });
  return makeTable(cols, n);
}

function renderJsonl(table) {
  const names = table.schema.fields.map((f) => f.name);
  if (!table.numRows) return '';
  const cols = renderTable(names, table);
  const keys = names.map((n) => JSON.stringify(n));
  let out = '';
  for (let i = 0; i < table.numRows; i++) out += '{' + cols.map((c, k) => keys[k] + ':' + (c[i] ? c[i].j : 'null')).join(',') + '}\n';
  return out;
}

/// Lance's reading of the version the table handle is checked out at.
async function lanceReading(tbl) {
  const scan = renderJsonl(await tbl.query().toArrow());
  const take = renderJsonl(await tbl.takeOffsets(TAKE_ROWS).toArrow());
  return { scan, take, count: await tbl.countRows() };
}

/// One read by lance-cli of the latest version: { kind, version, out } or a failure record.
async function cliRead(dir, kind) {
  let r, version;
  if (kind === 'scan') {
    r = await run(['scan', dir, '-f', 'jsonl', '--stats=json']);
    version = statsOf(r.err)?.version;
  } else if (kind === 'take') {
    r = await run(['take', dir, '--rows', TAKE_ROWS.join(','), '-f', 'jsonl', '--stats=json']);
    version = statsOf(r.err)?.version;
  } else {
    r = await run(['count', dir, '--json']);
    if (r.code === 0) { const j = JSON.parse(r.out); version = j.version; r.out = j.rows; }
  }
  return { kind, code: r.code, signal: r.signal, err: r.err, version, out: r.out };
}

async function readerLoop(dir, done, reads, offset) {
  const kinds = ['scan', 'take', 'count'];
  for (let i = offset; !done.value; i++) reads.push(await cliRead(dir, kinds[i % 3]));
}

const CLEANUP_MESSAGE = /is missing \(removed by a cleanup of old versions|was removed \(by a cleanup of old versions/;

function compare(read, want, label) {
  const got = read.out;
  const exp = read.kind === 'scan' ? want.scan : read.kind === 'take' ? want.take : want.count;
  if (got !== exp) {
    const g = String(got), e = String(exp);
    let at = 0;
    while (at < g.length && g[at] === e[at]) at++;
    fail(`${label}: ${read.kind} of version ${read.version} differs from Lance's reading at byte ${at}: `
      + `got ${JSON.stringify(g.slice(Math.max(0, at - 40), at + 60))}, Lance ${JSON.stringify(e.slice(Math.max(0, at - 40), at + 60))}`);
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------

async function phase1(root) {
  const db = await lancedb.connect(path.join(root, 'p1'));
  const tbl = await db.createTable('t', batch(0, 200, false, 'create'));
  const dir = path.join(root, 'p1', 't.lance');
  const done = { value: false }, reads = [];
  const readers = [readerLoop(dir, done, reads, 0), readerLoop(dir, done, reads, 1)];
  const ops = {};
  const note = (op) => { ops[op] = (ops[op] || 0) + 1; };
  let next = 200, withDbl = false;
  const t0 = Date.now();
  for (let r = 0; r < PHASE1_ROUNDS && Date.now() - t0 < PHASE1_SECONDS * 1000; r++) {
    await tbl.add(batch(next, 20, withDbl, `add${r}`)); next += 20; note('add');
    await tbl.delete(`id % 17 = ${r % 17} AND id > 20`); note('delete');
    await tbl.update({ where: `id % 5 = ${r % 5}`, valuesSql: { score: 'score + 1' } }); note('update');
    // 5 existing ids (updated) and 5 new ones
    const upd = batch(next - 5, 10, withDbl, `merge${r}`);
    await tbl.mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(upd); next += 5; note('mergeInsert');
    if (r === 2) { await tbl.addColumns([{ name: 'dbl', valueSql: 'id * 2' }]); withDbl = true; note('addColumns'); }
    if (r % 4 === 3) { await tbl.optimize(); note('optimize'); }
  }
  done.value = true;
  await Promise.all(readers);
  const latest = await tbl.version();
  console.log(`phase 1: writer made versions up to ${latest} in ${((Date.now() - t0) / 1000).toFixed(1)} s (${JSON.stringify(ops)}); ${reads.length} lance-cli reads`);

  // Lance's reading of every version lance-cli reported, by checkout.
  const versions = [...new Set(reads.map((x) => x.version).filter((v) => v != null))].sort((a, b) => a - b);
  const want = new Map();
  for (const v of versions) { await tbl.checkout(v); want.set(v, await lanceReading(tbl)); }
  await tbl.checkoutLatest();
  let ok = 0;
  for (const x of reads) {
    if (x.code !== 0 || x.version == null) { fail(`phase 1: ${x.kind} exited ${x.code}${x.signal ? ` (${x.signal})` : ''} (version ${x.version}): ${x.err.trim()}`); continue; }
    if (compare(x, want.get(x.version), 'phase 1')) ok++;
  }
  const byKind = (k) => reads.filter((x) => x.kind === k).length;
  console.log(`phase 1: ${ok} of ${reads.length} reads equal Lance's reading (scan ${byKind('scan')}, take ${byKind('take')}, count ${byKind('count')}) over ${versions.length} distinct versions`);
  if (versions.length < 3) fail(`phase 1: lance-cli saw only ${versions.length} versions; the reads did not overlap the writes`);
}

async function phase2(root) {
  const db = await lancedb.connect(path.join(root, 'p2'));
  const tbl = await db.createTable('t', batch(0, 100, false, 'create'));
  const dir = path.join(root, 'p2', 't.lance');
  const want = new Map();
  let recorded = 0;
  const record = async () => {  // Lance's reading of every version made since the last call
    const latest = await tbl.version();
    for (let v = recorded + 1; v <= latest; v++) {
      try { await tbl.checkout(v); } catch { continue; }  // made and removed inside one optimize()
      want.set(v, await lanceReading(tbl));
    }
    await tbl.checkoutLatest();
    recorded = latest;
  };
  await record();
  const done = { value: false }, reads = [];
  const readers = [readerLoop(dir, done, reads, 0), readerLoop(dir, done, reads, 0)];
  let next = 100;
  const t0 = Date.now();
  for (let r = 0; r < PHASE2_ROUNDS && Date.now() - t0 < PHASE2_SECONDS * 1000; r++) {
    await tbl.add(batch(next, 10, false, `add${r}`)); next += 10;
    await tbl.delete(`id = ${r * 7}`);
    await tbl.optimize();  // compaction (keeps old versions)
    await record();
    // Removes every version but the newest (LanceDB measures "older than" when it cleans up).
    await tbl.optimize({ cleanupOlderThan: new Date(), deleteUnverified: true });
    await record();
  }
  done.value = true;
  await Promise.all(readers);
  let ok = 0, cleaned = 0, unseen = 0;
  for (const x of reads) {
    if (x.code === 1 && CLEANUP_MESSAGE.test(x.err) && x.err.includes('--version')) { cleaned++; continue; }
    if (x.code !== 0 || x.version == null) { fail(`phase 2: ${x.kind} exited ${x.code}${x.signal ? ` (${x.signal})` : ''}: ${x.err.trim()}`); continue; }
    if (x.version > recorded) { fail(`phase 2: lance-cli read version ${x.version}, which the writer never made`); continue; }
    // A version made and removed inside one optimize() call: Lance itself can no longer read it.
    if (!want.has(x.version)) { unseen++; continue; }
    if (compare(x, want.get(x.version), 'phase 2')) ok++;
  }
  const left = fs.readdirSync(path.join(dir, '_versions')).filter((f) => f.endsWith('.manifest')).length;
  console.log(`phase 2: versions up to ${recorded}, ${left} manifest(s) left after cleanups; ${reads.length} reads: `
    + `${ok} equal Lance's reading, ${cleaned} stopped with the cleanup message, ${unseen} of versions Lance could not read back`);
  if (ok === 0) fail('phase 2: no read could be checked');
}

async function phase3(root) {
  const db = await lancedb.connect(path.join(root, 'p3'));
  const tbl = await db.createTable('t', batch(0, 50, false, 'create'));  // v1
  await tbl.add(batch(50, 50, false, 'add'));                               // v2
  await tbl.delete('id % 10 = 3');                                          // v3: deletion files
  const dir = path.join(root, 'p3', 't.lance');
  const v3 = await tbl.version();
  const manifests = () => fs.readdirSync(path.join(dir, '_versions')).filter((f) => f.endsWith('.manifest'));
  const name = (18446744073709551615n - BigInt(v3)).toString().padStart(20, '0') + '.manifest';
  if (!manifests().includes(name)) { fail(`phase 3: no ${name} for version ${v3}`); return; }
  const saved = fs.readFileSync(path.join(dir, '_versions', name));
  const before = await run(['count', dir, '--json']);
  await tbl.optimize({ cleanupOlderThan: new Date(), deleteUnverified: true });  // compaction, then cleanup
  const latest = await tbl.version();
  if (manifests().includes(name)) { fail(`phase 3: cleanup kept the manifest of version ${v3}`); return; }
  fs.writeFileSync(path.join(dir, '_versions', name), saved);  // what a reader that opened v3 still holds
  for (const args of [['scan', dir, '--version', String(v3)], ['take', dir, '--version', String(v3), '--rows', '0,1']]) {
    const r = await run(args);
    const lines = r.err.trim().split('\n');
    if (r.code !== 1 || lines.length !== 1 || !CLEANUP_MESSAGE.test(r.err) || !r.err.includes('--version'))
      fail(`phase 3: lance-cli ${args.join(' ')}: exit ${r.code}, stderr ${JSON.stringify(r.err)} (want exit 1, one line saying a file is missing after a cleanup, suggesting --version)`);
    else console.log(`phase 3: ${args[0]} --version ${v3} → exit 1: ${lines[0]}`);
  }
  const now = await run(['scan', dir, '-f', 'jsonl', '--stats=json']);
  await tbl.checkout(latest);
  const want = renderJsonl(await tbl.query().toArrow());
  if (now.code !== 0 || statsOf(now.err)?.version !== latest || now.out !== want)
    fail(`phase 3: the latest version ${latest} does not read as Lance reads it (exit ${now.code}: ${now.err.trim()})`);
  if (before.code !== 0 || JSON.parse(before.out).version !== v3) fail(`phase 3: count --json before the cleanup: ${before.out}${before.err}`);
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lance-live-'));
try {
  await phase1(root);
  await phase2(root);
  await phase3(root);
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
if (failures.length) {
  console.error(`${failures.length} failure(s)`);
  process.exit(1);
}
console.log('ok');
