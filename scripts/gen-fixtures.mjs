// Lance fixture generator for lance-cli.
//
// How to run:   cd scripts && npm ci && node gen-fixtures.mjs
// (writes into ../data: data/fixtures/*.lance, data/golden/*, data/sample/, data/fixtures/index.json)
// Options:      --only NAME[,NAME...]  regenerate only these tables (index.json is still rewritten
//                                      from the tables generated in this run, so use for debugging)
//
// What it does, per fixture table and per Lance file version (2.1, 2.2, 2.3):
//   1. builds an Arrow table from seeded pseudo-random data (deterministic: mulberry32),
//   2. writes it with Lance itself (@lancedb/lancedb createTable, storage option
//      new_table_data_storage_version), checks that exactly one data file was written and that
//      its footer carries the requested (major, minor) version,
//   3. copies that data file to data/fixtures/<name>-v<V>.lance,
//   4. reads the table back with Lance's reader (tbl.query().toArrow()) and renders the goldens
//      {jsonl,json,csv,tsv} from THAT Arrow table, following docs/output-format.md; values are
//      taken from the raw Arrow buffers, never from the apache-arrow convenience getters,
//   5. renders the input table with the same renderer and requires it to be identical (checks
//      row order and that nothing was changed by the round trip).
//   The goldens of all versions of a table are compared; when they are byte-identical (always,
//   so far) they are written once as data/golden/<name>.*, otherwise as data/golden/<name>-v<V>.*.
//   data/fixtures/index.json lists every fixture with its golden_prefix (and the sha256 of each
//   version's own rendering).
//
// Notes:
//   * apache-arrow is loaded through require() so that it is the same module instance that
//     @lancedb/lancedb uses (otherwise lancedb "sanitizes" the table and drops some types).
//   * LANCE_FILE_WRITER_MAX_PAGE_BYTES has no effect on 2.1+ files (Lance only applies it to
//     2.0).  Multi-page columns come from the writer's per-column accumulation budget
//     (8 MiB, measured with arrow-rs get_array_memory_size, which counts the whole IPC
//     record-batch body for every buffer slice).  The "multipage" fixtures therefore feed
//     many small record batches that also carry an all-null fixed_size_binary padding
//     column: it makes each batch body large in memory but costs nothing on disk.
//   * A table with zero rows makes Lance write no data file at all, so the "empty" fixture is
//     a dataset directory (manifest only), not a single .lance file.

import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const arrow = require('apache-arrow');
const lancedb = require('@lancedb/lancedb');
const { makeData, makeVector, Table, Schema, Field, RecordBatch, Struct, Type, TimeUnit, DateUnit, Precision } = arrow;

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DATA = path.resolve(HERE, '..', 'data');
const FIXTURES = path.join(DATA, 'fixtures');
const GOLDEN = path.join(DATA, 'golden');
const SAMPLE = path.join(DATA, 'sample');
const VERSIONS = ['2.1', '2.2', '2.3'];

// ---------------------------------------------------------------------------------------------
// Deterministic randomness
// ---------------------------------------------------------------------------------------------

function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6D2B79F5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function fnv1a(s) {
  let h = 0x811c9dc5;
  for (const c of Buffer.from(s)) { h ^= c; h = Math.imul(h, 0x01000193) >>> 0; }
  return h;
}
class Rng {
  constructor(seedText) { this.f = mulberry32(fnv1a(seedText)); }
  next() { return this.f(); }
  int(lo, hi) { return lo + Math.floor(this.f() * (hi - lo + 1)); } // inclusive, |range| < 2^32
  chance(p) { return this.f() < p; }
  pick(arr) { return arr[Math.floor(this.f() * arr.length)]; }
  u32() { return Math.floor(this.f() * 4294967296); }
  bits(n) { // uniform BigInt in [0, 2^n)
    let r = 0n;
    for (let i = 0; i < n; i += 32) r = (r << 32n) | BigInt(this.u32());
    const total = Math.ceil(n / 32) * 32;
    return r >> BigInt(total - n);
  }
  bigRange(lo, hi) { // inclusive BigInt range
    const span = hi - lo + 1n;
    const nb = span.toString(2).length + 8;
    return lo + (this.bits(nb) % span);
  }
}

// ---------------------------------------------------------------------------------------------
// float16 helpers (bits <-> number, round-to-nearest-even)
// ---------------------------------------------------------------------------------------------

function f16ToNumber(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, f = h & 0x3ff;
  if (e === 0) return s * f * 2 ** -24;
  if (e === 31) return f ? NaN : s * Infinity;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}
function roundHalfEven(q) { // q >= 0, a double holding an exact dyadic value
  const fl = Math.floor(q), d = q - fl;
  if (d > 0.5) return fl + 1;
  if (d < 0.5) return fl;
  return fl % 2 === 0 ? fl : fl + 1;
}
function f16round(x) {
  if (Number.isNaN(x) || !Number.isFinite(x) || x === 0) return x;
  const a = Math.abs(x);
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--; else if (2 ** (e + 1) <= a) e++;
  if (e < -14) e = -14;
  const ulp = 2 ** (e - 10);
  const r = roundHalfEven(a / ulp) * ulp;
  const v = r >= 65520 ? Infinity : r; // 65504 is the largest finite value
  return x < 0 ? -v : v;
}
function numberToF16Bits(x) {
  const v = f16round(x);
  if (Number.isNaN(v)) return 0x7e00;
  const sign = (v < 0 || Object.is(v, -0)) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (a === Infinity) return sign | 0x7c00;
  if (a === 0) return sign;
  if (a < 2 ** -14) return sign | Math.round(a / 2 ** -24);
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--; else if (2 ** (e + 1) <= a) e++;
  const f = Math.round((a / 2 ** e - 1) * 1024);
  return sign | ((e + 15) << 10) | f;
}

// ---------------------------------------------------------------------------------------------
// Cell rendering (docs/output-format.md)
// ---------------------------------------------------------------------------------------------
// A cell is null, or { t: text used in csv/tsv, j: JSON token }.

function jsonString(s) {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c < 0x20) {
      if (c === 0x08) out += '\\b';
      else if (c === 0x0c) out += '\\f';
      else if (c === 0x0a) out += '\\n';
      else if (c === 0x0d) out += '\\r';
      else if (c === 0x09) out += '\\t';
      else out += '\\u00' + c.toString(16).padStart(2, '0');
    } else out += s[i];
  }
  return out + '"';
}
const bare = (t) => ({ t, j: t });
const str = (t) => ({ t, j: jsonString(t) });
const nested = (j) => ({ t: j, j });

const stats = { float32Ties: 0, float16Ties: 0 };

// |D * 10^F - x| scaled by a positive factor that depends only on F and x (x > 0, finite).
function exactDistance(D, F, x) {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  const hi = dv.getUint32(0), lo = dv.getUint32(4);
  const bexp = (hi >>> 20) & 0x7ff;
  let M = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let E;
  if (bexp === 0) E = -1074; else { M |= 1n << 52n; E = bexp - 1075; }
  const fF = F < 0 ? -F : 0, fE = E < 0 ? -E : 0;
  const A = D * 10n ** BigInt(F + fF) * 2n ** BigInt(fE);
  const B = M * 2n ** BigInt(E + fE) * 10n ** BigInt(fF);
  return A > B ? A - B : B - A;
}

// Shortest decimal that round-trips through `roundFn` (the column's float width); among the
// shortest candidates the one closest to x.  Laid out with ECMAScript Number::toString.
function shortestAtWidth(x, roundFn, maxDigits, tieKey) {
  for (let k = 1; k <= maxDigits; k++) {
    const [mant, expo] = x.toExponential(k - 1).split('e');
    const digits = BigInt(mant.replace('.', '').replace('-', ''));
    const e10 = Number(expo) - (k - 1);
    const neg = x < 0 ? '-' : '';
    const cands = [];
    for (const d of [digits - 1n, digits, digits + 1n]) {
      if (d <= 0n) continue;
      const c = Number(`${neg}${d}e${e10}`);
      if (roundFn(c) === x) cands.push({ c, dist: exactDistance(d, e10, Math.abs(x)), even: d % 2n === 0n });
    }
    if (cands.length) {
      // closest to x (exact arithmetic); on an exact tie the even digit string (as ECMAScript
      // Number::toString and C++ std::to_chars do)
      cands.sort((a, b) => (a.dist < b.dist ? -1 : a.dist > b.dist ? 1 : a.even ? -1 : 1));
      if (cands.length > 1 && cands[0].dist === cands[1].dist) stats[tieKey]++;
      return String(cands[0].c);
    }
  }
  throw new Error(`no round-trip decimal for ${x}`);
}
function fmtFloat(x, width) {
  if (Number.isNaN(x)) return str('NaN');
  if (x === Infinity) return str('Infinity');
  if (x === -Infinity) return str('-Infinity');
  if (Object.is(x, -0)) return bare('-0');
  if (x === 0) return bare('0');
  if (width === 64) return bare(String(x));
  if (width === 32) return bare(shortestAtWidth(x, Math.fround, 9, 'float32Ties'));
  return bare(shortestAtWidth(x, f16round, 5, 'float16Ties'));
}

const pad = (n, w) => String(n).padStart(w, '0');
const floorDiv = (a, b) => { const q = a / b; return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q; };
const floorMod = (a, b) => a - floorDiv(a, b) * b;
function civilFromDays(z) { // H. Hinnant's algorithm, proleptic Gregorian
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  let y = yoe + era * 400;
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  if (m <= 2) y += 1;
  return [y, m, d];
}
function fmtYear(y) {
  if (y >= 0 && y <= 9999) return pad(y, 4);
  return (y < 0 ? '-' : '+') + pad(Math.abs(y), 4);
}
function fmtDate(days) { const [y, m, d] = civilFromDays(days); return `${fmtYear(y)}-${pad(m, 2)}-${pad(d, 2)}`; }
function fmtTimeOfDay(sod) { // sod: seconds in [0, 86400)
  return `${pad(Math.floor(sod / 3600), 2)}:${pad(Math.floor(sod / 60) % 60, 2)}:${pad(sod % 60, 2)}`;
}
const UNIT_PER_SEC = [1n, 1000n, 1000000n, 1000000000n]; // TimeUnit.SECOND..NANOSECOND
const UNIT_DIGITS = [0, 3, 6, 9];
const UNIT_NAME = ['s', 'ms', 'us', 'ns'];
function fmtDateTime(v /* BigInt */, unit) {
  const per = UNIT_PER_SEC[unit];
  const secs = floorDiv(v, per), frac = floorMod(v, per);
  const days = floorDiv(secs, 86400n), sod = Number(floorMod(secs, 86400n));
  let s = `${fmtDate(Number(days))}T${fmtTimeOfDay(sod)}`;
  if (UNIT_DIGITS[unit]) s += '.' + pad(frac, UNIT_DIGITS[unit]);
  return s;
}
function fmtTime(v /* BigInt */, unit) {
  const per = UNIT_PER_SEC[unit];
  if (v < 0n || v >= 86400n * per) throw new Error(`time value out of range: ${v}`);
  let s = fmtTimeOfDay(Number(v / per));
  if (UNIT_DIGITS[unit]) s += '.' + pad(v % per, UNIT_DIGITS[unit]);
  return s;
}
function fmtDecimal(v /* BigInt */, scale) {
  if (scale <= 0) return (v * 10n ** BigInt(-scale)).toString();
  const neg = v < 0n, a = neg ? -v : v;
  const ds = a.toString().padStart(scale + 1, '0');
  return (neg ? '-' : '') + ds.slice(0, ds.length - scale) + '.' + ds.slice(ds.length - scale);
}

const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });

function isValid(data, i) {
  if (data.typeId === Type.Null) return false;
  const bm = data.nullBitmap;
  if (!bm || bm.length === 0 || data.nullCount === 0) return true;
  const p = data.offset + i;
  return ((bm[p >> 3] >> (p & 7)) & 1) === 1;
}

// Renders every slot of one Arrow Data (ignores validity of the parent).  Cached per Data.
const renderCache = new WeakMap();
function renderData(data) {
  let r = renderCache.get(data);
  if (!r) { r = renderDataImpl(data); renderCache.set(data, r); }
  return r;
}
function renderDataImpl(data) {
  if (data.offset !== 0 && data.typeId !== Type.Bool) throw new Error(`unexpected Data offset ${data.offset}`);
  const n = data.length, type = data.type, out = new Array(n);
  const valid = (i) => isValid(data, i);
  const each = (f) => { for (let i = 0; i < n; i++) out[i] = valid(i) ? f(i) : null; return out; };
  switch (data.typeId) {
    case Type.Null: return out.fill(null);
    case Type.Bool: return each((i) => { const p = data.offset + i; return bare((data.values[p >> 3] >> (p & 7)) & 1 ? 'true' : 'false'); });
    case Type.Int: return each((i) => bare(data.values[i].toString()));
    case Type.Float: {
      if (type.precision === Precision.HALF) return each((i) => fmtFloat(f16ToNumber(data.values[i]), 16));
      const w = type.precision === Precision.SINGLE ? 32 : 64;
      return each((i) => fmtFloat(data.values[i], w));
    }
    case Type.Utf8: case Type.LargeUtf8: {
      const o = data.valueOffsets;
      return each((i) => str(utf8Decoder.decode(data.values.subarray(Number(o[i]), Number(o[i + 1])))));
    }
    case Type.Binary: case Type.LargeBinary: {
      const o = data.valueOffsets;
      return each((i) => str(Buffer.from(data.values.subarray(Number(o[i]), Number(o[i + 1]))).toString('base64')));
    }
    case Type.FixedSizeBinary: {
      const w = type.byteWidth;
      return each((i) => str(Buffer.from(data.values.subarray(i * w, (i + 1) * w)).toString('base64')));
    }
    case Type.Date: {
      if (type.unit === DateUnit.DAY) return each((i) => str(fmtDate(data.values[i])));
      return each((i) => {
        const ms = BigInt(data.values[i]);
        return str(floorMod(ms, 86400000n) === 0n ? fmtDate(Number(floorDiv(ms, 86400000n))) : fmtDateTime(ms, TimeUnit.MILLISECOND));
      });
    }
    case Type.Time: return each((i) => str(fmtTime(BigInt(data.values[i]), type.unit)));
    case Type.Timestamp: return each((i) => str(fmtDateTime(BigInt(data.values[i]), type.unit) + (type.timezone ? 'Z' : '')));
    case Type.Duration: return each((i) => bare(BigInt(data.values[i]).toString()));
    case Type.Decimal: {
      const words = type.bitWidth / 32;
      return each((i) => {
        let v = 0n;
        for (let w = words - 1; w >= 0; w--) v = (v << 32n) | BigInt(data.values[i * words + w]);
        return str(fmtDecimal(BigInt.asIntN(type.bitWidth, v), type.scale));
      });
    }
    case Type.Dictionary: {
      const dictCells = data.dictionary.data.flatMap((d) => renderData(d));
      return each((i) => dictCells[Number(data.values[i])]);
    }
    case Type.List: case Type.LargeList: case Type.Map: {
      const o = data.valueOffsets;
      const child = renderData(data.children[0]);
      const isMap = data.typeId === Type.Map;
      return each((i) => {
        const items = [];
        for (let k = Number(o[i]); k < Number(o[i + 1]); k++) {
          if (isMap) {
            const ent = data.children[0];
            const kc = renderData(ent.children[0])[k], vc = renderData(ent.children[1])[k];
            items.push(`{"key":${kc ? kc.j : 'null'},"value":${vc ? vc.j : 'null'}}`);
          } else items.push(child[k] ? child[k].j : 'null');
        }
        return nested('[' + items.join(',') + ']');
      });
    }
    case Type.FixedSizeList: {
      const sz = type.listSize, child = renderData(data.children[0]);
      return each((i) => {
        const items = [];
        for (let k = i * sz; k < (i + 1) * sz; k++) items.push(child[k] ? child[k].j : 'null');
        return nested('[' + items.join(',') + ']');
      });
    }
    case Type.Struct: {
      const kids = data.children.map((c) => renderData(c));
      const names = type.children.map((f) => jsonString(f.name));
      return each((i) => nested('{' + kids.map((c, k) => `${names[k]}:${c[i] ? c[i].j : 'null'}`).join(',') + '}'));
    }
    default: throw new Error(`renderData: unsupported type ${type}`);
  }
}

function renderTable(names, table) {
  // returns per-column arrays of cells, each of length numRows
  return names.map((nm, idx) => {
    const vec = table.getChildAt(idx);
    if (table.schema.fields[idx].name !== nm) throw new Error('column order mismatch');
    return vec ? vec.data.flatMap((d) => renderData(d)) : [];
  });
}

function csvField(t) {
  if (t === null) return '';
  if (t === '') return '""';
  if (/[,"\r\n]/.test(t)) return '"' + t.replace(/"/g, '""') + '"';
  return t;
}
function tsvField(t) {
  if (t === null) return '';
  return t.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' }[c]));
}
function renderGoldens(names, cols, numRows) {
  const keys = names.map(jsonString);
  const rows = [];
  for (let i = 0; i < numRows; i++) rows.push('{' + cols.map((c, k) => keys[k] + ':' + (c[i] ? c[i].j : 'null')).join(',') + '}');
  const jsonl = rows.map((r) => r + '\n').join('');
  const json = numRows === 0 ? '[]\n' : '[\n' + rows.join(',\n') + '\n]\n';
  const csvLines = [names.map(csvField).join(',')];
  const tsvLines = [names.map(tsvField).join('\t')];
  for (let i = 0; i < numRows; i++) {
    csvLines.push(cols.map((c) => csvField(c[i] ? c[i].t : null)).join(','));
    tsvLines.push(cols.map((c) => tsvField(c[i] ? c[i].t : null)).join('\t'));
  }
  return { jsonl, json, csv: csvLines.join('\n') + '\n', tsv: tsvLines.join('\n') + '\n' };
}

// ---------------------------------------------------------------------------------------------
// Arrow type names (Arrow C++ DataType::ToString() style) for index.json
// ---------------------------------------------------------------------------------------------

function typeName(t) {
  switch (t.typeId) {
    case Type.Null: return 'null';
    case Type.Bool: return 'bool';
    case Type.Int: return `${t.isSigned ? '' : 'u'}int${t.bitWidth}`;
    case Type.Float: return ['halffloat', 'float', 'double'][t.precision];
    case Type.Utf8: return 'string';
    case Type.LargeUtf8: return 'large_string';
    case Type.Binary: return 'binary';
    case Type.LargeBinary: return 'large_binary';
    case Type.FixedSizeBinary: return `fixed_size_binary[${t.byteWidth}]`;
    case Type.Date: return t.unit === DateUnit.DAY ? 'date32[day]' : 'date64[ms]';
    case Type.Time: return `time${t.bitWidth}[${UNIT_NAME[t.unit]}]`;
    case Type.Timestamp: return `timestamp[${UNIT_NAME[t.unit]}${t.timezone ? `, tz=${t.timezone}` : ''}]`;
    case Type.Duration: return `duration[${UNIT_NAME[t.unit]}]`;
    case Type.Decimal: return `decimal${t.bitWidth}(${t.precision}, ${t.scale})`;
    case Type.Dictionary: return `dictionary<values=${typeName(t.dictionary)}, indices=${typeName(t.indices)}, ordered=${t.isOrdered ? 1 : 0}>`;
    case Type.List: return `list<${fieldName(t.children[0])}>`;
    case Type.LargeList: return `large_list<${fieldName(t.children[0])}>`;
    case Type.FixedSizeList: return `fixed_size_list<${fieldName(t.children[0])}>[${t.listSize}]`;
    case Type.Struct: return `struct<${t.children.map(fieldName).join(', ')}>`;
    case Type.Map: {
      const [k, v] = t.children[0].type.children;
      return `map<${typeName(k.type)}, ${typeName(v.type)}${t.keysSorted ? ', keys_sorted' : ''}>`;
    }
    default: throw new Error(`typeName: ${t}`);
  }
}
function fieldName(f) { return `${f.name}: ${typeName(f.type)}${f.nullable ? '' : ' not null'}`; }

// ---------------------------------------------------------------------------------------------
// Building Arrow data from JS values (null = null)
// ---------------------------------------------------------------------------------------------

function validityOf(values) {
  const n = values.length;
  let nullCount = 0;
  const bm = new Uint8Array(Math.ceil(n / 8) || 1);
  for (let i = 0; i < n; i++) { if (values[i] === null) nullCount++; else bm[i >> 3] |= 1 << (i & 7); }
  return nullCount ? { nullCount, nullBitmap: bm } : { nullCount: 0 };
}
const enc = new TextEncoder();
function concatBytes(parts) {
  let tot = 0; for (const p of parts) tot += p.length;
  const out = new Uint8Array(tot); let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}
function varWidth(values, toBytes, large) {
  const n = values.length, offs = large ? new BigInt64Array(n + 1) : new Int32Array(n + 1);
  const parts = []; let tot = 0;
  for (let i = 0; i < n; i++) {
    if (values[i] !== null) { const b = toBytes(values[i]); parts.push(b); tot += b.length; }
    offs[i + 1] = large ? BigInt(tot) : tot;
  }
  return { valueOffsets: offs, data: concatBytes(parts) };
}

function buildData(type, values, extra = {}) {
  const n = values.length;
  const v = validityOf(values);
  const base = { type, length: n, ...v };
  switch (type.typeId) {
    case Type.Null: return makeData({ type, length: n, nullCount: n });
    case Type.Bool: {
      const bits = new Uint8Array(Math.ceil(n / 8) || 1);
      values.forEach((x, i) => { if (x) bits[i >> 3] |= 1 << (i & 7); });
      return makeData({ ...base, data: bits });
    }
    case Type.Int: case Type.Time: case Type.Timestamp: case Type.Duration: case Type.Date: {
      const T = type.ArrayType, arr = new T(n);
      const big = T === BigInt64Array || T === BigUint64Array;
      values.forEach((x, i) => { if (x !== null) arr[i] = big ? BigInt(x) : Number(x); });
      return makeData({ ...base, data: arr });
    }
    case Type.Float: {
      if (type.precision === Precision.HALF) {
        const arr = new Uint16Array(n);
        values.forEach((x, i) => { if (x !== null) arr[i] = typeof x === 'object' ? x.bits : numberToF16Bits(x); });
        return makeData({ ...base, data: arr });
      }
      const arr = new type.ArrayType(n);
      values.forEach((x, i) => { if (x !== null) arr[i] = x; });
      return makeData({ ...base, data: arr });
    }
    case Type.Utf8: case Type.LargeUtf8:
      return makeData({ ...base, ...varWidth(values, (s) => enc.encode(s), type.typeId === Type.LargeUtf8) });
    case Type.Binary: case Type.LargeBinary:
      return makeData({ ...base, ...varWidth(values, (b) => b, type.typeId === Type.LargeBinary) });
    case Type.FixedSizeBinary: {
      const w = type.byteWidth, arr = new Uint8Array(n * w);
      values.forEach((x, i) => { if (x !== null) { if (x.length !== w) throw new Error('fsb width'); arr.set(x, i * w); } });
      return makeData({ ...base, data: arr });
    }
    case Type.Decimal: {
      const words = type.bitWidth / 32, arr = new Uint32Array(n * words);
      values.forEach((x, i) => {
        if (x === null) return;
        let u = BigInt.asUintN(type.bitWidth, BigInt(x));
        for (let w = 0; w < words; w++) { arr[i * words + w] = Number(u & 0xffffffffn); u >>= 32n; }
      });
      return makeData({ ...base, data: arr });
    }
    case Type.Dictionary: {
      const dictValues = extra.dictValues;
      const idx = new type.indices.ArrayType(n);
      values.forEach((x, i) => {
        if (x === null) return;
        const k = dictValues.indexOf(x);
        if (k < 0) throw new Error(`value ${x} not in dictionary`);
        idx[i] = type.indices.ArrayType === BigInt64Array ? BigInt(k) : k;
      });
      const dict = makeVector(buildData(type.dictionary, dictValues));
      return makeData({ ...base, data: idx, dictionary: dict });
    }
    case Type.List: case Type.LargeList: case Type.Map: {
      const large = type.typeId === Type.LargeList;
      const offs = large ? new BigInt64Array(n + 1) : new Int32Array(n + 1);
      const items = []; let tot = 0;
      values.forEach((x, i) => { if (x !== null) { items.push(...x); tot += x.length; } offs[i + 1] = large ? BigInt(tot) : tot; });
      let child;
      if (type.typeId === Type.Map) {
        const entType = type.children[0].type;
        child = buildData(entType, items.map(([k, val]) => ({ [entType.children[0].name]: k, [entType.children[1].name]: val })));
      } else child = buildData(type.children[0].type, items, extra.child || {});
      return makeData({ ...base, valueOffsets: offs, child });
    }
    case Type.FixedSizeList: {
      const sz = type.listSize, items = [];
      values.forEach((x) => { if (x === null) for (let k = 0; k < sz; k++) items.push(extra.nullFill ?? null); else { if (x.length !== sz) throw new Error('fsl size'); items.push(...x); } });
      return makeData({ ...base, child: buildData(type.children[0].type, items, extra.child || {}) });
    }
    case Type.Struct: {
      const children = type.children.map((f) => buildData(f.type, values.map((x) => (x === null ? null : x[f.name])), (extra.children || {})[f.name] || {}));
      return makeData({ ...base, children });
    }
    default: throw new Error(`buildData: unsupported ${type}`);
  }
}

// A column spec: { name, type, values, nullable = true, extra }
function makeTable(cols, numRows, batchRows = numRows) {
  // c.metadata (optional, { key: value }): Arrow field metadata, e.g. Lance's
  // "lance-encoding:*" keys that force an encoding (docs/format.md §3.5).
  const fields = cols.map((c) => new Field(c.name, c.type, c.nullable !== false,
    c.metadata ? new Map(Object.entries(c.metadata)) : null));
  const schema = new Schema(fields);
  for (const c of cols) if (c.values.length !== numRows) throw new Error(`column ${c.name}: ${c.values.length} != ${numRows}`);
  const batches = [];
  for (let start = 0; start < numRows || (numRows === 0 && start === 0); start += batchRows) {
    const end = Math.min(numRows, start + batchRows);
    const children = cols.map((c) => buildData(c.type, c.values.slice(start, end), c.extra || {}));
    batches.push(new RecordBatch(schema, makeData({ type: new Struct(fields), length: end - start, nullCount: 0, children })));
    if (numRows === 0) break;
  }
  return new Table(batches);
}

// ---------------------------------------------------------------------------------------------
// Minimal Lance file inspection: footer, schema (global buffer 0), page lengths per column
// ---------------------------------------------------------------------------------------------

export function readVarint(b, p) {
  let r = 0n, s = 0n;
  for (;;) { const x = b[p.i++]; r |= BigInt(x & 0x7f) << s; s += 7n; if (!(x & 0x80)) return r; }
}
export function pbFields(b) {
  const p = { i: 0 }, out = [];
  while (p.i < b.length) {
    const key = Number(readVarint(b, p)), fn = key >> 3, wt = key & 7;
    let v;
    if (wt === 0) v = readVarint(b, p);
    else if (wt === 2) { const l = Number(readVarint(b, p)); v = b.subarray(p.i, p.i + l); p.i += l; }
    else if (wt === 1) { v = b.subarray(p.i, p.i + 8); p.i += 8; }
    else if (wt === 5) { v = b.subarray(p.i, p.i + 4); p.i += 4; }
    else throw new Error(`protobuf wire type ${wt}`);
    out.push([fn, v]);
  }
  return out;
}
function inspectLanceFile(buf) {
  if (buf.length < 40) throw new Error('file too small');
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.length);
  const f = buf.length - 40;
  const cmoPos = Number(dv.getBigUint64(f + 8, true)), gboPos = Number(dv.getBigUint64(f + 16, true));
  const numGlobal = dv.getUint32(f + 24, true), numCols = dv.getUint32(f + 28, true);
  const major = dv.getUint16(f + 32, true), minor = dv.getUint16(f + 34, true);
  const magic = buf.subarray(buf.length - 4).toString('latin1');
  if (magic !== 'LANC') throw new Error('bad magic');
  const pages = [];
  for (let c = 0; c < numCols; c++) {
    const pos = Number(dv.getBigUint64(cmoPos + 16 * c, true)), len = Number(dv.getBigUint64(cmoPos + 16 * c + 8, true));
    pages.push(pbFields(buf.subarray(pos, pos + len)).filter(([fn]) => fn === 2).map(([, pg]) => {
      const l = pbFields(pg).find(([fn]) => fn === 3);
      return l ? Number(l[1]) : 0;
    }));
  }
  // schema = FileDescriptor in global buffer 0
  const sPos = Number(dv.getBigUint64(gboPos, true)), sLen = Number(dv.getBigUint64(gboPos + 8, true));
  const fd = pbFields(buf.subarray(sPos, sPos + sLen));
  const schemaMsg = fd.find(([fn]) => fn === 1)[1];
  const lengthField = fd.find(([fn]) => fn === 2);
  const fields = pbFields(schemaMsg).filter(([fn]) => fn === 1).map(([, fb]) => {
    const ff = pbFields(fb), get = (n) => ff.find(([fn]) => fn === n);
    const dec = (x) => (x ? Buffer.from(x[1]).toString('utf8') : '');
    return {
      name: dec(get(2)), id: get(3) ? Number(BigInt.asIntN(32, get(3)[1])) : 0,
      parent_id: get(4) ? Number(BigInt.asIntN(32, get(4)[1])) : 0,
      logical_type: dec(get(5)), nullable: get(6) ? get(6)[1] === 1n : false,
    };
  });
  return { major, minor, numCols, numGlobal, pages, fields, numRows: lengthField ? Number(lengthField[1]) : 0 };
}

// ---------------------------------------------------------------------------------------------
// Writing one fixture table for one version
// ---------------------------------------------------------------------------------------------

const sha256 = (b) => crypto.createHash('sha256').update(b).digest('hex');
function writeOut(p, content) {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, content);
}

let tmpRoot;
const index = [];
const rejected = [];

async function tryCreate(db, tname, table, version) {
  return db.createTable(tname, table, { storageOptions: { new_table_data_storage_version: version } });
}

// Writes the table, dropping columns that Lance rejects (one at a time), and returns
// { tbl, cols } for the columns that survived.
async function createWithFallback(db, tname, cols, numRows, batchRows, version, fixtureName) {
  let live = cols.slice();
  for (;;) {
    try {
      const t = await tryCreate(db, tname, makeTable(live, numRows, batchRows), version);
      return { tbl: t, cols: live };
    } catch (e) {
      // find the offending column by writing each column alone
      let culprit = null;
      for (const c of live) {
        try {
          await tryCreate(db, `${tname}_probe_${c.name}`, makeTable([c], numRows, batchRows), version);
        } catch (e2) { culprit = { c, msg: e2.message }; break; }
      }
      if (!culprit) throw e;
      rejected.push({ fixture: fixtureName, version, column: culprit.c.name, type: typeName(culprit.c.type), error: culprit.msg.split('\n')[0].slice(0, 300) });
      console.warn(`  ! ${fixtureName} v${version}: Lance rejected column ${culprit.c.name}: ${culprit.msg.split('\n')[0].slice(0, 200)}`);
      live = live.filter((c) => c !== culprit.c);
      if (live.length === 0) return null;
      tname = `${tname}_x`;
    }
  }
}

function compareRenders(what, a, b, names) {
  for (let k = 0; k < names.length; k++) {
    if (a[k].length !== b[k].length) throw new Error(`${what}: column ${names[k]} has ${b[k].length} rows, expected ${a[k].length}`);
    for (let i = 0; i < a[k].length; i++) {
      const x = a[k][i] ? a[k][i].j : 'null', y = b[k][i] ? b[k][i].j : 'null';
      if (x !== y) throw new Error(`${what}: column ${names[k]} row ${i}: read back ${y.slice(0, 80)}, wrote ${x.slice(0, 80)}`);
    }
  }
}

async function generate(fx) {
  // fx: { name, cols, numRows, batchRows?, versions?, notes, out?: 'fixture'|'sample', minPages? }
  const versions = fx.versions || VERSIONS;
  const perVersion = [];
  for (const version of versions) {
    const dbDir = fs.mkdtempSync(path.join(tmpRoot, `${fx.name}-`));
    const db = await lancedb.connect(dbDir);
    const tname = 't';
    const created = await createWithFallback(db, tname, fx.cols, fx.numRows, fx.batchRows || fx.numRows, version, fx.name);
    if (!created) { console.warn(`  ! ${fx.name} v${version}: no column left, version skipped`); continue; }
    const { tbl, cols } = created;
    const names = cols.map((c) => c.name);

    // the data file(s)
    const tableDir = path.join(dbDir, `${tbl.name}.lance`);
    if (!fs.existsSync(path.join(tableDir, '_versions'))) throw new Error(`${fx.name}: no dataset at ${tableDir}`);
    // fx.afterCreate(tbl, dataDir) (optional): changes the table after writing it (e.g. an
    // alterColumns cast) and returns the names of the data files it superseded.
    const superseded = fx.afterCreate ? (await fx.afterCreate(tbl, path.join(tableDir, 'data'))) || [] : [];
    const dataFiles = fs.existsSync(path.join(tableDir, 'data')) ? fs.readdirSync(path.join(tableDir, 'data')).filter((f) => f.endsWith('.lance') && !superseded.includes(f)) : [];

    // read back with Lance; fx.readBack(tbl) (optional): a query of its own, e.g. one that casts
    // a type apache-arrow JS cannot decode (large_list) to one it can
    let back = fx.readBack ? await fx.readBack(tbl) : await tbl.query().toArrow();
    // fx.resolveReadBack(back, dataFileBytes) (optional): turns what Lance's reader returned
    // into the values the fixture wrote, using only Lance's answer and the data file (e.g.
    // legacy blob columns read back as {position, size} descriptors into the file).
    if (fx.resolveReadBack) back = fx.resolveReadBack(back, dataFiles.length === 1 ? fs.readFileSync(path.join(tableDir, 'data', dataFiles[0])) : null);
    const backSchema = back.schema.fields.length ? back.schema : await tbl.schema();
    const backNames = backSchema.fields.map((f) => f.name);
    if (JSON.stringify(backNames) !== JSON.stringify(names)) throw new Error(`${fx.name}: read back columns ${backNames} != ${names}`);
    cols.forEach((c, k) => {
      const want = fieldName(new Field(c.name, c.type, c.nullable !== false)), got = fieldName(backSchema.fields[k]);
      if (want !== got) throw new Error(`${fx.name} v${version}: column read back as ${got}, written as ${want}`);
    });
    if (back.numRows !== fx.numRows) throw new Error(`${fx.name} v${version}: read back ${back.numRows} rows, wrote ${fx.numRows}`);
    const cells = back.numRows ? renderTable(names, back) : names.map(() => []);
    // fx.expectedCols(cols) (optional): the columns as Lance's reader is known to return them
    // when that differs from what was written (2.0 keeps no struct validity: a null struct
    // reads back as a struct of nulls); the read-back must equal these.
    const expected = fx.expectedCols ? fx.expectedCols(cols) : cols;
    const inputCells = renderTable(names, makeTable(expected, fx.numRows, fx.numRows));
    compareRenders(`${fx.name} v${version}`, inputCells, cells, names);
    const goldens = renderGoldens(names, cells, back.numRows);

    const vtag = `v${version}`;
    let entry;
    if (fx.numRows === 0) {
      // no data file: ship the dataset directory (manifest only)
      if (dataFiles.length !== 0) throw new Error(`${fx.name}: expected no data file for an empty table`);
      const dst = path.join(FIXTURES, `${fx.name}-${vtag}.lance`);
      fs.rmSync(dst, { recursive: true, force: true });
      fs.cpSync(tableDir, dst, { recursive: true });
      const manifests = fs.readdirSync(path.join(dst, '_versions'));
      entry = { kind: 'dataset', file: path.relative(DATA, dst), manifests };
    } else {
      if (dataFiles.length !== 1) throw new Error(`${fx.name} v${version}: expected exactly one data file, got ${dataFiles.length}`);
      const src = path.join(tableDir, 'data', dataFiles[0]);
      const buf = fs.readFileSync(src);
      const info = inspectLanceFile(buf);
      // Format 2.0 files carry the footer version (0, 3); later ones their own number.
      const [maj, min] = version === '2.0' ? [0, 3] : version.split('.').map(Number);
      if (info.major !== maj || info.minor !== min) throw new Error(`${fx.name}: asked for ${version}, footer says ${info.major}.${info.minor}`);
      if (info.numRows !== fx.numRows) throw new Error(`${fx.name}: file descriptor length ${info.numRows}`);
      const dst = fx.out === 'sample' ? path.join(SAMPLE, `${fx.name}.lance`) : path.join(FIXTURES, `${fx.name}-${vtag}.lance`);
      writeOut(dst, buf);
      const maxPages = Math.max(...info.pages.map((p) => p.length));
      if (fx.minPages && maxPages < fx.minPages) throw new Error(`${fx.name} v${version}: wanted a column with >= ${fx.minPages} pages, got ${JSON.stringify(info.pages)}`);
      entry = {
        kind: 'file', file: path.relative(DATA, dst), sha256: sha256(buf), bytes: buf.length,
        footer_version: [info.major, info.minor], num_leaf_columns: info.numCols,
        leaf_column_pages: info.pages,
        lance_fields: info.fields,
      };
    }
    const fieldsBack = backSchema.fields;
    const item = {
      name: fx.out === 'sample' ? `sample-${fx.name}` : `${fx.name}-${vtag}`,
      table: fx.name,
      ...entry,
      version,
      num_rows: back.numRows,
      columns: fieldsBack.map((f) => ({ name: f.name, arrow_type: typeName(f.type), nullable: f.nullable })),
      golden_prefix: null, // set below
      golden_sha256: Object.fromEntries(Object.entries(goldens).map(([ext, text]) => [ext, sha256(text)])),
      notes: fx.notes,
    };
    index.push(item);
    perVersion.push({ item, goldens, vtag });
    const pagesNote = entry.leaf_column_pages ? ` pages=${JSON.stringify(entry.leaf_column_pages.map((p) => p.length))}` : '';
    console.log(`  ${fx.name} v${version}: ${back.numRows} rows, ${names.length} columns, ${entry.bytes ?? 0} bytes${pagesNote}`);
    tbl.close?.();
  }
  // Goldens: each version was rendered from its own read-back.  When all versions render
  // byte-identically (the normal case) the goldens are written once, as golden/<name>.*,
  // and every version's golden_prefix points there; otherwise one set per version.
  const keys = new Set(perVersion.map((p) => JSON.stringify(p.item.golden_sha256)));
  const shared = keys.size === 1;
  if (!shared) console.warn(`  ! ${fx.name}: goldens differ between versions; writing one set per version`);
  for (const { item, goldens, vtag } of perVersion) {
    const prefix = fx.out === 'sample' ? `golden/sample-${fx.name}` : shared ? `golden/${fx.name}` : `golden/${fx.name}-${vtag}`;
    item.golden_prefix = prefix;
    for (const [ext, text] of Object.entries(goldens)) writeOut(path.join(DATA, `${prefix}.${ext}`), text);
  }
}

// ---------------------------------------------------------------------------------------------
// Value generators
// ---------------------------------------------------------------------------------------------

const INT_LIMITS = {
  int8: [-(2n ** 7n), 2n ** 7n - 1n], int16: [-(2n ** 15n), 2n ** 15n - 1n],
  int32: [-(2n ** 31n), 2n ** 31n - 1n], int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint8: [0n, 2n ** 8n - 1n], uint16: [0n, 2n ** 16n - 1n], uint32: [0n, 2n ** 32n - 1n], uint64: [0n, 2n ** 64n - 1n],
};
// Full-range values of mixed magnitude: random bit length, random sign, plus the extremes at
// fixed and random places.
function fullRangeInts(rng, kind, n) {
  const [lo, hi] = INT_LIMITS[kind];
  const bitsTotal = hi.toString(2).length + (lo < 0n ? 1 : 0);
  const out = [];
  for (let i = 0; i < n; i++) {
    const r = rng.next();
    let v;
    if (r < 0.01) v = lo; else if (r < 0.02) v = hi; else if (r < 0.03) v = 0n;
    else if (r < 0.12) v = rng.bigRange(lo, hi); // uniform full range
    else {
      const nb = rng.int(1, bitsTotal - (lo < 0n ? 1 : 0));
      v = rng.bits(nb);
      if (lo < 0n && rng.chance(0.5)) v = -v - (rng.chance(0.1) ? 1n : 0n);
      if (v > hi) v = hi; if (v < lo) v = lo;
    }
    out.push(v);
  }
  out[0] = lo; out[1] = hi; out[2] = 0n;
  if (kind.endsWith('64')) { // around 2^53
    out[3] = 2n ** 53n + 1n; out[4] = lo < 0n ? -(2n ** 53n) - 1n : 2n ** 63n + 12345n;
    out[5] = 9007199254740993n; out[6] = lo < 0n ? -9007199254740993n : 18446744073709551557n;
  }
  return out;
}
const asKind = (kind, vals) => (kind.endsWith('64') ? vals : vals.map((v) => (v === null ? null : Number(v))));
const withNulls = (rng, vals, p) => vals.map((v) => (rng.chance(p) ? null : v));

const WORDS = ('lance arrow column page chunk value level repetition definition footer schema field '
  + 'buffer offset table manifest fragment dataset reader writer encoding decoder bitpack dictionary '
  + 'constant zstd lz4 fsst miniblock fullzip struct list map vector float double integer string '
  + 'binary date time zone stamp decimal null valid empty unicode quote comma tab newline the a of '
  + 'and to in is for on with as by at from this that it be are was were has have not but or').split(' ');
function sentence(rng, minLen, maxLen) {
  const target = rng.int(minLen, maxLen);
  let s = '';
  while (s.length < target) s += (s ? ' ' : '') + rng.pick(WORDS);
  return s.slice(0, target);
}
const UNICODE_SAMPLES = ['héllo wörld', 'Ελληνικά', 'Русский текст', '日本語のテキスト', '中文字符', '한국어',
  'emoji 😀🎉🚀', 'mixed ascii and ñ', 'עברית', 'العربية', 'ℝ∑∫√∞', '\u{1F600}', 'a\u0301 combining',
  '\uFEFFleading BOM', '\uFEFF', 'middle\uFEFFbom', 'zero\u200Bwidth'];
const SPECIAL_SAMPLES = ['comma, separated', 'say "hi"', 'line1\nline2', 'tab\there', 'cr\rlf\r\n', 'back\\slash',
  '"', ',', '""', ' leading space', 'trailing space ', '\u0001ctrl\u001f', 'bell\u0007', 'form\ffeed\bbs',
  'null', 'NULL', '\\N', 'NaN', 'true', '0', '-0', 'a,b\t"c"\nd\\e', '\u007f del'];

// ---------------------------------------------------------------------------------------------
// Fixture definitions
// ---------------------------------------------------------------------------------------------

function fxInts() {
  const rng = new Rng('ints');
  const N = 1000;
  const cols = [];
  for (const [name, kind, T] of [['i8', 'int8', arrow.Int8], ['i16', 'int16', arrow.Int16], ['i32', 'int32', arrow.Int32], ['i64', 'int64', arrow.Int64],
    ['u8', 'uint8', arrow.Uint8], ['u16', 'uint16', arrow.Uint16], ['u32', 'uint32', arrow.Uint32], ['u64', 'uint64', arrow.Uint64]]) {
    cols.push({ name, type: new T(), values: asKind(kind, fullRangeInts(rng, kind, N)) });
  }
  cols.push({ name: 'u8_small', type: new arrow.Uint8(), values: Array.from({ length: N }, () => rng.int(0, 15)) });
  cols.push({ name: 'i16_small', type: new arrow.Int16(), values: Array.from({ length: N }, () => rng.int(-8, 7)) });
  cols.push({ name: 'i64_sorted', type: new arrow.Int64(), values: Array.from({ length: N }, (_, i) => 9007199254000000n + BigInt(i) * 1000003n) });
  return {
    name: 'ints', numRows: N, cols,
    notes: 'All integer widths: random values of mixed magnitude (random bit length, ~9% uniform over the full range) '
      + 'incl. min/max, 0 and (64-bit) values beyond 2^53; small ranges (bit-packing, negative small ints), a sorted int64 '
      + 'sequence above 2^53.',
  };
}

function fxIntsLevels() {
  const rng = new Rng('ints_levels');
  const N = 5000;
  const runs = [];
  while (runs.length < N) { const v = rng.int(-3, 3), len = rng.int(1, 60); for (let k = 0; k < len && runs.length < N; k++) runs.push(v); }
  const u64 = fullRangeInts(rng, 'uint64', N).map((v, i) => (i > 8 && rng.chance(0.9) ? v % 100000n : v));
  return {
    name: 'ints_levels', numRows: N,
    cols: [
      { name: 'i32_null', type: new arrow.Int32(), values: withNulls(rng, Array.from({ length: N }, () => rng.int(-500, 500)), 0.1) },
      { name: 'u64_null', type: new arrow.Uint64(), values: withNulls(rng, u64, 0.1) },
      { name: 'i32_sorted', type: new arrow.Int32(), values: Array.from({ length: N }, (_, i) => i * 3 - 1000), nullable: false },
      { name: 'i64_runs', type: new arrow.Int64(), values: runs.map(BigInt) },
      { name: 'u8_null', type: new arrow.Uint8(), values: withNulls(rng, Array.from({ length: N }, () => rng.int(0, 255)), 0.3) },
    ],
    notes: '5000 rows, so nullable columns have > 1024 definition levels and several mini-block chunks: int32 and uint64 '
      + '(incl. 2^64-1) with ~10% nulls, uint8 with ~30% nulls; a sorted non-nullable int32; int64 runs of repeated values (RLE).',
  };
}

function fxFloats() {
  const rng = new Rng('floats');
  const N = 800;
  const f64specials = [NaN, Infinity, -Infinity, -0, 0, 1e-10, 1e25, -1e25, 5e-324, -5e-324, 2.2250738585072014e-308,
    1.7976931348623157e308, -1.7976931348623157e308, 0.1, 0.2, 0.30000000000000004, 1e21, 1e-7, 123456789012345680000,
    9.999999999999999e20, 1.0000000000000001e-7, 1e-6, 123e-20, 1.5, -2.5, 100, 1e300, 2 ** 53, 2 ** 53 + 2, Math.PI, -Math.E];
  const f32specials = [NaN, Infinity, -Infinity, -0, 0, 1e-10, 1e25, -1e25, 1.401298464324817e-45, 1.1754943508222875e-38,
    3.4028234663852886e38, -3.4028234663852886e38, 0.1, 16777216, 16777217, 1e21, 1e-7, 2 ** -126, 2 ** 100, 2 ** -100, 1.5, 3.14159];
  const f16specials = [NaN, Infinity, -Infinity, -0, 0, 65504, -65504, 2 ** -24, 2 ** -14, 6.1e-5, 0.1, 0.3333, 1, 1.5, 2048, 2049, 4095, 1e-7, 1e4, 0.5];
  const mixed = () => {
    const r = rng.next();
    if (r < 0.3) return (rng.next() - 0.5) * 200;
    if (r < 0.6) return (rng.next() - 0.5) * 10 ** rng.int(-30, 30);
    if (r < 0.8) return rng.int(-100000, 100000);
    return rng.int(-1000, 1000) / 100;
  };
  const gen = (specials, round, nullP) => {
    const vals = Array.from({ length: N }, () => round(mixed()));
    specials.forEach((s, i) => { vals[i] = round(s); vals[N - 1 - i * 7] = round(s); });
    return nullP ? vals.map((v, i) => (i >= specials.length && rng.chance(nullP) ? null : v)) : vals;
  };
  const f16round2 = (x) => { const r = f16round(x); return r; };
  const cols = [
    { name: 'f16', type: new arrow.Float16(), values: gen(f16specials, f16round2, 0) },
    { name: 'f16_null', type: new arrow.Float16(), values: gen(f16specials, f16round2, 0.15) },
    { name: 'f32', type: new arrow.Float32(), values: gen(f32specials, Math.fround, 0) },
    { name: 'f32_null', type: new arrow.Float32(), values: gen(f32specials, Math.fround, 0.1) },
    { name: 'f64', type: new arrow.Float64(), values: gen(f64specials, (x) => x, 0) },
    { name: 'f64_null', type: new arrow.Float64(), values: gen(f64specials, (x) => x, 0.1) },
    { name: 'f32_const', type: new arrow.Float32(), values: Array(N).fill(1.5) },
    { name: 'f64_const', type: new arrow.Float64(), values: Array(N).fill(0.1) },
  ];
  // a NaN with a non-canonical payload in f64 (still renders NaN)
  return {
    name: 'floats', numRows: N, cols,
    notes: 'float16/32/64: random values over many magnitudes, NaN, +-Infinity, -0, subnormals, max/min, 1e-7 and 1e21 '
      + '(ECMAScript layout switch points), nulls; constant columns (RLE in 2.1, ConstantLayout in 2.2+).',
  };
}

function fxStrings() {
  const rng = new Rng('strings');
  const N = 1500;
  const shortUnique = Array.from({ length: N }, (_, i) => `${rng.pick(WORDS)} ${rng.pick(WORDS)} ${rng.pick(WORDS)}-${i}-${rng.u32().toString(36)}`);
  if (enc.encode(shortUnique.join('')).length < 33 * 1024) throw new Error('s_unique too small for FSST');
  const cats = ['red', 'green', 'blue', 'cyan', 'magenta', 'yellow', 'black', 'white'];
  const lowCard = Array.from({ length: N }, () => rng.pick(cats));
  const mixed = Array.from({ length: N }, (_, i) => {
    const r = rng.next();
    if (r < 0.12) return null;
    if (r < 0.2) return '';
    if (r < 0.35) return rng.pick(UNICODE_SAMPLES);
    if (r < 0.5) return rng.pick(SPECIAL_SAMPLES);
    return sentence(rng, 1, 40) + (i % 3 === 0 ? ` #${i}` : '');
  });
  mixed[0] = '\uFEFFstarts with a BOM'; mixed[1] = ''; mixed[2] = null; mixed[3] = 'a,b "c"\nd\te\\f';
  const large = Array.from({ length: N }, (_, i) => (rng.chance(0.1) ? null : i % 11 === 0 ? rng.pick(UNICODE_SAMPLES) : sentence(rng, 0, 30)));
  large[0] = '\uFEFF'; large[1] = '';
  const bytes = (len) => Uint8Array.from({ length: len }, () => rng.int(0, 255));
  const bin = Array.from({ length: N }, () => (rng.chance(0.1) ? null : bytes(rng.int(0, 12))));
  bin[0] = new Uint8Array(0); bin[1] = Uint8Array.from([0xef, 0xbb, 0xbf]); bin[2] = Uint8Array.from([0, 255, 128]);
  const lbin = Array.from({ length: N }, () => (rng.chance(0.1) ? null : bytes(rng.int(0, 8))));
  lbin[0] = new Uint8Array(0);
  const fsb = Array.from({ length: N }, () => (rng.chance(0.1) ? null : bytes(16)));
  fsb[0] = new Uint8Array(16); fsb[1] = new Uint8Array(16).fill(255);
  const cols = [
    { name: 's_unique', type: new arrow.Utf8(), values: shortUnique, nullable: false },
    { name: 's_dict', type: new arrow.Utf8(), values: lowCard },
    { name: 's_mixed', type: new arrow.Utf8(), values: mixed },
    { name: 'ls', type: new arrow.LargeUtf8(), values: large },
    { name: 'bin', type: new arrow.Binary(), values: bin },
    { name: 'lbin', type: new arrow.LargeBinary(), values: lbin },
    { name: 'fsb16', type: new arrow.FixedSizeBinary(16), values: fsb },
  ];
  return {
    name: 'strings', numRows: N, cols,
    notes: 's_unique: unique short strings (> 32 KiB, FSST); s_dict: 8 distinct values (dictionary); s_mixed: nulls, '
      + 'empty strings, unicode, a leading BOM (row 0), CSV/TSV specials (comma, quote, CR, LF, tab, backslash, control chars); '
      + 'large_utf8, binary, large_binary, fixed_size_binary(16) with nulls.',
  };
}

function fxStringsLong() {
  const rng = new Rng('strings_long');
  const N = 80;
  const medium = Array.from({ length: N }, () => sentence(rng, 280, 700));
  if (enc.encode(medium.join('')).length < 33 * 1024) throw new Error('medium too small for FSST');
  medium[5] = null; medium[6] = '\uFEFF' + sentence(rng, 300, 300); medium[7] = 'q"uo,te\n' + sentence(rng, 290, 290);
  const long = Array.from({ length: N }, (_, i) => (i % 9 === 4 ? null : sentence(rng, 1, 40)));
  long[10] = sentence(rng, 34000, 34000);
  long[57] = '\uFEFF' + sentence(rng, 33000, 33000) + '\ttab, "quote"\nend';
  long[58] = ''; long[70] = 'short';
  return {
    name: 'strings_long', numRows: N,
    cols: [
      { name: 'medium', type: new arrow.Utf8(), values: medium },
      { name: 'long', type: new arrow.Utf8(), values: long },
    ],
    notes: 'medium: 280-700 byte strings (full-zip, FSST); long: two ~33-34 KB values (> 32 KiB) among short ones '
      + '(full-zip, per-value zstd), nulls, an empty string, BOM and CSV specials.',
  };
}

function fxTemporal() {
  const rng = new Rng('temporal');
  const N = 200;
  const nullP = 0.1;
  const day = () => (rng.chance(0.05) ? rng.int(-1000000, 3500000) : rng.int(-40000, 40000));
  const d32 = Array.from({ length: N }, day);
  Object.assign(d32, { 0: 0, 1: -1, 2: -719528, 3: -719529, 4: 2932896, 5: 2932897, 6: 11016, 7: -25567, 8: 19000 });
  const d64 = Array.from({ length: N }, (_, i) => BigInt(day()) * 86400000n + (i % 4 === 0 ? BigInt(rng.int(0, 86399999)) : 0n));
  Object.assign(d64, { 0: 0n, 1: -1n, 2: -86400000n, 3: 1n, 4: -62167219200000n, 5: 253402300800000n, 6: 951782400000n });
  const cols = [
    { name: 'date32', type: new arrow.DateDay(), values: withNulls(rng, d32, nullP) },
    { name: 'date64', type: new arrow.DateMillisecond(), values: withNulls(rng, d64, nullP) },
  ];
  const timeCols = [['time32_s', new arrow.TimeSecond(), 86400], ['time32_ms', new arrow.TimeMillisecond(), 86400000],
    ['time64_us', new arrow.TimeMicrosecond(), 86400000000n], ['time64_ns', new arrow.TimeNanosecond(), 86400000000000n]];
  for (const [name, type, max] of timeCols) {
    const big = typeof max === 'bigint';
    const vals = Array.from({ length: N }, () => (big ? rng.bigRange(0n, max - 1n) : rng.int(0, max - 1)));
    vals[0] = big ? 0n : 0; vals[1] = big ? max - 1n : max - 1;
    cols.push({ name, type, values: withNulls(rng, vals, nullP) });
  }
  // timestamps: mostly 1900..2100, some far away (within the int64 range of the unit)
  const secRange = (unit) => {
    const lim = unit === TimeUnit.NANOSECOND ? 9000000000n : 250000000000n; // ns: +-285 years; others: +-7900 years
    return lim;
  };
  for (const [tzName, tz] of [['', null], ['_utc', 'UTC'], ['_ny', 'America/New_York']]) {
    for (const unit of [TimeUnit.SECOND, TimeUnit.MILLISECOND, TimeUnit.MICROSECOND, TimeUnit.NANOSECOND]) {
      if (tz === 'America/New_York' && (unit === TimeUnit.MILLISECOND || unit === TimeUnit.MICROSECOND)) continue;
      const per = UNIT_PER_SEC[unit], lim = secRange(unit);
      const vals = Array.from({ length: N }, () => {
        const secs = rng.chance(0.1) ? rng.bigRange(-lim, lim) : rng.bigRange(-2208988800n, 4102444800n);
        return secs * per + (per > 1n ? rng.bigRange(0n, per - 1n) : 0n);
      });
      vals[0] = 0n; vals[1] = -1n; vals[2] = 1n; vals[3] = -per; vals[4] = 951782400n * per + per / 2n;
      if (unit === TimeUnit.SECOND) { vals[5] = 253402300800n; vals[6] = -62167219201n; vals[7] = 32503680000n * 10n; }
      cols.push({ name: `ts_${UNIT_NAME[unit]}${tzName}`, type: new arrow.Timestamp(unit, tz), values: withNulls(rng, vals, nullP) });
    }
  }
  for (const unit of [TimeUnit.SECOND, TimeUnit.MILLISECOND, TimeUnit.MICROSECOND, TimeUnit.NANOSECOND]) {
    const vals = Array.from({ length: N }, () => (rng.chance(0.1) ? rng.bigRange(-(2n ** 62n), 2n ** 62n) : rng.bigRange(-1000000000n, 1000000000n)));
    vals[0] = 0n; vals[1] = -1n; vals[2] = 2n ** 63n - 1n; vals[3] = -(2n ** 63n);
    cols.push({ name: `dur_${UNIT_NAME[unit]}`, type: new arrow.Duration(unit), values: withNulls(rng, vals, nullP) });
  }
  return {
    name: 'temporal', numRows: N, cols,
    notes: 'date32/date64 (incl. before 1970, year 0000, -0001, 9999-12-31, +10000; date64 values that are not whole days), '
      + 'time32(s,ms), time64(us,ns) incl. 00:00:00 and 23:59:59.999..., timestamps in all units without zone, with UTC '
      + 'and (s, ns) with America/New_York (printed as UTC with Z), durations incl. int64 min/max; ~10% nulls everywhere.',
  };
}

function fxDecimals() {
  const rng = new Rng('decimals');
  const N = 300;
  const dec = (p) => {
    const max = 10n ** BigInt(p) - 1n;
    return () => {
      const r = rng.next();
      if (r < 0.3) return rng.bigRange(-999n, 999n);
      if (r < 0.6) return rng.bigRange(-max, max);
      return rng.bigRange(-(10n ** BigInt(rng.int(1, p))), 10n ** BigInt(rng.int(1, p)));
    };
  };
  const gen = (p) => {
    const g = dec(p), max = 10n ** BigInt(p) - 1n;
    const vals = Array.from({ length: N }, g);
    Object.assign(vals, { 0: 0n, 1: max, 2: -max, 3: 1n, 4: -1n, 5: -50n, 6: 1250n, 7: -1250n });
    return withNulls(rng, vals, 0.1).map((v, i) => (i < 8 ? vals[i] : v));
  };
  return {
    name: 'decimals', numRows: N,
    cols: [
      { name: 'd10_2', type: new arrow.Decimal(2, 10, 128), values: gen(10) },
      { name: 'd38_10', type: new arrow.Decimal(10, 38, 128), values: gen(38) },
      { name: 'd5_0', type: new arrow.Decimal(0, 5, 128), values: gen(5) },
      { name: 'd4_neg2', type: new arrow.Decimal(-2, 4, 128), values: gen(4) },
      { name: 'd50_5', type: new arrow.Decimal(5, 50, 256), values: gen(50) },
      { name: 'd76_0', type: new arrow.Decimal(0, 76, 256), values: gen(76) },
    ],
    notes: 'decimal128(10,2), (38,10), (5,0), (4,-2) [negative scale], decimal256(50,5), (76,0): zero, +-max for the '
      + 'precision, -0.50-style values, negatives, ~10% nulls.',
  };
}

function fxMisc() {
  const rng = new Rng('misc');
  const N = 600;
  const dictVals = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', '', 'unused entry', '\uFEFFbom'];
  const d32 = Array.from({ length: N }, () => (rng.chance(0.1) ? null : rng.pick(dictVals.filter((v) => v !== 'unused entry'))));
  const d8vals = ['x', 'y', 'z,comma', 'w "q"'];
  const d8 = Array.from({ length: N }, () => (rng.chance(0.2) ? null : rng.pick(d8vals)));
  return {
    name: 'misc', numRows: N,
    cols: [
      { name: 'b', type: new arrow.Bool(), values: Array.from({ length: N }, () => rng.chance(0.5)) },
      { name: 'b_null', type: new arrow.Bool(), values: Array.from({ length: N }, () => (rng.chance(0.15) ? null : rng.chance(0.3))) },
      { name: 'b_true', type: new arrow.Bool(), values: Array(N).fill(true), nullable: false },
      { name: 'null_i32', type: new arrow.Int32(), values: Array(N).fill(null) },
      { name: 'null_utf8', type: new arrow.Utf8(), values: Array(N).fill(null) },
      { name: 'null_type', type: new arrow.Null(), values: Array(N).fill(null) },
      { name: 'const_i64', type: new arrow.Int64(), values: Array(N).fill(42n) },
      { name: 'const_utf8', type: new arrow.Utf8(), values: Array(N).fill('constant value') },
      { name: 'dict_i32', type: new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32(), 0), values: d32, extra: { dictValues: dictVals } },
      { name: 'dict_i8', type: new arrow.Dictionary(new arrow.Utf8(), new arrow.Int8(), 1), values: d8, extra: { dictValues: d8vals } },
    ],
    notes: 'bool (random, with nulls, all true non-nullable), all-null int32 and utf8, Arrow null type, constant int64 (42) '
      + 'and utf8, Arrow dictionary<int32,utf8> (with an unused entry, an empty string and a BOM value) and '
      + 'dictionary<int8,utf8>, with nulls.',
  };
}

function fxEmpty() {
  return {
    name: 'empty', numRows: 0,
    cols: [
      { name: 'id', type: new arrow.Int64(), values: [] },
      { name: 'name', type: new arrow.Utf8(), values: [] },
      { name: 'score', type: new arrow.Float64(), values: [] },
      { name: 'flag', type: new arrow.Bool(), values: [] },
      { name: 'ts', type: new arrow.Timestamp(TimeUnit.MICROSECOND, 'UTC'), values: [] },
    ],
    notes: 'Zero rows. Lance writes no data file for an empty table, so this fixture is a dataset directory '
      + '(_versions/ manifest only, no data/). Manifest bytes contain timestamps/UUIDs and differ between runs.',
  };
}

function fxMultipage() {
  const rng = new Rng('multipage');
  const N = 2000, batch = 100;
  const cats = ['north', 'south', 'east', 'west', 'center'];
  return {
    name: 'multipage', numRows: N, batchRows: batch, minPages: 3,
    cols: [
      { name: 'id', type: new arrow.Int64(), values: Array.from({ length: N }, (_, i) => BigInt(i) * 1000003n - 5000000n) },
      { name: 'val', type: new arrow.Int32(), values: Array.from({ length: N }, () => (rng.chance(0.1) ? null : rng.int(-100000, 100000))) },
      { name: 'txt', type: new arrow.Utf8(), values: Array.from({ length: N }, (_, i) => (rng.chance(0.05) ? null : `${sentence(rng, 5, 25)} ${i}`)) },
      { name: 'cat', type: new arrow.Utf8(), values: Array.from({ length: N }, () => rng.pick(cats)) },
      { name: 'pad', type: new arrow.FixedSizeBinary(16384), values: Array(N).fill(null) },
    ],
    notes: 'Written as 20 record batches of 100 rows; the all-null fixed_size_binary(16384) column "pad" inflates the '
      + 'in-memory batch size so that Lance flushes pages every few batches: all other columns have several pages, '
      + 'with different page boundaries per column (see leaf_column_pages).',
  };
}

function fxSample() {
  const rng = new Rng('sample-products');
  const N = 2000;
  const cats = ['books', 'electronics', 'garden', 'kitchen', 'toys', 'sports', 'music', 'clothing'];
  const adj = ['Compact', 'Deluxe', 'Eco', 'Classic', 'Smart', 'Portable', 'Rugged', 'Vintage', 'Ultra', 'Mini'];
  const nouns = { books: ['Novel', 'Cookbook', 'Atlas', 'Notebook'], electronics: ['Headphones', 'Charger', 'Speaker', 'Camera'],
    garden: ['Trowel', 'Hose', 'Planter', 'Rake'], kitchen: ['Kettle', 'Blender', 'Skillet', 'Knife Set'],
    toys: ['Puzzle', 'Robot', 'Kite', 'Board Game'], sports: ['Yoga Mat', 'Football', 'Racket', 'Helmet'],
    music: ['Ukulele', 'Metronome', 'Guitar Strings', 'Drum Pad'], clothing: ['Jacket', 'Scarf', 'Sneakers', 'Hat'] };
  const t0 = 1672531200000000n; // 2023-01-01T00:00:00Z in us
  const rows = Array.from({ length: N }, (_, i) => {
    const c = rng.pick(cats);
    return {
      id: BigInt(100000 + i), name: `${rng.pick(adj)} ${rng.pick(nouns[c])}${rng.chance(0.2) ? `, size ${rng.pick(['S', 'M', 'L'])}` : ''}`,
      category: c, price: rng.int(99, 49999) / 100, in_stock: rng.chance(0.8), created: t0 + rng.bigRange(0n, 63072000000000n),
    };
  });
  return {
    name: 'products', out: 'sample', versions: ['2.2'], numRows: N,
    cols: [
      { name: 'id', type: new arrow.Int64(), values: rows.map((r) => r.id), nullable: false },
      { name: 'name', type: new arrow.Utf8(), values: rows.map((r) => r.name) },
      { name: 'category', type: new arrow.Utf8(), values: rows.map((r) => r.category) },
      { name: 'price', type: new arrow.Float64(), values: rows.map((r) => r.price) },
      { name: 'in_stock', type: new arrow.Bool(), values: rows.map((r) => r.in_stock) },
      { name: 'created', type: new arrow.Timestamp(TimeUnit.MICROSECOND, 'UTC'), values: rows.map((r) => r.created) },
    ],
    notes: 'README demo table: 2000 products, written as Lance 2.2.',
  };
}

// ---------------------------------------------------------------------------------------------
// Nested fixtures (phase 2)
// ---------------------------------------------------------------------------------------------

const F = (name, type, nullable = true) => new Field(name, type, nullable);

function fxNestedLists() {
  const rng = new Rng('nested_lists');
  const N = 800;
  const listI32 = Array.from({ length: N }, () => {
    const r = rng.next();
    if (r < 0.08) return null;
    if (r < 0.16) return [];
    return Array.from({ length: rng.int(1, 6) }, () => (rng.chance(0.1) ? null : rng.int(-1000, 1000)));
  });
  Object.assign(listI32, { 0: null, 1: [], 2: [null], 3: [1, null, 3], 4: [2147483647, -2147483648] });
  const listUtf8 = Array.from({ length: N }, () => (rng.chance(0.1) ? null
    : Array.from({ length: rng.int(0, 4) }, () => (rng.chance(0.1) ? null : rng.chance(0.2) ? rng.pick(SPECIAL_SAMPLES.concat(UNICODE_SAMPLES)) : sentence(rng, 0, 12)))));
  listUtf8[0] = ['\uFEFFbom', '', null, 'a,b'];
  const listList = Array.from({ length: N }, () => (rng.chance(0.1) ? null
    : Array.from({ length: rng.int(0, 3) }, () => (rng.chance(0.15) ? null : Array.from({ length: rng.int(0, 3) }, () => (rng.chance(0.1) ? null : rng.int(0, 99)))))));
  Object.assign(listList, { 0: [[], null, [null, 1]], 1: [], 2: [[]], 3: null });
  return {
    name: 'nested_lists', numRows: N,
    cols: [
      { name: 'l_i32', type: new arrow.List(F('item', new arrow.Int32())), values: listI32 },
      { name: 'l_utf8', type: new arrow.List(F('item', new arrow.Utf8())), values: listUtf8 },
      { name: 'l_l_i32', type: new arrow.List(F('item', new arrow.List(F('item', new arrow.Int32())))), values: listList },
    ],
    notes: 'list<int32> with null lists, empty lists and null items; list<utf8>; list<list<int32>> with null/empty at both '
      + 'levels. (large_list is not available in apache-arrow JS 18, so it is not covered.)',
  };
}

function fxNestedFsl() {
  const rng = new Rng('nested_fsl');
  const N = 100;
  const vec = (n) => Array.from({ length: n }, () => Math.fround(rng.int(-400, 400) / 16));
  const v4 = Array.from({ length: N }, () => (rng.chance(0.1) ? null : vec(4)));
  const v128 = Array.from({ length: N }, () => (rng.chance(0.1) ? null : vec(128)));
  v4[0] = [0, -0, NaN, Infinity].map(Math.fround); v4[1] = [0.1, -1e-7, 3.4028234663852886e38, 1e-45].map(Math.fround);
  v128[0] = vec(128).map((x, k) => Math.fround(x + k / 3));
  const v4n = Array.from({ length: N }, () => (rng.chance(0.1) ? null : vec(4).map((x) => (rng.chance(0.2) ? null : x))));
  const fslI8 = Array.from({ length: N }, () => (rng.chance(0.1) ? null : Array.from({ length: 3 }, () => rng.int(-128, 127))));
  return {
    name: 'nested_fsl', numRows: N,
    cols: [
      { name: 'v4', type: new arrow.FixedSizeList(4, F('item', new arrow.Float32())), values: v4 },
      { name: 'v4_null_items', type: new arrow.FixedSizeList(4, F('item', new arrow.Float32())), values: v4n },
      { name: 'v128', type: new arrow.FixedSizeList(128, F('item', new arrow.Float32())), values: v128 },
      { name: 'fsl_i8', type: new arrow.FixedSizeList(3, F('item', new arrow.Int8())), values: fslI8 },
    ],
    notes: 'fixed_size_list<float32,4> (mini-block) and <float32,128> (full-zip) with null vectors (child slots of a null '
      + 'vector are null), fixed_size_list<float32,4> with null items, fixed_size_list<int8,3>.',
  };
}

function fxNestedStructs() {
  const rng = new Rng('nested_structs');
  const N = 600;
  const sAB = new arrow.Struct([F('a', new arrow.Int32()), F('b', new arrow.Utf8())]);
  const st = Array.from({ length: N }, () => (rng.chance(0.1) ? null : {
    a: rng.chance(0.1) ? null : rng.int(-1000, 1000), b: rng.chance(0.1) ? null : rng.pick(SPECIAL_SAMPLES.concat([sentence(rng, 0, 10)])),
  }));
  Object.assign(st, { 0: { a: null, b: null }, 1: null, 2: { a: 1, b: '\uFEFF' } });
  const inner = new arrow.Struct([F('x', new arrow.Float64()), F('tags', new arrow.List(F('item', new arrow.Utf8())))]);
  const outer = new arrow.Struct([F('id', new arrow.Int64()), F('inner', inner)]);
  const deep = Array.from({ length: N }, () => (rng.chance(0.08) ? null : {
    id: BigInt(rng.int(0, 1e9)),
    inner: rng.chance(0.1) ? null : { x: rng.chance(0.1) ? null : rng.int(-10000, 10000) / 8, tags: rng.chance(0.1) ? null : Array.from({ length: rng.int(0, 3) }, () => rng.pick(WORDS)) },
  }));
  const listStruct = Array.from({ length: N }, () => (rng.chance(0.1) ? null
    : Array.from({ length: rng.int(0, 3) }, () => (rng.chance(0.1) ? null : { a: rng.chance(0.1) ? null : rng.int(0, 100), b: sentence(rng, 0, 8) }))));
  Object.assign(listStruct, { 0: [], 1: [null], 2: [{ a: null, b: null }] });
  const structList = Array.from({ length: N }, () => (rng.chance(0.1) ? null
    : { n: rng.int(0, 9), vals: rng.chance(0.1) ? null : Array.from({ length: rng.int(0, 4) }, () => (rng.chance(0.1) ? null : rng.int(0, 1000))) }));
  return {
    name: 'nested_structs', numRows: N,
    cols: [
      { name: 's', type: sAB, values: st },
      { name: 'deep', type: outer, values: deep },
      { name: 'l_s', type: new arrow.List(F('item', sAB)), values: listStruct },
      { name: 's_l', type: new arrow.Struct([F('n', new arrow.Int32()), F('vals', new arrow.List(F('item', new arrow.Int32())))]), values: structList },
    ],
    notes: 'struct{a int32, b utf8} nullable with null children; struct{id, inner struct{x double, tags list<utf8>}}; '
      + 'list<struct{a,b}>; struct{n int32, vals list<int32>}.',
  };
}

function fxNestedMap() {
  const rng = new Rng('nested_map');
  const N = 400;
  const entries = new arrow.Struct([F('key', new arrow.Utf8(), false), F('value', new arrow.Int32())]);
  const mapType = new arrow.Map_(F('entries', entries, false), false);
  const m = Array.from({ length: N }, () => (rng.chance(0.1) ? null
    : Array.from({ length: rng.int(0, 4) }, (_, k) => [`${rng.pick(WORDS)}${k}`, rng.chance(0.1) ? null : rng.int(-100, 100)])));
  Object.assign(m, { 0: [], 1: null, 2: [['k,"q"', null], ['\uFEFF', 1]] });
  return {
    name: 'nested_map', numRows: N,
    cols: [{ name: 'm', type: mapType, values: m }],
    notes: 'map<utf8, int32> with null maps, empty maps and null values (Lance writes maps only for 2.2+).',
  };
}

function fxNestedMultipage() {
  const rng = new Rng('nested_multipage');
  const N = 1500, batch = 75;
  return {
    name: 'nested_multipage', numRows: N, batchRows: batch, minPages: 3,
    cols: [
      { name: 'l', type: new arrow.List(F('item', new arrow.Int32())), values: Array.from({ length: N }, () => (rng.chance(0.1) ? null : Array.from({ length: rng.int(0, 5) }, () => (rng.chance(0.1) ? null : rng.int(0, 10000))))) },
      { name: 's', type: new arrow.Struct([F('a', new arrow.Int32()), F('b', new arrow.Utf8())]), values: Array.from({ length: N }, (_, i) => (rng.chance(0.1) ? null : { a: i, b: rng.chance(0.1) ? null : sentence(rng, 1, 12) })) },
      { name: 'pad', type: new arrow.FixedSizeBinary(16384), values: Array(N).fill(null) },
    ],
    notes: 'list<int32> and struct{a,b} split into several pages (same padding trick as "multipage").',
  };
}

// ---------------------------------------------------------------------------------------------

function fixtureHelpers() {
  return { arrow, lancedb, Rng, F, sentence, SPECIAL_SAMPLES, UNICODE_SAMPLES, makeTable, typeName, fullRangeInts,
    fmtFloat, f16round, f16ToNumber, numberToF16Bits, fmtDate, fmtDateTime, fmtTime, fmtDecimal, jsonString, renderGoldens,
    civilFromDays, mulberry32,
    // The table factories above, so that fixture modules can write the same tables in other
    // versions (e.g. scripts/fixtures/v2_0.mjs).
    tables: { fxInts, fxIntsLevels, fxFloats, fxStrings, fxStringsLong, fxTemporal, fxDecimals, fxMisc, fxMultipage,
      fxNestedLists, fxNestedFsl, fxNestedStructs, fxNestedMap, fxNestedMultipage } };
}

async function main() {
  const args = process.argv.slice(2);
  const onlyIdx = args.indexOf('--only');
  const only = onlyIdx >= 0 ? new Set(args[onlyIdx + 1].split(',')) : null;
  const phase1 = [fxInts, fxIntsLevels, fxFloats, fxStrings, fxStringsLong, fxTemporal, fxDecimals, fxMisc, fxEmpty, fxMultipage, fxSample];
  const phase2 = [fxNestedLists, fxNestedFsl, fxNestedStructs, fxNestedMap, fxNestedMultipage];
  // More fixture sets live in scripts/fixtures/*.mjs: each default-exports a function that
  // takes the shared helpers (below) and returns an array of factories returning fixture
  // descriptions like the fx* functions here. (Helpers are passed in, not imported, because
  // this module is still evaluating while it loads them.)
  const extra = [];
  const modDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
  if (fs.existsSync(modDir)) {
    for (const f of fs.readdirSync(modDir).filter((n) => n.endsWith('.mjs')).sort()) {
      const mod = await import(path.join(modDir, f));
      extra.push(...mod.default(fixtureHelpers()));
    }
  }
  tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'lance-fixtures-'));
  if (!only) for (const d of [FIXTURES, GOLDEN, SAMPLE]) fs.rmSync(d, { recursive: true, force: true });
  fs.mkdirSync(FIXTURES, { recursive: true });
  fs.mkdirSync(GOLDEN, { recursive: true });
  fs.mkdirSync(SAMPLE, { recursive: true });
  try {
    for (const mk of [...phase1, ...phase2, ...extra]) {
      const fx = mk();
      if (only && !only.has(fx.name)) continue;
      console.log(`${fx.name}:`);
      await generate(fx);
    }
  } finally {
    fs.rmSync(tmpRoot, { recursive: true, force: true });
  }
  const out = {
    generator: 'scripts/gen-fixtures.mjs',
    lance: '@lancedb/lancedb 0.31.0 (Lance 8.0)',
    paths_relative_to: 'data/',
    golden_formats: ['jsonl', 'json', 'csv', 'tsv'],
    rejected,
    fixtures: index,
  };
  // pretty-print, but keep arrays of numbers on one line
  const text = JSON.stringify(out, null, 2)
    .replace(/\[[\s\d,.-]*\]/g, (m) => m.replace(/\s+/g, '').replace(/,/g, ', '))
    .replace(/\[(\s*\[[\d, .-]*\],?)+\s*\]/g, (m) => m.replace(/\s+/g, '').replace(/,/g, ', '));
  if (!only) {
    writeOut(path.join(FIXTURES, 'index.json'), text + '\n');
  } else {
    // --only: replace just the regenerated entries of the existing index.
    const idxPath = path.join(FIXTURES, 'index.json');
    const prev = fs.existsSync(idxPath) ? JSON.parse(fs.readFileSync(idxPath, 'utf8')) : { ...out, fixtures: [], rejected: [] };
    const tables = new Set(index.map((e) => e.table));
    prev.fixtures = [...prev.fixtures.filter((e) => !tables.has(e.table)), ...index];
    prev.rejected = [...(prev.rejected || []).filter((e) => !only.has(e.fixture)), ...rejected];
    const merged = JSON.stringify(prev, null, 2)
      .replace(/\[[\s\d,.-]*\]/g, (m) => m.replace(/\s+/g, '').replace(/,/g, ', '))
      .replace(/\[(\s*\[[\d, .-]*\],?)+\s*\]/g, (m) => m.replace(/\s+/g, '').replace(/,/g, ', '));
    writeOut(idxPath, merged + '\n');
    console.log('(--only: merged into index.json)');
  }
  if (stats.float32Ties || stats.float16Ties) console.warn(`note: shortest-decimal ties: ${JSON.stringify(stats)}`);
  console.log(`done: ${index.length} fixture files, ${rejected.length} rejected columns`);
}

// Run only when executed directly (the formatting helpers are importable for self-checks).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();

export { fxNestedLists, fxNestedFsl, fxNestedStructs, fxNestedMap, fxInts, fxIntsLevels, fxFloats, fxStrings, fxStringsLong, fxTemporal, fxDecimals, fxMisc, fxMultipage, fxSample, makeTable, typeName, renderTable, fieldName, Rng, sentence,
  fmtFloat, f16round, f16ToNumber, numberToF16Bits, fmtDate, fmtDateTime, fmtTime, fmtDecimal, jsonString, renderGoldens, civilFromDays };
