// lance-cli and Lance reading the same s3:// tables through a latency proxy (scripts/delayproxy.mjs,
// +25 ms each way, counting the HTTP requests), one-shot (connect + open + query), for the
// object-storage table of docs/performance.md.
//
//   node bench-s3.mjs RGW_ENDPOINT [--reps 3] [--scale 0.1] [--only scalars,vectors] [--generate]
//   node bench-s3.mjs RGW_ENDPOINT --search [--reps 3] [--scale 1]
// --search: nearest-neighbour search (#34) instead: `vectors_clustered` (scripts/bench-datasets.mjs) at --scale
// of its 100,000 x 384 rows, once plain and once with LanceDB's IVF_PQ index (as scripts/bench.mjs --search:
// min(256, sqrt(rows)) partitions, dim / 16 sub-vectors), written into the store by LanceDB; exact search and
// IVF_PQ nprobes 20 with and without refine factor 5, one query and (indexed) 100 queries in one process.
// Writes (once per scale) the benchmark's datasets (docs/performance.md), scaled down (scripts/bench.mjs's
// generators: text, vectors, scalars at --scale of their full row counts; nested at its full 8 x 3,000 rows),
// with LanceDB straight into the store at s3://lance/bench-s<scale>/, then times the benchmark's workloads
// (full scan, scan of one column, take of 2048 scattered / contiguous rows) through its own proxy. At --scale 1
// (the local benchmark's sizes, #36) the large nested table `nested_large` (~150 MB) is written and timed too;
// the store then needs ~6 GiB (RGW_MEMSTORE_BYTES=8589934592 scripts/rgw-up.sh DIR PORT). --generate only writes.
// Bytes are the proxy's count of what the store answered (headers included), in MB.
// Credentials: RGW_ACCESS_KEY / RGW_SECRET_KEY (the fixture's defaults otherwise).
// Lance is timed in this process (connect, openTable, query().select().toArrow() / takeOffsets());
// lance-cli as a whole process (-f null) under bash's `time` (forking this large Node process
// directly would add its own cost to every run). Requests are the proxy's count for each run.
import { createRequire } from 'node:module';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchDatasets, mulberry32 } from './bench-datasets.mjs';

const require = createRequire(import.meta.url);
const arrow = require('apache-arrow');
const lancedb = require('@lancedb/lancedb');
const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = process.env.LANCE_CLI_BIN || path.resolve(HERE, '..', 'build', 'lance-cli');
const args = process.argv.slice(2);
const rgw = args[0];
if (!rgw || rgw.startsWith('--')) throw new Error('usage: node bench-s3.mjs RGW_ENDPOINT [--reps 3] [--scale 0.1] [--only a,b]');
const opt = (name, dflt) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : dflt; };
const REPS = Number(opt('reps', '3'));
const SCALE = Number(opt('scale', '0.1'));
const ONLY = opt('only', '') ? new Set(opt('only', '').split(',')) : null;
const DELAY_MS = 25;
const KEY = process.env.RGW_ACCESS_KEY || 'LCKEY', SECRET = process.env.RGW_SECRET_KEY || 'LCSECRET';
const opts = (ep) => ({ storageOptions: { aws_endpoint: ep, allow_http: 'true', aws_access_key_id: KEY, aws_secret_access_key: SECRET, aws_region: 'us-east-1' } });
const DB = `s3://lance/bench-s${SCALE}`;

// The benchmark's datasets (scripts/bench-datasets.mjs, docs/performance.md), scaled; tables in this order.
const ALL = benchDatasets(SCALE);
const SEARCH = args.includes('--search');
const DATASETS = SEARCH ? { vectors_clustered: ALL.vectors_clustered }
  : { scalars: ALL.scalars, vectors: ALL.vectors, text: ALL.text, nested: ALL.nested,
      ...(SCALE >= 1 ? { nested_large: ALL.nested_large } : {}) };
const K = 10, NQ = 100, NPROBES = 20, REFINE = 5;

async function ensure() {
  const db = await lancedb.connect(DB, opts(rgw));
  const have = await db.tableNames();
  for (const [name, ds] of Object.entries(DATASETS)) {
    if (ONLY && !ONLY.has(name)) continue;
    if (have.includes(name)) continue;
    const rng = mulberry32(0x5eed + name.length);
    // As scripts/bench.mjs: one write per fragment for nested, else one write that Lance splits.
    const frags = ds.fragments || 1, per = Math.ceil(ds.rows / frags);
    let tbl = null;
    for (let f = 0; f < frags; f++) {
      const lo = f * per, hi = Math.min(ds.rows, lo + per);
      const parts = [];
      for (let s = lo; s < hi; s += 50000) parts.push(ds.make(rng, s, Math.min(hi, s + 50000)));
      const whole = new arrow.Table(parts.flatMap((t) => t.batches));
      if (!tbl) tbl = await db.createTable(name, whole, { storageOptions: { new_table_data_storage_version: '2.1' } });
      else await tbl.add(whole);
    }
    console.error(`wrote ${DB}/${name}.lance: ${ds.rows} rows`);
  }
  if (SEARCH) await ensureIndexed(db, have);
}

/// `vectors_clustered_ivfpq`: the same rows as `vectors_clustered`, with LanceDB's IVF_PQ index.
async function ensureIndexed(db, have) {
  const name = 'vectors_clustered_ivfpq';
  if (have.includes(name)) return;
  const ds = DATASETS.vectors_clustered, rng = mulberry32(0x5eed + 'vectors_clustered'.length);
  const parts = [];
  for (let s = 0; s < ds.rows; s += 50000) parts.push(ds.make(rng, s, Math.min(ds.rows, s + 50000)));
  const tbl = await db.createTable(name, new arrow.Table(parts.flatMap((t) => t.batches)),
                                   { storageOptions: { new_table_data_storage_version: '2.1' } });
  const partitions = Math.max(1, Math.min(256, Math.round(Math.sqrt(ds.rows))));
  await tbl.createIndex('vector', { config: lancedb.Index.ivfPq({ numPartitions: partitions, numSubVectors: 384 / 16 }) });
  console.error(`wrote ${DB}/${name}.lance: ${ds.rows} rows, IVF_PQ ${partitions} partitions x PQ${384 / 16}`);
}

// --- the counting latency proxy ------------------------------------------------------------------
const COUNT = path.join(os.tmpdir(), `bench-s3-${process.pid}.count`);
async function startProxy() {
  const target = new URL(rgw).port;
  for (let attempt = 0; attempt < 10; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const p = spawn(process.execPath, [path.join(HERE, 'delayproxy.mjs'), String(port), target, String(DELAY_MS), '--count', COUNT],
                    { stdio: ['ignore', 'ignore', 'pipe'] });
    const ok = await new Promise((resolve) => {
      p.stderr.on('data', (d) => {
        if (String(d).includes('listening')) resolve(true);
        else if (String(d).startsWith('proxy:')) console.error(`latency proxy: ${String(d).trim()}`);
      });
      p.on('exit', () => resolve(false));
    });
    if (ok) return { proc: p, endpoint: `http://127.0.0.1:${port}` };
  }
  throw new Error('cannot start the latency proxy');
}
/// [requests, bytes] the proxy has counted so far.
const countsSoFar = () => fs.readFileSync(COUNT, 'utf8').trim().split(' ').map(Number);
/// What passed through the proxy since `c0` (countsSoFar() before the run): requests and MB.
const since = (c0) => { const c = countsSoFar(); return { req: c[0] - c0[0], mb: (c[1] - c0[1]) / 1e6 }; };

async function lance(proxy, name, w) {
  const c0 = countsSoFar();
  const t0 = performance.now();
  const db = await lancedb.connect(DB, opts(proxy));
  const tbl = await db.openTable(name);
  const res = await w.lance(tbl).toArrow();
  const s = (performance.now() - t0) / 1000;
  await new Promise((r) => setTimeout(r, 5));  // the proxy's last count reaches its file
  return { s, rows: res.numRows, ...since(c0), res };
}

const cliEnv = (proxy) => ({ ...process.env, AWS_ACCESS_KEY_ID: KEY, AWS_SECRET_ACCESS_KEY: SECRET, AWS_ENDPOINT_URL: proxy, AWS_ALLOW_HTTP: 'true', AWS_REGION: 'us-east-1' });
function cli(proxy, name, w) {
  const env = cliEnv(proxy);
  const errFile = path.join(os.tmpdir(), `bench-s3-${process.pid}.err`);
  const script = 'TIMEFORMAT=%3R; { time "$@" > /dev/null 2> "$ERR_FILE"; } 2>&1';
  const c0 = countsSoFar();
  const p = spawnSync('bash', ['-c', script, 'bench', CLI, ...w.cli(`${DB}/${name}.lance`), '-f', 'null', '--stats=json', '-q'],
                      { input: w.input || '', env: { ...env, ERR_FILE: errFile }, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1 << 20 });
  const err = fs.existsSync(errFile) ? fs.readFileSync(errFile, 'utf8') : '';
  if (p.status !== 0) throw new Error(`lance-cli ${name}: ${err} ${p.stderr}`);
  const st = JSON.parse(err.trim().split('\n').filter((l) => l.startsWith('{')).pop());
  spawnSync('sleep', ['0.005']);  // the proxy's last count reaches its file
  return { s: Number(p.stdout.toString().trim().split('\n').pop()), rows: st.rows_out, ...since(c0) };
}

function takeRows(n, frags, rng) {  // as scripts/bench.mjs
  const per = Math.ceil(n / frags);
  const scattered = [];
  for (let f = 0; f < frags; f++) {
    const lo = f * per, hi = Math.min(n, lo + per);
    for (let i = 0; i < 2048 / frags; i++) scattered.push(lo + Math.floor(rng() * (hi - lo)));
  }
  scattered.sort((a, b) => a - b);
  const unique = scattered.filter((v, i) => i === 0 || v !== scattered[i - 1]);  // takeOffsets returns a row once
  const start = Math.floor(n / 3);
  return { scattered: unique, contiguous: Array.from({ length: Math.min(2048, n) }, (_, i) => start + i) };
}
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

async function tables(endpoint) {
  console.log(`| table | rows | workload | Lance 8.0 (s) | Lance requests | Lance MB | lance-cli (s) | lance-cli requests | lance-cli MB | ratio |`);
  console.log('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const [name, ds] of Object.entries(DATASETS)) {
    if (ONLY && !ONLY.has(name)) continue;
    const { scattered, contiguous } = takeRows(ds.rows, ds.fragments || 8, mulberry32(7));
    const workloads = [
      { name: 'full scan', lance: (t) => t.query().select(ds.cols), cli: (u) => ['scan', u] },
      { name: `scan ${ds.one}`, lance: (t) => t.query().select([ds.one]), cli: (u) => ['scan', u, '-c', ds.one] },
      { name: 'take 2048 scattered', lance: (t) => t.takeOffsets(scattered), cli: (u) => ['take', u, '--rows-file', '-'], input: scattered.join('\n') },
      { name: 'take 2048 contiguous', lance: (t) => t.takeOffsets(contiguous), cli: (u) => ['take', u, '--rows-file', '-'], input: contiguous.join('\n') },
    ];
    for (const w of workloads) {
      const l = [], c = [];
      for (let i = 0; i < REPS; i++) {
        l.push(await lance(endpoint, name, w));
        c.push(cli(endpoint, name, w));
      }
      if (c[0].rows !== l[0].rows) throw new Error(`${name} ${w.name}: lance-cli ${c[0].rows} rows, Lance ${l[0].rows}`);
      const ls = median(l.map((x) => x.s)), cs = median(c.map((x) => x.s));
      const mb = (a) => median(a.map((x) => x.mb)).toFixed(1);
      console.log(`| ${name} | ${ds.rows} | ${w.name} | ${ls.toFixed(3)} | ${median(l.map((x) => x.req))} | ${mb(l)} | ${cs.toFixed(3)} | ` +
                  `${median(c.map((x) => x.req))} | ${mb(c)} | ${(cs / ls).toFixed(2)} |`);
    }
  }
}

/// Result ids per query of a LanceDB answer (one table, with a query_index column for several queries).
function lanceIds(res, nq) {
  const out = Array.from({ length: nq }, () => []);
  const qi = res.getChild('query_index')?.toArray(), id = res.getChild('id').toArray();
  for (let j = 0; j < res.numRows; j++) out[qi ? qi[j] : 0].push(Number(id[j]));
  return out;
}

/// lance-cli's ids per query for the same search (not timed, not counted).
function cliIds(proxy, cliArgs, nq, input) {
  const r = spawnSync(CLI, [...cliArgs, '-c', 'id', '-f', 'jsonl', '-q'], { input, env: cliEnv(proxy), maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`lance-cli ${cliArgs.join(' ')}: ${r.stderr}`);
  const out = Array.from({ length: nq }, () => []);
  for (const line of r.stdout.toString().split('\n')) if (line) { const o = JSON.parse(line); out[o.query_index ?? 0].push(Number(o.id)); }
  return out;
}

/// Share of `want`'s ids that `got` holds, averaged over the queries.
const shareOf = (got, want) => got.reduce((a, g, i) => { const w = new Set(want[i]); return a + g.filter((x) => w.has(x)).length / Math.max(1, w.size); }, 0) / got.length;

async function search(endpoint) {
  const ds = DATASETS.vectors_clustered, dim = 384;
  const queries = ds.queries(mulberry32(0x5ea4c4), NQ, dim);  // as scripts/bench.mjs --search
  const qlines = queries.map((q) => JSON.stringify(q)).join('\n') + '\n';
  const plain = 'vectors_clustered', ivf = 'vectors_clustered_ivfpq';
  const one = (q, how) => (t) => how(t.vectorSearch(q)).limit(K);
  const many = (how) => (t) => how(queries.slice(1).reduce((v, q) => v.addQueryVector(q), t.vectorSearch(queries[0]))).limit(K);
  const v0 = ['--vector', JSON.stringify(queries[0])];
  const workloads = [
    { table: plain, name: 'exact, 1 query', lance: one(queries[0], (q) => q.bypassVectorIndex()), args: [...v0, '--exact'], nq: 1 },
    { table: ivf, name: `IVF_PQ nprobes ${NPROBES}, 1 query`, lance: one(queries[0], (q) => q.nprobes(NPROBES)), args: [...v0, '--nprobes', `${NPROBES}`], nq: 1 },
    { table: ivf, name: `IVF_PQ nprobes ${NPROBES} refine ${REFINE}, 1 query`, lance: one(queries[0], (q) => q.nprobes(NPROBES).refineFactor(REFINE)),
      args: [...v0, '--nprobes', `${NPROBES}`, '--refine-factor', `${REFINE}`], nq: 1 },
    { table: ivf, name: `IVF_PQ nprobes ${NPROBES}, ${NQ} queries`, lance: many((q) => q.nprobes(NPROBES)),
      args: ['--vector-file', '-', '--nprobes', `${NPROBES}`], input: qlines, nq: NQ },
    { table: ivf, name: `IVF_PQ nprobes ${NPROBES} refine ${REFINE}, ${NQ} queries`, lance: many((q) => q.nprobes(NPROBES).refineFactor(REFINE)),
      args: ['--vector-file', '-', '--nprobes', `${NPROBES}`, '--refine-factor', `${REFINE}`], input: qlines, nq: NQ },
  ];
  console.log(`| table | rows | workload | Lance 8.0 (s) | Lance requests | lance-cli (s) | lance-cli requests | ratio | same ids as Lance |`);
  console.log('|---|---:|---|---:|---:|---:|---:|---:|---:|');
  for (const w of workloads) {
    const run = { lance: w.lance, cli: (u) => ['search', u, ...w.args, '-k', `${K}`], input: w.input };
    const l = [], c = [];
    for (let i = 0; i < REPS; i++) {
      l.push(await lance(endpoint, w.table, run));
      c.push(cli(endpoint, w.table, run));
    }
    if (c[0].rows !== l[0].rows) throw new Error(`${w.name}: lance-cli ${c[0].rows} rows, Lance ${l[0].rows}`);
    const same = shareOf(cliIds(endpoint, run.cli(`${DB}/${w.table}.lance`), w.nq, w.input), lanceIds(l[0].res, w.nq));
    const ls = median(l.map((x) => x.s)), cs = median(c.map((x) => x.s));
    console.log(`| ${w.table} | ${ds.rows} | ${w.name} | ${ls.toFixed(3)} | ${median(l.map((x) => x.req))} | ${cs.toFixed(3)} | ` +
                `${median(c.map((x) => x.req))} | ${(cs / ls).toFixed(2)} | ${(same * 100).toFixed(1)} % |`);
  }
}

await ensure();
if (args.includes('--generate')) process.exit(0);
const { proc, endpoint } = await startProxy();
try {
  if (SEARCH) await search(endpoint);
  else await tables(endpoint);
} finally {
  proc.kill('SIGTERM');
  fs.rmSync(COUNT, { force: true });
  fs.rmSync(path.join(os.tmpdir(), `bench-s3-${process.pid}.err`), { force: true });
}
