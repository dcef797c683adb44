// Benchmark: lance-cli against Lance itself (LanceDB 0.31.0 = Lance 8.0 in Node), same files,
// same run, interleaved repetitions. Prints a markdown table of medians and ratios.
//
//   cd scripts && npm ci && node bench.mjs [--scale 1] [--reps 3] [--versions 2.1,2.2] [--only text,nested] [--arrow]
//   node bench.mjs --generate   only write the datasets
//   node bench.mjs --io      the take I/O table (requests, I/O operations, bytes; batching on/off, block sizes),
//                            and exact read counts of both readers from strace when it is installed
//
// Datasets are generated once (seeded) into ../bench-data/<name>-v<V>/ and reused.
// Lance is timed in-process (query().select().toArrow(), takeOffsets()); lance-cli is timed
// as a whole process with `-f null` (decode everything, write nothing). Peak RSS of
// lance-cli comes from GNU time when /usr/bin/time exists.
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
const VERSIONS = opt('versions', '2.1,2.2').split(',');
const ONLY = opt('only', '') ? new Set(opt('only', '').split(',')) : null;
const ARROW_OUT = args.includes('--arrow');
// Multiplies the list lengths of the nested dataset's deep columns (1 = docs/performance.md's dataset;
// 4 gives ~100 MB, the shape of the production table the nested issue was measured on).
const FANOUT = Number(opt('nested-fanout', '1'));

import { benchDatasets, mulberry32, batchesOf } from './bench-datasets.mjs';
import { haveStrace, traceReads } from './syscall-io.mjs';

const DATASETS = benchDatasets(SCALE, FANOUT);

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
  // table, which Lance splits into files of its default size.
  const frags = ds.fragments || 1;
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

/// Lance's own numbers from analyzePlan(): the plan's elapsed time (ms) and the LanceRead
/// I/O counters, summed over LanceRead nodes. Lance prints bytes with 3 significant digits.
function parsePlan(text) {
  const unit = { ns: 1e-6, 'µs': 1e-3, us: 1e-3, ms: 1, s: 1000 };
  const m = /elapsed=([\d.]+)(ns|µs|us|ms|s)/.exec(text);
  const elapsedMs = m ? Number(m[1]) * unit[m[2]] : NaN;
  const scale = { '': 1, K: 1e3, M: 1e6, G: 1e9, T: 1e12 };
  let requests = 0, iops = 0, bytes = 0;
  for (const line of text.split('\n')) {
    if (!line.includes('LanceRead')) continue;
    const g = (k) => { const r = new RegExp(`[ ,\\[]${k}=([\\d.]+)(?: ?([KMGT]))?(?: ?B)?[,\\]]`).exec(line); return r ? Number(r[1]) * scale[r[2] || ''] : 0; };
    requests += g('requests'); iops += g('iops'); bytes += g('bytes_read');
  }
  return { elapsedMs, requests, iops, bytes };
}

/// Runs lance-cli as a whole process with --stats=json and returns its wall time, peak RSS and
/// stats. The time is taken by a small bash (`time`, ms resolution) around GNU time around
/// lance-cli: spawning straight from this Node process would add the cost of forking a large
/// process (hundreds of ms once LanceDB's caches are warm) to every lance-cli run.
function runCli(cliArgs, input, env = {}) {
  const errFile = path.join(os.tmpdir(), `lance-bench-${process.pid}.err`);
  const hasTime = fs.existsSync('/usr/bin/time');
  const inner = hasTime ? ['/usr/bin/time', '-f', 'RSS_KB=%M', CLI] : [CLI];
  const script = 'TIMEFORMAT=%3R; { time "$@" > /dev/null 2> "$ERR_FILE"; } 2>&1';
  const r = spawnSync('bash', ['-c', script, 'bench', ...inner, ...cliArgs, '--stats=json'],
    { input, maxBuffer: 1 << 20, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env, ERR_FILE: errFile } });
  const err = fs.existsSync(errFile) ? fs.readFileSync(errFile, 'utf8') : '';
  if (r.status !== 0) throw new Error(`lance-cli ${cliArgs.join(' ')} failed: ${err} ${r.stderr}`);
  const ms = Number(r.stdout.toString().trim().split('\n').pop()) * 1000;
  const lines = err.trim().split('\n');
  const rssLine = lines.find((l) => l.startsWith('RSS_KB='));
  const statsLine = lines.find((l) => l.startsWith('{'));
  return { ms, rssKb: rssLine ? Number(rssLine.slice(7)) : NaN, stats: statsLine ? JSON.parse(statsLine) : {} };
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

const fmtBytes = (b) => (b >= 1e6 ? `${(b / 1e6).toFixed(2)} MB` : `${(b / 1e3).toFixed(1)} kB`);

async function timing() {
  const rows = [];
  for (const version of VERSIONS) {
    for (const name of Object.keys(DATASETS)) {
      if (ONLY && !ONLY.has(name)) continue;
      const ds = DATASETS[name];
      const { dir, tbl } = await openTable(name, version);
      const n = await tbl.countRows();
      const { scattered, contiguous } = takeRows(n, ds.fragments || 8, mulberry32(7));
      const workloads = [
        { name: 'full scan', lance: (t) => t.query().select(ds.cols), cli: ['scan', dir, '-f', 'null'] },
        { name: `scan ${ds.one}`, lance: (t) => t.query().select([ds.one]), cli: ['scan', dir, '-c', ds.one, '-f', 'null'] },
        { name: 'take 2048 scattered', lance: (t) => t.takeOffsets(scattered), cli: ['take', dir, '--rows-file', '-', '-f', 'null'], input: scattered.join('\n') },
        { name: 'take 2048 contiguous', lance: (t) => t.takeOffsets(contiguous), cli: ['take', dir, '--rows-file', '-', '-f', 'null'], input: contiguous.join('\n') },
      ];
      if (ARROW_OUT) workloads.splice(1, 0, { name: 'full scan, -f arrow', lance: (t) => t.query().select(ds.cols), cli: ['scan', dir, '-f', 'arrow'] });
      for (const w of workloads) {
        const lt = [], pt = [], ft = [], ct = [], rss = [];
        for (let rep = 0; rep < REPS; rep++) {
          // Lance one-shot in a fresh session: connect + open + query, executed and dropped in
          // Rust (analyzePlan), the in-process counterpart of one lance-cli process.
          const f0 = process.hrtime.bigint();
          const fresh = await (await lancedb.connect(path.dirname(dir))).openTable('t');
          await w.lance(fresh).analyzePlan();
          ft.push(Number(process.hrtime.bigint() - f0) / 1e6);
          const t0 = process.hrtime.bigint();
          const res = await w.lance(tbl).toArrow();
          lt.push(Number(process.hrtime.bigint() - t0) / 1e6);
          if (res.numRows === 0 && n > 0) throw new Error('Lance returned no rows');
          pt.push(parsePlan(await w.lance(tbl).analyzePlan()).elapsedMs);
          const c = runCli(w.cli, w.input);
          ct.push(c.ms);
          rss.push(c.rssKb);
        }
        const row = { dataset: name, version, rows: n, workload: w.name, lance_fresh_ms: median(ft), lance_ms: median(lt),
          lance_plan_ms: median(pt), cli_ms: median(ct), cli_rss_mib: Math.max(...rss) / 1024 };
        rows.push(row);
        console.error(JSON.stringify(row));
      }
    }
  }
  const load = os.loadavg().map((x) => x.toFixed(2)).join(', ');
  console.log(`\n${machine()}; scale ${SCALE}; median of ${REPS} interleaved runs; load average at the end ${load}.\n`);
  console.log('Lance one-shot: a fresh session in Node (connect + open + query, executed in Rust by `analyzePlan()`, no conversion to JS), ' +
    'the counterpart of one lance-cli process. Lance warm: the plan\'s own elapsed time on an open table with warm caches; ' +
    '`toArrow()`: the same query converted to JS. lance-cli: whole process (exec, open, decode everything), `-f null`.\n');
  console.log('| dataset | version | rows | workload | Lance one-shot (ms) | Lance warm plan (ms) | Lance toArrow (ms) | lance-cli (ms) | lance-cli / Lance one-shot | lance-cli / Lance warm | lance-cli peak RSS (MiB) |');
  console.log('|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows)
    console.log(`| ${r.dataset} | ${r.version} | ${r.rows} | ${r.workload} | ${r.lance_fresh_ms.toFixed(1)} | ${r.lance_plan_ms.toFixed(1)} | ${r.lance_ms.toFixed(1)} | ${r.cli_ms.toFixed(1)} | ` +
      `**${(r.cli_ms / r.lance_fresh_ms).toFixed(2)}** | ${(r.cli_ms / r.lance_plan_ms).toFixed(2)} | ${Number.isFinite(r.cli_rss_mib) ? r.cli_rss_mib.toFixed(0) : '–'} |`);
}

/// The take issue's I/O table: requests, I/O operations and bytes for the timing run's takes
/// on every dataset, with page batching on and off, at three block sizes, next to Lance's
/// counters.
async function ioTable() {
  const out = [], exact = [];
  for (const name of Object.keys(DATASETS)) for (const version of VERSIONS) {
    if (ONLY && !ONLY.has(name)) continue;
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

function machine() {
  const cpu = os.cpus()[0]?.model || 'unknown cpu';
  return `Machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`;
}

if (!fs.existsSync(CLI)) throw new Error(`build lance-cli first (${CLI})`);
if (args.includes('--generate')) { for (const v of VERSIONS) for (const k of Object.keys(DATASETS)) if (!ONLY || ONLY.has(k)) await ensureDataset(k, v); }
else if (args.includes('--io')) await ioTable();
else await timing();
