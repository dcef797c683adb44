// lance-cli and Lance reading the same s3:// tables through the latency proxy (scripts/delayproxy.mjs,
// +25 ms each way), one-shot (open + query), for the README's object-storage table.
//
//   node bench-s3.mjs RGW_ENDPOINT PROXY_ENDPOINT [--reps 3]
// Writes (once) s3://lance/bench/{scalars,vectors}.lance with LanceDB through RGW_ENDPOINT, then times
// scan and take of 2048 rows through PROXY_ENDPOINT. Credentials: RGW_ACCESS_KEY / RGW_SECRET_KEY.
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const arrow = require('apache-arrow');
const lancedb = require('@lancedb/lancedb');
const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(HERE, '..', 'build', 'lance-cli');
const [rgw, proxy] = process.argv.slice(2);
const reps = Number(process.argv[process.argv.indexOf('--reps') + 1] || 3) || 3;
const KEY = process.env.RGW_ACCESS_KEY || 'LCKEY', SECRET = process.env.RGW_SECRET_KEY || 'LCSECRET';
const opts = (ep) => ({ storageOptions: { aws_endpoint: ep, allow_http: 'true', aws_access_key_id: KEY, aws_secret_access_key: SECRET, aws_region: 'us-east-1' } });

function scalars(start, n) {
  return arrow.tableFromArrays({
    id: BigInt64Array.from({ length: n }, (_, i) => BigInt(start + i)),
    x: Float64Array.from({ length: n }, (_, i) => Math.sin(start + i)),
    k: Int32Array.from({ length: n }, (_, i) => (start + i) % 1000),
    s: Array.from({ length: n }, (_, i) => `row-${(start + i) * 7919 % 100003}`),
  });
}
function vectors(start, n) {
  const data = Float32Array.from({ length: n * 128 }, (_, i) => Math.cos(start * 128 + i));
  const child = arrow.makeData({ type: new arrow.Float32(), length: n * 128, data });
  const type = new arrow.FixedSizeList(128, new arrow.Field('item', new arrow.Float32(), true));
  const vec = arrow.makeVector(arrow.makeData({ type, length: n, nullCount: 0, child }));
  return new arrow.Table({ id: arrow.vectorFromArray(Array.from({ length: n }, (_, i) => start + i), new arrow.Int32()), vec });
}
const TABLES = { scalars: { make: scalars, frags: 8, rows: 125000 }, vectors: { make: vectors, frags: 4, rows: 10000 } };

async function ensure() {
  const db = await lancedb.connect('s3://lance/bench', opts(rgw));
  const have = await db.tableNames();
  for (const [name, t] of Object.entries(TABLES)) {
    if (have.includes(name)) continue;
    const tbl = await db.createTable(name, t.make(0, t.rows));
    for (let f = 1; f < t.frags; f++) await tbl.add(t.make(f * t.rows, t.rows));
  }
}

const offsets = (n) => Array.from({ length: 2048 }, (_, i) => Math.floor((i * 2654435761) % n)).sort((a, b) => a - b)
  .filter((v, i, a) => i === 0 || v !== a[i - 1]);

async function lance(name, mode, offs) {
  const t0 = performance.now();
  const db = await lancedb.connect('s3://lance/bench', opts(proxy));
  const tbl = await db.openTable(name);
  const r = mode === 'scan' ? await tbl.query().toArrow() : await tbl.takeOffsets(offs).toArrow();
  return [(performance.now() - t0) / 1000, r.numRows];
}
function cli(name, mode, offs) {
  const env = { ...process.env, AWS_ACCESS_KEY_ID: KEY, AWS_SECRET_ACCESS_KEY: SECRET, AWS_ENDPOINT_URL: proxy, AWS_ALLOW_HTTP: 'true', AWS_REGION: 'us-east-1' };
  const args = mode === 'scan' ? ['scan', `s3://lance/bench/${name}.lance`, '-f', 'null', '--stats=json', '-q']
                               : ['take', `s3://lance/bench/${name}.lance`, '--rows', offs.join(','), '-f', 'null', '--stats=json', '-q'];
  const t0 = performance.now();
  const p = spawnSync(CLI, args, { env, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
  if (p.status !== 0) throw new Error(`lance-cli ${args.join(' ')}: ${p.stderr}`);
  const out = p.stderr.toString();
  const st = JSON.parse(out.trim().split('\n').pop());
  return [(performance.now() - t0) / 1000, st.rows_out, st.http_requests];
}
const median = (a) => a.sort((x, y) => x - y)[a.length >> 1];

await ensure();
console.log('| table | workload | Lance 8.0 (s) | lance-cli (s) | ratio | lance-cli requests |');
console.log('|---|---|---:|---:|---:|---:|');
for (const [name, t] of Object.entries(TABLES)) {
  const offs = offsets(t.rows * t.frags);
  for (const mode of ['scan', 'take']) {
    const l = [], c = [];
    let req = 0, rows = 0, lrows = 0;
    for (let i = 0; i < reps; i++) {
      const [lt, ln] = await lance(name, mode, offs); l.push(lt); lrows = ln;
      const [ct, cn, cr] = cli(name, mode, offs); c.push(ct); req = cr; rows = cn;
    }
    if (rows !== lrows) throw new Error(`${name} ${mode}: lance-cli ${rows} rows, Lance ${lrows}`);
    const lm = median(l), cm = median(c);
    console.log(`| ${name} | ${mode}${mode === 'take' ? ` ${offs.length} rows` : ''} | ${lm.toFixed(3)} | ${cm.toFixed(3)} | ${(cm / lm).toFixed(2)} | ${req} |`);
  }
}
