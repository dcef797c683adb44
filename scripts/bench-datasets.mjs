// The benchmark's datasets (docs/performance.md), shared by scripts/bench.mjs (local files) and
// scripts/bench-s3.mjs (the object store): seeded generators, so every run writes the same rows.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const arrow = require('apache-arrow');

// --- deterministic data -------------------------------------------------------------------
export function mulberry32(a) {
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

/// A one-batch table of `cols` = {name: [arrow type, values]}, types as given (arrow-js
/// would otherwise infer dictionaries for strings).
function tableOf(cols) {
  const schema = new arrow.Schema(Object.entries(cols).map(([k, [t]]) => F(k, t)));
  const children = Object.values(cols).map(([t, v]) => arrow.vectorFromArray(v, t).data[0]);
  const n = children[0].length;
  const st = arrow.makeData({ type: new arrow.Struct(schema.fields), length: n, children });
  return new arrow.Table(schema, new arrow.RecordBatch(schema, st));
}

export function batchesOf(n, size, make) {
  const out = [];
  for (let s = 0; s < n; s += size) out.push(make(s, Math.min(n, s + size)));
  return out;
}

/// A table of ids lo.. and fixed_size_list<float32, dim> vectors (`vals`, n × dim).
function vectorTable(lo, n, dim, vals) {
  const type = new arrow.FixedSizeList(dim, F('item', new arrow.Float32(), true));
  const child = arrow.makeData({ type: new arrow.Float32(), length: n * dim, data: vals });
  const fsl = arrow.makeData({ type, length: n, child });
  const ids = arrow.makeData({ type: new arrow.Int64(), length: n, data: BigInt64Array.from({ length: n }, (_, i) => BigInt(lo + i)) });
  const schema = new arrow.Schema([F('id', new arrow.Int64()), F('vector', type)]);
  const st = arrow.makeData({ type: new arrow.Struct(schema.fields), length: n, children: [ids, fsl] });
  return new arrow.Table(schema, new arrow.RecordBatch(schema, st));
}

const CLUSTERS = 1000, CLUSTER_SIGMA = 0.25;
const centreCache = new Map();
function clusterCentres(dim) {
  if (!centreCache.has(dim)) {
    const rng = mulberry32(0xc1057e5);
    centreCache.set(dim, Float32Array.from({ length: CLUSTERS * dim }, () => rng() * 2 - 1));
  }
  return centreCache.get(dim);
}
/// Writes a random centre plus gaussian noise into `out` (Box-Muller) and returns it.
function clusteredVector(rng, centres, out) {
  const dim = out.length, c = Math.floor(rng() * CLUSTERS) * dim;
  for (let j = 0; j < dim; j++) {
    const u = Math.max(rng(), 1e-12), v = rng();
    out[j] = centres[c + j] + CLUSTER_SIGMA * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
  return out;
}

/// The nested dataset: `fragments` (8) x 3,000 rows of deep lists; `fanout` multiplies the list
/// lengths of its two list<list<list<fixed_size_list<float16, 3>>>> columns.
function nestedDataset(fanout, fragments = 8) {
  return {
    rows: fragments * 3000,
    fragments,
    cols: ['id', 'f16_a', 'f16_b', 'llf', 'li', 'ls', 'lli', 'lst'],
    one: 'li',
    make(rng, lo, hi) {
      const n = hi - lo;
      const r = (k) => Math.floor(rng() * k);
      const vec3 = () => Array.from({ length: 3 }, () => Math.round((rng() * 4 - 2) * 64) / 64);
      const deep = () => (rng() < 0.05 ? null : Array.from({ length: r(3 * fanout) }, () => Array.from({ length: r(3 * fanout) }, () => Array.from({ length: r(4 * fanout) }, vec3))));
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
  };
}

/// The datasets at `SCALE` times the row counts of docs/performance.md (nested keeps its
/// 8 × 3,000 rows below scale 1, and has 8 × SCALE fragments of 3,000 rows above); `FANOUT` multiplies the list lengths of the nested dataset's deep columns
/// (1 = the dataset of docs/performance.md; 4 gives ~100 MB, the shape of the production table
/// the nested issue was measured on).
export function benchDatasets(SCALE, FANOUT = 1) {
  const nestedFragments = SCALE > 1 ? Math.round(8 * SCALE) : 8;
return {
  text: {
    writeRows: 200000,  // ~0.9 GB of Arrow IPC per write above scale 1 (LanceDB's JS writes one buffer)
    rows: Math.round(110000 * SCALE),
    cols: ['id', 'url', 'text', 'language', 'score', 'token_count'],
    one: 'text',
    make(rng, lo, hi) {
      const n = hi - lo;
      const lens = Array.from({ length: n }, () => Math.min(100000, Math.max(50, Math.round(logNormal(rng, 3000, 0.9)))));
      return tableOf({
        id: [new arrow.Int64(), BigInt64Array.from({ length: n }, (_, i) => BigInt(lo + i))],
        url: [new arrow.Utf8(), Array.from({ length: n }, (_, i) => `https://example.com/${Math.floor(rng() * 1e6)}/page-${lo + i}`)],
        text: [new arrow.Utf8(), lens.map((l) => text(rng, l))],
        language: [new arrow.Utf8(), Array.from({ length: n }, () => ['en', 'de', 'fr', 'es', 'ja', 'zh'][Math.floor(rng() * 6)])],
        score: [new arrow.Float32(), Float32Array.from({ length: n }, () => rng())],
        token_count: [new arrow.Int32(), Int32Array.from(lens.map((l) => Math.round(l / 4.5)))],
      });
    },
  },
  vectors: {
    writeRows: 500000,
    rows: Math.round(100000 * SCALE),
    cols: ['id', 'vector'],
    one: 'vector',
    make(rng, lo, hi) {
      const n = hi - lo, dim = 384;
      return vectorTable(lo, n, dim, Float32Array.from({ length: n * dim }, () => rng() * 2 - 1));
    },
    // Query vectors for `bench.mjs --search`: from the data's distribution.
    queries: (rng, count, dim) => Array.from({ length: count }, () => Array.from({ length: dim }, () => Math.fround(rng() * 2 - 1))),
  },
  // `vectors` with structure, for the recall of `bench.mjs --search` (on uniform noise any IVF
  // index's recall is about nprobes / partitions): 1,000 cluster centres uniform in [-1, 1)^384,
  // each row a random centre plus gaussian noise (sigma 0.25 per dimension), so a row's nearest
  // neighbours are rows of its own cluster (~100 of them). Queries are drawn the same way. Only
  // for --search (`search: true`: not in the timing and I/O tables, nor in --generate unless named by --only).
  vectors_clustered: {
    rows: Math.round(100000 * SCALE),
    cols: ['id', 'vector'],
    one: 'vector',
    search: true,
    make(rng, lo, hi) {
      const n = hi - lo, dim = 384, centres = clusterCentres(dim);
      const vals = new Float32Array(n * dim);
      for (let i = 0; i < n; i++) clusteredVector(rng, centres, vals.subarray(i * dim, (i + 1) * dim));
      return vectorTable(lo, n, dim, vals);
    },
    queries: (rng, count, dim) => Array.from({ length: count }, () => Array.from(clusteredVector(rng, clusterCentres(dim), new Float32Array(dim)))),
  },
  scalars: {
    rows: Math.round(10000000 * SCALE),
    cols: ['id', 'small', 'big', 'x', 'flag', 'cat'],
    one: 'big',
    make(rng, lo, hi) {
      const n = hi - lo;
      const cats = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu'];
      return tableOf({
        id: [new arrow.Int64(), BigInt64Array.from({ length: n }, (_, i) => BigInt(lo + i))],
        small: [new arrow.Int32(), Int32Array.from({ length: n }, () => Math.floor(rng() * 1000))],
        big: [new arrow.Int64(), BigInt64Array.from({ length: n }, () => BigInt(Math.floor(rng() * 2 ** 52)) - 2n ** 51n)],
        x: [new arrow.Float64(), Float64Array.from({ length: n }, () => rng() * 1e6)],
        flag: [new arrow.Bool(), Array.from({ length: n }, () => rng() < 0.5)],
        cat: [new arrow.Utf8(), Array.from({ length: n }, () => cats[Math.floor(rng() * cats.length)])],
      });
    },
  },
  nested: nestedDataset(FANOUT, nestedFragments),
  // The nested table at the size of the production table behind the take issue (#36): the
  // deep columns' lists 5.2x as long (~150 MB in 8 fragments of 3,000 rows).
  nested_large: nestedDataset(5.2 * FANOUT, nestedFragments),
};
}
