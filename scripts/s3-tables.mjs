// Tables written by LanceDB itself into an S3-compatible store (tests/s3/, scripts/s3-fixture.sh).
//
//   node s3-tables.mjs write  ENDPOINT BUCKET   LanceDB writes the tables into s3://BUCKET/db/
//   node s3-tables.mjs golden ENDPOINT BUCKET   writes them, then reads them back through LanceDB
//                                               (Lance's reader) into data/golden/s3_*.jsonl and
//                                               data/golden/s3_tables.json (take offsets, versions)
// ENDPOINT is e.g. http://127.0.0.1:7480; credentials from RGW_ACCESS_KEY / RGW_SECRET_KEY
// (default LCKEY / LCSECRET, as scripts/rgw-up.sh). The data is deterministic (seeded), so the
// tables written by `write` at test time read the same as the committed goldens.
//
// Table `events` (Lance 8.0, format 2.1): v1 create 2000 rows, v2 append 1000, v3 delete
// id % 5 = 2 (a deletion file per fragment), v4 append 500. Columns id int64 not null,
// name utf8, score float64 (nullable), tags list<utf8>, vec fixed_size_list<float32, 8>.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { makeTable, renderTable, renderGoldens, Rng, sentence } from './gen-fixtures.mjs';

const require = createRequire(import.meta.url);
const arrow = require('apache-arrow');
const lancedb = require('@lancedb/lancedb');

const HERE = path.dirname(fileURLToPath(import.meta.url));
const GOLDEN = path.resolve(HERE, '..', 'data', 'golden');
const F = (name, type, nullable = true) => new arrow.Field(name, type, nullable);

function batch(start, n) {
  const rng = new Rng(`s3-events-${start}`);
  return makeTable([
    { name: 'id', type: new arrow.Int64(), values: Array.from({ length: n }, (_, i) => BigInt(start + i)), nullable: false },
    { name: 'name', type: new arrow.Utf8(), values: Array.from({ length: n }, () => sentence(rng, 1, 6)) },
    { name: 'score', type: new arrow.Float64(), values: Array.from({ length: n }, () => (rng.chance(0.1) ? null : rng.int(-1e6, 1e6) / 128)) },
    { name: 'tags', type: new arrow.List(F('item', new arrow.Utf8())), values: Array.from({ length: n }, () => (rng.chance(0.1) ? null : Array.from({ length: rng.int(0, 4) }, () => sentence(rng, 1, 1)))) },
    { name: 'vec', type: new arrow.FixedSizeList(8, F('item', new arrow.Float32())), values: Array.from({ length: n }, () => Array.from({ length: 8 }, () => rng.int(-4096, 4096) / 64)) },
  ], n);
}

async function writeTables(endpoint, bucket) {
  const db = await lancedb.connect(`s3://${bucket}/db`, { storageOptions: {
    aws_endpoint: endpoint, allow_http: 'true', aws_region: 'us-east-1',
    aws_access_key_id: process.env.RGW_ACCESS_KEY || 'LCKEY',
    aws_secret_access_key: process.env.RGW_SECRET_KEY || 'LCSECRET' } });
  const names = await db.tableNames();
  if (names.includes('events')) await db.dropTable('events');
  const tbl = await db.createTable('events', batch(0, 2000), { storageOptions: { new_table_data_storage_version: '2.1' } });
  await tbl.add(batch(2000, 1000));
  await tbl.delete('id % 5 = 2');
  await tbl.add(batch(3000, 500));
  return tbl;
}

async function render(tbl, t) {
  const schema = t.schema.fields.length ? t.schema : await tbl.schema();
  const names = schema.fields.map((f) => f.name);
  return renderGoldens(names, renderTable(names, t), t.numRows).jsonl;
}

async function main() {
  const [mode, endpoint, bucket] = process.argv.slice(2);
  if (!['write', 'golden'].includes(mode) || !endpoint || !bucket) {
    console.error('usage: node s3-tables.mjs write|golden ENDPOINT BUCKET');
    process.exit(2);
  }
  const tbl = await writeTables(endpoint, bucket);
  if (mode === 'write') return;
  const version = await tbl.version();
  const rows = await tbl.countRows();
  const offsets = [0, 1, 2, 1599, 1600, 1601, 2399, 2400, 2401, rows - 1, 123, 1777, 2555].filter((o) => o < rows);
  offsets.sort((a, b) => a - b);
  fs.writeFileSync(path.join(GOLDEN, 's3_events.jsonl'), await render(tbl, await tbl.query().toArrow()));
  fs.writeFileSync(path.join(GOLDEN, 's3_events-take.jsonl'), await render(tbl, await tbl.takeOffsets(offsets).toArrow()));
  await tbl.checkout(1);
  fs.writeFileSync(path.join(GOLDEN, 's3_events-version1.jsonl'), await render(tbl, await tbl.query().toArrow()));
  fs.writeFileSync(path.join(GOLDEN, 's3_tables.json'), JSON.stringify({
    generator: 'scripts/s3-tables.mjs', lance: '@lancedb/lancedb 0.31.0 (Lance 8.0)',
    tables: [{ name: 'events', uri: `s3://BUCKET/db/events.lance`, latest_version: version, rows,
               golden: 'golden/s3_events.jsonl', version1_golden: 'golden/s3_events-version1.jsonl',
               take_offsets: offsets, take_golden: 'golden/s3_events-take.jsonl' }] }, null, 2) + '\n');
  console.error(`events: version ${version}, ${rows} rows`);
}

main().catch((e) => { console.error(e); process.exit(1); });
