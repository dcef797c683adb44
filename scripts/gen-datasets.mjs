// Lance dataset fixtures for lance-cli: whole dataset directories (manifests, fragments,
// deletion files, versions), written and read back by Lance itself.
//
// How to run:   cd scripts && npm ci && node gen-datasets.mjs [--only NAME[,NAME...]]
// Writes:       data/datasets/<name>/        the dataset directories (copied from LanceDB's table dir)
//               data/golden/ds_<name>[-version<V>][-take].{jsonl,json,csv,tsv}
//               data/datasets/index.json     what each dataset holds, its versions and goldens
//
// Per dataset: a table is built with @lancedb/lancedb 0.31.0 (Lance 8.0) through a series of
// operations (createTable, add, delete, addColumns, dropColumns, alterColumns), so it has
// several fragments, deletion files of both kinds, data files added per column, several
// versions. Then, for the latest version and each version listed in `goldenVersions`
// (via tbl.checkout(V)):
//   * scan golden: tbl.query().toArrow(), rendered per docs/output-format.md with the
//     renderer of gen-fixtures.mjs;
//   * take golden: tbl.takeOffsets(OFFSETS).toArrow() for a fixed, sorted, duplicate-free list
//     of offsets (LanceDB returns takeOffsets rows sorted by offset with duplicates merged, so
//     the list is given that way; the CLI returns rows in the order asked).
// Offsets count visible rows in scan order across fragments.
//
// Facts about Lance 8.0 this relies on (checked when generating):
//   * a delete that removes every row of a fragment drops the fragment from the manifest, so
//     Lance never leaves a "fully deleted fragment" behind (tests build one synthetically);
//   * deletion files are `.arrow` (Arrow IPC, UInt32 row offsets) up to 5000 deleted rows in a
//     fragment and `.bin` (roaring bitmap) above;
//   * Lance 8.0 names manifests `_versions/{u64::MAX - version}.manifest` (naming "V2") and
//     writes `_versions/latest_version_hint.json`. The dataset `appends_v1names` is a byte copy
//     of `appends` whose manifests were only RENAMED to the older `{version}.manifest` scheme
//     and whose hint file was removed; its bytes are all Lance's. It is read back through
//     LanceDB to confirm Lance accepts it, and shares the goldens of `appends`.

import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';

import { makeTable, renderTable, renderGoldens, typeName, Rng, sentence, readVarint, pbFields } from './gen-fixtures.mjs';

const require = createRequire(import.meta.url);
const arrow = require('apache-arrow'); // same module instance as @lancedb/lancedb's (see gen-fixtures.mjs)
const lancedb = require('@lancedb/lancedb');

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DATA = path.resolve(HERE, '..', 'data');
const DATASETS = path.join(DATA, 'datasets');
const GOLDEN = path.join(DATA, 'golden');
const U64_MAX = 18446744073709551615n;

const F = (name, type, nullable = true) => new arrow.Field(name, type, nullable);

// ---------------------------------------------------------------------------------------------
// Minimal protobuf walking of manifests (for the index and for checks)
// ---------------------------------------------------------------------------------------------

const get = (fields, n) => fields.find(([fn]) => fn === n)?.[1];
const all = (fields, n) => fields.filter(([fn]) => fn === n).map(([, v]) => v);

function readManifest(file) {
  const b = fs.readFileSync(file);
  if (b.subarray(b.length - 4).toString('latin1') !== 'LANC') throw new Error(`${file}: no LANC magic`);
  const pos = Number(b.readBigInt64LE(b.length - 16));
  const len = b.readUInt32LE(pos);
  if (pos + 4 + len !== b.length - 16) throw new Error(`${file}: manifest length mismatch`);
  const m = pbFields(b.subarray(pos + 4, pos + 4 + len));
  const fragments = all(m, 2).map((fb) => {
    const f = pbFields(fb);
    const del = get(f, 3);
    const d = del ? pbFields(del) : null;
    const files = all(f, 2).map((db) => {
      const df = pbFields(db);
      return { path: Buffer.from(get(df, 1)).toString('utf8'), major: Number(get(df, 4) ?? 0n), minor: Number(get(df, 5) ?? 0n) };
    });
    return {
      id: Number(get(f, 1) ?? 0n),
      physical_rows: Number(get(f, 4) ?? 0n),
      data_files: files.length,
      file_versions: [...new Set(files.map((x) => `${x.major}.${x.minor}`))],
      deleted_rows: d ? Number(get(d, 4) ?? 0n) : 0,
      deletion_file: d ? (Number(get(d, 1) ?? 0n) === 1 ? 'bin' : 'arrow') : null,
    };
  });
  const fmt = get(m, 15);
  return {
    version: Number(get(m, 3) ?? 0n),
    reader_feature_flags: Number(get(m, 9) ?? 0n),
    data_storage_version: fmt ? Buffer.from(get(pbFields(fmt), 2) ?? []).toString('utf8') : '',
    fragments,
  };
}

function manifestFiles(tableDir) {
  return fs.readdirSync(path.join(tableDir, '_versions')).filter((f) => f.endsWith('.manifest')).sort();
}
function versionOfName(name) {
  const stem = name.slice(0, -'.manifest'.length);
  return stem.length === 20 ? Number(U64_MAX - BigInt(stem)) : Number(stem);
}

// ---------------------------------------------------------------------------------------------
// Data builders
// ---------------------------------------------------------------------------------------------

const ids64 = (start, n) => Array.from({ length: n }, (_, i) => BigInt(start + i));
const ids32 = (start, n) => Array.from({ length: n }, (_, i) => start + i);

// id int64, name utf8, score float64 (nullable), tags list<utf8>
function appendsBatch(start, n) {
  const rng = new Rng(`appends-${start}`);
  return makeTable([
    { name: 'id', type: new arrow.Int64(), values: ids64(start, n), nullable: false },
    { name: 'name', type: new arrow.Utf8(), values: Array.from({ length: n }, () => sentence(rng, 1, 3)) },
    { name: 'score', type: new arrow.Float64(), values: Array.from({ length: n }, () => (rng.chance(0.15) ? null : rng.int(-100000, 100000) / 64)) },
    { name: 'tags', type: new arrow.List(F('item', new arrow.Utf8())), values: Array.from({ length: n }, () => (rng.chance(0.1) ? null : Array.from({ length: rng.int(0, 3) }, () => sentence(rng, 1, 1)))) },
  ], n);
}

// id int32, name utf8, s struct{a int32, b utf8}, x float64
function evolutionBatch(start, n) {
  const rng = new Rng(`evolution-${start}`);
  return makeTable([
    { name: 'id', type: new arrow.Int32(), values: ids32(start, n) },
    { name: 'name', type: new arrow.Utf8(), values: Array.from({ length: n }, (_, i) => `row ${start + i}`) },
    { name: 's', type: new arrow.Struct([F('a', new arrow.Int32()), F('b', new arrow.Utf8())]), values: Array.from({ length: n }, (_, i) => (rng.chance(0.1) ? null : { a: rng.chance(0.1) ? null : start + i, b: sentence(rng, 1, 2) })) },
    { name: 'x', type: new arrow.Float64(), values: Array.from({ length: n }, (_, i) => (start + i) / 4) },
  ], n);
}

// id int64, s struct{a int32, l list<int32>}, name utf8 — for the 2.0 dataset
function v20Batch(start, n) {
  const rng = new Rng(`v2_0-${start}`);
  return makeTable([
    { name: 'id', type: new arrow.Int64(), values: ids64(start, n) },
    { name: 's', type: new arrow.Struct([F('a', new arrow.Int32()), F('l', new arrow.List(F('item', new arrow.Int32())))]),
      values: Array.from({ length: n }, () => (rng.chance(0.1) ? null : { a: rng.chance(0.1) ? null : rng.int(-1000, 1000), l: rng.chance(0.1) ? null : Array.from({ length: rng.int(0, 3) }, () => rng.int(0, 99)) })) },
    { name: 'name', type: new arrow.Utf8(), values: Array.from({ length: n }, () => (rng.chance(0.1) ? null : sentence(rng, 1, 4))) },
  ], n);
}

// id int64, m map<utf8, int32>, name utf8 — for the 2.2 dataset
function v22Batch(start, n) {
  const rng = new Rng(`v2_2-${start}`);
  const entries = new arrow.Struct([F('key', new arrow.Utf8(), false), F('value', new arrow.Int32())]);
  return makeTable([
    { name: 'id', type: new arrow.Int64(), values: ids64(start, n) },
    { name: 'm', type: new arrow.Map_(F('entries', entries, false), false),
      values: Array.from({ length: n }, () => (rng.chance(0.1) ? null : Array.from({ length: rng.int(0, 3) }, (_, k) => [`k${k}`, rng.chance(0.1) ? null : rng.int(0, 500)]))) },
    { name: 'name', type: new arrow.Utf8(), values: Array.from({ length: n }, () => sentence(rng, 1, 3)) },
  ], n);
}

// id int64, cat utf8 (runs of 300 rows: a dozen values, then distinct ones, …; nulls), note
// utf8, pad fixed_size_binary(16384) all null (it makes Lance flush a page every few record
// batches of 100 rows, as the multipage fixture's). Lance 8.0 stores `cat`'s runs of few values
// as dictionary-encoded mini-block pages and the distinct ones as plain pages, so one batch of
// rows can span a dictionary page and a plain one — for the dictionary dataset
const DICT_CATS = ['north', 'south', 'east', 'west', "O'Hare", '日本', '', 'zeta', 'Zeta', 'a b', 'north-east', 'ü'];
function dictionaryBatch(start, n) {
  const rng = new Rng(`dictionary-${start}`);
  const cat = (i) => (rng.chance(0.08) ? null : Math.floor(i / 300) % 3 === 1 ? `distinct ${i}` : rng.pick(DICT_CATS));
  return makeTable([
    { name: 'id', type: new arrow.Int64(), values: ids64(start, n), nullable: false },
    { name: 'cat', type: new arrow.Utf8(), values: Array.from({ length: n }, (_, i) => cat(start + i)) },
    { name: 'note', type: new arrow.Utf8(), values: Array.from({ length: n }, () => sentence(rng, 1, 3)) },
    { name: 'pad', type: new arrow.FixedSizeBinary(16384), values: Array(n).fill(null) },
  ], n, 100);
}

const create = (db, data, version) => db.createTable('t', data, { storageOptions: { new_table_data_storage_version: version } });

// ---------------------------------------------------------------------------------------------
// The datasets
// ---------------------------------------------------------------------------------------------

const DATASET_SPECS = [
  {
    name: 'appends', storage: '2.1', goldenVersions: [1, 4],
    notes: 'v1 create 120 rows; v2/v3 append 80 and 100 rows; v4 delete id%7=3 (.arrow deletion file in each '
      + 'fragment); v5 append 60; v6 delete ids 120..199 (all of fragment 1: Lance drops the fragment); '
      + 'v7 delete ids 301 and 355 (.arrow). Columns id int64 not null, name utf8, score float64, tags list<utf8>.',
    async build(db) {
      const tbl = await create(db, appendsBatch(0, 120), this.storage);
      await tbl.add(appendsBatch(120, 80));
      await tbl.add(appendsBatch(200, 100));
      await tbl.delete('id % 7 = 3');
      await tbl.add(appendsBatch(300, 60));
      await tbl.delete('id >= 120 AND id < 200');
      await tbl.delete('id = 301 OR id = 355');
      return tbl;
    },
    check(info) {
      const latest = info.manifests.at(-1);
      if (latest.fragments.length !== 3) throw new Error('appends: expected 3 fragments at the latest version');
      if (!latest.fragments.every((f) => f.deletion_file === 'arrow')) throw new Error('appends: expected .arrow deletion files');
      if (info.manifests.find((m) => m.version === 4).fragments.length !== 3) throw new Error('appends v4: expected 3 fragments');
    },
  },
  {
    name: 'bitmap', storage: '2.1', goldenVersions: [],
    notes: 'v1 create 6000 rows (one fragment); v2 delete all ids not divisible by 10 (5400 rows: .bin roaring '
      + 'bitmap); v3 append 50 rows; v4 delete id 6001 (.arrow). Column id int32, flag bool.',
    async build(db) {
      const mk = (start, n) => makeTable([
        { name: 'id', type: new arrow.Int32(), values: ids32(start, n) },
        { name: 'flag', type: new arrow.Bool(), values: ids32(start, n).map((i) => (i % 3 === 0 ? null : i % 2 === 0)) },
      ], n);
      const tbl = await create(db, mk(0, 6000), this.storage);
      await tbl.delete('id % 10 != 0');
      await tbl.add(mk(6000, 50));
      await tbl.delete('id = 6001');
      return tbl;
    },
    check(info) {
      const kinds = info.manifests.at(-1).fragments.map((f) => f.deletion_file);
      if (JSON.stringify(kinds) !== '["bin","arrow"]') throw new Error(`bitmap: deletion kinds ${kinds}`);
    },
  },
  {
    name: 'evolution', storage: '2.1', goldenVersions: [1, 4, 6, 9],
    notes: 'v1 create 10 rows (id int32, name utf8, s struct{a int32, b utf8}, x float64); v2 append 10; '
      + 'v3 addColumns dbl = id * 2 (a second data file per fragment); v4 addColumns nul utf8 (no data: reads as null); '
      + 'v5 dropColumns x; v6 rename name -> label; v7 rename s.b -> s.bee; v8 dropColumns s.a; '
      + 'v9 alter id to int64 (a third data file per fragment holds the new field id); v10 append 2 rows '
      + 'with every column; v11 delete id = 5.',
    async build(db) {
      const tbl = await create(db, evolutionBatch(0, 10), this.storage);
      await tbl.add(evolutionBatch(10, 10));
      await tbl.addColumns([{ name: 'dbl', valueSql: 'id * 2' }]);
      await tbl.addColumns(F('nul', new arrow.Utf8()));
      await tbl.dropColumns(['x']);
      await tbl.alterColumns([{ path: 'name', rename: 'label' }]);
      await tbl.alterColumns([{ path: 's.b', rename: 'bee' }]);
      await tbl.dropColumns(['s.a']);
      await tbl.alterColumns([{ path: 'id', dataType: 'int64' }]);
      await tbl.add(makeTable([
        { name: 'id', type: new arrow.Int64(), values: [100n, 101n] },
        { name: 'label', type: new arrow.Utf8(), values: ['p', 'q'] },
        { name: 's', type: new arrow.Struct([F('bee', new arrow.Utf8())]), values: [{ bee: 'z' }, null] },
        { name: 'dbl', type: new arrow.Int32(), values: [200, 202] },
        { name: 'nul', type: new arrow.Utf8(), values: ['n1', null] },
      ], 2));
      await tbl.delete('id = 5');
      return tbl;
    },
    check(info) {
      const f = info.manifests.at(-1).fragments;
      if (f[0].data_files !== 3) throw new Error(`evolution: fragment 0 has ${f[0].data_files} data files, expected 3`);
    },
  },
  {
    name: 'empty', storage: '2.1', goldenVersions: [],
    notes: 'createEmptyTable (id int64, name utf8): version 1 with zero fragments.',
    async build(db) {
      return db.createEmptyTable('t', new arrow.Schema([F('id', new arrow.Int64()), F('name', new arrow.Utf8())]),
        { storageOptions: { new_table_data_storage_version: this.storage } });
    },
    check(info) { if (info.manifests.at(-1).fragments.length !== 0) throw new Error('empty: has fragments'); },
  },
  {
    name: 'emptied', storage: '2.1', goldenVersions: [1],
    notes: 'v1 create 30 rows (id int64, name utf8); v2 delete every row: zero fragments, zero rows.',
    async build(db) {
      const tbl = await create(db, makeTable([
        { name: 'id', type: new arrow.Int64(), values: ids64(0, 30) },
        { name: 'name', type: new arrow.Utf8(), values: ids32(0, 30).map((i) => `n${i}`) },
      ], 30), this.storage);
      await tbl.delete('id >= 0');
      return tbl;
    },
    check(info) { if (info.manifests.at(-1).fragments.length !== 0) throw new Error('emptied: has fragments'); },
  },
  {
    name: 'v2_0', storage: '2.0', goldenVersions: [1],
    notes: 'Data storage version 2.0. v1 create 50 rows (id int64, s struct{a int32, l list<int32>}, name utf8); '
      + 'v2 append 40; v3 delete id%5=2 (.arrow); v4 addColumns twice = id * 2; v5 dropColumns s.a.',
    async build(db) {
      const tbl = await create(db, v20Batch(0, 50), this.storage);
      await tbl.add(v20Batch(50, 40));
      await tbl.delete('id % 5 = 2');
      await tbl.addColumns([{ name: 'twice', valueSql: 'id * 2' }]);
      await tbl.dropColumns(['s.a']);
      return tbl;
    },
  },
  {
    name: 'dictionary', storage: '2.1', goldenVersions: [],
    notes: 'v1 create 700 rows; v2 append 500 rows (a second fragment); v3 delete id%13=5 (.arrow). Columns id '
      + 'int64 not null, cat utf8 (runs of 300 rows: 12 values, distinct values, 12 values, ...; about 8% null: '
      + 'the runs of 12 values are dictionary-encoded mini-block pages, the others plain ones), note utf8, pad '
      + 'fixed_size_binary(16384) all null (written in record batches of 100 rows, it makes Lance cut pages often).',
    async build(db) {
      const tbl = await create(db, dictionaryBatch(0, 700), this.storage);
      await tbl.add(dictionaryBatch(700, 500));
      await tbl.delete('id % 13 = 5');
      return tbl;
    },
  },
  {
    name: 'v2_2', storage: '2.2', goldenVersions: [2],
    notes: 'Data storage version 2.2. v1 create 60 rows (id int64, m map<utf8,int32>, name utf8); v2 append 40; '
      + 'v3 delete id%9=4 (.arrow); v4 append 20.',
    async build(db) {
      const tbl = await create(db, v22Batch(0, 60), this.storage);
      await tbl.add(v22Batch(60, 40));
      await tbl.delete('id % 9 = 4');
      await tbl.add(v22Batch(100, 20));
      return tbl;
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Generation
// ---------------------------------------------------------------------------------------------

const sha256 = (b) => crypto.createHash('sha256').update(b).digest('hex');
function writeOut(p, content) {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, content);
}

async function render(tbl, arrowTable) {
  const schema = arrowTable.schema.fields.length ? arrowTable.schema : await tbl.schema();
  const names = schema.fields.map((f) => f.name);
  const cells = arrowTable.numRows ? renderTable(names, arrowTable) : names.map(() => []);
  return {
    goldens: renderGoldens(names, cells, arrowTable.numRows),
    numRows: arrowTable.numRows,
    columns: schema.fields.map((f) => ({ name: f.name, arrow_type: typeName(f.type), nullable: f.nullable })),
  };
}

/// Offsets for the take golden: both sides of every fragment boundary, the ends, and a
/// few pseudo-random ones; sorted and duplicate-free.
function takeOffsets(name, version, manifest, numRows) {
  if (numRows === 0) return [];
  const set = new Set([0, numRows - 1]);
  let at = 0;
  for (const f of manifest.fragments) {
    at += f.physical_rows - f.deleted_rows;
    for (const d of [-1, 0, 1]) if (at + d >= 0 && at + d < numRows) set.add(at + d);
  }
  const rng = new Rng(`take-${name}-${version}`);
  for (let i = 0; i < 6; i++) set.add(rng.int(0, numRows - 1));
  return [...set].sort((a, b) => a - b);
}

function writeGoldens(prefix, goldens) {
  for (const [ext, text] of Object.entries(goldens)) writeOut(path.join(DATA, `${prefix}.${ext}`), text);
  return Object.fromEntries(Object.entries(goldens).map(([ext, text]) => [ext, sha256(text)]));
}

async function generate(spec, tmpRoot) {
  const dbDir = fs.mkdtempSync(path.join(tmpRoot, `${spec.name}-`));
  const db = await lancedb.connect(dbDir);
  const tbl = await spec.build(db);
  const tableDir = path.join(dbDir, 't.lance');
  const latestVersion = await tbl.version();

  const manifests = manifestFiles(tableDir).map((f) => readManifest(path.join(tableDir, '_versions', f)))
    .sort((a, b) => a.version - b.version);
  const info = { manifests };
  spec.check?.(info);
  const latest = manifests.at(-1);
  if (latest.version !== latestVersion) throw new Error(`${spec.name}: newest manifest ${latest.version} != table version ${latestVersion}`);
  if (spec.storage && latest.data_storage_version !== spec.storage) throw new Error(`${spec.name}: data format ${latest.data_storage_version}`);
  for (const f of latest.fragments) {
    for (const v of f.file_versions) if (v !== (spec.storage === '2.0' ? '2.0' : spec.storage)) throw new Error(`${spec.name}: data file version ${v}`);
    if (f.deletion_file === 'arrow' && f.deleted_rows > 5000) throw new Error(`${spec.name}: .arrow with ${f.deleted_rows} deletions`);
  }

  const dst = path.join(DATASETS, spec.name);
  fs.rmSync(dst, { recursive: true, force: true });
  fs.cpSync(tableDir, dst, { recursive: true });

  const versions = [];
  for (const v of [latestVersion, ...spec.goldenVersions]) {
    const isLatest = v === latestVersion;
    if (isLatest) await tbl.checkoutLatest(); else await tbl.checkout(v);
    const manifest = manifests.find((m) => m.version === v);
    const scan = await render(tbl, await tbl.query().toArrow());
    const live = manifest.fragments.reduce((s, f) => s + f.physical_rows - f.deleted_rows, 0);
    if (live !== scan.numRows) throw new Error(`${spec.name} v${v}: manifest counts ${live} rows, Lance read ${scan.numRows}`);
    const prefix = `golden/ds_${spec.name}${isLatest ? '' : `-version${v}`}`;
    const offsets = takeOffsets(spec.name, v, manifest, scan.numRows);
    let take = null;
    if (offsets.length) {
      const taken = await render(tbl, await tbl.takeOffsets(offsets).toArrow());
      if (taken.numRows !== offsets.length) throw new Error(`${spec.name} v${v}: takeOffsets returned ${taken.numRows} rows for ${offsets.length} offsets`);
      if (JSON.stringify(taken.columns) !== JSON.stringify(scan.columns)) throw new Error(`${spec.name} v${v}: takeOffsets columns differ from the scan's`);
      // takeOffsets must agree with the scan rows at those offsets
      const scanLines = scan.goldens.jsonl.split('\n');
      const want = offsets.map((o) => scanLines[o] + '\n').join('');
      if (want !== taken.goldens.jsonl) throw new Error(`${spec.name} v${v}: takeOffsets rows differ from the scan rows at the same offsets`);
      take = { offsets, golden_prefix: `${prefix}-take`, golden_sha256: writeGoldens(`${prefix}-take`, taken.goldens) };
    }
    versions.push({
      version: v, latest: isLatest, num_rows: scan.numRows, columns: scan.columns,
      fragments: manifest.fragments.map(({ file_versions, ...f }) => f),
      golden_prefix: prefix, golden_sha256: writeGoldens(prefix, scan.goldens), take,
    });
    console.log(`  ${spec.name} v${v}: ${scan.numRows} rows, ${manifest.fragments.length} fragments, take ${offsets.length}`);
  }
  tbl.close?.();
  return {
    name: spec.name, dir: path.relative(DATA, dst), storage_version: spec.storage, latest_version: latestVersion,
    manifest_naming: 'v2', version_hint: fs.existsSync(path.join(dst, '_versions', 'latest_version_hint.json')),
    all_versions: manifests.map((m) => m.version),
    deletion_files: fs.existsSync(path.join(dst, '_deletions')) ? fs.readdirSync(path.join(dst, '_deletions')).sort() : [],
    notes: spec.notes, versions,
  };
}

/// A byte copy of dataset `src` with manifests renamed to `{version}.manifest` and no hint file.
async function makeV1Names(srcEntry, tmpRoot) {
  const name = `${srcEntry.name}_v1names`;
  const src = path.join(DATA, srcEntry.dir), dst = path.join(DATASETS, name);
  fs.rmSync(dst, { recursive: true, force: true });
  fs.cpSync(src, dst, { recursive: true });
  const vdir = path.join(dst, '_versions');
  fs.rmSync(path.join(vdir, 'latest_version_hint.json'), { force: true });
  for (const f of manifestFiles(dst)) fs.renameSync(path.join(vdir, f), path.join(vdir, `${versionOfName(f)}.manifest`));
  // Lance must read the renamed copy the same way: open it as a LanceDB table and compare.
  const dbDir = fs.mkdtempSync(path.join(tmpRoot, `${name}-`));
  fs.cpSync(dst, path.join(dbDir, 't.lance'), { recursive: true });
  const db = await lancedb.connect(dbDir);
  const tbl = await db.openTable('t');
  for (const v of srcEntry.versions) {
    if (v.latest) await tbl.checkoutLatest(); else await tbl.checkout(v.version);
    const scan = await render(tbl, await tbl.query().toArrow());
    if (sha256(scan.goldens.jsonl) !== v.golden_sha256.jsonl) throw new Error(`${name} v${v.version}: Lance reads the renamed copy differently`);
  }
  tbl.close?.();
  console.log(`  ${name}: ${manifestFiles(dst).join(' ')}`);
  return {
    ...srcEntry, name, dir: path.relative(DATA, dst), manifest_naming: 'v1', version_hint: false, golden_from: srcEntry.name,
    notes: `Byte copy of dataset "${srcEntry.name}" with its manifests renamed to the old {version}.manifest scheme and `
      + 'latest_version_hint.json removed (Lance 8.0 no longer writes this naming; only file names changed). '
      + 'Shares the goldens of the original; LanceDB reads it identically.',
  };
}

function dirBytes(d) {
  let n = 0;
  for (const e of fs.readdirSync(d, { withFileTypes: true })) n += e.isDirectory() ? dirBytes(path.join(d, e.name)) : fs.statSync(path.join(d, e.name)).size;
  return n;
}

async function main() {
  const args = process.argv.slice(2);
  const onlyIdx = args.indexOf('--only');
  const only = onlyIdx >= 0 ? new Set(args[onlyIdx + 1].split(',')) : null;
  const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'lance-datasets-'));
  const idxPath = path.join(DATASETS, 'index.json');
  const prev = only && fs.existsSync(idxPath) ? JSON.parse(fs.readFileSync(idxPath, 'utf8')).datasets : [];
  if (!only) {
    // data/datasets/know/ belongs to gen-know.mjs
    for (const e of fs.existsSync(DATASETS) ? fs.readdirSync(DATASETS) : []) if (e !== 'know') fs.rmSync(path.join(DATASETS, e), { recursive: true, force: true });
    for (const f of fs.existsSync(GOLDEN) ? fs.readdirSync(GOLDEN) : []) if (f.startsWith('ds_')) fs.rmSync(path.join(GOLDEN, f));
  }
  fs.mkdirSync(DATASETS, { recursive: true });
  const entries = [];
  try {
    for (const spec of DATASET_SPECS) {
      if (only && !only.has(spec.name)) continue;
      console.log(`${spec.name}:`);
      const entry = await generate(spec, tmpRoot);
      entries.push(entry);
      if (spec.name === 'appends') entries.push(await makeV1Names(entry, tmpRoot));
    }
  } finally {
    fs.rmSync(tmpRoot, { recursive: true, force: true });
  }
  const names = new Set(entries.map((e) => e.name));
  const datasets = [...prev.filter((e) => !names.has(e.name)), ...entries];
  const order = DATASET_SPECS.flatMap((s) => (s.name === 'appends' ? ['appends', 'appends_v1names'] : [s.name]));
  datasets.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  const out = {
    generator: 'scripts/gen-datasets.mjs',
    lance: '@lancedb/lancedb 0.31.0 (Lance 8.0)',
    paths_relative_to: 'data/',
    golden_formats: ['jsonl', 'json', 'csv', 'tsv'],
    take_note: 'take goldens come from tbl.takeOffsets(offsets) with sorted, duplicate-free offsets (counted over '
      + 'visible rows in scan order); LanceDB itself returns takeOffsets rows sorted and de-duplicated.',
    datasets,
  };
  const text = JSON.stringify(out, null, 2).replace(/\[[\s\d,.-]*\]/g, (m) => m.replace(/\s+/g, '').replace(/,/g, ', '));
  writeOut(idxPath, text + '\n');
  console.log(`done: ${datasets.length} datasets, data/datasets is ${dirBytes(DATASETS)} bytes`);
}

await main();
