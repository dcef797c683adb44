#!/usr/bin/env node
// Filter goldens: LanceDB (@lancedb/lancedb 0.31.0 = Lance 8.0) writes one small table per
// storage version (2.0, 2.1, 2.2: three fragments, deletions) into data/filters/<version>/,
// and answers every expression of EXPRESSIONS with `query().where(e)` and `countRows(e)`; an
// expression Lance rejects is recorded with Lance's message. Goldens go to
// data/filters/goldens.json: { expressions: [{ expr, accepted, count, ids | error }] } (the
// ids of the matching rows in Lance's order; every version must give the same), and every
// row of each table to data/filters/rows-<version>.jsonl, rendered as data/golden renders
// them (scripts/gen-fixtures.mjs): a matching row's expected text is its line there.
// Each version also gets an indexed copy, data/filters/<version>_indexed/: the same rows,
// with the scalar indices of INDICES over its first two fragments and the third appended
// after them; Lance's answers there must equal the unindexed ones (those that do not are
// listed in `indexed_differs`, and the ones whose plan used an index in `answered_by_index`).
//
//   cd scripts && node gen-filters.mjs            (rewrites data/filters/)
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { makeTable, renderTable, renderGoldens, Rng } from './gen-fixtures.mjs';

const require = createRequire(import.meta.url);
const lancedb = require('@lancedb/lancedb');
const arrow = require('apache-arrow');
const F = (name, type, nullable = true) => new arrow.Field(name, type, nullable);

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(HERE, '..', 'data', 'filters');
const VERSIONS = ['2.0', '2.1', '2.2'];

const NAMES = ['alpha', 'beta', 'Alpha', "O'Brien", 'say "hi"', '日本語', 'naïve café', '100%', 'under_score',
  'back\\slash', '', 'zeta', 'ab', 'b', 'emoji 😀', 'a_b', 'a%b', 'ALPHA'];
const CATS = ['red', 'blue', 'green', 'cyan', 'magenta', 'yellow', 'black', 'white', 'orange', 'purple', 'brown', 'grey'];
const TAGS = ['a', 'b', 'c', 'd', 'x y', 'ü'];

function batch(start, n) {
  const rng = new Rng(`filters-${start}`);
  const nul = (p, v) => (rng.chance(p) ? null : v);
  const ids = Array.from({ length: n }, (_, i) => start + i);
  return makeTable([
    { name: 'id', type: new arrow.Int64(), values: ids.map(BigInt), nullable: false },
    { name: 'i32', type: new arrow.Int32(), values: ids.map(() => nul(0.1, rng.int(-50, 50))) },
    { name: 'u8', type: new arrow.Uint8(), values: ids.map(() => rng.int(0, 255)) },
    { name: 'f64', type: new arrow.Float64(), values: ids.map((i) => (i === 7 || i === 150 ? NaN : nul(0.1, rng.int(-4000, 4000) / 16))) },
    { name: 'name', type: new arrow.Utf8(), values: ids.map(() => nul(0.1, rng.pick(NAMES))) },
    { name: 'cat', type: new arrow.Utf8(), values: ids.map((i) => CATS[i % CATS.length]) },
    { name: 'flag', type: new arrow.Bool(), values: ids.map(() => nul(0.15, rng.chance(0.5))) },
    { name: 'd', type: new arrow.DateDay(), values: ids.map(() => nul(0.1, 18500 + rng.int(0, 900))) },
    { name: 'ts', type: new arrow.Timestamp(arrow.TimeUnit.MICROSECOND), values: ids.map(() => nul(0.1, BigInt(1609459200 + rng.int(0, 3 * 365 * 86400)) * 1000000n + BigInt(rng.int(0, 999999)))) },
    { name: 'tags', type: new arrow.List(F('item', new arrow.Utf8())), values: ids.map(() => nul(0.1, Array.from({ length: rng.int(0, 3) }, () => rng.pick(TAGS)))) },
    { name: 'st', type: new arrow.Struct([F('a', new arrow.Int32()), F('b', new arrow.Utf8())]), values: ids.map(() => nul(0.1, { a: nul(0.1, rng.int(0, 20)), b: nul(0.1, rng.pick(['x', 'y', 'z'])) })) },
  ], n);
}

// Accepted and rejected alike: Lance's answer decides which it is.
const EXPRESSIONS = [
  'id = 5', 'id != 5', 'id <> 5', 'id < 10', 'id >= 190', 'id = 5.0', 'id > 4.5', 'id = \'5\'',
  'i32 > 0', 'i32 <= -10', 'i32 = 0', 'i32 IS NULL', 'i32 IS NOT NULL', 'i32 IN (1, 2, 3)', 'i32 NOT IN (1, 2, 3)',
  'i32 IN (1, NULL)', 'i32 NOT IN (1, NULL)', 'i32 BETWEEN -5 AND 5', 'i32 NOT BETWEEN -5 AND 5', 'u8 > 200', 'u8 + 100 > 300',
  'f64 > 100', 'f64 < 0', 'f64 IS NULL', 'f64 = 0', 'f64 >= -0.5 AND f64 <= 0.5', 'f64 > 1e2', 'f64 != f64',
  "name = 'alpha'", "name = 'O''Brien'", "name = '日本語'", "name = 'say \"hi\"'", "name = ''", "name != 'alpha'",
  "name < 'b'", "name >= 'zeta'", "name LIKE 'a%'", "name LIKE '%a%'", "name LIKE '_b'", "name LIKE 'a\\_b'",
  "name LIKE 'a\\%b'", "name LIKE '100\\%'", "name NOT LIKE '%a%'", "name ILIKE 'alpha'", "name LIKE 'a$_b' ESCAPE '$'",
  "name IN ('alpha', 'beta')", "name NOT IN ('alpha', 'beta')", "name LIKE '%\\\\%'", "name LIKE 'na_ve%'",
  "cat = 'red'", "cat IN ('red', 'blue') AND i32 > 0", "NOT (cat = 'red')", "cat = 'red' OR i32 IS NULL",
  "cat = 'red' AND NOT flag", "(cat = 'red' OR cat = 'blue') AND (i32 > 10 OR i32 < -10)",
  'flag', 'flag = true', 'NOT flag', 'flag IS TRUE', 'flag IS NOT FALSE', 'flag IS NOT TRUE', 'flag AND i32 > 0', 'flag OR i32 > 40',
  "d > date '2021-03-04'", "d BETWEEN date '2021-01-01' AND date '2021-06-30'", "d = date '2021-01-01'", "d < '2021-01-01'",
  "ts >= timestamp '2022-01-01 00:00:00'", "ts < timestamp '2021-06-01 12:30:00'", "ts > '2023-01-01'", "ts > date '2023-06-01'",
  'id % 3 = 0', 'id * 2 + 1 > 300', 'i32 / 2 = 5', 'i32 % 5 = -1', '-i32 > 10', 'id - 100 BETWEEN 0 AND 10', 'i32 * 1.5 > 30',
  'id BETWEEN 10 AND 20', 'id NOT BETWEEN 10 AND 190',
  'st.a > 5', "st.b = 'x'", 'st.a IS NULL', 'st IS NULL', 'st.a + i32 > 30',
  "array_has_any(tags, ['a', 'b'])", "array_has_all(tags, ['a', 'b'])", "array_contains(tags, 'a')", "array_has(tags, 'ü')",
  "lower(name) = 'alpha'", "upper(cat) = 'RED'", 'length(name) > 5', 'character_length(name) = 3', "starts_with(name, 'al')",
  "ends_with(name, 'a')", "regexp_like(name, '^a.*a$')", "lower(name) LIKE '%ï%'", 'octet_length(name) > 8', "concat(cat, '-x') = 'red-x'",
  "substr(name, 1, 2) = 'al'", 'abs(i32) > 45', "trim(name) = 'alpha'", "replace(cat, 'e', 'E') = 'rEd'",
  'CAST(i32 AS DOUBLE) > 1.5', "CAST(id AS STRING) = '12'", "CAST(id AS VARCHAR) LIKE '1%'", 'CAST(f64 AS INT) = 3', 'CAST(u8 AS BIGINT) > 250',
  '"cat" = \'red\'', "`cat` = 'red'", 'i32 > 1.5', '(i32 > 0) = true', 'i32 IS NULL OR f64 IS NULL', 'NOT (i32 > 0)', 'NOT NOT flag',
  'true', 'false', 'NULL', 'i32 > NULL', 'id < 10 AND id > 20',
  // what the indexed copies' indices answer, over indexed and appended fragments
  'u8 = 17', 'u8 IN (3, 200, 255)', 'u8 BETWEEN 10 AND 20', 'flag = false', 'flag IS NULL', 'name IS NULL', "name IN ('alpha', 'zeta')",
  'd IS NULL', "cat = 'nosuchcat'", 'id IN (3, 4, 90, 160, 199)', 'ts IS NULL', "cat != 'red'", "i32 >= 48 OR cat = 'grey'",
  "array_has_any(tags, ['x y'])", "array_has_all(tags, ['ü'])", "cat > 'r'", "cat = 'red' AND id > 100", 'i32 IN (5, NULL)',
  "name >= 'b' AND name < 'c'", 'f64 BETWEEN -10 AND 10', 'id >= 75 AND id < 85', 'u8 IS NULL', "array_has_any(tags, ['nope'])",
  // expected to be rejected
  'id =', 'nosuch = 1', "nam = 'x'", 'foo(id) = 1', 'id LIKE', "tags = 'a'", "flag > 'abc'", 'id = = 1', "cat = 'unterminated",
  'st.nosuch = 1', 'ID = 5', '(id > 1', 'id > 1)', '',
];

// The indexed copies' indices: one per column, as LanceDB names the kinds.
const INDICES = [
  ['id', function BTREE() { return lancedb.Index.btree(); }],
  ['i32', function BTREE() { return lancedb.Index.btree(); }],
  ['f64', function BTREE() { return lancedb.Index.btree(); }],
  ['name', function BTREE() { return lancedb.Index.btree(); }],
  ['d', function BTREE() { return lancedb.Index.btree(); }],
  ['ts', function BTREE() { return lancedb.Index.btree(); }],
  ['u8', function BITMAP() { return lancedb.Index.bitmap(); }],
  ['cat', function BITMAP() { return lancedb.Index.bitmap(); }],
  ['flag', function BITMAP() { return lancedb.Index.bitmap(); }],
  ['tags', function LABEL_LIST() { return lancedb.Index.labelList(); }],
];
const indexed = new Set();
const differs = [];

function sameShape(a, b) {
  const strip = (x) => { const y = { ...x }; delete y.expr; return JSON.stringify(y); };
  return strip(a) === strip(b);
}

/// Lance's answer to `expr`: the ids of the matching rows in the order Lance returns them,
/// their count (countRows, which must agree), or Lance's error.
async function answer(tbl, expr) {
  let t;
  try {
    t = await tbl.query().where(expr).select(['id']).toArrow();
  } catch (e) {
    return { expr, accepted: false, error: String(e.message).split('\n')[0].slice(0, 300) };
  }
  const count = await tbl.countRows(expr);
  const ids = t.numRows ? Array.from(t.getChild('id').toArray(), Number) : [];
  if (count !== ids.length) throw new Error(`countRows ${count} != rows ${ids.length} for ${expr}`);
  return { expr, accepted: true, count, ids };
}

/// Every row of the table as Lance reads it, as the goldens of data/golden render them.
async function fullJsonl(tbl) {
  const t = await tbl.query().toArrow();
  const names = t.schema.fields.map((f) => f.name);
  return renderGoldens(names, renderTable(names, t), t.numRows).jsonl;
}

async function main() {
  fs.rmSync(OUT, { recursive: true, force: true });
  let golden = null;
  for (const version of VERSIONS) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'filters-'));
    const db = await lancedb.connect(tmp);
    const tbl = await db.createTable('t', batch(0, 80), { storageOptions: { new_table_data_storage_version: version } });
    await tbl.add(batch(80, 70));
    await tbl.add(batch(150, 50));
    await tbl.delete('id % 11 = 4');
    const answers = [];
    for (const e of EXPRESSIONS) answers.push(await answer(tbl, e));
    // The indexed copy: the same rows, with scalar indices over the first two fragments and
    // an unindexed third fragment appended after them; the deletions come after the indices.
    const ti = await db.createTable('ti', batch(0, 80), { storageOptions: { new_table_data_storage_version: version } });
    await ti.add(batch(80, 70));
    for (const [column, config] of INDICES) await ti.createIndex(column, { config: config() });
    await ti.add(batch(150, 50));
    await ti.delete('id % 11 = 4');
    for (let i = 0; i < EXPRESSIONS.length; i++) {
      const got = await answer(ti, EXPRESSIONS[i]);
      const plan = got.accepted ? await ti.query().where(EXPRESSIONS[i]).select(['id']).explainPlan() : '';
      if (/ScalarIndexQuery|MaterializeIndex|index_input|ScalarIndex/.test(plan)) indexed.add(EXPRESSIONS[i]);
      if (!sameShape(got, answers[i]))
        differs.push({ version, expr: EXPRESSIONS[i], unindexed: answers[i], indexed: got });
    }
    if (golden === null) golden = answers.map((a) => ({ ...a }));
    // an answer that differs from 2.0's (a struct's nulls: 2.0 stores none) is kept per version
    for (let i = 0; i < answers.length; i++) {
      if (sameShape(answers[i], golden[i].by_version ? golden[i].by_version['2.0'] : golden[i])) continue;
      if (!golden[i].by_version) {
        const first = { ...golden[i] };
        delete first.expr;
        golden[i] = { expr: golden[i].expr, by_version: { '2.0': first } };
      }
      const mine = { ...answers[i] };
      delete mine.expr;
      golden[i].by_version[version] = mine;
    }
    // the rows differ by version (2.0 stores no struct validity: a null struct reads as one of nulls)
    fs.mkdirSync(OUT, { recursive: true });
    fs.writeFileSync(path.join(OUT, `rows-${version.replace('.', '_')}.jsonl`), await fullJsonl(tbl));
    const dest = path.join(OUT, version.replace('.', '_'));
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.cpSync(path.join(tmp, 't.lance'), dest, { recursive: true });
    fs.cpSync(path.join(tmp, 'ti.lance'), dest + '_indexed', { recursive: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const doc = {
    generator: 'scripts/gen-filters.mjs',
    writer: '@lancedb/lancedb ' + JSON.parse(fs.readFileSync(path.join(HERE, 'node_modules/@lancedb/lancedb/package.json'))).version,
    tables: VERSIONS.map((v) => `filters/${v.replace('.', '_')}`),
    notes: 'three fragments (80, 70, 50 rows), rows with id % 11 = 4 deleted; rows and counts from query().where() and countRows()',
    indexed_tables: VERSIONS.map((v) => `filters/${v.replace('.', '_')}_indexed`),
    indices: INDICES.map(([column, config]) => `${column}: ${config.name}`),
    indexed_notes: 'the same rows; indices built over the first two fragments, the third appended after them, deletions after both',
    // expressions whose Lance plan on the indexed copy used a scalar index (explainPlan)
    answered_by_index: [...indexed].sort(),
    // where Lance's answer on the indexed copy differs from the unindexed one (the file wins)
    indexed_differs: differs,
    expressions: golden,
  };
  fs.writeFileSync(path.join(OUT, 'goldens.json'), JSON.stringify(doc, null, 1) + '\n');
  const rejected = golden.filter((g) => g.accepted === false);
  console.log(`${golden.length} expressions, ${rejected.length} rejected:`);
  for (const r of rejected) console.log(`  ${JSON.stringify(r.expr)}: ${r.error.slice(0, 160)}`);
  console.log(`${indexed.size} answered through an index; ${differs.length} differ from the unindexed answer:`);
  for (const d of differs) console.log(`  ${d.version} ${JSON.stringify(d.expr)}`);
}

await main();
