// One Lance take in a fresh process, for scripts/syscall-io.mjs to count its reads:
//   node lance-take-once.mjs TABLE_DIR < rows   (one row offset per line)
// Connects to the table's parent, opens the table and converts takeOffsets(rows) to Arrow.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const require = createRequire(import.meta.url);
const lancedb = require('@lancedb/lancedb');
const tableDir = process.argv[2];
const rows = fs.readFileSync(0, 'utf8').trim().split('\n').map(Number);
const db = await lancedb.connect(path.dirname(tableDir));
const tbl = await db.openTable(path.basename(tableDir, '.lance'));
const res = await tbl.takeOffsets(rows).toArrow();
if (res.numRows === 0) throw new Error('Lance returned no rows');
