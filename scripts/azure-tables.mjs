// The Azure Blob Storage of the Azure tests (tests/azure/, scripts/azure-fixture.sh): containers
// in a running Azurite, files uploaded into them, and tables written by LanceDB itself, with
// goldens read back through LanceDB (Lance's reader).
//
//   node azure-tables.mjs ENDPOINT OUTDIR
//
// ENDPOINT is Azurite's blob service, e.g. http://127.0.0.1:10000. Accounts (Azurite's
// AZURITE_ACCOUNTS): devstoreaccount1 with the well-known emulator key, and lanceacct with
// LANCE_AZ_KEY. Writes OUTDIR/golden/*.jsonl and OUTDIR/tables.json (rows, versions, take
// offsets, a service SAS of container "lance" of lanceacct).
//
// Containers:
//   devstoreaccount1/lance   LanceDB tables through azure_storage_use_emulator (db/emu.lance)
//   lanceacct/lance          LanceDB tables through a shared key (db/events21.lance: format 2.1,
//                            two appends and a delete; db/events20.lance: format 2.0), and
//                            uploaded unchanged: data/sample/products.lance (a single data file),
//                            data/datasets/know/{indexed,history} (indices, tags, transactions)
//   lanceacct/public         anonymous read (container access level): products.lance
//
// The Shared Key and service SAS signing below follow the Azure Storage REST API documents
// "Authorize with Shared Key" and "Create a service SAS"; lance-cli has its own in C++ (the
// point of the tests is that the two agree with Azurite, which implements the service side).
import { createRequire } from 'node:module';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { makeTable, renderTable, renderGoldens, Rng, sentence } from './gen-fixtures.mjs';

const require = createRequire(import.meta.url);
const arrow = require('apache-arrow');
const lancedb = require('@lancedb/lancedb');

const HERE = path.dirname(fileURLToPath(import.meta.url));
const EMU_ACCOUNT = 'devstoreaccount1';
const EMU_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
const ACCOUNT = 'lanceacct';
const KEY = process.env.LANCE_AZ_KEY;
const VERSION = '2021-08-06';

/// Authorization header value of a Shared Key request (Blob service, version 2015-02-21 or later).
function sharedKey(account, key, method, url, headers) {
  const u = new URL(url);
  const h = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
  const std = ['content-encoding', 'content-language', 'content-length', 'content-md5', 'content-type', 'date',
    'if-modified-since', 'if-match', 'if-none-match', 'if-unmodified-since', 'range'];
  const lines = [method, ...std.map((n) => (n === 'content-length' && h[n] === '0' ? '' : h[n] ?? ''))];
  const xms = Object.keys(h).filter((k) => k.startsWith('x-ms-')).sort().map((k) => `${k}:${h[k]}\n`).join('');
  // The account's path segment (Azurite's path-style URLs) is part of the path, after "/account".
  let resource = `/${account}${u.pathname}`;
  const params = [...u.searchParams.keys()].map((k) => k.toLowerCase()).sort();
  for (const k of [...new Set(params)]) resource += `\n${k}:${u.searchParams.getAll(k).join(',')}`;
  const toSign = lines.join('\n') + '\n' + xms + resource;
  return `SharedKey ${account}:${crypto.createHmac('sha256', Buffer.from(key, 'base64')).update(toSign, 'utf8').digest('base64')}`;
}

async function request(account, key, method, url, headers = {}, body = undefined) {
  const h = { 'x-ms-date': new Date().toUTCString(), 'x-ms-version': VERSION, ...headers };
  if (body !== undefined) h['content-length'] = String(body.length);
  else if (method === 'PUT') h['content-length'] = '0';
  h.authorization = sharedKey(account, key, method, url, h);
  const resp = await fetch(url, { method, headers: h, body });
  if (!resp.ok && resp.status !== 409) throw new Error(`${method} ${url}: HTTP ${resp.status} ${await resp.text()}`);
}

/// A service SAS of a whole container (sr=c), version 2020-12-06 layout ("Create a service SAS").
function containerSas(account, key, container, permissions, expiry) {
  const sv = '2020-12-06';
  const fields = [permissions, '', expiry, `/blob/${account}/${container}`, '', '', 'http,https', sv, 'c', '', '',
    '', '', '', '', ''];
  const sig = crypto.createHmac('sha256', Buffer.from(key, 'base64')).update(fields.join('\n'), 'utf8').digest('base64');
  const q = new URLSearchParams({ sv, spr: 'http,https', se: expiry, sr: 'c', sp: permissions, sig });
  return q.toString();
}

function batch(tag, start, n) {
  const rng = new Rng(`azure-${tag}-${start}`);
  const F = (name, type) => new arrow.Field(name, type, true);
  return makeTable([
    { name: 'id', type: new arrow.Int64(), values: Array.from({ length: n }, (_, i) => BigInt(start + i)), nullable: false },
    { name: 'name', type: new arrow.Utf8(), values: Array.from({ length: n }, () => sentence(rng, 1, 6)) },
    { name: 'score', type: new arrow.Float64(), values: Array.from({ length: n }, () => (rng.chance(0.1) ? null : rng.int(-1e6, 1e6) / 128)) },
    { name: 'tags', type: new arrow.List(F('item', new arrow.Utf8())), values: Array.from({ length: n }, () => (rng.chance(0.1) ? null : Array.from({ length: rng.int(0, 3) }, () => sentence(rng, 1, 1)))) },
  ], n);
}

async function render(tbl, t) {
  const schema = t.schema.fields.length ? t.schema : await tbl.schema();
  const names = schema.fields.map((f) => f.name);
  return renderGoldens(names, renderTable(names, t), t.numRows).jsonl;
}

/// Writes table NAME (create, append, delete, append) and its goldens; returns its tables.json entry.
async function writeTable(db, name, storageVersion, out) {
  const tbl = await db.createTable(name, batch(name, 0, 1500), { mode: 'overwrite', storageOptions: { new_table_data_storage_version: storageVersion } });
  await tbl.add(batch(name, 1500, 700));
  await tbl.delete('id % 7 = 3');
  await tbl.add(batch(name, 2200, 300));
  const rows = await tbl.countRows();
  const offsets = [0, 1, 1285, 1286, 1900, rows - 1, 77, 2000].filter((o) => o < rows).sort((a, b) => a - b);
  fs.writeFileSync(path.join(out, 'golden', `${name}.jsonl`), await render(tbl, await tbl.query().toArrow()));
  fs.writeFileSync(path.join(out, 'golden', `${name}-take.jsonl`), await render(tbl, await tbl.takeOffsets(offsets).toArrow()));
  const version = await tbl.version();
  await tbl.checkout(1);
  fs.writeFileSync(path.join(out, 'golden', `${name}-version1.jsonl`), await render(tbl, await tbl.query().toArrow()));
  return { name, storage_version: storageVersion, rows, latest_version: version, take_offsets: offsets };
}

async function main() {
  const [endpoint, out] = process.argv.slice(2);
  if (!endpoint || !out || !KEY) {
    console.error('usage: LANCE_AZ_KEY=BASE64 node azure-tables.mjs ENDPOINT OUTDIR');
    process.exit(2);
  }
  fs.mkdirSync(path.join(out, 'golden'), { recursive: true });
  const acct = `${endpoint}/${ACCOUNT}`;
  await request(EMU_ACCOUNT, EMU_KEY, 'PUT', `${endpoint}/${EMU_ACCOUNT}/lance?restype=container`);
  await request(ACCOUNT, KEY, 'PUT', `${acct}/lance?restype=container`);
  await request(ACCOUNT, KEY, 'PUT', `${acct}/public?restype=container`, { 'x-ms-blob-public-access': 'container' });
  const put = (c, rel) => request(ACCOUNT, KEY, 'PUT', `${acct}/${c}/${rel}`, { 'x-ms-blob-type': 'BlockBlob' },
    fs.readFileSync(path.join(HERE, '..', rel)));
  for (const c of ['lance', 'public']) await put(c, 'data/sample/products.lance');
  for (const ds of ['data/datasets/know/indexed', 'data/datasets/know/history'])
    for (const f of fs.readdirSync(path.join(HERE, '..', ds), { recursive: true }))
      if (fs.statSync(path.join(HERE, '..', ds, f)).isFile()) await put('lance', `${ds}/${f}`);

  const db = await lancedb.connect(`az://lance/db`, { storageOptions: {
    azure_storage_account_name: ACCOUNT, azure_storage_account_key: KEY, azure_storage_endpoint: acct, allow_http: 'true' } });
  const tables = [await writeTable(db, 'events21', '2.1', out), await writeTable(db, 'events20', '2.0', out)];

  // The emulator's defaults (object_store: AZURITE_BLOB_STORAGE_URL, account devstoreaccount1).
  process.env.AZURITE_BLOB_STORAGE_URL = endpoint;
  const emu = await lancedb.connect(`az://lance/db`, { storageOptions: {
    azure_storage_use_emulator: 'true', azure_storage_account_name: EMU_ACCOUNT } });
  const t = await emu.createTable('emu', batch('emu', 0, 321), { mode: 'overwrite' });
  fs.writeFileSync(path.join(out, 'golden', 'emu.jsonl'), await render(t, await t.query().toArrow()));

  const expiry = new Date(Date.now() + 24 * 3600 * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  fs.writeFileSync(path.join(out, 'tables.json'), JSON.stringify({
    generator: 'scripts/azure-tables.mjs', lance: '@lancedb/lancedb 0.31.0',
    tables, emu_rows: await t.countRows(),
    sas: containerSas(ACCOUNT, KEY, 'lance', 'rl', expiry),
    sas_read_only: containerSas(ACCOUNT, KEY, 'lance', 'r', expiry) }, null, 2) + '\n');
  console.error(`azure-tables: ${tables.map((x) => `${x.name} ${x.rows} rows v${x.latest_version}`).join(', ')}`);
}

main().catch((e) => { console.error(e); process.exit(1); });
