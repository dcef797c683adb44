// Dataset fixtures for knowing a table: its indices, its version history, and `verify`.
//
// How to run:   cd scripts && npm ci && node gen-know.mjs
// Writes:       data/datasets/know/<name>/     dataset directories (copied from LanceDB's table dir)
//               data/datasets/know/index.json  what Lance itself says about each of them
//
// Tables, built with @lancedb/lancedb 0.31.0 (Lance 8.0):
//   * indexed — one index of every kind LanceDB 0.31 can build (IVF_PQ, IVF_FLAT, IVF_HNSW_SQ,
//     IVF_HNSW_PQ, IVF_RQ, BTREE, BITMAP, LABEL_LIST, FTS, FM), then an append that no index
//     covers (so every index has unindexed rows);
//   * history — one version per kind of operation: create (Overwrite), append, update,
//     delete, merge-insert, add column (Merge), drop column (Project), create index, compaction
//     (optimize: Rewrite, which remaps the index), restore, with tags on some versions.
//
// Every expected fact in index.json comes from LanceDB's API, never from lance-cli:
//   * per table and version (tbl.checkout(V)): tbl.countRows(), tbl.listIndices() (name,
//     indexType, columns, indexUuid, typeUrl, numIndexedRows, numUnindexedRows, sizeBytes,
//     numSegments, indexVersion), tbl.indexStats(name).indexType;
//   * tbl.listVersions() (version, timestamp, metadata with total_rows / total_fragments);
//   * (await tbl.tags()).list() (tag -> version);
//   * the operation of each version is the API call that produced it (tbl.version() is read
//     after every call). optimize() makes two versions (ReserveFragments, then Rewrite); the
//     generator cross-checks every operation against the oneof field number of the
//     transaction file each manifest names (_transactions/*.txn, protos/transaction.proto).
// Sizes: vectors have 8 dimensions, a few hundred rows (enough to train IVF/PQ).

import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

import { makeTable, Rng, sentence, readVarint, pbFields } from './gen-fixtures.mjs';

const require = createRequire(import.meta.url);
const arrow = require('apache-arrow');
const lancedb = require('@lancedb/lancedb');
const { Index } = lancedb;

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.resolve(HERE, '..', 'data', 'datasets', 'know');
const DIM = 8;

const F = (name, type, nullable = true) => new arrow.Field(name, type, nullable);
const vecType = () => new arrow.FixedSizeList(DIM, F('item', new arrow.Float32()));

// id int64, category utf8 (4 values), labels list<utf8>, text utf8, five vector columns
function indexedBatch(start, n) {
  const rng = new Rng(`know-indexed-${start}`);
  const vectors = () => Array.from({ length: n }, () => Array.from({ length: DIM }, () => rng.int(-1000, 1000) / 100));
  return makeTable([
    { name: 'id', type: new arrow.Int64(), values: Array.from({ length: n }, (_, i) => BigInt(start + i)), nullable: false },
    { name: 'category', type: new arrow.Utf8(), values: Array.from({ length: n }, () => rng.pick(['red', 'green', 'blue', 'cyan'])) },
    { name: 'labels', type: new arrow.List(F('item', new arrow.Utf8())), values: Array.from({ length: n }, () => Array.from({ length: rng.int(0, 3) }, () => rng.pick(['a', 'b', 'c', 'd', 'e']))) },
    { name: 'text', type: new arrow.Utf8(), values: Array.from({ length: n }, () => sentence(rng, 10, 40)) },
    { name: 'vec_pq', type: vecType(), values: vectors() },
    { name: 'vec_flat', type: vecType(), values: vectors() },
    { name: 'vec_hnsw_sq', type: vecType(), values: vectors() },
    { name: 'vec_hnsw_pq', type: vecType(), values: vectors() },
    { name: 'vec_rq', type: vecType(), values: vectors() },
  ], n);
}

// id int64, name utf8, score float64
function historyBatch(start, n, tag = 'h') {
  const rng = new Rng(`know-history-${tag}-${start}`);
  return makeTable([
    { name: 'id', type: new arrow.Int64(), values: Array.from({ length: n }, (_, i) => BigInt(start + i)), nullable: false },
    { name: 'name', type: new arrow.Utf8(), values: Array.from({ length: n }, () => sentence(rng, 3, 12)) },
    { name: 'score', type: new arrow.Float64(), values: Array.from({ length: n }, () => rng.int(0, 10000) / 8) },
  ], n);
}

/// Runs the steps, recording which versions each one made.
async function runSteps(tbl, steps) {
  const ops = {};
  let last = await tbl.version();
  ops[last] = steps[0].op;
  for (const s of steps.slice(1)) {
    await s.run(tbl);
    const now = await tbl.version();
    if (now === last) throw new Error(`step ${s.op} made no version`);
    for (let v = last + 1; v <= now; v++) ops[v] = v === now ? s.op : (s.first ?? s.op);
    last = now;
  }
  return ops;
}

const TABLES = [
  {
    name: 'indexed',
    notes: 'v1 create 300 rows (id int64, category utf8, labels list<utf8>, text utf8, five vector columns '
      + 'fixed_size_list<float32, 8>); v2..v11 one index each; v12 append 40 rows (fragment 1, in no index).',
    async build(db) {
      const tbl = await db.createTable('t', indexedBatch(0, 300));
      const steps = [
        { op: 'Overwrite' },
        { op: 'CreateIndex', run: (t) => t.createIndex('vec_pq', { config: Index.ivfPq({ numPartitions: 2, numSubVectors: 2 }) }) },
        { op: 'CreateIndex', run: (t) => t.createIndex('vec_flat', { config: Index.ivfFlat({ numPartitions: 2 }) }) },
        { op: 'CreateIndex', run: (t) => t.createIndex('vec_hnsw_sq', { config: Index.hnswSq({ numPartitions: 1 }) }) },
        { op: 'CreateIndex', run: (t) => t.createIndex('vec_hnsw_pq', { config: Index.hnswPq({ numPartitions: 1, numSubVectors: 2 }) }) },
        { op: 'CreateIndex', run: (t) => t.createIndex('vec_rq', { config: Index.ivfRq({ numPartitions: 2 }) }) },
        { op: 'CreateIndex', run: (t) => t.createIndex('id', { config: Index.btree() }) },
        { op: 'CreateIndex', run: (t) => t.createIndex('category', { config: Index.bitmap() }) },
        { op: 'CreateIndex', run: (t) => t.createIndex('labels', { config: Index.labelList() }) },
        { op: 'CreateIndex', run: (t) => t.createIndex('text', { config: Index.fts() }) },
        { op: 'CreateIndex', run: (t) => t.createIndex('text', { config: Index.fm(), name: 'text_fm' }) },
        { op: 'Append', run: (t) => t.add(indexedBatch(300, 40)) },
      ];
      return { tbl, ops: await runSteps(tbl, steps) };
    },
  },
  {
    name: 'history',
    notes: 'v1 create 100 rows (id int64, name utf8, score float64); v2 append 50; v3 update score where id < 10; '
      + 'v4 delete id % 9 = 4; v5 merge-insert on id (update ids 140..149, insert 150..159); v6 add column '
      + 'twice = id * 2; v7 drop column score; v8 btree index on id; v9.. optimize (compaction, then the '
      + 'index remapped/optimized); then restore to the version tagged "before-compaction"; then an append of 5 rows (id, name, twice). '
      + 'Tags: first -> v1, before-compaction -> v8, restored -> the restore version.',
    async build(db) {
      const tbl = await db.createTable('t', historyBatch(0, 100));
      const tags = await tbl.tags();
      const steps = [
        { op: 'Overwrite' },
        { op: 'Append', run: (t) => t.add(historyBatch(100, 50)) },
        { op: 'Update', run: (t) => t.update({ where: 'id < 10', valuesSql: { score: 'score + 1000' } }) },
        { op: 'Delete', run: (t) => t.delete('id % 9 = 4') },
        { op: 'Update', run: (t) => t.mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(historyBatch(140, 20, 'm')) },
        { op: 'Merge', run: (t) => t.addColumns([{ name: 'twice', valueSql: 'id * 2' }]) },
        { op: 'Project', run: (t) => t.dropColumns(['score']) },
        { op: 'CreateIndex', run: (t) => t.createIndex('id', { config: Index.btree() }) },
        // optimize() commits twice: compaction first reserves the new fragment ids, then rewrites
        { op: 'Rewrite', first: 'ReserveFragments', run: (t) => t.optimize() },
      ];
      const ops = await runSteps(tbl, steps);
      const beforeCompaction = Number(Object.keys(ops).find((v) => ops[v] === 'CreateIndex'));
      await tags.create('first', 1);
      await tags.create('before-compaction', beforeCompaction);
      await tbl.checkout('before-compaction');
      await tbl.restore();
      const restored = await tbl.version();
      ops[restored] = 'Restore';
      await tags.create('restored', restored);
      await tbl.add(makeTable([
        { name: 'id', type: new arrow.Int64(), values: [1000n, 1001n, 1002n, 1003n, 1004n], nullable: false },
        { name: 'name', type: new arrow.Utf8(), values: ['p', 'q', 'r', 's', 't'] },
        { name: 'twice', type: new arrow.Int64(), values: [2000n, 2002n, 2004n, 2006n, 2008n] },
      ], 5));
      ops[await tbl.version()] = 'Append';
      return { tbl, ops };
    },
  },
];

// Field numbers of the transaction operations (readVarint/pbFields walk the protobuf), for the cross-check.
const OPERATION_FIELDS = { 100: 'Append', 101: 'Delete', 102: 'Overwrite', 103: 'CreateIndex', 104: 'Rewrite', 105: 'Merge',
  106: 'Restore', 107: 'ReserveFragments', 108: 'Update', 109: 'Project', 110: 'UpdateConfig' };
const U64_MAX = 18446744073709551615n;

/// The operation of `version` as its transaction file records it.
function transactionOperation(tableDir, version) {
  const b = fs.readFileSync(path.join(tableDir, '_versions', `${(U64_MAX - BigInt(version)).toString().padStart(20, '0')}.manifest`));
  const pos = Number(b.readBigInt64LE(b.length - 16));
  const m = pbFields(b.subarray(pos + 4, b.length - 16));
  const txn = m.find(([fn]) => fn === 12)?.[1];
  if (!txn) return null;
  const t = pbFields(fs.readFileSync(path.join(tableDir, '_transactions', Buffer.from(txn).toString('utf8'))));
  const op = t.find(([fn]) => fn >= 100);
  return op ? OPERATION_FIELDS[op[0]] ?? `field ${op[0]}` : null;
}

function dirBytes(d) {
  let n = 0;
  for (const e of fs.readdirSync(d, { withFileTypes: true })) n += e.isDirectory() ? dirBytes(path.join(d, e.name)) : fs.statSync(path.join(d, e.name)).size;
  return n;
}

async function describeIndices(tbl) {
  const out = [];
  for (const ix of await tbl.listIndices()) {
    const stats = await tbl.indexStats(ix.name);
    out.push({
      name: ix.name, index_type: ix.indexType, stats_index_type: stats?.indexType ?? null, columns: ix.columns,
      uuid: ix.indexUuid, type_url: ix.typeUrl, num_indexed_rows: ix.numIndexedRows, num_unindexed_rows: ix.numUnindexedRows,
      size_bytes: ix.sizeBytes ?? null, num_segments: ix.numSegments, index_version: ix.indexVersion,
      distance_type: stats?.distanceType ?? null,
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

async function generate(spec, tmpRoot) {
  const dbDir = fs.mkdtempSync(path.join(tmpRoot, `${spec.name}-`));
  const db = await lancedb.connect(dbDir);
  const { tbl, ops } = await spec.build(db);
  const tableDir = path.join(dbDir, 't.lance');
  const latest = await tbl.version();
  const tagList = await (await tbl.tags()).list();
  const tagsOf = (v) => Object.entries(tagList).filter(([, t]) => t.version === v).map(([name]) => name).sort();
  const versions = [];
  for (const lv of await tbl.listVersions()) {
    const v = lv.version;
    await tbl.checkout(v);
    const recorded = transactionOperation(tableDir, v);
    if (recorded !== ops[v]) throw new Error(`${spec.name} v${v}: made by ${ops[v]}, its transaction file says ${recorded}`);
    versions.push({
      version: v,
      timestamp_ms: new Date(lv.timestamp).getTime(),
      operation: ops[v] ?? null,
      num_rows: await tbl.countRows(),
      total_rows: Number(lv.metadata.total_rows),
      num_fragments: Number(lv.metadata.total_fragments),
      num_deletion_files: Number(lv.metadata.total_deletion_files),
      tags: tagsOf(v),
      indices: await describeIndices(tbl),
    });
  }
  await tbl.checkoutLatest();
  tbl.close?.();
  const dst = path.join(OUT, spec.name);
  fs.rmSync(dst, { recursive: true, force: true });
  fs.cpSync(tableDir, dst, { recursive: true });
  console.log(`  ${spec.name}: ${versions.length} versions, ${dirBytes(dst)} bytes`);
  return {
    name: spec.name, dir: path.relative(path.resolve(HERE, '..', 'data'), dst), latest_version: latest,
    tags: Object.fromEntries(Object.entries(tagList).map(([k, t]) => [k, t.version])),
    notes: spec.notes, versions,
  };
}

async function main() {
  const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'lance-know-'));
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  const tables = [];
  try {
    for (const spec of TABLES) {
      console.log(`${spec.name}:`);
      tables.push(await generate(spec, tmpRoot));
    }
  } finally {
    fs.rmSync(tmpRoot, { recursive: true, force: true });
  }
  const out = {
    generator: 'scripts/gen-know.mjs',
    lance: '@lancedb/lancedb 0.31.0 (Lance 8.0)',
    paths_relative_to: 'data/',
    facts: 'indices: tbl.listIndices() + tbl.indexStats() at each version; versions: tbl.listVersions(); '
      + 'num_rows: tbl.countRows() at tbl.checkout(V); tags: tbl.tags().list(); operation: the API call that made the version.',
    tables,
  };
  const text = JSON.stringify(out, null, 2).replace(/\[[\s\d,.-]*\]/g, (m) => m.replace(/\s+/g, '').replace(/,/g, ', '));
  fs.writeFileSync(path.join(OUT, 'index.json'), text + '\n');
  console.log(`done: data/datasets/know is ${dirBytes(OUT)} bytes`);
}

await main();
