#!/usr/bin/env node
// Vector-search goldens (issue #34): LanceDB (@lancedb/lancedb 0.31.0 = Lance 8.0) writes four
// small tables into data/vectors/ and answers nearest-neighbour queries on them; every expected
// value is LanceDB's own answer (ids and _distance in LanceDB's order, or its error).
//   data/vectors/plain/    storage 2.1, 3000 rows in three fragments (1200 + 1200 + 600, ids =
//                          row numbers), rows `id % 97 = 5` deleted after all writes; columns id
//                          int64 not null, cat utf8 ('x', 'y', 'z', 'rare' on 10 rows, ~8% null),
//                          score float64, vec fixed_size_list<float, 16>, vec16 <halffloat, 8>,
//                          vec64 <double, 8>.
//   data/vectors/indexed/  the same id/cat/score rows with five float32 dim-16 columns, one vector
//                          index each (INDEXED_VECTORS), built over the first two fragments; the
//                          third is appended after the indices, then the same deletions.
//   data/vectors/indexed_more/  the same structure (two fragments indexed, the third appended
//                          after the indices, then the deletions) with 1200 rows (500 + 500 +
//                          200) and eight float32 dim-16 columns (MORE_VECTORS), so that every
//                          metric meets every quantizer: v_pq_dot IVF_PQ dot, v_pq_cos IVF_PQ
//                          cosine, v_pq4 IVF_PQ l2 numBits 4, v_flat_l2, v_flat_dot IVF_FLAT,
//                          v_hnsw_sq_l2, v_hnsw_sq_dot IVF_HNSW_SQ, v_hnsw_pq_cos IVF_HNSW_PQ.
//   data/vectors/indexed_full/  800 rows (300 + 300 + 200), the indices built after all three
//                          fragments (no unindexed tail), then the deletions: vf_pq_l2 IVF_PQ l2,
//                          vf_hnsw_sq_dot IVF_HNSW_SQ dot (FULL_VECTORS). Its answers' _distance
//                          values are the index's approximations (except refineFactor, exact).
//   In every vector column row 42 is all zeros, rows id % 500 = 123 (123, 623, ..., 2623) hold
//   the same vector and three rows are null: 10, 1500, 2700 (plain, indexed), 10, 600, 1100
//   (indexed_more), 10, 400, 700 (indexed_full). Values are clustered (8 centres + gaussian
//   noise); every column has its own seed, so a table's data does not depend on the others.
//   data/vectors/goldens.json: tables (versions, indices with uuids; the smaller tables their own
//   `rows`), queries (6 per column; query 2 is a third-fragment row: 2500, 1050, 750),
//   cases (one per LanceDB call: the call as text, the columns LanceDB returns, ids, distances;
//   indexed ones also whether the plan used the index, recall against the exact twin, and
//   whether every distance is the exact one). data/vectors/golden/*.jsonl: some whole result
//   sets rendered as data/golden renders rows (scripts/gen-fixtures.mjs renderTable).
//
// What LanceDB does (the goldens show each of these):
//   * _distance is float32. l2 is the SQUARED euclidean distance; cosine is 1 - cos (identical
//     float32 vectors give 0 or -1.19e-7: it can be slightly negative); dot is 1 - a.b (not -a.b).
//   * Order: _distance ascending, ties by _rowid ascending (the plan's TopK sorts on both), here
//     the same as id order: duplicated vectors, and the zero query under dot (every distance 1),
//     come back in id order. Indexed answers order ties the same way.
//   * Deleted rows never appear (exact or indexed, though the indices were built before the
//     deletion); rows with a null vector never appear; under cosine the zero vector never
//     appears (no distance), and a zero query vector under cosine returns no rows at all. No
//     padding: k above the rows that have a distance returns those rows once.
//   * The query vector is always sent as float32 (number[] and Float64Array alike) and cast to
//     the column's type: vec64's own row vector as query is at l2 distance 2.5e-15, not 0 (cosine
//     1.19e-7); on vec16 the query is rounded to float16, the sum done in float32.
//   * Columns: no select -> the table's columns in schema order, then _distance; select([...])
//     -> exactly that order, with _distance appended last if not named (plus a deprecation
//     warning on stderr); withRowId() -> _rowid after _distance (_rowid = fragment << 32 | offset).
//     fastSearch() adds _rowid even when not selected. An empty answer is a stream of no batches,
//     so LanceDB-JS toArrow() has no columns: `columns` comes from outputSchema().
//   * Defaults: k = 10; metric l2 when the index is bypassed (or there is none), but the INDEX's
//     metric when an index answers without distanceType() (so bypassVectorIndex() without
//     distanceType() can change the metric). No column(): LanceDB takes the one vector column
//     whose dimension is the query's (dim 16 -> vec); a dim-8 query fails ("More than one vector
//     columns found, please specify which column ...": vec16 and vec64).
//   * Filters: where() is a prefilter (k nearest among the matching rows; fewer matches than k
//     -> all of them); postfilter() takes the k nearest first, then filters (possibly nothing).
//     distanceRange(lo, hi) keeps lo <= d < hi.
//   * Errors: k = 0 -> "k must be positive"; a query of the wrong dimension -> "query dim(3)
//     doesn't match the column vec vector dim(16)" (exact or indexed); a non-vector column ->
//     "Data type is not a vector ...". Messages are kept without Rust source paths.
//   * Indexed: results always include the unindexed third fragment (searched flat), except with
//     fastSearch(). Because of that tail every returned _distance is the exact distance (the plan
//     re-computes distances over index candidates + tail), so ids may differ from the exact
//     answer (recall < 1) but distances never do; with fastSearch() (and on a table with no
//     tail) they are the index's approximate distances. Default nprobes is 20 (minimum = maximum
//     = 20 in the plan), more than the 4-8 partitions here, so default == nprobes(20); nprobes(1)
//     is also a maximum: a rare prefilter then finds fewer than k rows. refineFactor(5) raises
//     recall (to 1 or nearly; IVF_RQ ~0.9); HNSW ef(100) beats ef(10). A distanceType() other
//     than the index's falls back to the exact search (a WARN "falling back to brute-force
//     search"; plan without the index; same answer as bypassVectorIndex()).
//   * indexed_full (no tail): every distance but refineFactor's is the index's, as with
//     fastSearch() (seen there and with fastSearch() on indexed_more: IVF_FLAT's are the exact
//     ones, PQ l2/dot within a few units of the exact, PQ cosine about 0.2-0.4 above it,
//     HNSW_SQ l2 within 0.3, but HNSW_SQ dot far off: -250 to -410 where the exact distance is
//     -25 to +14, so its indexed answers have low recall).
//   * Cases are named indexed/..., indexed_more/..., indexed_full/... (`<table>/<column>/
//     <variant>/q<i>`); the two later tables leave out nprobes20, nprobes1_refine5, the
//     metric_* fallbacks and the errors (indexedCases).
//   * LanceDB 0.31's JS API has no IVF_SQ (Index has ivfPq, ivfRq, ivfFlat, hnswPq, hnswSq): the
//     fifth index is IVF_RQ on `v_rq`. float16 works in apache-arrow JS (buildData writes bits).
//
// Determinism: the data and plain/ (file contents; names and manifests carry uuids) and every
// plain case are identical between runs. Index training is random (k-means), so the index files
// and many indexed answers change from run to run: the committed goldens belong to the committed
// index files. Hence --only: it rebuilds only the named tables and merges their cases, queries
// and table entries into the existing goldens.json (the other tables' entries, and their
// directories, are left byte-identical; goldens.json keeps the order plain, indexed,
// indexed_more, indexed_full).
//
//   cd scripts && node gen-vectors.mjs            (rewrites data/vectors/ whole)
//   cd scripts && node gen-vectors.mjs --only indexed_more,indexed_full
//                                                 (rewrites only those tables and their goldens)
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { makeTable, renderTable, renderGoldens, Rng, f16round } from './gen-fixtures.mjs';

const require = createRequire(import.meta.url);
const lancedb = require('@lancedb/lancedb');
const arrow = require('apache-arrow');
const F = (name, type, nullable = true) => new arrow.Field(name, type, nullable);

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(HERE, '..', 'data', 'vectors');
const VERSION = '2.1';
const FRAGMENTS = [[0, 1200], [1200, 1200], [2400, 600]]; // [first id, rows]: create, add, add
const N = 3000;
const DELETE = 'id % 97 = 5';
const NULL_VECTOR_IDS = [10, 1500, 2700]; // null in every vector column
const ZERO_VECTOR_ID = 42; // all-zero in every vector column (no cosine distance)
const DUP_SOURCE = 123; // rows id % 500 == 123 (123, 623, ..., 2623) share row 123's vectors
const NOISE = 1.0; // per-coordinate gaussian noise around a centre
const CATS = ['x', 'y', 'z'];
// Row layouts: rows, fragments, the rows with a null vector, the third-fragment row whose vector
// is query 2. MAIN is plain/'s and indexed/'s; indexed_more/ and indexed_full/ are smaller (the
// same zero row 42, duplicated rows id % 500 = 123, deletions id % 97 = 5).
const MAIN = { n: N, fragments: FRAGMENTS, nulls: NULL_VECTOR_IDS, tailRow: 2500 };
const MORE = { n: 1200, fragments: [[0, 500], [500, 500], [1000, 200]], nulls: [10, 600, 1100], tailRow: 1050 };
const FULL = { n: 800, fragments: [[0, 300], [300, 300], [600, 200]], nulls: [10, 400, 700], tailRow: 750 };
const dupIds = (layout) => Array.from({ length: Math.ceil((layout.n - DUP_SOURCE) / 500) }, (_, i) => DUP_SOURCE + 500 * i);

// ---------------------------------------------------------------------------------------------
// Data: every column of all N rows, from seeded generators; a fragment is a slice of them.
// ---------------------------------------------------------------------------------------------

function gauss(rng) { // Box-Muller
  const u = Math.max(rng.next(), 1e-12), v = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
const roundF32 = (v) => v.map(Math.fround);
const roundF16 = (v) => v.map(f16round);
const roundF64 = (v) => v;

/// Clustered vectors: 8 centres in [-1, 1]^dim, each row a centre plus gaussian noise.
function vectorColumn(seed, dim, round, layout = MAIN) {
  const rng = new Rng(`vectors-${seed}`);
  const centres = Array.from({ length: 8 }, () => Array.from({ length: dim }, () => rng.next() * 2 - 1));
  const rows = Array.from({ length: layout.n }, () => {
    const c = rng.pick(centres);
    return round(c.map((x) => x + NOISE * gauss(rng)));
  });
  for (let i = 0; i < layout.n; i++) if (i % 500 === DUP_SOURCE && i !== DUP_SOURCE) rows[i] = rows[DUP_SOURCE].slice();
  rows[ZERO_VECTOR_ID] = new Array(dim).fill(0);
  for (const i of layout.nulls) rows[i] = null;
  return { rows, centres: centres.map(round), rng, layout };
}

function scalarColumns() {
  const rng = new Rng('vectors-scalars');
  const cat = [], score = [];
  for (let i = 0; i < N; i++) {
    // 'rare': 10 rows over all three fragments (a filter with fewer matches than k)
    cat.push(i % 331 === 17 ? 'rare' : rng.chance(0.08) ? null : rng.pick(CATS));
    score.push(Math.round(rng.next() * 1e6) / 1e6);
  }
  return { cat, score };
}

const fsl = (dim, t) => new arrow.FixedSizeList(dim, F('item', t));
const PLAIN_VECTORS = [
  // column, dim, element type, rounding of the generated values
  { name: 'vec', dim: 16, type: () => new arrow.Float32(), round: roundF32 },
  { name: 'vec16', dim: 8, type: () => new arrow.Float16(), round: roundF16 },
  { name: 'vec64', dim: 8, type: () => new arrow.Float64(), round: roundF64 },
];
// The indexed table's vector columns: one index each, of a different kind and metric.
// LanceDB 0.31's JS API has no IVF_SQ builder (Index has ivfPq, ivfRq, ivfFlat, hnswPq, hnswSq),
// so the fifth kind is IVF_RQ (RaBitQ) on `v_rq`.
const I = lancedb.Index;
const INDEXED_VECTORS = [
  { name: 'v_pq', metric: 'l2', kind: 'IVF_PQ', call: 'Index.ivfPq({numPartitions: 8, numSubVectors: 4, distanceType: "l2"})', make: () => I.ivfPq({ numPartitions: 8, numSubVectors: 4, distanceType: 'l2' }) },
  { name: 'v_flat', metric: 'cosine', kind: 'IVF_FLAT', call: 'Index.ivfFlat({numPartitions: 4, distanceType: "cosine"})', make: () => I.ivfFlat({ numPartitions: 4, distanceType: 'cosine' }) },
  { name: 'v_rq', metric: 'dot', kind: 'IVF_RQ', call: 'Index.ivfRq({numPartitions: 6, distanceType: "dot"})', make: () => I.ivfRq({ numPartitions: 6, distanceType: 'dot' }) },
  { name: 'v_hnsw_pq', metric: 'l2', kind: 'IVF_HNSW_PQ', call: 'Index.hnswPq({numPartitions: 4, numSubVectors: 4, distanceType: "l2"})', make: () => I.hnswPq({ numPartitions: 4, numSubVectors: 4, distanceType: 'l2' }) },
  { name: 'v_hnsw_sq', metric: 'cosine', kind: 'IVF_HNSW_SQ', call: 'Index.hnswSq({numPartitions: 4, distanceType: "cosine"})', make: () => I.hnswSq({ numPartitions: 4, distanceType: 'cosine' }) },
];
// indexed_more/: the (quantizer, metric) pairs indexed/ lacks, so every metric meets every
// quantizer (PQ 8 and 4 bits, FLAT, HNSW_SQ, HNSW_PQ); same structure as indexed/, MORE rows.
const MORE_VECTORS = [
  { name: 'v_pq_dot', metric: 'dot', kind: 'IVF_PQ', call: 'Index.ivfPq({numPartitions: 6, numSubVectors: 4, distanceType: "dot"})', make: () => I.ivfPq({ numPartitions: 6, numSubVectors: 4, distanceType: 'dot' }) },
  { name: 'v_pq_cos', metric: 'cosine', kind: 'IVF_PQ', call: 'Index.ivfPq({numPartitions: 4, numSubVectors: 4, distanceType: "cosine"})', make: () => I.ivfPq({ numPartitions: 4, numSubVectors: 4, distanceType: 'cosine' }) },
  { name: 'v_pq4', metric: 'l2', kind: 'IVF_PQ', call: 'Index.ivfPq({numPartitions: 8, numSubVectors: 8, numBits: 4, distanceType: "l2"})', make: () => I.ivfPq({ numPartitions: 8, numSubVectors: 8, numBits: 4, distanceType: 'l2' }) },
  { name: 'v_flat_l2', metric: 'l2', kind: 'IVF_FLAT', call: 'Index.ivfFlat({numPartitions: 6, distanceType: "l2"})', make: () => I.ivfFlat({ numPartitions: 6, distanceType: 'l2' }) },
  { name: 'v_flat_dot', metric: 'dot', kind: 'IVF_FLAT', call: 'Index.ivfFlat({numPartitions: 4, distanceType: "dot"})', make: () => I.ivfFlat({ numPartitions: 4, distanceType: 'dot' }) },
  { name: 'v_hnsw_sq_l2', metric: 'l2', kind: 'IVF_HNSW_SQ', call: 'Index.hnswSq({numPartitions: 4, distanceType: "l2"})', make: () => I.hnswSq({ numPartitions: 4, distanceType: 'l2' }) },
  { name: 'v_hnsw_sq_dot', metric: 'dot', kind: 'IVF_HNSW_SQ', call: 'Index.hnswSq({numPartitions: 4, distanceType: "dot"})', make: () => I.hnswSq({ numPartitions: 4, distanceType: 'dot' }) },
  { name: 'v_hnsw_pq_cos', metric: 'cosine', kind: 'IVF_HNSW_PQ', call: 'Index.hnswPq({numPartitions: 4, numSubVectors: 4, distanceType: "cosine"})', make: () => I.hnswPq({ numPartitions: 4, numSubVectors: 4, distanceType: 'cosine' }) },
];
// indexed_full/: indices over every fragment (no unindexed tail), so the answers' _distance values
// are the index's approximations; FULL rows.
const FULL_VECTORS = [
  { name: 'vf_pq_l2', metric: 'l2', kind: 'IVF_PQ', call: 'Index.ivfPq({numPartitions: 4, numSubVectors: 4, distanceType: "l2"})', make: () => I.ivfPq({ numPartitions: 4, numSubVectors: 4, distanceType: 'l2' }) },
  { name: 'vf_hnsw_sq_dot', metric: 'dot', kind: 'IVF_HNSW_SQ', call: 'Index.hnswSq({numPartitions: 4, distanceType: "dot"})', make: () => I.hnswSq({ numPartitions: 4, distanceType: 'dot' }) },
];
// The tables in the order of goldens.json; `indexAfter`: the indices are built after that many
// fragments (the rest are appended after them, unindexed).
const TABLES = {
  plain: { layout: MAIN, vectors: PLAIN_VECTORS },
  indexed: { layout: MAIN, vectors: INDEXED_VECTORS, indexAfter: 2 },
  indexed_more: { layout: MORE, vectors: MORE_VECTORS, indexAfter: 2 },
  indexed_full: { layout: FULL, vectors: FULL_VECTORS, indexAfter: 3 },
};

const scalars = scalarColumns();
const columns = {};
const queries = {};
for (const v of PLAIN_VECTORS) columns[v.name] = { ...v, ...vectorColumn(v.name, v.dim, v.round) };
for (const t of Object.values(TABLES)) {
  if (t.vectors === PLAIN_VECTORS) continue;
  for (const v of t.vectors) columns[v.name] = { ...v, dim: 16, type: () => new arrow.Float32(), round: roundF32, ...vectorColumn(v.name, 16, roundF32, t.layout) };
}

/// Six query vectors per column: stored rows (a duplicated one, a deleted one, one of the
/// third fragment), a point near a centre, a uniform point, and a centre scaled by 3.
for (const [name, c] of Object.entries(columns)) {
  const rng = c.rng;
  const row = (i) => c.rows[i].slice();
  queries[name] = [
    { note: `row ${DUP_SOURCE}'s vector (rows id % 500 = ${DUP_SOURCE} hold the same)`, vector: row(DUP_SOURCE) },
    { note: 'row 5\'s vector (row 5 is deleted)', vector: row(5) },
    { note: `row ${c.layout.tailRow}'s vector (third fragment)`, vector: row(c.layout.tailRow) },
    { note: 'centre 2 plus noise', vector: c.round(c.centres[2].map((x) => x + 0.2 * gauss(rng))) },
    { note: 'uniform in [-1, 1]^dim', vector: c.round(c.centres[0].map(() => rng.next() * 2 - 1)) },
    { note: 'centre 5 times 3', vector: c.round(c.centres[5].map((x) => 3 * x)) },
  ];
}

function batch(start, n, vectorNames) {
  const ids = Array.from({ length: n }, (_, i) => start + i);
  const cols = [
    { name: 'id', type: new arrow.Int64(), values: ids.map(BigInt), nullable: false },
    { name: 'cat', type: new arrow.Utf8(), values: ids.map((i) => scalars.cat[i]) },
    { name: 'score', type: new arrow.Float64(), values: ids.map((i) => scalars.score[i]) },
  ];
  for (const name of vectorNames) {
    const c = columns[name];
    cols.push({ name, type: fsl(c.dim, c.type()), values: ids.map((i) => c.rows[i]), extra: { nullFill: 0 } });
  }
  return makeTable(cols, n);
}

// ---------------------------------------------------------------------------------------------
// Queries: a case is a list of builder calls; it is run on the table and spelled out as text.
// ---------------------------------------------------------------------------------------------

const lit = (x) => JSON.stringify(x);
/// The first line of Lance's message, without the Rust source locations.
function errorText(e) {
  return String(e.message).split('\n')[0].replace(/, \/[^ ]*\.rs:\d+:\d+/g, '').replace(/\s+Caused by:.*$/, '').trim();
}

function applyCalls(q, calls) {
  for (const [m, ...args] of calls) q = q[m](...args);
  return q;
}
function callText(column, queryRef, calls) {
  return `tbl.query().nearestTo(${queryRef})` + calls.map(([m, ...a]) => `.${m}(${a.map(lit).join(', ')})`).join('') + '.toArrow()';
}

const SELECT = ['select', ['id', '_distance']];

/// Runs one case and returns its golden entry: Lance's ids and distances in Lance's order, or
/// Lance's error.
async function run(tbl, tableName, spec, done) {
  const { column, query, vector } = spec;
  const qv = vector ?? queries[column][query].vector;
  const ref = vector ? lit(vector) : `queries[${lit(column)}][${query}].vector`;
  const calls = typeof spec.calls === 'function' ? spec.calls(done) : spec.calls;
  const entry = { name: spec.name, table: tableName, column, ...(vector ? { vector } : { query }) };
  if (spec.note) entry.note = spec.note;
  if (spec.effective_metric) entry.effective_metric = spec.effective_metric;
  for (const [m, ...a] of calls) {
    if (m === 'column') continue;
    const key = { distanceType: 'metric', limit: 'k', where: 'filter', nprobes: 'nprobes', refineFactor: 'refine_factor', ef: 'ef', postfilter: 'postfilter', bypassVectorIndex: 'bypass_index', fastSearch: 'fast_search', distanceRange: 'distance_range', withRowId: 'with_row_id' }[m];
    entry[key ?? m] = a.length === 0 ? true : a.length === 1 ? a[0] : a;
  }
  entry.call = callText(column, ref, calls);
  let t;
  try {
    t = await applyCalls(tbl.query().nearestTo(qv), calls).toArrow();
  } catch (e) {
    entry.error = errorText(e);
    return entry;
  }
  // An empty answer is a stream of no batches: LanceDB's toArrow() then has no columns at all,
  // so the names come from outputSchema(), which agrees with every non-empty answer.
  entry.columns = (await applyCalls(tbl.query().nearestTo(qv), calls).outputSchema()).fields.map((f) => f.name);
  const got = t.schema.fields.map((f) => f.name);
  if (t.numRows && JSON.stringify(got) !== JSON.stringify(entry.columns)) throw new Error(`${spec.name}: columns ${got} != outputSchema ${entry.columns}`);
  entry.num_rows = t.numRows;
  entry.ids = t.numRows ? Array.from(t.getChild('id').toArray(), Number) : [];
  // _distance is float32; Number() of it is exact and its shortest text parses back to it
  entry.distances = t.numRows ? Array.from(t.getChild('_distance').toArray(), (x) => Math.fround(x)) : [];
  if (spec.render) {
    const names = entry.columns;
    const file = `golden/${spec.render}.jsonl`;
    fs.mkdirSync(path.join(OUT, 'golden'), { recursive: true });
    fs.writeFileSync(path.join(OUT, file), renderGoldens(names, renderTable(names, t), t.numRows).jsonl);
    entry.jsonl = file;
  }
  if (spec.plan) {
    const plan = await applyCalls(tbl.query().nearestTo(qv), calls).explainPlan();
    entry.plan_uses_index = /ANNSubIndex|ANNIvfPartition/.test(plan);
  }
  return entry;
}

// ---------------------------------------------------------------------------------------------
// Cases
// ---------------------------------------------------------------------------------------------

const METRICS = ['l2', 'cosine', 'dot'];
const Q = [0, 1, 2, 3, 4, 5];

function plainCases() {
  const cs = [];
  const add = (name, column, query, calls, extra = {}) => cs.push({ name, column, query, calls, ...extra });
  const exact = (m, k) => [['column', 'vec'], ['distanceType', m], ['limit', k], ['bypassVectorIndex'], SELECT];
  for (const m of METRICS)
    for (const k of [1, 10, 50])
      for (const q of Q) add(`exact/vec/${m}/k${k}/q${q}`, 'vec', q, exact(m, k));
  // k above the rows the filter keeps: every kept row that has a distance, once (ids < 300
  // hold a null vector (10), the zero vector (42) and deleted rows (5, 102, 199, 296))
  for (const m of METRICS) add(`exact/vec/${m}/k5000/pre/id_lt_300/q3`, 'vec', 3, [...exact(m, 5000), ['where', 'id < 300']]);
  // the default metric (l2) and the default k (10)
  add('exact/vec/default/q3', 'vec', 3, [['column', 'vec'], ['bypassVectorIndex'], SELECT]);
  // filters: prefilter (default), postfilter, fewer matches than k, no match, null test
  const FILTERS = [["cat = 'x'", 10], ["cat = 'rare'", 50], ["cat = 'nosuch'", 10], ['cat IS NULL', 10], ['score > 0.5 AND id >= 1000', 10]];
  for (const m of METRICS)
    for (const [f, k] of FILTERS)
      for (const q of f === "cat = 'x'" ? Q : [0, 3]) {
        const slug = f.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '');
        add(`exact/vec/${m}/k${k}/pre/${slug}/q${q}`, 'vec', q, [...exact(m, k), ['where', f]]);
        add(`exact/vec/${m}/k${k}/post/${slug}/q${q}`, 'vec', q, [...exact(m, k), ['where', f], ['postfilter']]);
      }
  // distanceRange(lower, upper), both bounds distances of exact/vec/l2/k50/q3's answer (the
  // 3rd and the 21st): which bound is inclusive
  add('exact/vec/l2/range/q3', 'vec', 3, (prev) => {
    const d = prev.find((e) => e.name === 'exact/vec/l2/k50/q3').distances;
    return [...exact('l2', 50), ['distanceRange', d[2], d[20]]];
  });
  // the zero query vector
  for (const m of METRICS) add(`exact/vec/${m}/zero_query`, 'vec', null, exact(m, 10), { vector: new Array(16).fill(0) });
  // the other element types
  for (const col of ['vec16', 'vec64'])
    for (const m of METRICS)
      for (const q of Q) add(`exact/${col}/${m}/k10/q${q}`, col, q, [['column', col], ['distanceType', m], ['limit', 10], ['bypassVectorIndex'], SELECT]);
  // projections: the columns Lance returns and their order; rendered as data/golden renders rows
  const base = [['column', 'vec'], ['distanceType', 'l2'], ['limit', 5], ['bypassVectorIndex']];
  add('select/all', 'vec', 3, base, { render: 'plain-select-all' });
  add('select/all_rowid', 'vec', 3, [...base, ['withRowId']], { render: 'plain-select-all-rowid' });
  add('select/score_id', 'vec', 3, [...base, ['select', ['score', 'id']]], { render: 'plain-select-score-id' });
  add('select/distance_first', 'vec', 3, [...base, ['select', ['_distance', 'cat', 'id']]], { render: 'plain-select-distance-first' });
  add('select/id_rowid', 'vec', 3, [...base, ['select', ['id', '_distance']], ['withRowId']], { render: 'plain-select-id-rowid' });
  add('select/vec_cat_id', 'vec', 3, [...base, ['select', ['vec', 'cat', 'id']], ['where', "cat = 'x'"]], { render: 'plain-select-vec-cat-id' });
  // errors and edge cases
  add('error/wrong_dim', 'vec', null, exact('l2', 10), { vector: [1, 2, 3] });
  add('error/k0', 'vec', 3, exact('l2', 0));
  add('error/not_a_vector', 'score', null, [['column', 'score'], ['limit', 10], ['bypassVectorIndex'], SELECT], { vector: [1] });
  add('error/no_such_column', 'nosuch', null, [['column', 'nosuch'], ['limit', 10], ['bypassVectorIndex'], SELECT], { vector: new Array(16).fill(0) });
  add('exact/no_column/q3', 'vec', 3, [['distanceType', 'l2'], ['limit', 10], ['bypassVectorIndex'], SELECT],
    { note: 'no .column(): LanceDB picks the one vector column whose dimension is the query\'s (16: vec; same answer as exact/vec/l2/k10/q3)' });
  add('error/no_column_ambiguous', null, null, [['distanceType', 'l2'], ['limit', 10], ['bypassVectorIndex'], SELECT],
    { vector: queries.vec16[3].vector, note: 'no .column() and a dim-8 query: vec16 and vec64 both fit' });
  return cs;
}

/// The cases of an indexed table, named `<table>/<column>/<variant>/q<i>`. indexed/ has them all;
/// the later tables (`all` false) leave out nprobes20 (= default here), nprobes1_refine5, the
/// other metrics (the exact fallback, as on indexed/) and the errors.
function indexedCases(table, vectors, all = true) {
  const cs = [];
  const add = (name, column, query, calls, extra = {}) => cs.push({ name: `${table}/${name}`, column, query, calls, plan: true, ...extra });
  for (const v of vectors) {
    const c = v.name, m = v.metric;
    const base = [['column', c], ['distanceType', m], ['limit', 10], SELECT];
    const hnsw = v.kind.includes('HNSW');
    for (const q of Q) {
      add(`${c}/default/q${q}`, c, q, base);
      add(`${c}/exact/q${q}`, c, q, [...base, ['bypassVectorIndex']]);
      add(`${c}/nprobes1/q${q}`, c, q, [...base, ['nprobes', 1]]);
      if (all) add(`${c}/nprobes20/q${q}`, c, q, [...base, ['nprobes', 20]]);
      add(`${c}/refine5/q${q}`, c, q, [...base, ['refineFactor', 5]]);
      if (all) add(`${c}/nprobes1_refine5/q${q}`, c, q, [...base, ['nprobes', 1], ['refineFactor', 5]]);
      if (hnsw) {
        add(`${c}/ef10/q${q}`, c, q, [...base, ['ef', 10]]);
        add(`${c}/ef100/q${q}`, c, q, [...base, ['ef', 100]]);
      }
      add(`${c}/pre_x/q${q}`, c, q, [...base, ['where', "cat = 'x'"]]);
      add(`${c}/post_x/q${q}`, c, q, [...base, ['where', "cat = 'x'"], ['postfilter']]);
      add(`${c}/exact_x/q${q}`, c, q, [...base, ['where', "cat = 'x'"], ['bypassVectorIndex']]);
      add(`${c}/fast/q${q}`, c, q, [...base, ['fastSearch']]);
    }
    add(`${c}/k50/q3`, c, 3, [['column', c], ['distanceType', m], ['limit', 50], SELECT]);
    add(`${c}/exact_k50/q3`, c, 3, [['column', c], ['distanceType', m], ['limit', 50], ['bypassVectorIndex'], SELECT]);
    add(`${c}/pre_rare_k50/q3`, c, 3, [['column', c], ['distanceType', m], ['limit', 50], ['where', "cat = 'rare'"], SELECT]);
    add(`${c}/nprobes1_pre_rare_k50/q3`, c, 3, [['column', c], ['distanceType', m], ['limit', 50], ['nprobes', 1], ['where', "cat = 'rare'"], SELECT]);
    // no distanceType(): the metric Lance picks for an indexed column
    add(`${c}/no_metric/q3`, c, 3, [['column', c], ['limit', 10], SELECT], { effective_metric: m });
    add(`${c}/no_metric_exact/q3`, c, 3, [['column', c], ['limit', 10], ['bypassVectorIndex'], SELECT], { effective_metric: 'l2' });
    // another metric than the index's
    for (const other of all ? METRICS.filter((x) => x !== m) : []) {
      add(`${c}/metric_${other}/q3`, c, 3, [['column', c], ['distanceType', other], ['limit', 10], SELECT]);
      add(`${c}/metric_${other}_exact/q3`, c, 3, [['column', c], ['distanceType', other], ['limit', 10], ['bypassVectorIndex'], SELECT]);
    }
  }
  if (!all) return cs;
  add('error/wrong_dim', 'v_pq', null, [['column', 'v_pq'], ['distanceType', 'l2'], ['limit', 10], SELECT], { vector: [1, 2, 3] });
  add('error/k0', 'v_pq', 3, [['column', 'v_pq'], ['distanceType', 'l2'], ['limit', 0], SELECT]);
  return cs;
}

// ---------------------------------------------------------------------------------------------

/// For every indexed case with an answer: how many of its ids the exact answer (same query,
/// metric, k and filter, bypassVectorIndex) has, and whether each distance is the exact one.
async function compareWithExact(tbl, entries) {
  const exactCache = new Map();
  for (const e of entries) {
    if (e.error) continue;
    const metric = e.metric ?? e.effective_metric;
    const key = `${e.column}|${e.query}|${metric}`;
    if (!exactCache.has(key)) {
      const t = await tbl.query().nearestTo(queries[e.column][e.query].vector).column(e.column).distanceType(metric)
        .limit(columns[e.column].layout.n).bypassVectorIndex().select(['id', '_distance']).toArrow();
      const ids = Array.from(t.getChild('id').toArray(), Number), ds = Array.from(t.getChild('_distance').toArray());
      exactCache.set(key, new Map(ids.map((id, i) => [id, ds[i]])));
    }
    const d = exactCache.get(key);
    e.distances_exact = e.ids.every((id, i) => d.get(id) === e.distances[i]);
    if (e.bypass_index) continue;
    const twin = entries.find((x) => x.bypass_index && x.column === e.column && x.query === e.query && (x.metric ?? x.effective_metric) === metric &&
      x.k === e.k && x.filter === e.filter && !x.error);
    if (twin) {
      const want = new Set(twin.ids);
      e.exact_case = twin.name;
      e.recall = e.ids.filter((id) => want.has(id)).length / Math.max(1, twin.ids.length);
    }
  }
}

async function indexInfo(tbl) {
  const out = [];
  for (const ix of await tbl.listIndices()) {
    const s = await tbl.indexStats(ix.name);
    const d = ix.indexDetails || {};
    out.push({ name: ix.name, column: ix.columns[0], index_type: s?.indexType ?? ix.indexType, uuid: ix.indexUuid,
      metric: s?.distanceType ?? d.metric_type, num_indices: s?.numIndices, num_indexed_rows: s?.numIndexedRows ?? ix.numIndexedRows,
      num_unindexed_rows: s?.numUnindexedRows ?? ix.numUnindexedRows, details: d.compression ?? null });
  }
  return out.sort((a, b) => a.column.localeCompare(b.column));
}

/// JSON with one key per line, but arrays of numbers or strings on one line.
function formatJson(v, ind = '') {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  const inner = ind + ' ';
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || typeof x !== 'object')) return '[' + v.map((x) => JSON.stringify(x)).join(', ') + ']';
    return '[\n' + v.map((x) => inner + formatJson(x, inner)).join(',\n') + '\n' + ind + ']';
  }
  const keys = Object.keys(v).filter((k) => v[k] !== undefined);
  return '{\n' + keys.map((k) => inner + JSON.stringify(k) + ': ' + formatJson(v[k], inner)).join(',\n') + '\n' + ind + '}';
}

// data/vectors/README.md (the generator rewrites data/vectors/ whole, so it writes this too)
const README = `# Vector-search fixtures

Generated by \`scripts/gen-vectors.mjs\` (\`cd scripts && node gen-vectors.mjs\`) with LanceDB
(@lancedb/lancedb 0.31.0 = Lance 8.0), for \`lance-cli search\` (issue #34). Do not edit by hand;
the generator's header comment lists what LanceDB was seen to do.

- \`plain/\` — dataset, storage 2.1, 3000 rows written as three fragments (1200, 1200, 600), then
  rows \`id % 97 = 5\` deleted (2969 live). Columns: \`id\` int64 not null (= row number),
  \`cat\` utf8 (\`x\`/\`y\`/\`z\`, \`rare\` on 10 rows, some nulls), \`score\` float64,
  \`vec\` fixed_size_list<float32, 16>, \`vec16\` fixed_size_list<float16, 8>,
  \`vec64\` fixed_size_list<float64, 8>.
- \`indexed/\` — the same \`id\`, \`cat\`, \`score\` rows with five float32 dim-16 columns, each
  with its own vector index built over the first two fragments; the third fragment was appended
  after the indices (unindexed), then the same deletions:
  \`v_pq\` IVF_PQ l2, \`v_flat\` IVF_FLAT cosine, \`v_rq\` IVF_RQ dot (LanceDB 0.31 JS has no
  IVF_SQ builder), \`v_hnsw_pq\` IVF_HNSW_PQ l2, \`v_hnsw_sq\` IVF_HNSW_SQ cosine.
- \`indexed_more/\` — the same structure with 1200 rows (fragments 500, 500 indexed, 200 appended
  after the indices, then the deletions) and eight float32 dim-16 columns, so that every metric
  meets every quantizer: \`v_pq_dot\` IVF_PQ dot, \`v_pq_cos\` IVF_PQ cosine, \`v_pq4\` IVF_PQ
  l2 with 4-bit codes, \`v_flat_l2\` IVF_FLAT l2, \`v_flat_dot\` IVF_FLAT dot, \`v_hnsw_sq_l2\`
  IVF_HNSW_SQ l2, \`v_hnsw_sq_dot\` IVF_HNSW_SQ dot, \`v_hnsw_pq_cos\` IVF_HNSW_PQ cosine.
- \`indexed_full/\` — 800 rows (300, 300, 200), the indices built over all three fragments (no
  unindexed rows), then the deletions: \`vf_pq_l2\` IVF_PQ l2, \`vf_hnsw_sq_dot\` IVF_HNSW_SQ
  dot. Its indexed answers carry the index's approximate \`_distance\` values (\`refineFactor\`:
  exact).
- In every vector column row 42 is all zeros, rows 123, 623, 1123, ... (id % 500 = 123) share
  one vector (ties), and three rows are null: 10, 1500, 2700 in \`plain\` and \`indexed\`
  (top-level \`rows\` of goldens.json), 10, 600, 1100 in \`indexed_more\`, 10, 400, 700 in
  \`indexed_full\` (their table's \`rows\`).
- \`goldens.json\` — LanceDB's answers:
  - \`tables\`: per table its version, fragments, operations, vector columns; for the indexed
    tables the indices (name, column, type, uuid, metric, indexed/unindexed row counts).
  - \`queries\`: per vector column six \`{note, vector}\` query vectors (a duplicated row's vector, a
    deleted row's, a third-fragment row's, a point near a centre, a uniform point, a far point). LanceDB-JS sends every query as
    float32 (cast to the column's type: float16 for \`vec16\`, float64 for \`vec64\`).
  - \`cases\`: one per LanceDB call: \`name\`, \`table\`, \`column\`, \`query\` (index into
    \`queries[column]\`) or an inline \`vector\`, the call's parameters (\`metric\`, \`k\`,
    \`filter\`, \`postfilter\`, \`bypass_index\`, \`nprobes\`, \`refine_factor\`, \`ef\`,
    \`fast_search\`, \`distance_range\`, \`with_row_id\`, \`select\`; absent = not called), \`call\`
    (the LanceDB JS call, to reproduce it), then either \`error\` (LanceDB's message without
    Rust source paths) or \`columns\` (LanceDB's output columns in order), \`num_rows\`, \`ids\` and
    \`distances\` (float32 \`_distance\` values, in LanceDB's order; the shortest decimal that
    parses back to the same double, which is exactly the float32). Indexed cases add
    \`plan_uses_index\` (explainPlan mentions the ANN index), \`distances_exact\` (each distance equals
    LanceDB's exact distance for that row), \`exact_case\` and \`recall\` (share of the ids of
    the same call with \`bypassVectorIndex()\`). \`jsonl\` names a file of \`golden/\`.
- \`golden/*.jsonl\` — whole result sets of the \`select/*\` cases, rendered as \`data/golden\`
  renders rows (\`docs/output-format.md\`), \`_distance\` and \`_rowid\` included.

Reruns reproduce \`plain/\`'s file contents and every \`plain\` case; index training is random,
so the index files and many indexed answers change with every run (the committed answers go
with the committed index files). Dataset files carry uuids and timestamps. To add or rebuild
some tables without touching the others:
\`node gen-vectors.mjs --only indexed_more,indexed_full\` (merges their cases into goldens.json).
`;

/// Writes one table into the database: the first fragment creates it, the others are added (the
/// indices built after `indexAfter` of them), then the deletions.
async function buildTable(db, name, opts) {
  const t = TABLES[name], names = t.vectors.map((v) => v.name), frags = t.layout.fragments;
  const ops = [`createTable ${frags[0][1]} rows`];
  const tbl = await db.createTable(name, batch(...frags[0], names), opts);
  for (let i = 1; i <= frags.length; i++) {
    if (i === t.indexAfter)
      for (const v of t.vectors) { await tbl.createIndex(v.name, { config: v.make() }); ops.push(`createIndex ${v.name}`); }
    if (i < frags.length) { await tbl.add(batch(...frags[i], names)); ops.push(`add ${frags[i][1]}`); }
  }
  await tbl.delete(DELETE);
  ops.push(`delete ${DELETE}`);
  return { tbl, ops };
}

/// The table's entry of goldens.json `tables`.
async function tableDoc(name, tbl, ops) {
  const t = TABLES[name];
  const doc = {
    path: `vectors/${name}`, version: await tbl.version(), num_rows: await tbl.countRows(),
    fragments: t.layout.fragments.map(([s, n]) => ({ first_id: s, rows: n })), deleted: DELETE,
    vector_columns: t.vectors.map((v) => v.kind
      ? { name: v.name, type: 'fixed_size_list<Float32, 16>', index: v.kind, metric: v.metric, call: `tbl.createIndex(${lit(v.name)}, {config: ${v.call}})` }
      : { name: v.name, type: `fixed_size_list<${v.type()}, ${v.dim}>` }),
    operations: ops,
  };
  if (t.indexAfter) doc.indices = await indexInfo(tbl);
  // plain/ and indexed/ have the top-level `rows`; the smaller tables say theirs here
  if (t.layout !== MAIN)
    doc.rows = { null_vector_ids: t.layout.nulls, zero_vector_id: ZERO_VECTOR_ID, duplicate_vector_ids: dupIds(t.layout) };
  return doc;
}

/// `--only a,b`: writes only those tables and their goldens, merged into the existing
/// goldens.json (the other tables, their queries and cases kept as they are).
function parseArgs(argv) {
  const i = argv.indexOf('--only');
  if (i < 0) return null;
  const only = (argv[i + 1] ?? '').split(',').filter(Boolean);
  for (const n of only) if (!TABLES[n]) throw new Error(`--only: no table ${lit(n)} (tables: ${Object.keys(TABLES).join(', ')})`);
  if (!only.length) throw new Error('--only needs a comma-separated list of tables');
  return only;
}

async function main() {
  const only = parseArgs(process.argv.slice(2));
  const names = only ?? Object.keys(TABLES);
  const old = only ? JSON.parse(fs.readFileSync(path.join(OUT, 'goldens.json'), 'utf8')) : null;
  if (!only) fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vectors-'));
  const db = await lancedb.connect(tmp);
  const opts = { storageOptions: { new_table_data_storage_version: VERSION } };

  const built = {};
  for (const name of names) built[name] = await buildTable(db, name, opts);

  const newCases = {}, tables = {};
  for (const name of names) {
    const { tbl, ops } = built[name];
    const list = [];
    if (name === 'plain') for (const spec of plainCases()) list.push(await run(tbl, name, spec, list));
    else {
      for (const spec of indexedCases(name, TABLES[name].vectors, name === 'indexed')) list.push(await run(tbl, name, spec, list));
      await compareWithExact(tbl, list);
    }
    newCases[name] = list;
    tables[name] = await tableDoc(name, tbl, ops);
  }
  // goldens.json keeps the order of TABLES (tables, their columns' queries, their cases)
  const order = Object.keys(TABLES).filter((n) => names.includes(n) || old?.tables[n]);
  const colTable = {};
  for (const [n, t] of Object.entries(TABLES)) for (const v of t.vectors) colTable[v.name] = n;
  const cases = order.flatMap((n) => newCases[n] ?? old.cases.filter((c) => c.table === n));

  const doc = {
    generator: 'scripts/gen-vectors.mjs',
    writer: '@lancedb/lancedb ' + JSON.parse(fs.readFileSync(path.join(HERE, 'node_modules/@lancedb/lancedb/package.json'))).version,
    storage_version: VERSION,
    tables: Object.fromEntries(order.map((n) => [n, tables[n] ?? old.tables[n]])),
    rows: {
      null_vector_ids: NULL_VECTOR_IDS, zero_vector_id: ZERO_VECTOR_ID,
      duplicate_vector_ids: dupIds(MAIN),
    },
    queries: Object.fromEntries(Object.keys(queries).filter((k) => order.includes(colTable[k]))
      .map((k) => [k, names.includes(colTable[k]) ? queries[k] : old.queries[k]])),
    cases,
  };
  if (old && old.writer !== doc.writer) console.warn(`warning: goldens.json was written by ${old.writer}, this run by ${doc.writer}`);
  fs.writeFileSync(path.join(OUT, 'goldens.json'), formatJson(doc) + '\n');
  fs.writeFileSync(path.join(OUT, 'README.md'), README);
  for (const name of names) {
    fs.rmSync(path.join(OUT, name), { recursive: true, force: true });
    fs.cpSync(path.join(tmp, `${name}.lance`), path.join(OUT, name), { recursive: true });
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  const all = names.flatMap((n) => newCases[n]);
  const errs = all.filter((c) => c.error);
  console.log(`${only ? `${only.join(', ')}: ` : ''}${all.length} cases written (${cases.length} in goldens.json), ${errs.length} errors:`);
  for (const e of errs) console.log(`  ${e.name}: ${e.error}`);
}

await main();
