// Benchmark: lance-cli against Lance itself (LanceDB 0.31.0 = Lance 8.0 in Node), same files,
// same run, interleaved repetitions. Prints a markdown table of medians and ratios.
//
//   cd scripts && npm ci && node bench.mjs [--scale 1] [--reps 3] [--versions 2.1,2.2] [--only text,nested]
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
const CLI = path.join(ROOT, 'build', 'lance-cli');
const DATA = path.join(ROOT, 'bench-data');

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : dflt; };
const SCALE = Number(opt('scale', '1'));
const REPS = Number(opt('reps', '3'));
const VERSIONS = opt('versions', '2.1,2.2').split(',');
const ONLY = opt('only', '') ? new Set(opt('only', '').split(',')) : null;

// --- deterministic data -------------------------------------------------------------------
function mulberry32(a) {
  return () => { a |= 0; a = (a + 0x6D2B79F5) | 0; let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
}
const WORDS = 'the of and to in is that for on with as by at from this be are was an or it not which have data lance file format column page chunk value row reader'.split(' ');
function text(rng, len) {
  let s = '';
  while (s.length < len) s += WORDS[Math.floor(rng() * WORDS.length)] + (rng() < 0.1 ? '. ' : ' ');
  return s.slice(0, len);
}
function logNormal(rng, median, sigma) {
  const u = Math.max(rng(), 1e-12), v = rng();
  return Math.exp(Math.log(median) + sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
}
const F = (n, t, nullable = true) => new arrow.Field(n, t, nullable);

function batchesOf(n, size, make) {
  const out = [];
  for (let s = 0; s < n; s += size) out.push(make(s, Math.min(n, s + size)));
  return out;
}

const DATASETS = {
  text: {
    rows: Math.round(110000 * SCALE),
    cols: ['id', 'url', 'text', 'language', 'score', 'token_count'],
    one: 'text',
    make(rng, lo, hi) {
      const n = hi - lo;
      const lens = Array.from({ length: n }, () => Math.min(100000, Math.max(50, Math.round(logNormal(rng, 3000, 0.9)))));
      return arrow.tableFromArrays({
        id: BigInt64Array.from({ length: n }, (_, i) => BigInt(lo + i)),
        url: Array.from({ length: n }, (_, i) => `https://example.com/${Math.floor(rng() * 1e6)}/page-${lo + i}`),
        text: lens.map((l) => text(rng, l)),
        language: Array.from({ length: n }, () => ['en', 'de', 'fr', 'es', 'ja', 'zh'][Math.floor(rng() * 6)]),
        score: Float32Array.from({ length: n }, () => rng()),
        token_count: Int32Array.from(lens.map((l) => Math.round(l / 4.5))),
      });
    },
  },
  vectors: {
    rows: Math.round(100000 * SCALE),
    cols: ['id', 'vector'],
    one: 'vector',
    make(rng, lo, hi) {
      const n = hi - lo, dim = 384;
      const vals = Float32Array.from({ length: n * dim }, () => rng() * 2 - 1);
      const type = new arrow.FixedSizeList(dim, F('item', new arrow.Float32(), true));
      const child = arrow.makeData({ type: new arrow.Float32(), length: n * dim, data: vals });
      const fsl = arrow.makeData({ type, length: n, child });
      const ids = arrow.makeData({ type: new arrow.Int64(), length: n, data: BigInt64Array.from({ length: n }, (_, i) => BigInt(lo + i)) });
      const schema = new arrow.Schema([F('id', new arrow.Int64()), F('vector', type)]);
      const st = arrow.makeData({ type: new arrow.Struct(schema.fields), length: n, children: [ids, fsl] });
      return new arrow.Table(schema, new arrow.RecordBatch(schema, st));
    },
  },
  scalars: {
    rows: Math.round(10000000 * SCALE),
    cols: ['id', 'small', 'big', 'x', 'flag', 'cat'],
    one: 'big',
    make(rng, lo, hi) {
      const n = hi - lo;
      const cats = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu'];
      return arrow.tableFromArrays({
        id: BigInt64Array.from({ length: n }, (_, i) => BigInt(lo + i)),
        small: Int32Array.from({ length: n }, () => Math.floor(rng() * 1000)),
        big: BigInt64Array.from({ length: n }, () => BigInt(Math.floor(rng() * 2 ** 52)) - 2n ** 51n),
        x: Float64Array.from({ length: n }, () => rng() * 1e6),
        flag: Array.from({ length: n }, () => rng() < 0.5),
        cat: Array.from({ length: n }, () => cats[Math.floor(rng() * cats.length)]),
      });
    },
  },
  nested: {
    rows: 8 * 3000,
    fragments: 8,
    cols: ['id', 'f16_a', 'f16_b', 'llf', 'li', 'ls', 'lli', 'lst'],
    one: 'li',
    make(rng, lo, hi) {
      const n = hi - lo;
      const r = (k) => Math.floor(rng() * k);
      const vec3 = () => Array.from({ length: 3 }, () => Math.round((rng() * 4 - 2) * 64) / 64);
      const deep = () => (rng() < 0.05 ? null : Array.from({ length: r(3) }, () => Array.from({ length: r(3) }, () => Array.from({ length: r(4) }, vec3))));
      const f16 = new arrow.Float16();
      const deepType = new arrow.List(F('item', new arrow.List(F('item', new arrow.List(F('item', new arrow.FixedSizeList(3, F('item', f16))))))));
      const cols = {
        id: { type: new arrow.Int64(), v: Array.from({ length: n }, (_, i) => BigInt(lo + i)) },
        f16_a: { type: deepType, v: Array.from({ length: n }, deep) },
        f16_b: { type: deepType, v: Array.from({ length: n }, deep) },
        llf: { type: new arrow.List(F('item', new arrow.List(F('item', new arrow.Float32())))), v: Array.from({ length: n }, () => Array.from({ length: r(4) }, () => Array.from({ length: r(5) }, () => Math.fround(rng())))) },
        li: { type: new arrow.List(F('item', new arrow.Int64())), v: Array.from({ length: n }, () => Array.from({ length: r(8) }, () => BigInt(r(1e9)))) },
        ls: { type: new arrow.List(F('item', new arrow.Utf8())), v: Array.from({ length: n }, () => Array.from({ length: r(4) }, () => text(rng, 5 + r(30)))) },
        lli: { type: new arrow.List(F('item', new arrow.List(F('item', new arrow.Int32())))), v: Array.from({ length: n }, () => Array.from({ length: r(3) }, () => Array.from({ length: r(4) }, () => r(1000)))) },
        lst: { type: new arrow.List(F('item', new arrow.Struct([F('a', new arrow.Int32()), F('b', new arrow.Float64())]))), v: Array.from({ length: n }, () => Array.from({ length: r(4) }, () => ({ a: r(100), b: rng() }))) },
      };
      const schema = new arrow.Schema(Object.entries(cols).map(([k, c]) => F(k, c.type)));
      const vectors = Object.values(cols).map((c) => arrow.vectorFromArray(c.v, c.type));
      const st = arrow.makeData({ type: new arrow.Struct(schema.fields), length: n, children: vectors.map((v) => v.data[0]) });
      return new arrow.Table(schema, new arrow.RecordBatch(schema, st));
    },
  },
};

async function ensureDataset(name, version) {
  const ds = DATASETS[name];
  const dir = path.join(DATA, `${name}-v${version}-s${SCALE}`);
  const tableDir = path.join(dir, 't.lance');
  if (fs.existsSync(path.join(tableDir, '_versions'))) return tableDir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const db = await lancedb.connect(dir);
  const rng = mulberry32(0x5eed + name.length);
  const frags = ds.fragments || 1;
  const per = Math.ceil(ds.rows / frags);
  let tbl = null;
  for (let f = 0; f < frags; f++) {
    const lo = f * per, hi = Math.min(ds.rows, lo + per);
    for (const t of batchesOf(hi - lo, 50000, (a, b) => ds.make(rng, lo + a, lo + b))) {
      if (!tbl) tbl = await db.createTable('t', t, { storageOptions: { new_table_data_storage_version: version } });
      else await tbl.add(t);
    }
    if (frags > 1 && f + 1 < frags) { /* each add() makes a new fragment */ }
  }
  console.error(`generated ${name} v${version}: ${ds.rows} rows`);
  return tableDir;
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

function runCli(cliArgs, input) {
  const hasTime = fs.existsSync('/usr/bin/time');
  const cmd = hasTime ? '/usr/bin/time' : CLI;
  const argv = hasTime ? ['-f', '%M', CLI, ...cliArgs] : cliArgs;
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { input, maxBuffer: 1 << 30, stdio: ['pipe', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`lance-cli ${cliArgs.join(' ')} failed: ${r.stderr}`);
  const err = r.stderr.toString().trim().split('\n');
  const rssKb = hasTime ? Number(err[err.length - 1]) : NaN;
  return { ms, rssKb };
}

async function main() {
  if (!fs.existsSync(CLI)) throw new Error(`build lance-cli first (${CLI})`);
  const rows = [];
  for (const version of VERSIONS) {
    for (const name of Object.keys(DATASETS)) {
      if (ONLY && !ONLY.has(name)) continue;
      const ds = DATASETS[name];
      const dir = await ensureDataset(name, version);
      const db = await lancedb.connect(path.dirname(dir));
      const tbl = await db.openTable('t');
      const n = await tbl.countRows();
      const rng = mulberry32(7);
      const scattered = Array.from({ length: 2048 }, () => Math.floor(rng() * n)).sort((a, b) => a - b);
      const start = Math.floor(n / 3);
      const contiguous = Array.from({ length: Math.min(2048, n) }, (_, i) => start + i);
      const workloads = [
        { name: 'full scan', lance: () => tbl.query().select(ds.cols).toArrow(), cli: ['scan', dir, '-f', 'null'] },
        { name: `scan ${ds.one}`, lance: () => tbl.query().select([ds.one]).toArrow(), cli: ['scan', dir, '-c', ds.one, '-f', 'null'] },
        { name: 'take 2048 scattered', lance: () => tbl.takeOffsets(scattered).toArrow(), cli: ['take', dir, '--rows-file', '-', '-f', 'null'], input: scattered.join('\n') },
        { name: 'take 2048 contiguous', lance: () => tbl.takeOffsets(contiguous).toArrow(), cli: ['take', dir, '--rows-file', '-', '-f', 'null'], input: contiguous.join('\n') },
      ];
      for (const w of workloads) {
        const lt = [], ct = [], rss = [];
        for (let rep = 0; rep < REPS; rep++) {
          const t0 = process.hrtime.bigint();
          const res = await w.lance();
          lt.push(Number(process.hrtime.bigint() - t0) / 1e6);
          if (res.numRows === 0 && n > 0) throw new Error('Lance returned no rows');
          const c = runCli(w.cli, w.input);
          ct.push(c.ms);
          rss.push(c.rssKb);
        }
        const row = { dataset: name, version, rows: n, workload: w.name, lance_ms: median(lt), cli_ms: median(ct),
          ratio: median(ct) / median(lt), cli_rss_mib: Math.max(...rss) / 1024 };
        rows.push(row);
        console.error(JSON.stringify(row));
      }
    }
  }
  const cpu = os.cpus()[0]?.model || 'unknown cpu';
  console.log(`\nMachine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; scale ${SCALE}; median of ${REPS}.\n`);
  console.log('| dataset | version | rows | workload | Lance (ms) | lance-cli (ms) | lance-cli / Lance | lance-cli peak RSS (MiB) |');
  console.log('|---|---|---:|---|---:|---:|---:|---:|');
  for (const r of rows)
    console.log(`| ${r.dataset} | ${r.version} | ${r.rows} | ${r.workload} | ${r.lance_ms.toFixed(1)} | ${r.cli_ms.toFixed(1)} | ${r.ratio.toFixed(2)} | ${Number.isFinite(r.cli_rss_mib) ? r.cli_rss_mib.toFixed(0) : '–'} |`);
}

await main();
