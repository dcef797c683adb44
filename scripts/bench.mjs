// Benchmark: lance-cli against Lance itself (LanceDB 0.31.0 = Lance 8.0 in Node) and DuckDB
// (@duckdb/node-api) on a zstd Parquet copy of the same rows, same run, interleaved
// repetitions. Prints a markdown table of medians and ratios.
//
//   cd scripts && npm ci && node bench.mjs [--scale 1] [--reps 3] [--take-reps 7] [--versions 2.1,2.2] [--only text,nested] [--workloads take] [--arrow] [--cold] [--no-duckdb] [--one-shot]
//                            timing table: Lance one-shot and warm, lance-cli, DuckDB one-shot (a fresh instance per
//                            run); --cold evicts each reader's files from the page cache (posix_fadvise DONTNEED via
//                            GNU dd) before each of its runs, measures the device's sequential read throughput once
//                            and prints cold times, ratios to Lance cold and lance-cli's time against reading its
//                            bytes at that throughput. The Parquet copies are cached in ../bench-data/
//   node bench.mjs --generate   only write the datasets
//   node bench.mjs --io      the take I/O table (requests, I/O operations, bytes; batching on/off, block sizes),
//                            and exact read counts of both readers from strace when it is installed
//   node bench.mjs --filters [--scale S] [--reps R] [--verbose]
//                            filtered scans: `lance-cli scan --filter` against Lance's query().where() one-shot
//                            (plain and scalar-indexed copies of `scalars`, and `text`) and DuckDB on Parquet;
//                            --verbose prints Lance's plan of each query on stderr; the indexed copy and the
//                            Parquet files are cached in ../bench-data/ like the datasets
//   node bench.mjs --search [--scale S] [--reps R] [--only vectors,vectors_clustered] [--verbose] [--exact-multi]
//                            nearest-neighbour search (#34): `lance-cli search -f null` against LanceDB's
//                            vectorSearch() one-shot: exact (bypassVectorIndex), IVF_PQ nprobes 20 without and
//                            with refine factor 5, one query and a batch of 100 (lance-cli --vector-file; LanceDB
//                            a loop for the exact batch, addQueryVector for the indexed ones; --exact-multi: also
//                            for the exact one, ~11 GB of RSS at scale 1), on `vectors` (uniform noise) and
//                            `vectors_clustered`; recall@10 of both readers against the exact answer, lance-cli's
//                            answers against LanceDB's. The IVF_PQ copies (built by LanceDB, ~2 min each at scale
//                            1) are cached in ../bench-data/. lance-cli rows whose options `search --help` does
//                            not list yet (--nprobes, --refine-factor) are listed as not run.
//
// Datasets are generated once (seeded) into ../bench-data/<name>-v<V>/ and reused.
// Lance is timed in-process (query().select().toArrow(), takeOffsets()); lance-cli is timed
// as a whole process with `-f null` (decode everything, write nothing); DuckDB in-process, a
// fresh in-memory instance per run. lance-cli's wall time and peak RSS come from
// scripts/timed-run.py (posix_spawn + wait4: nothing but the lance-cli process is timed).
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const arrow = require('apache-arrow');
const lancedb = require('@lancedb/lancedb');

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const CLI = process.env.LANCE_CLI_BIN || path.join(ROOT, 'build', 'lance-cli');
const DATA = path.join(ROOT, 'bench-data');

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : dflt; };
const SCALE = Number(opt('scale', '1'));
const REPS = Number(opt('reps', '3'));
// --take-reps: repetitions of the timing table's takes (default: twice --reps, plus one). A take
// takes 7-60 ms, and single runs of one on these VMs vary by up to 2x (a 9 ms take measured
// 9.4-22 ms in six runs in a row), so a median of 3 can land on a slow pair; more runs cost
// little there.
const TAKE_REPS = Number(opt('take-reps', String(2 * REPS + 1)));
for (const [name, n] of [['--reps', REPS], ['--take-reps', TAKE_REPS]])
  if (!Number.isInteger(n) || n < 1) { console.error(`bench.mjs: ${name} wants a whole number of runs, at least 1`); process.exit(2); }
const VERSIONS = opt('versions', '2.1,2.2').split(',');
const ONLY = opt('only', '') ? new Set(opt('only', '').split(',')) : null;
// --workloads take,scan: only the timing table's workloads whose name contains one of these words.
const WORKLOADS = opt('workloads', '') ? opt('workloads', '').split(',') : null;
const ARROW_OUT = args.includes('--arrow');
// --cold: every reader's files are evicted from the page cache before each of its runs.
const COLD = args.includes('--cold');
// --no-duckdb: leave DuckDB out (no Parquet copies: at --scale 10 they take longer to write than the run).
const NO_DUCK = args.includes('--no-duckdb');
// --one-shot: time Lance one-shot only, not warm nor `toArrow()` (at --scale 10 the `toArrow()` of the
// 100 M-row scan alone takes 60-90 s a run); the warm columns are left empty.
const ONE_SHOT = args.includes('--one-shot');
/// A table cell: a figure with one or two decimals, or '–' for one not measured (NaN).
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '–');
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '–');
// Multiplies the list lengths of the nested dataset's deep columns (1 = docs/performance.md's dataset;
// 4 gives ~100 MB, the shape of the production table the nested issue was measured on).
const FANOUT = Number(opt('nested-fanout', '1'));

import { benchDatasets, mulberry32, batchesOf } from './bench-datasets.mjs';
import { haveStrace, traceReads } from './syscall-io.mjs';

const DATASETS = benchDatasets(SCALE, FANOUT);
// The datasets of a table mode: those named by --only, else all but the --search-only ones.
const wanted = (name) => (ONLY ? ONLY.has(name) : !DATASETS[name].search);

async function ensureDataset(name, version) {
  const ds = DATASETS[name];
  const dir = path.join(DATA, `${name}-v${version}-s${SCALE}${name === 'nested' && FANOUT !== 1 ? `-f${FANOUT}` : ''}`);
  const tableDir = path.join(dir, 't.lance');
  if (fs.existsSync(path.join(tableDir, '_versions'))) return tableDir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const db = await lancedb.connect(dir);
  const rng = mulberry32(0x5eed + name.length);
  // One write per fragment (the nested dataset asks for 8); otherwise one write for the whole
  // table, which Lance splits into files of its default size (1,048,576 rows). Above scale 1,
  // writes of at most `writeRows` (else 1,048,576) rows each: LanceDB's JS client turns a write
  // into one buffer, which cannot pass 4 GiB.
  const frags = ds.fragments || (SCALE > 1 ? Math.ceil(ds.rows / (ds.writeRows || 1048576)) : 1);
  const per = Math.ceil(ds.rows / frags);
  let tbl = null;
  for (let f = 0; f < frags; f++) {
    const lo = f * per, hi = Math.min(ds.rows, lo + per);
    const parts = batchesOf(hi - lo, 50000, (a, b) => ds.make(rng, lo + a, lo + b));
    const whole = new arrow.Table(parts.flatMap((t) => t.batches));
    if (!tbl) tbl = await db.createTable('t', whole, { storageOptions: { new_table_data_storage_version: version } });
    else await tbl.add(whole);
  }
  console.error(`generated ${name} v${version}: ${ds.rows} rows`);
  return tableDir;
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const msSince = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const fmtMiB = (mib) => (Number.isFinite(mib) ? mib.toFixed(0) : '–');

/// Lance one-shot: a fresh session (connect + open the table + `run(tbl)`), the in-process
/// counterpart of one lance-cli process. Returns the wall time (ms) and what `run` returned;
/// the table is closed outside the timing.
async function lanceOneShot(tableDir, run) {
  const t0 = process.hrtime.bigint();
  const tbl = await (await lancedb.connect(path.dirname(tableDir))).openTable(path.basename(tableDir, '.lance'));
  const result = await run(tbl);
  const ms = msSince(t0);
  tbl.close();
  return { ms, result };
}

/// The line above each timing table: machine, scale, repetitions and the load average now.
function runHeader() {
  const load = os.loadavg().map((x) => x.toFixed(2)).join(', ');
  const takes = TAKE_REPS !== REPS && !args.includes('--filters') && !args.includes('--search') ? ` (takes: ${TAKE_REPS})` : '';
  return `\n${machine()}; scale ${SCALE}; median of ${REPS}${takes} interleaved runs; load average at the end ${load}.\n`;
}

/// Lance's own numbers from analyzePlan(): the plan's elapsed time (ms) and the LanceRead
/// I/O counters, summed over LanceRead nodes (`allNodes`: over every node that reports them,
/// e.g. the Take node of a filtered query's late materialisation; `byNode` has the bytes of
/// each node name). Lance prints bytes with 3 significant digits.
function parsePlan(text, { allNodes = false } = {}) {
  const unit = { ns: 1e-6, 'µs': 1e-3, us: 1e-3, ms: 1, s: 1000 };
  const m = /elapsed=([\d.]+)(ns|µs|us|ms|s)/.exec(text);
  const elapsedMs = m ? Number(m[1]) * unit[m[2]] : NaN;
  const scale = { '': 1, K: 1e3, M: 1e6, G: 1e9, T: 1e12 };
  let requests = 0, iops = 0, bytes = 0;
  const byNode = {};
  for (const line of text.split('\n')) {
    if (allNodes ? !line.includes('bytes_read=') : !line.includes('LanceRead')) continue;
    const g = (k) => { const r = new RegExp(`[ ,\\[]${k}=([\\d.]+)(?: ?([KMGT]))?(?: ?B)?[,\\]]`).exec(line); return r ? Number(r[1]) * scale[r[2] || ''] : 0; };
    requests += g('requests'); iops += g('iops'); bytes += g('bytes_read');
    const node = /^\s*(\w+)/.exec(line)[1];
    byNode[node] = (byNode[node] || 0) + g('bytes_read');
  }
  return { elapsedMs, requests, iops, bytes, byNode };
}

/// Runs lance-cli as a whole process with --stats=json and returns its wall time, peak RSS and
/// stats. scripts/timed-run.py spawns it and times spawn to exit (wait4 gives the peak RSS):
/// spawning straight from this Node process would add the cost of forking a large process
/// (hundreds of ms once LanceDB's caches are warm) to every run, and `time` in a shell around
/// GNU time counted GNU time's own fork and exec (2-4 ms, most of a small take) as well.
function runCli(cliArgs, input, env = {}) {
  const errFile = path.join(os.tmpdir(), `lance-bench-${process.pid}.err`);
  const r = spawnSync('python3', [path.join(HERE, 'timed-run.py'), errFile, CLI, ...cliArgs, '--stats=json'],
    { input, maxBuffer: 1 << 20, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const err = fs.existsSync(errFile) ? fs.readFileSync(errFile, 'utf8') : '';
  if (r.status !== 0) throw new Error(`timed-run.py failed: ${r.stderr}`);
  const t = JSON.parse(r.stdout.toString().trim().split('\n').pop());
  if (t.status !== 0) throw new Error(`lance-cli ${cliArgs.join(' ')} failed (${t.status}): ${err}`);
  const statsLine = err.trim().split('\n').find((l) => l.startsWith('{'));
  return { ms: t.ms, rssKb: t.rss_kb, stats: statsLine ? JSON.parse(statsLine) : {} };
}

function takeRows(n, frags, rng) {
  // 2048 scattered rows, 256 per fragment when the table has 8 (sorted, as takeOffsets returns them),
  // and 2048 contiguous rows starting a third of the way in.
  const per = Math.ceil(n / frags);
  const scattered = [];
  for (let f = 0; f < frags; f++) {
    const lo = f * per, hi = Math.min(n, lo + per);
    for (let i = 0; i < 2048 / frags; i++) scattered.push(lo + Math.floor(rng() * (hi - lo)));
  }
  scattered.sort((a, b) => a - b);
  const start = Math.floor(n / 3);
  const contiguous = Array.from({ length: Math.min(2048, n) }, (_, i) => start + i);
  return { scattered, contiguous };
}

async function openTable(name, version) {
  const dir = await ensureDataset(name, version);
  const db = await lancedb.connect(path.dirname(dir));
  return { dir, tbl: await db.openTable('t') };
}

/// Waits until what generating the datasets wrote is on disk: the kernel writes dirty pages
/// back up to 30 s later, and a run timed meanwhile shares the machine with that writeback
/// (the first rows of a run right after writing the Parquet copies took twice their time).
function settle() { spawnSync('sync'); }

const fmtBytes = (b) => (b >= 1e6 ? `${(b / 1e6).toFixed(2)} MB` : `${(b / 1e3).toFixed(1)} kB`);

/// The timing table's workloads on one dataset: Lance's query, lance-cli's arguments and
/// DuckDB's SQL on the Parquet copy (`take`: the rows a take asks for).
function timingWorkloads(ds, dir, parquet, { scattered, contiguous }) {
  const pq = `read_parquet(${sqlStr(parquet)})`;
  const take = (rows) => ({ lance: (t) => t.takeOffsets(rows), cli: ['take', dir, '--rows-file', '-', '-f', 'null'],
    input: rows.join('\n'), duck: duckTakeSql(parquet, rows), take: rows });
  const workloads = [
    { name: 'full scan', lance: (t) => t.query().select(ds.cols), cli: ['scan', dir, '-f', 'null'], duck: `SELECT * FROM ${pq}` },
    { name: `scan ${ds.one}`, lance: (t) => t.query().select([ds.one]), cli: ['scan', dir, '-c', ds.one, '-f', 'null'], duck: `SELECT ${ds.one} FROM ${pq}` },
    { name: 'take 2048 scattered', ...take(scattered) },
    { name: 'take 2048 contiguous', ...take(contiguous) },
  ];
  if (ARROW_OUT) workloads.splice(1, 0, { name: 'full scan, -f arrow', lance: (t) => t.query().select(ds.cols), cli: ['scan', dir, '-f', 'arrow'], duck: `SELECT * FROM ${pq}` });
  return WORKLOADS ? workloads.filter((w) => WORKLOADS.some((word) => w.name.includes(word))) : workloads;
}

/// One workload's repetitions, interleaved: Lance one-shot, Lance warm (plan and toArrow; not
/// with --cold), lance-cli, DuckDB one-shot. With --cold each reader's files are evicted from
/// the page cache before its run, and lance-cli runs a second time right after, warm (the
/// pages it read are cached). Every reader's row count is checked against `want`'s.
async function timeWorkload(w, t, want) {
  const lanceFiles = filesUnder(t.dir);
  const m = { ft: [], lt: [], pt: [], ct: [], cb: [], ci: [], cw: [], rss: [], dt: [], dq: [] };
  for (let rep = 0; rep < (w.take ? TAKE_REPS : REPS); rep++) {
    // Lance one-shot in a fresh session: connect + open + query, executed and dropped in
    // Rust (analyzePlan), the in-process counterpart of one lance-cli process.
    if (COLD) evict(lanceFiles);
    m.ft.push((await lanceOneShot(t.dir, (fresh) => w.lance(fresh).analyzePlan())).ms);
    if (!COLD && !ONE_SHOT) {
      const t0 = process.hrtime.bigint();
      const res = await w.lance(t.tbl).toArrow();
      m.lt.push(msSince(t0));
      if (res.numRows !== want.lance) throw new Error(`Lance ${w.name}: ${res.numRows} rows, not ${want.lance}`);
      m.pt.push(parsePlan(await w.lance(t.tbl).analyzePlan()).elapsedMs);
    }
    if (COLD) evict(lanceFiles);
    const c = runCli(w.cli, w.input);
    if (c.stats.rows_out !== want.cli) throw new Error(`lance-cli ${w.cli.join(' ')}: ${c.stats.rows_out} rows out, not ${want.cli}`);
    m.ct.push(c.ms); m.cb.push(c.stats.bytes_read); m.ci.push(c.stats.iops); m.rss.push(c.rssKb);
    if (COLD) m.cw.push(runCli(w.cli, w.input).ms);
    if (NO_DUCK) continue;
    if (COLD) evict([t.parquet]);
    const d = await duckOnce(w.duck);
    if (d.rows !== want.duck) throw new Error(`DuckDB ${w.name} on ${t.parquet}: ${d.rows} rows, not ${want.duck}`);
    m.dt.push(d.ms); m.dq.push(d.queryMs);
  }
  const warm = !COLD && !ONE_SHOT;
  return { lance_fresh_ms: median(m.ft), lance_ms: warm ? median(m.lt) : NaN, lance_plan_ms: warm ? median(m.pt) : NaN,
    cli_ms: median(m.ct), cli_bytes: median(m.cb), cli_iops: median(m.ci), cli_warm_ms: COLD ? median(m.cw) : NaN, cli_rss_mib: Math.max(...m.rss) / 1024,
    duck_ms: NO_DUCK ? NaN : median(m.dt), duck_query_ms: NO_DUCK ? NaN : median(m.dq),
    runs: { lance_fresh_ms: m.ft.map((x) => +x.toFixed(1)), cli_ms: m.ct.map((x) => +x.toFixed(1)) } };
}

/// The rows each reader returns: a scan every row; a take of a list with duplicates (the
/// scattered rows have some) returns each row once from Lance (checked here), but every row
/// asked for from lance-cli and from DuckDB's join.
async function expectedRows(w, t) {
  if (!w.take) return { lance: t.n, cli: t.n, duck: t.n, distinct: t.n };
  const distinct = new Set(w.take).size;
  const lance = (await w.lance(t.tbl).toArrow()).numRows;
  if (lance !== distinct) throw new Error(`Lance ${w.name}: ${lance} rows for ${distinct} distinct row numbers`);
  return { lance, cli: w.take.length, duck: w.take.length, distinct };
}

/// The tables of the timing run, opened, with their Parquet copies.
async function timingTables() {
  const tables = [];
  for (const version of VERSIONS) for (const name of Object.keys(DATASETS)) {
    if (!wanted(name)) continue;
    const { dir, tbl } = await openTable(name, version);
    const n = await tbl.countRows();
    tables.push({ name, version, dir, tbl, n, parquet: NO_DUCK ? '' : await ensureParquet(name, dir, n) });
  }
  return tables;
}

async function timing() {
  const rows = [];
  const tables = await timingTables();
  settle();
  // --cold: the device's throughput, read once from the largest data file in ../bench-data/.
  const device = COLD ? deviceThroughput(largestFile(filesUnder(DATA).filter((f) => /\.(lance|parquet)$/.test(f)))) : null;
  if (device) console.error(JSON.stringify(device));
  for (const t of tables) {
    const ds = DATASETS[t.name];
    const workloads = timingWorkloads(ds, t.dir, t.parquet, takeRows(t.n, ds.fragments || 8, mulberry32(7)));
    for (const w of workloads) {
      const want = await expectedRows(w, t);
      const row = { dataset: t.name, version: t.version, rows: t.n, workload: w.name, distinct: want.distinct, ...(await timeWorkload(w, t, want)) };
      rows.push(row);
      console.error(JSON.stringify(row));
    }
  }
  console.log(runHeader());
  if (COLD) printColdTable(rows, device);
  else printTimingTable(rows);
}

/// How DuckDB is run and the row counts checked, for the captions.
function duckCaption(rows) {
  const version = JSON.parse(fs.readFileSync(path.join(HERE, 'node_modules', '@duckdb', 'node-api', 'package.json'), 'utf8')).version;
  const dups = rows.filter((r) => r.distinct < 2048).map((r) => `${r.dataset} ${r.version} ${r.distinct}`).join(', ');
  return `DuckDB ${version} (\`@duckdb/node-api\`): a fresh in-memory instance per run on a Parquet copy of the same rows ` +
    '(one file, zstd, DuckDB\'s default row groups of 122,880 rows), `SELECT * | col FROM read_parquet(f)`, takes as ' +
    `${DUCK_TAKE_CAPTION}; the result is materialised in DuckDB and dropped; wall time of create + connect + query, the query alone in brackets. ` +
    'Row counts are checked for every run: all rows of a scan from each reader; of a take, lance-cli and DuckDB return the 2048 rows asked for, ' +
    `Lance each distinct row once${dups ? ` (the scattered lists repeat a few rows; distinct: ${dups})` : ''}.`;
}

function printTimingTable(rows) {
  console.log('Lance one-shot: a fresh session in Node (connect + open + query, executed in Rust by `analyzePlan()`, no conversion to JS), ' +
    'the counterpart of one lance-cli process. Lance warm: the plan\'s own elapsed time on an open table with warm caches; ' +
    '`toArrow()`: the same query converted to JS' + (ONE_SHOT ? ' (not run: --one-shot)' : '') + '. lance-cli: whole process (exec, open, decode everything), `-f null`. ' +
    `${duckCaption(rows)}\n`);
  console.log('| dataset | version | rows | workload | Lance one-shot (ms) | Lance warm plan (ms) | Lance toArrow (ms) | lance-cli (ms) | lance-cli / Lance one-shot | lance-cli / Lance warm | DuckDB one-shot (query) (ms) | lance-cli / DuckDB one-shot | lance-cli peak RSS (MiB) |');
  console.log('|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows)
    console.log(`| ${r.dataset} | ${r.version} | ${r.rows} | ${r.workload} | ${f1(r.lance_fresh_ms)} | ${f1(r.lance_plan_ms)} | ${f1(r.lance_ms)} | ${f1(r.cli_ms)} | ` +
      `**${f2(r.cli_ms / r.lance_fresh_ms)}** | ${f2(r.cli_ms / r.lance_plan_ms)} | ${f1(r.duck_ms)} (${f1(r.duck_query_ms)}) | ` +
      `${f2(r.cli_ms / r.duck_ms)} | ${fmtMiB(r.cli_rss_mib)} |`);
}

function printColdTable(rows, device) {
  const mbps = device.bytesPerMs / 1e3;
  console.log('Cold page cache: before each run of each reader, every file of the table directory (DuckDB: the Parquet file) is dropped from the ' +
    'page cache (GNU `dd iflag=nocache count=0`, i.e. `posix_fadvise(POSIX_FADV_DONTNEED)` on the whole file; the files were synced first' +
    `${device.checked ? '; `fincore` showed 0 bytes resident after it' : ''}). Device: ${mbps.toFixed(0)} MB/s sequential read ` +
    `(\`dd bs=1M\` of the evicted ${path.basename(device.file)}, ${fmtBytes(device.size)}, median of 3). Lance one-shot and lance-cli as in the timing table; ` +
    `${duckCaption(rows)} lance-cli warm: the same command again right after the cold run. lance-cli reads and bytes: \`--stats\` iops and bytes_read; ` +
    `ideal: those bytes at ${mbps.toFixed(0)} MB/s.\n`);
  console.log('| dataset | version | rows | workload | Lance one-shot cold (ms) | lance-cli cold (ms) | lance-cli / Lance cold | lance-cli warm (ms) | DuckDB cold (query) (ms) | lance-cli / DuckDB cold | lance-cli reads | lance-cli bytes read | ideal (ms) | lance-cli / ideal | lance-cli peak RSS (MiB) |');
  console.log('|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const ideal = r.cli_bytes / device.bytesPerMs;
    console.log(`| ${r.dataset} | ${r.version} | ${r.rows} | ${r.workload} | ${f1(r.lance_fresh_ms)} | ${f1(r.cli_ms)} | ` +
      `**${f2(r.cli_ms / r.lance_fresh_ms)}** | ${f1(r.cli_warm_ms)} | ${f1(r.duck_ms)} (${f1(r.duck_query_ms)}) | ` +
      `${f2(r.cli_ms / r.duck_ms)} | ${r.cli_iops} | ${fmtBytes(r.cli_bytes)} | ${f1(ideal)} | **${f2(r.cli_ms / ideal)}** | ${fmtMiB(r.cli_rss_mib)} |`);
  }
}

/// Every file under `dir`, recursively.
const filesUnder = (dir) => fs.readdirSync(dir, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile()).map((e) => path.join(e.parentPath ?? e.path, e.name));
const largestFile = (files) => files.reduce((a, f) => (fs.statSync(f).size > fs.statSync(a).size ? f : a));

/// Drops `files` from the page cache: GNU dd with iflag=nocache and count=0 calls
/// posix_fadvise(POSIX_FADV_DONTNEED) on the whole file (clean pages only: sync first).
function evict(files) {
  const r = spawnSync('sh', ['-c', 'for f do dd if="$f" iflag=nocache count=0 status=none || exit 1; done', 'evict', ...files],
    { stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`evicting ${files.length} files failed: ${r.stderr}`);
}

/// Bytes of `file` in the page cache, from util-linux's fincore (NaN without it).
function residentBytes(file) {
  const r = spawnSync('fincore', ['--bytes', '--noheadings', '--output', 'RES', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  return r.status === 0 ? Number(r.stdout.toString().trim()) : NaN;
}

/// The device's sequential read throughput (bytes per ms): `file` evicted (checked with fincore
/// when it is installed), then read once by dd in 1 MiB blocks; dd's own bytes and seconds,
/// the median of three. Syncs first, so that every file of the run can be evicted.
function deviceThroughput(file) {
  spawnSync('sync');
  const rates = [];
  let checked = false;
  for (let i = 0; i < 3; i++) {
    evict([file]);
    const resident = residentBytes(file);
    if (resident > 0) throw new Error(`${file}: ${resident} bytes still in the page cache after eviction`);
    checked = resident === 0;
    const r = spawnSync('dd', [`if=${file}`, 'of=/dev/null', 'bs=1M'], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    const m = /^(\d+) bytes.* copied, ([\d.e-]+) s/m.exec(r.stderr.toString());
    if (!m) throw new Error(`dd if=${file}: ${r.stderr}`);
    rates.push(Number(m[1]) / (Number(m[2]) * 1000));
  }
  return { file, size: fs.statSync(file).size, bytesPerMs: median(rates), checked };
}

/// The take issue's I/O table: requests, I/O operations and bytes for the timing run's takes
/// on every dataset, with page batching on and off, at three block sizes, next to Lance's
/// counters.
async function ioTable() {
  const out = [], exact = [];
  for (const name of Object.keys(DATASETS)) for (const version of VERSIONS) {
    if (!wanted(name)) continue;
    const { dir, tbl } = await openTable(name, version);
    const n = await tbl.countRows();
    const { scattered, contiguous } = takeRows(n, DATASETS[name].fragments || 8, mulberry32(7));
    for (const [kind, rowsList] of [['scattered', scattered], ['contiguous', contiguous]]) {
      // Lance one-shot (a fresh connection: its first query reads the page metadata, as one
      // lance-cli process does), then the same take again on that table (metadata cached).
      const fresh = await (await lancedb.connect(path.dirname(dir))).openTable('t');
      const cold = parsePlan(await fresh.takeOffsets(rowsList).analyzePlan());
      out.push({ name, version, kind, who: 'Lance one-shot', block: '—', batching: '—', ...cold });
      const warm = parsePlan(await fresh.takeOffsets(rowsList).analyzePlan());
      out.push({ name, version, kind, who: 'Lance warm', block: '—', batching: '—', ...warm });
      if (haveStrace()) {
        // Exact counts, the same way for both readers: read system calls on the table's data
        // files in one fresh process each (Lance's plan prints I/O operations rounded to three
        // significant digits).
        const input = rowsList.join('\n'), data = path.join(dir, 'data');
        const lanceSys = traceReads(process.execPath, [path.join(HERE, 'lance-take-once.mjs'), dir], { input, dir: data });
        const cliSys = traceReads(CLI, ['take', dir, '--rows-file', '-', '-f', 'null'], { input, dir: data });
        exact.push({ name, version, kind, lance: lanceSys, cli: cliSys });
      }
      for (const block of [4096, 65536, 262144]) {
        for (const batching of ['on', 'off']) {
          const env = { LANCE_CLI_BLOCK_SIZE: String(block), LANCE_CLI_PAGE_BATCH_BYTES: batching === 'on' ? String(8 << 20) : '0' };
          const st = runCli(['take', dir, '--rows-file', '-', '-f', 'null'], rowsList.join('\n'), env).stats;
          out.push({ name, version, kind, who: 'lance-cli', block: `${block / 1024} KiB`, batching, requests: st.requests, iops: st.iops, bytes: st.bytes_read });
        }
      }
    }
  }
  console.log(`\n${machine()}. Takes of 2048 rows, all columns, the rows of the timing table (scripts/bench-datasets.mjs has the datasets).\n`);
  console.log('| dataset | version | rows | reader | block size | page batching | requests | I/O operations | bytes read |');
  console.log('|---|---|---|---|---|---|---:|---:|---:|');
  for (const r of out)
    console.log(`| ${r.name} | ${r.version} | ${r.kind} | ${r.who} | ${r.block} | ${r.batching} | ${r.requests} | ${r.iops} | ${fmtBytes(r.bytes)} |`);
  if (exact.length === 0) return;
  console.log('\nExact counts from system calls (strace -f: pread64/preadv/read on the data files, the file-opening reads included), ' +
    'one fresh process each: Lance = connect + open + takeOffsets().toArrow() in Node; lance-cli = `take` with the default settings.\n');
  console.log('| dataset | version | rows | Lance reads | lance-cli reads | Lance bytes | lance-cli bytes | reads ratio | bytes ratio |');
  console.log('|---|---|---|---:|---:|---:|---:|---:|---:|');
  for (const r of exact)
    console.log(`| ${r.name} | ${r.version} | ${r.kind} | ${r.lance.iops} | ${r.cli.iops} | ${r.lance.bytes} | ${r.cli.bytes} | ` +
      `${(r.cli.iops / r.lance.iops).toFixed(3)} | ${(r.cli.bytes / r.lance.bytes).toFixed(3)} |`);
}

/// A copy of a generated dataset with Lance's indices on it (`build(tbl)` creates them), cached
/// next to it in ../bench-data/<name>-v<V>-s<S>-<suffix>/ (built in a temporary folder and
/// renamed, so an interrupted build is not taken for a finished one).
async function ensureIndexedCopy(name, version, suffix, build) {
  const src = await ensureDataset(name, version);
  const dir = path.join(DATA, `${name}-v${version}-s${SCALE}-${suffix}`);
  const tableDir = path.join(dir, 't.lance');
  if (fs.existsSync(path.join(tableDir, '_indices'))) return tableDir;
  const tmp = `${dir}.tmp`;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  fs.cpSync(src, path.join(tmp, 't.lance'), { recursive: true });
  const tbl = await (await lancedb.connect(tmp)).openTable('t');
  const t0 = process.hrtime.bigint();
  await build(tbl);
  const names = (await tbl.listIndices()).map((i) => `${i.name} (${i.indexType})`);
  tbl.close();
  fs.renameSync(tmp, dir);
  console.error(`indexed ${name} v${version} (${suffix}) in ${(msSince(t0) / 1000).toFixed(1)} s: ${names.join(', ')}`);
  return tableDir;
}

/// The scalars table with a BTREE index on `id` and a BITMAP index on `cat`.
const ensureIndexed = (version) => ensureIndexedCopy('scalars', version, 'indexed', async (tbl) => {
  await tbl.createIndex('id', { config: lancedb.Index.btree() });
  await tbl.createIndex('cat', { config: lancedb.Index.bitmap() });
});

// DuckDB's types for the Parquet copies (the Lance schema's, explicitly: read_json would
// otherwise guess, e.g. DOUBLE for the float32 score). DuckDB has no float16: the nested
// dataset's half floats are FLOAT, as lance-cli's JSON prints them (four significant digits,
// within 5e-4 of Lance's values); fixed_size_list is ARRAY.
const DUCK_DEEP = 'FLOAT[3][][][]';
const DUCK_TYPES = {
  scalars: { id: 'BIGINT', small: 'INTEGER', big: 'BIGINT', x: 'DOUBLE', flag: 'BOOLEAN', cat: 'VARCHAR' },
  text: { id: 'BIGINT', url: 'VARCHAR', text: 'VARCHAR', language: 'VARCHAR', score: 'FLOAT', token_count: 'INTEGER' },
  vectors: { id: 'BIGINT', vector: 'FLOAT[384]' },
  nested: { id: 'BIGINT', f16_a: DUCK_DEEP, f16_b: DUCK_DEEP, llf: 'FLOAT[][]', li: 'BIGINT[]', ls: 'VARCHAR[]', lli: 'INTEGER[][]',
    lst: 'STRUCT(a INTEGER, b DOUBLE)[]' },
};
DUCK_TYPES.nested_large = DUCK_TYPES.nested;  // the same columns, longer lists
const sqlStr = (s) => `'${s.replace(/'/g, "''")}'`;

/// DuckDB's take of `rows` (Lance's row offsets, which are the Parquet copy's file_row_number):
/// an inner join of the file with the list unnested, so that duplicates come back repeated as
/// from a take. DuckDB pushes the join's min and max into the scan at run time, which skips
/// the row groups outside them. `WHERE file_row_number IN (…)` and a semi-join with a VALUES list return each
/// row once and were not faster (docs/performance.md).
const duckTakeSql = (parquet, rows) => `SELECT p.* FROM read_parquet(${sqlStr(parquet)}) p ` +
  `JOIN (SELECT unnest([${rows.join(', ')}]::BIGINT[]) AS rn) k ON p.file_row_number = k.rn`;
const DUCK_TAKE_CAPTION = '`SELECT p.* FROM read_parquet(f) p JOIN (SELECT unnest([rows]) AS rn) k ON p.file_row_number = k.rn` ' +
  '(an inner join on the virtual `file_row_number` column: duplicates repeated, as in a take)';

/// Runs `sql` in a fresh in-memory DuckDB instance to a result materialised in DuckDB (its own
/// vectors, not fetched into JS: fetching 10 M rows chunk by chunk added ~0.4 s) and returns
/// its wall time (create + connect + query), the query's part of it, and the row count.
async function duckOnce(sql) {
  const { DuckDBInstance } = require('@duckdb/node-api');
  const t0 = process.hrtime.bigint();
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  const t1 = process.hrtime.bigint();
  const rows = (await conn.run(sql)).rowCount;
  const t2 = process.hrtime.bigint();
  // Closed outside the timing, as Lance's fresh table is dropped after it.
  conn.closeSync();
  inst.closeSync();
  return { ms: Number(t2 - t0) / 1e6, queryMs: Number(t2 - t1) / 1e6, rows };
}

/// The dataset as one zstd Parquet file (DuckDB's default row groups, 122,880 rows), written
/// once by DuckDB from lance-cli's JSONL of the table (explicit column types; the same rows in
/// the same order), checked against Lance's row count and for order: every dataset's `id` is
/// its row number, so `id = file_row_number` on every row.
async function ensureParquet(name, tableDir, n) {
  const file = path.join(DATA, `${name}-s${SCALE}${name === 'nested' && FANOUT !== 1 ? `-f${FANOUT}` : ''}.zstd.parquet`);
  if (fs.existsSync(file)) return file;
  const jsonl = `${file}.jsonl`, tmp = `${file}.tmp`;
  const r = spawnSync(CLI, ['scan', tableDir, '-f', 'jsonl', '-o', jsonl], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`lance-cli scan ${tableDir} -f jsonl -o ${jsonl} failed: ${r.stderr}`);
  const cols = Object.entries(DUCK_TYPES[name]).map(([k, t]) => `${k}: ${sqlStr(t)}`).join(', ');
  await duckOnce(`COPY (SELECT * FROM read_json(${sqlStr(jsonl)}, format = 'newline_delimited', columns = {${cols}}, maximum_object_size = 1073741824)) ` +
    `TO ${sqlStr(tmp)} (FORMAT parquet, COMPRESSION zstd)`);
  fs.rmSync(jsonl, { force: true });
  const { rows } = await duckOnce(`SELECT * FROM read_parquet(${sqlStr(tmp)})`);
  if (rows !== n) throw new Error(`${tmp}: ${rows} rows, Lance has ${n}`);
  const { rows: misplaced } = await duckOnce(`SELECT id FROM read_parquet(${sqlStr(tmp)}) WHERE id <> file_row_number`);
  if (misplaced !== 0) throw new Error(`${tmp}: ${misplaced} rows out of Lance's order`);
  const { rows: notZstd } = await duckOnce(`SELECT 1 FROM parquet_metadata(${sqlStr(tmp)}) WHERE compression <> 'ZSTD'`);
  if (notZstd !== 0) throw new Error(`${tmp}: ${notZstd} column chunks not zstd-compressed`);
  fs.renameSync(tmp, file);
  console.error(`wrote ${file}: ${n} rows`);
  return file;
}

/// Filtered scans, one-shot each: lance-cli `scan --filter` (a whole process) against Lance's
/// query().where() in a fresh session and DuckDB on a Parquet copy (a fresh instance), on the
/// plain scalars table, its scalar-indexed copy, and the text table. The matching row counts
/// of the three must agree.
async function filters() {
  const VERBOSE = args.includes('--verbose');
  const rows = [];
  for (const version of VERSIONS) {
    const tables = [];
    if (!ONLY || ONLY.has('scalars')) {
      const plain = await ensureDataset('scalars', version);
      const n = await (await (await lancedb.connect(path.dirname(plain))).openTable('t')).countRows();
      const lo = Math.floor(n / 2 - n / 2000), hi = lo + Math.max(1, Math.round(n / 1000));
      const workloads = [
        { name: `id range 0.1%`, expr: `id >= ${lo} AND id < ${hi}` },
        { name: 'cat = gamma', expr: "cat = 'gamma'" },
        { name: 'x < 1000 (0.1%)', expr: 'x < 1000' },
      ];
      const parquet = await ensureParquet('scalars', plain, n);
      tables.push({ name: 'scalars', copy: 'plain', dir: plain, parquet, workloads });
      tables.push({ name: 'scalars', copy: 'indexed', dir: await ensureIndexed(version), parquet, workloads });
    }
    if (!ONLY || ONLY.has('text')) {
      const dir = await ensureDataset('text', version);
      const n = await (await (await lancedb.connect(path.dirname(dir))).openTable('t')).countRows();
      const parquet = await ensureParquet('text', dir, n);
      tables.push({ name: 'text', copy: 'plain', dir, parquet, workloads: [{ name: 'score < 0.01, -c text', expr: 'score < 0.01', cols: ['text'] }] });
    }
    settle();
    for (const t of tables) {
      for (const w of t.workloads) {
        const lanceQuery = (tbl) => { const q = tbl.query().where(w.expr); return w.cols ? q.select(w.cols) : q; };
        const cliArgs = ['scan', t.dir, '--filter', w.expr, ...(w.cols ? ['-c', w.cols.join(',')] : []), '-f', 'null'];
        const sql = `SELECT ${w.cols ? w.cols.join(', ') : '*'} FROM read_parquet(${sqlStr(t.parquet)}) WHERE ${w.expr}`;
        // The same rows from all three: Lance's countRows(e), lance-cli's count --filter (and
        // the rows its scans output), DuckDB's result.
        const lanceCount = await (await (await lancedb.connect(path.dirname(t.dir))).openTable('t')).countRows(w.expr);
        const cc = spawnSync(CLI, ['count', t.dir, '--filter', w.expr], { stdio: ['ignore', 'pipe', 'pipe'] });
        if (cc.status !== 0) throw new Error(`lance-cli count ${t.dir} --filter "${w.expr}" failed: ${cc.stderr}`);
        const cliCount = Number(cc.stdout.toString().trim());
        if (cliCount !== lanceCount)
          throw new Error(`${t.name} (${t.copy}) ${w.expr}: lance-cli count says ${cliCount} rows, Lance countRows ${lanceCount}`);
        const lt = [], lb = [], ct = [], cb = [], cib = [], rss = [], dt = [], dq = [];
        let lanceIndex = '', cliIndex = '';
        for (let rep = 0; rep < REPS; rep++) {
          // Lance one-shot: a fresh session (connect + open + filtered query, executed and
          // dropped in Rust by analyzePlan), the counterpart of one lance-cli process.
          const { ms, result: plan } = await lanceOneShot(t.dir, (fresh) => lanceQuery(fresh).analyzePlan());
          lt.push(ms);
          const p = parsePlan(plan, { allNodes: true });
          lb.push(p.bytes);
          // The plan's top node's output rows (three significant digits) against countRows.
          const top = /output_rows=([\d.]+)(?: ([KM]))?/.exec(plan) || [];
          const planRows = Number(top[1]) * ({ K: 1e3, M: 1e6 }[top[2]] || 1);
          lanceIndex = [...plan.matchAll(/@(\w+)\((\w+)\)/g)].map((m) => m[1]).filter((v, i, a) => a.indexOf(v) === i).join(', ');
          if (VERBOSE && rep === 0) console.error(`--- Lance plan, ${t.name} (${t.copy}) v${version}: ${w.expr}; bytes by node ${JSON.stringify(p.byNode)}\n${plan}`);
          if (!(Math.abs(planRows - lanceCount) <= lanceCount * 0.005 + 0.5))
            throw new Error(`Lance query().where(${w.expr}): ${top[0]} in its plan, countRows ${lanceCount}`);
          const c = runCli(cliArgs);
          if (c.stats.rows_out !== lanceCount)
            throw new Error(`lance-cli ${cliArgs.join(' ')}: ${c.stats.rows_out} rows out, Lance countRows ${lanceCount}`);
          ct.push(c.ms); cb.push(c.stats.bytes_read); rss.push(c.rssKb);
          const uses = c.stats.filter?.index_uses || [];
          cib.push(uses.reduce((a, u) => a + (u.index_bytes_read || 0), 0));
          cliIndex = uses.flatMap((u) => u.indices.map((x) => x.split(' ')[1])).filter((v, i, a) => a.indexOf(v) === i).join(', ');
          const d = await duckOnce(sql);
          if (d.rows !== lanceCount) throw new Error(`DuckDB ${sql}: ${d.rows} rows, Lance countRows ${lanceCount}`);
          dt.push(d.ms); dq.push(d.queryMs);
        }
        const row = { dataset: t.name, version, copy: t.copy, workload: w.name, expr: w.expr, matched: lanceCount,
          lance_ms: median(lt), lance_bytes: median(lb), cli_ms: median(ct), cli_bytes: median(cb), cli_index_bytes: median(cib),
          duck_ms: median(dt), duck_query_ms: median(dq), cli_rss_mib: Math.max(...rss) / 1024, lance_index: lanceIndex, cli_index: cliIndex };
        rows.push(row);
        console.error(JSON.stringify(row));
      }
    }
  }
  console.log(runHeader());
  console.log('One-shot each. Lance: a fresh session in Node (connect + open + `query().where(e)[.select(cols)]`, executed in Rust by ' +
    '`analyzePlan()`, no conversion to JS); its bytes are the plan\'s `bytes_read`, summed over every node that reports it ' +
    '(LanceRead, the Take of late materialisation, ScalarIndexQuery), which leaves out the index files Lance reads while planning. ' +
    'lance-cli: whole process, `scan DIR --filter e [-c cols] -f null`; its bytes are `--stats` bytes_read, index files included ' +
    '(their share in brackets). DuckDB: a fresh in-process instance running `SELECT cols FROM \'t.parquet\' WHERE e` to a ' +
    'materialised result (a Parquet copy of the plain table, no index), wall time of create + connect + query, the query alone in brackets. Rows matched: Lance `countRows(e)`, checked equal to ' +
    'lance-cli `count --filter`, to the rows of each lance-cli scan and to DuckDB\'s result.\n');
  console.log('| dataset | version | copy | workload | rows matched | index (Lance; lance-cli) | Lance one-shot (ms) | Lance bytes | lance-cli (ms) | lance-cli bytes | lance-cli / Lance | bytes ratio | DuckDB one-shot (query) (ms) | lance-cli peak RSS (MiB) |');
  console.log('|---|---|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const idx = r.lance_index || r.cli_index ? `${r.lance_index || '–'}; ${r.cli_index || '–'}` : '–';
    const cliBytes = fmtBytes(r.cli_bytes) + (r.cli_index_bytes > 0 ? ` (${fmtBytes(r.cli_index_bytes)})` : '');
    console.log(`| ${r.dataset} | ${r.version} | ${r.copy} | ${r.workload}: \`${r.expr}\` | ${r.matched} | ${idx} | ${f1(r.lance_ms)} | ${fmtBytes(r.lance_bytes)} | ` +
      `${f1(r.cli_ms)} | ${cliBytes} | **${f2(r.cli_ms / r.lance_ms)}** | ${f2(r.cli_bytes / r.lance_bytes)} | ` +
      `${f1(r.duck_ms)} (${f1(r.duck_query_ms)}) | ${fmtMiB(r.cli_rss_mib)} |`);
  }
}

/// Peak RSS of this process since the last reset (VmHWM, KiB): writing 5 to clear_refs resets it
/// to the current RSS (Linux >= 4.0), so one LanceDB one-shot's peak can be read in-process.
const procKb = (key) => { try { return Number(new RegExp(`${key}:\\s+(\\d+)`).exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]); } catch { return NaN; } };
function resetPeakRss() { try { fs.writeFileSync('/proc/self/clear_refs', '5'); return procKb('VmRSS'); } catch { return NaN; } }

/// Which of `opts` `lance-cli search --help` lists (the indexed-search options land later).
function cliSearchOptions(opts) {
  const r = spawnSync(CLI, ['search', '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const help = r.stdout.toString();
  return new Set(opts.filter((o) => new RegExp(`(^|[\\s,])${o}(?=[\\s,=]|$)`, 'm').test(help)));
}

/// Result ids (and distances) per query of a LanceDB answer: an array of result tables (one
/// per query) or one table with a query_index column (addQueryVector).
function answersOf(results, nq) {
  const out = Array.from({ length: nq }, () => ({ ids: [], dist: [] }));
  for (const [i, r] of (Array.isArray(results) ? results : [results]).entries()) {
    const qi = r.getChild('query_index')?.toArray(), id = r.getChild('id').toArray(), d = r.getChild('_distance').toArray();
    for (let j = 0; j < r.numRows; j++) { const a = out[qi ? qi[j] : i]; a.ids.push(Number(id[j])); a.dist.push(d[j]); }
  }
  return out;
}

/// lance-cli's answer to `args` (not timed): its JSON lines (`-c id`), per query.
function cliAnswers(cliArgs, nq) {
  const r = spawnSync(CLI, [...cliArgs, '-c', 'id', '-f', 'jsonl'], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`lance-cli ${cliArgs.join(' ')} -c id -f jsonl failed: ${r.stderr}`);
  const out = Array.from({ length: nq }, () => ({ ids: [], dist: [] }));
  for (const line of r.stdout.toString().split('\n')) {
    if (!line) continue;
    const o = JSON.parse(line);
    const a = out[o.query_index ?? 0]; a.ids.push(Number(o.id)); a.dist.push(o._distance);
  }
  return out;
}

/// Mean over the queries of |got ∩ want| / |want| (recall@k when `want` is the exact answer).
const overlap = (got, want) => got.reduce((acc, g, i) => {
  const w = new Set(want[i].ids);
  return acc + (w.size ? g.ids.filter((x) => w.has(x)).length / w.size : 1);
}, 0) / got.length;

/// Nearest-neighbour search (#34), one-shot each: `lance-cli search` (a whole process, `-f null`)
/// against LanceDB's vectorSearch() in a fresh session, on the vectors table (exact) and on a
/// copy with an IVF_PQ index (nprobes 20, without and with refine factor 5), one query and a
/// batch of 100 queries in one process. Recall@10 of every indexed answer against the exact
/// one, for both readers, over the 100 queries; lance-cli's answers against LanceDB's.
async function search() {
  const VERBOSE = args.includes('--verbose');
  // LanceDB's exact batch: a loop of 100 queries by default; with --exact-multi one query with
  // 99 addQueryVector()s (100 concurrent flat scans: the same time here, ~11 GB peak RSS).
  const EXACT_MULTI = args.includes('--exact-multi');
  const K = 10, NQ = 100, NPROBES = 20, REFINE = 5;
  const have = cliSearchOptions(['--nprobes', '--refine-factor']);
  const rows = [], missing = [], exactly = [], notes = [];
  for (const version of VERSIONS) for (const name of ['vectors', 'vectors_clustered']) {
    if (ONLY && !ONLY.has(name)) continue;
    const plain = await ensureDataset(name, version);
    const tbl = await (await lancedb.connect(path.dirname(plain))).openTable('t');
    const n = await tbl.countRows();
    const dim = (await tbl.schema()).fields.find((f) => f.name === 'vector').type.listSize;
    // IVF_PQ as the issue asks: 256 partitions (sqrt(rows) on smaller tables), dim / 16 sub-vectors.
    const partitions = Math.max(1, Math.min(256, Math.round(Math.sqrt(n))));
    const subVectors = Math.max(1, Math.round(dim / 16));
    const ivf = await ensureIndexedCopy(name, version, 'ivfpq', (t) => t.createIndex('vector',
      { config: lancedb.Index.ivfPq({ numPartitions: partitions, numSubVectors: subVectors }) }));
    const ivfTbl = await (await lancedb.connect(path.dirname(ivf))).openTable('t');
    // 100 seeded queries from the data's distribution (scripts/bench-datasets.mjs), float32
    // values, in one JSON-lines file for --vector-file; the single-query rows use the first.
    const queries = DATASETS[name].queries(mulberry32(0x5ea4c4), NQ, dim);
    const qfile = path.join(DATA, `${name}-queries-d${dim}-n${NQ}.jsonl`);
    fs.writeFileSync(qfile, queries.map((q) => JSON.stringify(q)).join('\n') + '\n');
    settle();
    const configs = [
      { name: 'exact', dir: plain, tbl, lance: (q) => q.bypassVectorIndex(), cli: ['--exact'], needs: [], plan: 'KNNVectorDistance' },
      { name: `IVF_PQ nprobes ${NPROBES}`, dir: ivf, tbl: ivfTbl, lance: (q) => q.nprobes(NPROBES), cli: ['--nprobes', `${NPROBES}`],
        needs: ['--nprobes'], plan: 'ANNSubIndex', indexed: true },
      { name: `IVF_PQ nprobes ${NPROBES}, refine ${REFINE}`, dir: ivf, tbl: ivfTbl, lance: (q) => q.nprobes(NPROBES).refineFactor(REFINE),
        cli: ['--nprobes', `${NPROBES}`, '--refine-factor', `${REFINE}`], needs: ['--nprobes', '--refine-factor'], plan: 'ANNSubIndex', indexed: true },
    ];
    let truth = null;
    for (const c of configs) {
      const lacks = c.needs.filter((o) => !have.has(o));
      // The plan shows whether LanceDB used the index (ANNSubIndex) or scanned (KNNVectorDistance).
      const plan = await c.lance(c.tbl.vectorSearch(queries[0])).limit(K).analyzePlan();
      if (VERBOSE) console.error(`--- LanceDB plan, ${name} v${version}: ${c.name}\n${plan}`);
      if (!plan.includes(c.plan) || (!c.indexed && plan.includes('ANNSubIndex')))
        throw new Error(`LanceDB ${c.name} on ${c.dir}: no ${c.plan} in its plan:\n${plan}`);
      let batchAnswers = null, cliBatchAnswers = null;
      for (const batch of [false, true]) {
        const qs = batch ? queries : queries.slice(0, 1);
        const multi = batch && (c.indexed || EXACT_MULTI);
        const run = multi
          ? (t) => c.lance(qs.slice(1).reduce((v, q) => v.addQueryVector(q), t.vectorSearch(qs[0]))).limit(K).toArrow()
          : async (t) => { const out = []; for (const q of qs) out.push(await c.lance(t.vectorSearch(q)).limit(K).toArrow()); return out; };
        const how = !batch ? '' : multi ? ', LanceDB: addQueryVector' : ', LanceDB: a loop';
        const workload = `${c.name}, ${batch ? `${NQ} queries` : '1 query'}${how}`;
        const cliArgs = ['search', c.dir, ...(batch ? ['--vector-file', qfile] : ['--vector', JSON.stringify(qs[0])]), '-k', `${K}`, ...c.cli];
        // The exact batch's warm run would repeat 100 flat scans for the one-shot's time.
        const warm = !(batch && !c.indexed);
        const lt = [], wt = [], ct = [], rss = [], lrss = [], lbase = [];
        let methods = new Set(), cliError = lacks.length ? `lance-cli has no ${lacks.join(', ')}` : null;
        let answers = null;
        for (let rep = 0; rep < REPS; rep++) {
          // LanceDB one-shot in a fresh session; its peak RSS is the whole Node process's (VmHWM).
          lbase.push(resetPeakRss());
          const o = await lanceOneShot(c.dir, run);
          lrss.push(procKb('VmHWM'));
          lt.push(o.ms);
          answers = answersOf(o.result, qs.length);
          if (answers.some((a) => a.ids.length !== K)) throw new Error(`LanceDB ${workload}: not ${K} rows for every query`);
          if (warm) { const t0 = process.hrtime.bigint(); await run(c.tbl); wt.push(msSince(t0)); }
          if (cliError) continue;
          try {
            const r = runCli([...cliArgs, '-f', 'null']);
            if (r.stats.rows_out !== K * qs.length) throw new Error(`${r.stats.rows_out} rows out, not ${K * qs.length}`);
            ct.push(r.ms); rss.push(r.rssKb); methods.add(String(r.stats.search?.method ?? '?').split(' ')[0]);
          } catch (e) { cliError = `lance-cli failed: ${String(e.message).split('\n')[0].slice(0, 300)}`; }
        }
        if (batch) batchAnswers = answers;
        if (batch && !cliError) {
          try { cliBatchAnswers = cliAnswers(cliArgs, qs.length); } catch (e) { cliError = `lance-cli failed: ${String(e.message).split('\n')[0].slice(0, 300)}`; }
        }
        // An indexed row that lance-cli answered by scanning every row is not an indexed result.
        const what = `${name} v${version}: ${workload}`;
        if (!cliError && c.indexed && methods.has('exact')) exactly.push({ what, why: 'lance-cli searched exactly (`--stats` method "exact"): the index was not used' });
        if (cliError) missing.push({ what, why: cliError });
        const row = { dataset: name, version, rows: n, dim, partitions, subVectors, workload, batch, config: c, lance_ms: median(lt), lance_warm_ms: warm ? median(wt) : NaN,
          cli_ms: cliError ? NaN : median(ct), cli_rss_mib: cliError ? NaN : Math.max(...rss) / 1024,
          lance_rss_mib: Math.max(...lrss) / 1024, lance_base_mib: median(lbase) / 1024, cli_method: [...methods].join(', ') };
        rows.push(row);
        console.error(JSON.stringify({ ...row, config: c.name }));
      }
      // Result quality over the 100 queries: the exact answers are the truth (LanceDB's; lance-cli's
      // exact answers are checked against them), every indexed answer's recall@10 against it.
      if (!c.indexed) truth = batchAnswers;
      // lance-cli's answers against LanceDB's for the same search: ids, order, distances.
      if (cliBatchAnswers) {
        const same = cliBatchAnswers.filter((a, i) => a.ids.join() === batchAnswers[i].ids.join()).length;
        let maxRel = 0;
        cliBatchAnswers.forEach((a, i) => a.ids.forEach((id, j) => {
          const k = batchAnswers[i].ids.indexOf(id), d = batchAnswers[i].dist[k];
          if (k >= 0) maxRel = Math.max(maxRel, Math.abs(a.dist[j] - d) / Math.max(Math.abs(d), 1e-30));
        }));
        notes.push(`${name} v${version} ${c.name}: lance-cli returns LanceDB's ${K} ids in LanceDB's order for ${same} of ${NQ} queries ` +
          `(${(overlap(cliBatchAnswers, batchAnswers) * 100).toFixed(1)} % of LanceDB's ids); largest relative _distance difference ${maxRel.toExponential(1)}`);
      }
      for (const r of rows.filter((x) => x.config === c)) {
        r.lance_recall = overlap(batchAnswers, truth);
        r.cli_recall = cliBatchAnswers ? overlap(cliBatchAnswers, truth) : NaN;
        r.cli_vs_lance = cliBatchAnswers ? overlap(cliBatchAnswers, batchAnswers) : NaN;
      }
    }
    ivfTbl.close(); tbl.close();
  }
  console.log(runHeader());
  console.log(`LanceDB one-shot: a fresh session in Node (connect + open + \`vectorSearch(q)[.bypassVectorIndex() | .nprobes(${NPROBES})[.refineFactor(${REFINE})]].limit(${K}).toArrow()\`, ` +
    `all columns), the counterpart of one lance-cli process; the ${NQ}-query batch in that one session, as a loop of ${NQ} queries or as one query with ` +
    `${NQ - 1} \`addQueryVector()\` (the row says which). LanceDB warm: the same on a table kept open (not run for the exact batch: ${NQ} flat scans, the one-shot's time). ` +
    `lance-cli: whole process, \`search DIR --vector '[…]' | --vector-file FILE (${NQ} JSON lines) -k ${K} [--exact | --nprobes ${NPROBES} [--refine-factor ${REFINE}]] -f null\`. ` +
    `IVF_PQ: built by LanceDB on a copy of the table (\`Index.ivfPq({numPartitions, numSubVectors})\`, l2). Queries: ${NQ} seeded vectors from the data's distribution. ` +
    `Recall@10: mean over the ${NQ} queries of the batch answer's share of LanceDB's exact ${K} (each of lance-cli's batch answers is compared with LanceDB's below the table); ` +
    `"same as LanceDB": the share of LanceDB's ids that lance-cli returns for the same search; lance-cli method: \`--stats\` search.method (exact = every row compared, the index not used). LanceDB peak RSS: the Node process's (VmHWM reset before each one-shot; ` +
    `its RSS before the query in brackets).\n`);
  console.log('| dataset | version | rows × dim | index | workload | LanceDB one-shot (ms) | LanceDB warm (ms) | lance-cli (ms) | lance-cli / LanceDB one-shot | lance-cli / LanceDB warm | lance-cli method | recall@10 LanceDB | recall@10 lance-cli | same as LanceDB | lance-cli peak RSS (MiB) | LanceDB peak RSS (MiB) |');
  console.log('|---|---|---|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const idx = r.config.indexed ? `IVF_PQ ${r.partitions} × PQ${r.subVectors}` : '–';
    console.log(`| ${r.dataset} | ${r.version} | ${r.rows} × ${r.dim} | ${idx} | ${r.workload} | ${f1(r.lance_ms)} | ${f1(r.lance_warm_ms)} | ${f1(r.cli_ms)} | ` +
      `**${f2(r.cli_ms / r.lance_ms)}** | ${f2(r.cli_ms / r.lance_warm_ms)} | ${r.cli_method || '–'} | ${r.config.indexed ? f2(r.lance_recall) : '(truth)'} | ` +
      `${f2(r.cli_recall)} | ${f2(r.cli_vs_lance)} | ${fmtMiB(r.cli_rss_mib)} | ${fmtMiB(r.lance_rss_mib)} (${fmtMiB(r.lance_base_mib)}) |`);
  }
  console.log(`\nlance-cli search options found: ${['--nprobes', '--refine-factor'].map((o) => `${o} ${have.has(o) ? 'yes' : 'no'}`).join(', ')}.`);
  // Grouped by reason: one line per reason with the rows it concerns.
  const grouped = (list) => [...new Set(list.map((m) => m.why))].map((why) => {
    const of = list.filter((m) => m.why === why).map((m) => m.what);
    return `- ${why} (${of.length} rows): ${of.join('; ')}`;
  }).join('\n');
  if (missing.length) console.log(`\nRows lance-cli could not run (LanceDB's numbers are in the table):\n${grouped(missing)}`);
  if (exactly.length) console.log(`\nIndexed rows lance-cli answered without the index (their lance-cli numbers are an exact search's):\n${grouped(exactly)}`);
  if (notes.length) console.log(`\n${notes.map((m) => `- ${m}`).join('\n')}`);
}

function machine() {
  const cpu = os.cpus()[0]?.model || 'unknown cpu';
  return `Machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`;
}

if (!fs.existsSync(CLI)) throw new Error(`build lance-cli first (${CLI})`);
if (args.includes('--generate')) { for (const v of VERSIONS) for (const k of Object.keys(DATASETS)) if (wanted(k)) await ensureDataset(k, v); }
else if (args.includes('--io')) await ioTable();
else if (args.includes('--filters')) await filters();
else if (args.includes('--search')) await search();
else await timing();
