// Writes the small Arrow IPC test files under data/arrow/ (run from scripts/: node gen-arrow-testfiles.mjs).
//
//   lance-deletions-1000-step7.arrow  a real Lance deletion file: a 1000-row table written by Lance 8.0
//                                      (@lancedb/lancedb 0.31.0), then `delete("id % 7 = 3")`; Lance writes
//                                      the deleted row offsets as an Arrow IPC file (one UInt32 column
//                                      `row_id`, ZSTD body compression). Expected values: 3, 10, 17, ...
//   arrowjs-int64-2batches.arrow       an Arrow IPC file written by apache-arrow 18.1.0: column `v` (int64,
//                                      values 0..9 then 100..104 in two record batches) and `s` (utf8).
// Both are tiny; tests/test_arrow_ipc.cpp reads them.

import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const arrow = require('apache-arrow');
const lancedb = require('@lancedb/lancedb');

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.resolve(HERE, '..', 'data', 'arrow');
fs.mkdirSync(OUT, { recursive: true });

async function lanceDeletions() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lance-deletions-'));
  try {
    const db = await lancedb.connect(dir);
    const ids = Array.from({ length: 1000 }, (_, i) => i);
    const table = arrow.tableFromArrays({ id: Int32Array.from(ids) });
    const tbl = await db.createTable('t', table, { storageOptions: { new_table_data_storage_version: '2.1' } });
    await tbl.delete('id % 7 = 3');
    const delDir = path.join(dir, 't.lance', '_deletions');
    const files = fs.readdirSync(delDir);
    if (files.length !== 1 || !files[0].endsWith('.arrow')) throw new Error(`unexpected deletion files ${files}`);
    fs.copyFileSync(path.join(delDir, files[0]), path.join(OUT, 'lance-deletions-1000-step7.arrow'));
    console.log(`lance deletion file ${files[0]}: ${fs.statSync(path.join(delDir, files[0])).size} bytes`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function arrowJsFile() {
  const utf8 = (values) => arrow.vectorFromArray(values, new arrow.Utf8());
  const b1 = new arrow.Table({
    v: arrow.makeVector(BigInt64Array.from(Array.from({ length: 10 }, (_, i) => BigInt(i)))),
    s: utf8(Array.from({ length: 10 }, (_, i) => `s${i}`)),
  });
  const b2 = new arrow.Table({
    v: arrow.makeVector(BigInt64Array.from([100n, 101n, 102n, 103n, 104n])),
    s: utf8(['a', 'b', 'c', 'd', 'e']),
  });
  const t = b1.concat(b2);
  if (t.batches.length !== 2) throw new Error('expected two record batches');
  fs.writeFileSync(path.join(OUT, 'arrowjs-int64-2batches.arrow'), arrow.tableToIPC(t, 'file'));
}

await lanceDeletions();
arrowJsFile();
