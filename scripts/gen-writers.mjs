// Fixtures written by other Lance releases than the one gen-fixtures.mjs uses (issue 19).
//
// How to run:   cd scripts && node gen-writers.mjs [--only WRITER[,WRITER...]]
// (needs scripts/node_modules, i.e. `npm ci` in scripts/, for the shared golden renderer)
//
// Each writer is one npm package version installed in its own folder, scripts/writers/<writer>/
// (package.json + package-lock.json committed, exact versions; node_modules is git-ignored and
// installed here with `npm ci` when missing):
//   lancedb-0.23.0  @lancedb/lancedb 0.23.0 (Lance 1.0.0)    2.1 / 2.2 all-null fixed_size_list pages
//   lancedb-0.26.2  @lancedb/lancedb 0.26.2 (Lance 2.0.0)    same
//   lancedb-0.39.0  @lancedb/lancedb 0.39.0 (Lance 12.0)     2.3 ("next"): sparse layout (forced with
//                                                            lance-encoding:structural-encoding=sparse;
//                                                            Lance 12 picks mini-block by itself), RLE children
//   lancedb-0.12.0  @lancedb/lancedb 0.12.0 (Lance 0.19.1)   legacy v1 files (dataStorageVersion "legacy")
//   vectordb-0.4.20 vectordb 0.4.20 (Lance 0.10.18)          legacy v1 files (its only format)
//
// Every writer runs in a child process of its own (`--child WRITER`), so that one process never
// loads two Lance native modules. A child builds each table with the shared helpers of
// gen-fixtures.mjs (apache-arrow 18.1.0 of scripts/), hands it to the writer through Arrow IPC
// (the writer's own apache-arrow instance), writes a dataset, reads it back with THAT writer's
// reader (query().toArrow(); vectordb: its native search returning Arrow IPC), and renders the
// goldens from the read-back with gen-fixtures' renderer (docs/output-format.md).
// Take goldens: takeOffsets where the writer has it (lancedb >= 0.20), else the rows of the scan
// (0.12.0, vectordb).
//
// Output (paths relative to data/):
//   writers/<name>/               the dataset directory as written (uuids and timestamps inside)
//   golden/w_<name>.{jsonl,json,csv,tsv}   scan goldens; golden/w_<name>-take.* take goldens
//   writers/index.json            one entry per dataset: writer, Lance version, format, columns,
//                                 fragments, take offsets, golden prefixes, notes
// Catches (see issue 19): lancedb < 0.13 ignores storageOptions.new_table_data_storage_version
// (createTable's dataStorageVersion is used instead); 0.39.0 runs on Node 20 although its
// engines field asks for 22; vectordb 0.4.20 wants apache-arrow 14.

import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DATA = path.resolve(HERE, '..', 'data');
const OUT = path.join(DATA, 'writers');
const GOLDEN = path.join(DATA, 'golden');
const WRITERS_DIR = path.join(HERE, 'writers');

const WRITERS = {
  'lancedb-0.23.0': { pkg: '@lancedb/lancedb', lance: '1.0.0', take: true },
  'lancedb-0.26.2': { pkg: '@lancedb/lancedb', lance: '2.0.0', take: true },
  'lancedb-0.39.0': { pkg: '@lancedb/lancedb', lance: '12.0.0', take: true },
  'lancedb-0.12.0': { pkg: '@lancedb/lancedb', lance: '0.19.1', take: false, oldOptions: true },
  'vectordb-0.4.20': { pkg: 'vectordb', lance: '0.10.18', take: false, vectordb: true },
};

// ---------------------------------------------------------------------------------------------
// Parent: install each writer, run it as a child, merge the index.
// ---------------------------------------------------------------------------------------------

function parent(only) {
  const entries = [];
  const prev = fs.existsSync(path.join(OUT, 'index.json')) ? JSON.parse(fs.readFileSync(path.join(OUT, 'index.json'), 'utf8')) : null;
  for (const w of Object.keys(WRITERS)) {
    if (only && !only.has(w)) {
      if (prev) entries.push(...prev.datasets.filter((e) => e.writer === w));
      continue;
    }
    const dir = path.join(WRITERS_DIR, w);
    if (!fs.existsSync(path.join(dir, 'node_modules'))) {
      console.log(`${w}: npm ci`);
      let r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
      if (r.status !== 0) {
        // Some of these releases list optional native packages for other platforms at versions
        // never published; npm 11's `ci` then refuses the lock file ("Missing: ...@ from lock
        // file"). `install --no-save` takes the locked versions that exist and leaves the lock alone.
        console.log(`${w}: npm ci refused the lock file; npm install --no-save`);
        r = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
      }
      if (r.status !== 0) throw new Error(`${w}: npm install failed`);
    }
    const tmp = path.join(os.tmpdir(), `gen-writers-${w}-${process.pid}.json`);
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', w, tmp], { stdio: 'inherit', env: { ...process.env, RUST_LOG: 'error' } });
    if (r.status !== 0) throw new Error(`${w}: child failed (${r.status})`);
    entries.push(...JSON.parse(fs.readFileSync(tmp, 'utf8')));
    fs.rmSync(tmp, { force: true });
  }
  const index = { generator: 'scripts/gen-writers.mjs', paths_relative_to: 'data/', golden_formats: ['jsonl', 'json', 'csv', 'tsv'], datasets: entries };
  const text = JSON.stringify(index, null, 2).replace(/\[[\s\d,.-]*\]/g, (m) => m.replace(/\s+/g, '').replace(/,/g, ', '));
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'index.json'), text + '\n');
  console.log(`done: ${entries.length} datasets`);
}

// ---------------------------------------------------------------------------------------------
// Child: one writer.
// ---------------------------------------------------------------------------------------------

async function child(writer, outJson) {
  const W = WRITERS[writer];
  const gf = await import(path.join(HERE, 'gen-fixtures.mjs'));
  const req = createRequire(path.join(WRITERS_DIR, writer, 'package.json'));
  const wArrow = req('apache-arrow');
  const lib = req(W.pkg);
  const sArrow = createRequire(import.meta.url)('apache-arrow');
  const toWriter = (t) => wArrow.tableFromIPC(sArrow.tableToIPC(t, 'stream'));
  const fromWriter = (t) => sArrow.tableFromIPC(wArrow.tableToIPC(t, 'stream'));
  const h = { arrow: sArrow, ...gf };
  const specs = TABLES[writer](h);
  const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), `lance-writers-${writer}-`));
  const entries = [];
  try {
    for (const spec of specs) {
      console.log(`${writer}: ${spec.name}`);
      const dbDir = path.join(tmpRoot, spec.name);
      const db = await lib.connect(dbDir);
      const parts = spec.parts || [spec.numRows];
      let start = 0, tbl = null;
      for (const n of parts) {
        const piece = spec.cols.map((c) => ({ ...c, values: c.values.slice(start, start + n) }));
        const data = toWriter(gf.makeTable(piece, n, spec.batchRows || n));
        if (!tbl) {
          if (W.vectordb) tbl = await db.createTable(spec.name, data);
          else if (W.oldOptions) tbl = await db.createTable(spec.name, data, { dataStorageVersion: spec.version });
          else tbl = await db.createTable(spec.name, data, { storageOptions: { new_table_data_storage_version: spec.version } });
        } else {
          await tbl.add(data);
        }
        start += n;
      }
      if (spec.delete) await tbl.delete(spec.delete);
      const names = spec.cols.map((c) => c.name);
      const readAll = async () => {
        if (W.vectordb) {
          const { tableSearch } = req('vectordb/native.js');
          const q = tbl.filter('true').limit(1 << 30);
          return fromWriter(wArrow.tableFromIPC(await tableSearch.call(q._tbl, q, false)));
        }
        return fromWriter(await tbl.query().toArrow());
      };
      const back = await readAll();
      const cells = gf.renderTable(names, back);
      const goldens = gf.renderGoldens(names, cells, back.numRows);
      const dst = path.join(OUT, spec.name);
      fs.rmSync(dst, { recursive: true, force: true });
      fs.cpSync(path.join(dbDir, `${spec.name}.lance`), dst, { recursive: true });
      fs.rmSync(path.join(dst, '_transactions'), { recursive: true, force: true });
      fs.rmSync(path.join(dst, '_latest.manifest'), { force: true });
      const prefix = `golden/w_${spec.name}`;
      for (const [ext, text] of Object.entries(goldens)) writeOut(path.join(DATA, `${prefix}.${ext}`), text);
      // take: a few rows, sorted and duplicate-free (LanceDB's takeOffsets returns rows sorted
      // by offset with duplicates merged; the CLI returns them in the order asked)
      const nr = back.numRows;
      const offsets = [...new Set([nr - 1, 0, Math.floor(nr / 2), 1, Math.floor(nr / 3), nr - 2, Math.floor((2 * nr) / 3)])]
        .filter((x) => x >= 0 && x < nr).sort((a, b) => a - b);
      let takeGold;
      if (W.take) {
        const t = fromWriter(await tbl.takeOffsets(offsets).toArrow());
        if (t.numRows !== offsets.length) throw new Error(`${spec.name}: takeOffsets returned ${t.numRows} rows for ${offsets.length}`);
        takeGold = gf.renderGoldens(names, gf.renderTable(names, t), t.numRows);
      } else {
        takeGold = gf.renderGoldens(names, cells.map((c) => offsets.map((o) => c[o])), offsets.length);
      }
      for (const [ext, text] of Object.entries(takeGold)) writeOut(path.join(DATA, `${prefix}-take.${ext}`), text);
      const dataFiles = fs.readdirSync(path.join(dst, 'data')).filter((f) => f.endsWith('.lance'));
      entries.push({
        name: spec.name, writer, lance: W.lance, requested_format: spec.version || 'legacy (default)',
        dataset: path.relative(DATA, dst), data_files: dataFiles.length, num_rows: nr,
        columns: back.schema.fields.map((f) => ({ name: f.name, arrow_type: gf.typeName(f.type), nullable: f.nullable })),
        golden_prefix: prefix, take_offsets: offsets, take_golden_prefix: `${prefix}-take`,
        take_source: W.take ? 'takeOffsets' : 'scan rows', notes: spec.notes,
      });
      tbl.close?.();
    }
  } finally {
    fs.rmSync(tmpRoot, { recursive: true, force: true });
  }
  fs.writeFileSync(outJson, JSON.stringify(entries));
}

function writeOut(p, content) {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, content);
}

// ---------------------------------------------------------------------------------------------
// The tables, per writer. Small on purpose (KBs).
// ---------------------------------------------------------------------------------------------

function fslNull(h, tag, versions) {
  const { arrow, Rng } = h;
  const F = (n, t, nullable = true) => new arrow.Field(n, t, nullable);
  return versions.map((version) => {
    const rng = new Rng(`${tag}-${version}`);
    const N = 60;
    return {
      name: `${tag}_fsl_null-v${version}`, version, numRows: N,
      cols: [
        { name: 'id', type: new arrow.Int32(), values: Array.from({ length: N }, (_, i) => i) },
        { name: 'v4', type: new arrow.FixedSizeList(4, F('item', new arrow.Float32())), values: Array(N).fill(null) },
        { name: 'v128', type: new arrow.FixedSizeList(128, F('item', new arrow.Float32())), values: Array(N).fill(null) },
        { name: 'half', type: new arrow.FixedSizeList(2, F('item', new arrow.Float32())), values: Array.from({ length: N }, () => (rng.chance(0.5) ? null : [rng.int(0, 99) / 4, rng.int(0, 99) / 4])) },
      ],
      notes: 'id; v4 / v128: fixed_size_list<float> never filled (all rows null: full-zip, 0 bits per value, empty constant); half: some rows null.',
    };
  });
}

// Lance 12's 2.3 ("next"): lists with null and empty lists (sparse layout), RLE whose values
// or run lengths get a child encoding (General zstd / lz4, bit-packing).
function next23(h) {
  const { arrow, Rng, sentence } = h;
  const F = (n, t, nullable = true) => new arrow.Field(n, t, nullable);
  const rng = new Rng('l12_next');
  const N = 300;
  const listOf = (item, pNull = 0.1, pEmpty = 0.1, maxLen = 5) => Array.from({ length: N }, () => {
    const r = rng.next();
    if (r < pNull) return null;
    if (r < pNull + pEmpty) return [];
    return Array.from({ length: rng.int(1, maxLen) }, item);
  });
  const sparse = {
    name: 'l12_sparse-v2.3', version: 'next', numRows: N,
    cols: [
      { name: 'id', type: new arrow.Int32(), values: Array.from({ length: N }, (_, i) => i) },
      { name: 'l_i32', type: new arrow.List(F('item', new arrow.Int32())), values: listOf(() => (rng.chance(0.1) ? null : rng.int(-500, 500))) },
      { name: 'l_str', type: new arrow.List(F('item', new arrow.Utf8())), values: listOf(() => (rng.chance(0.1) ? null : sentence(rng, 0, 12))) },
      { name: 'l_empty', type: new arrow.List(F('item', new arrow.Int64())), values: listOf(() => BigInt(rng.int(0, 9)), 0, 0.6) },
      { name: 'l_null', type: new arrow.List(F('item', new arrow.Float64())), values: listOf(() => rng.int(0, 99) / 8, 0.5, 0) },
      { name: 'll', type: new arrow.List(F('item', new arrow.List(F('item', new arrow.Int32())))), values: listOf(() => (rng.chance(0.15) ? null : Array.from({ length: rng.int(0, 3) }, () => rng.int(0, 99))), 0.1, 0.1, 3) },
      { name: 'l_s', type: new arrow.List(F('item', new arrow.Struct([F('a', new arrow.Int32()), F('b', new arrow.Utf8())]))), values: listOf(() => (rng.chance(0.1) ? null : { a: rng.chance(0.1) ? null : rng.int(0, 9), b: sentence(rng, 0, 6) })) },
      { name: 's_l', type: new arrow.Struct([F('n', new arrow.Int32()), F('vals', new arrow.List(F('item', new arrow.Int32())))]), values: Array.from({ length: N }, () => (rng.chance(0.1) ? null : { n: rng.int(0, 9), vals: rng.chance(0.15) ? null : Array.from({ length: rng.int(0, 3) }, () => rng.int(0, 9)) })) },
    ],
    notes: 'Lance 12 "next" (2.3): lists with null and empty lists, a list of lists, a list of structs, a struct holding a '
      + 'list; every column but id forced to the sparse page layout (lance-encoding:structural-encoding=sparse).',
  };
  // Lance 12 picks mini-block for these by itself; the field metadata forces the sparse layout.
  for (const c of sparse.cols) if (c.name !== 'id') c.metadata = { 'lance-encoding:structural-encoding': 'sparse' };
  const M = 2500;
  const runs = (minLen, maxLen, gen) => {
    const out = [];
    while (out.length < M) { const v = gen(), len = rng.int(minLen, maxLen); for (let k = 0; k < len && out.length < M; k++) out.push(v); }
    return out;
  };
  const K = { comp: 'lance-encoding:compression', rle: 'lance-encoding:rle-threshold', ratio: 'lance-encoding:dict-size-ratio', bss: 'lance-encoding:bss' };
  const col = (name, type, values, md) => ({ name, type, values, metadata: md });
  const force = (comp) => ({ [K.rle]: '0.9', [K.ratio]: '0.01', [K.bss]: 'off', ...(comp ? { [K.comp]: comp } : {}) });
  // Lance 12 (found by trying): without ByteStreamSplit, compression=lz4/zstd puts General
  // around the run values (long runs of small values: General(lz4) > Flat(32), run lengths
  // Flat(16)); short runs of wide values get OutOfLineBitpacking values.
  const rle = {
    name: 'l12_rle-v2.3', version: 'next', numRows: M,
    cols: [
      col('r_lz4', new arrow.Int32(), runs(50, 300, () => rng.int(0, 99)), force('lz4')),
      col('r_zstd', new arrow.Int32(), runs(50, 300, () => rng.int(0, 99)), force('zstd')),
      col('r_ool', new arrow.Int32(), runs(1, 4, () => rng.int(0, 1 << 29)), force('zstd')),
      col('r_small', new arrow.Int32(), runs(1, 9, () => rng.int(0, 50)), force(null)),
      col('r_nulls', new arrow.Int32(), runs(20, 200, () => (rng.chance(0.3) ? null : rng.int(0, 99))), force('lz4')),
    ],
    notes: 'Lance 12 "next" (2.3): RLE forced (rle-threshold 0.9, bss off) with compression lz4 / zstd / none: run values '
      + 'under General or OutOfLineBitpacking, run lengths of 8 or 16 bits.',
  };
  return [sparse, rle];
}

// The legacy v1 format: every type these writers take, nulls, several batches ("pages") per
// file, several fragments, deletions.
function legacy(h, tag, version, opts = {}) {
  const { arrow, Rng, sentence } = h;
  const F = (n, t, nullable = true) => new arrow.Field(n, t, nullable);
  const rng = new Rng(`${tag}-legacy`);
  const N = 1100;
  const nul = (p, f) => (rng.chance(p) ? null : f());
  const P = 300;  // prims: many columns, few rows (the batches are covered by the other tables)
  const ints = (bits, signed) => Array.from({ length: P }, () => nul(0.1, () => {
    const v = rng.int(0, 2 ** Math.min(bits, 30) - 1) - (signed ? 2 ** (Math.min(bits, 30) - 1) : 0);
    return bits === 64 ? BigInt(v) * (signed ? 3n : 5n) : v;
  }));
  const enc = new TextEncoder();
  const prims = {
    name: `${tag}_prims`, version, numRows: P, parts: [200, 100],
    cols: [
      { name: 'id', type: new arrow.Int32(), values: Array.from({ length: P }, (_, i) => i) },
      { name: 'i8', type: new arrow.Int8(), values: ints(8, true) },
      { name: 'u8', type: new arrow.Uint8(), values: ints(8, false) },
      { name: 'i16', type: new arrow.Int16(), values: ints(16, true) },
      { name: 'u16', type: new arrow.Uint16(), values: ints(16, false) },
      { name: 'i32', type: new arrow.Int32(), values: ints(32, true) },
      { name: 'u32', type: new arrow.Uint32(), values: ints(32, false) },
      { name: 'i64', type: new arrow.Int64(), values: ints(64, true) },
      { name: 'u64', type: new arrow.Uint64(), values: ints(64, false) },
      { name: 'f32', type: new arrow.Float32(), values: Array.from({ length: P }, () => nul(0.1, () => rng.int(-1e6, 1e6) / 64)) },
      { name: 'f64', type: new arrow.Float64(), values: Array.from({ length: P }, () => nul(0.1, () => rng.int(-1e9, 1e9) / 1024)) },
      { name: 'b', type: new arrow.Bool(), values: Array.from({ length: P }, () => nul(0.1, () => rng.chance(0.5))) },
      { name: 'd32', type: new arrow.DateDay(), values: Array.from({ length: P }, () => nul(0.1, () => rng.int(-20000, 40000))) },
      { name: 'ts', type: new arrow.TimestampMicrosecond(), values: Array.from({ length: P }, () => nul(0.1, () => BigInt(rng.int(0, 2e9)) * 1000000n + BigInt(rng.int(0, 999999)))) },
      { name: 'ts_tz', type: new arrow.Timestamp(arrow.TimeUnit.MILLISECOND, 'UTC'), values: Array.from({ length: P }, () => nul(0.1, () => BigInt(rng.int(0, 2e9)) * 1000n)) },
      { name: 't64', type: new arrow.TimeMicrosecond(), values: Array.from({ length: P }, () => nul(0.1, () => BigInt(rng.int(0, 86399)) * 1000000n)) },
      { name: 'dec', type: new arrow.Decimal(4, 12, 128), values: Array.from({ length: P }, () => nul(0.1, () => BigInt(rng.int(-1e9, 1e9)) * 1000n + BigInt(rng.int(0, 999)))) },
    ],
    notes: 'legacy v1: ints of every width, floats, bool, date32, timestamps, time64, decimal128, with nulls; two fragments (200 + 100 rows).',
  };
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
  const strs = Array.from({ length: N }, (_, i) => nul(0.1, () => `${sentence(rng, 0, 20)} ${i}`));
  strs[0] = ''; strs[1] = 'a,b "c"\n\td'; strs[2] = '\uFEFFbom';
  const strings = {
    name: `${tag}_strings`, version, numRows: N, parts: [N],
    cols: [
      { name: 'id', type: new arrow.Int32(), values: Array.from({ length: N }, (_, i) => i) },
      { name: 's', type: new arrow.Utf8(), values: strs },
      { name: 'ls', type: new arrow.LargeUtf8(), values: strs.map((s, i) => (s === null ? null : `${i % 5}:${s}`)) },
      { name: 'bin', type: new arrow.Binary(), values: strs.map((s) => (s === null ? null : enc.encode(s + '!'))) },
      { name: 'dict', type: new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32()), values: Array.from({ length: N }, () => nul(0.1, () => rng.pick(words))), extra: { dictValues: words } },
      { name: 'fsb', type: new arrow.FixedSizeBinary(3), values: Array.from({ length: N }, () => nul(0.1, () => Uint8Array.from([rng.int(0, 255), rng.int(0, 255), rng.int(0, 255)]))) },
    ],
    notes: 'legacy v1: utf8 (empty, special characters, BOM), large_utf8, binary, dictionary<utf8, int32>, fixed_size_binary[3], with nulls; 1024-row batches.',
  };
  const listOf = (item, maxLen = 4) => Array.from({ length: N }, () => {
    const r = rng.next();
    if (r < 0.1) return null;
    if (r < 0.2) return [];
    return Array.from({ length: rng.int(1, maxLen) }, item);
  });
  const nested = {
    name: `${tag}_nested`, version, numRows: N, parts: [N],
    cols: [
      { name: 'id', type: new arrow.Int32(), values: Array.from({ length: N }, (_, i) => i) },
      { name: 'l', type: new arrow.List(F('item', new arrow.Int32())), values: listOf(() => nul(0.1, () => rng.int(0, 999))) },
      { name: 'l_s', type: new arrow.List(F('item', new arrow.Utf8())), values: listOf(() => nul(0.1, () => rng.pick(words))) },
      { name: 'll', type: new arrow.List(F('item', new arrow.List(F('item', new arrow.Int64())))), values: listOf(() => nul(0.1, () => Array.from({ length: rng.int(0, 3) }, () => BigInt(rng.int(0, 99)))), 3) },
      { name: 's', type: new arrow.Struct([F('a', new arrow.Int32()), F('b', new arrow.Utf8())]), values: Array.from({ length: N }, () => nul(0.1, () => ({ a: nul(0.1, () => rng.int(0, 99)), b: nul(0.1, () => sentence(rng, 0, 8)) }))) },
      { name: 'v', type: new arrow.FixedSizeList(4, F('item', new arrow.Float32())), values: Array.from({ length: N }, () => nul(0.1, () => [0, 1, 2, 3].map(() => rng.int(-99, 99) / 4))) },
      { name: 'l_st', type: new arrow.List(F('item', new arrow.Struct([F('x', new arrow.Int32()), F('y', new arrow.Float64())]))), values: listOf(() => ({ x: rng.int(0, 9), y: rng.int(0, 99) / 2 }), 3) },
    ],
    notes: 'legacy v1: list<int32>, list<utf8>, list<list<int64>>, struct{a int32, b utf8}, fixed_size_list<float,4>, list<struct{x,y}>, with null and empty lists and null items.',
  };
  const frags = {
    name: `${tag}_frags`, version, numRows: 900, parts: [400, 300, 200], delete: 'id % 7 = 3 OR id = 450',
    cols: [
      { name: 'id', type: new arrow.Int64(), values: Array.from({ length: 900 }, (_, i) => BigInt(i)) },
      { name: 'name', type: new arrow.Utf8(), values: Array.from({ length: 900 }, (_, i) => (i % 11 === 0 ? null : `row ${i}`)) },
      { name: 'vec', type: new arrow.FixedSizeList(2, F('item', new arrow.Float32())), values: Array.from({ length: 900 }, (_, i) => [i / 2, -i]) },
    ],
    notes: 'legacy v1: three fragments (400 + 300 + 200 rows), rows with id % 7 = 3 and id 450 deleted (deletion files).',
  };
  // apache-arrow 14 (vectordb) has no large_utf8
  const keep = (c) => !(opts.noLarge && c.type.typeId === arrow.Type.LargeUtf8);
  return [prims, strings, nested, frags].map((t) => ({ ...t, cols: t.cols.filter(keep) }));
}

const TABLES = {
  'lancedb-0.23.0': (h) => fslNull(h, 'l1_0', ['2.1', '2.2']),
  'lancedb-0.26.2': (h) => fslNull(h, 'l2_0', ['2.1', '2.2']),
  'lancedb-0.39.0': (h) => next23(h),
  'lancedb-0.12.0': (h) => legacy(h, 'l0_19', 'legacy'),
  'vectordb-0.4.20': (h) => legacy(h, 'l0_10', undefined, { noLarge: true }),
};

// ---------------------------------------------------------------------------------------------

const args = process.argv.slice(2);
if (args[0] === '--child') {
  await child(args[1], args[2]);
} else {
  const i = args.indexOf('--only');
  parent(i >= 0 ? new Set(args[i + 1].split(',')) : null);
}
