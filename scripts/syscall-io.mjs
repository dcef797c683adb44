// Exact I/O counts for one process, from its system calls: runs a command under strace and
// counts the reads (pread64, preadv, read) on the files under one directory, with their bytes.
//
// Why: Lance's plan metrics print I/O operations with three significant digits ("iops=1.90 K"),
// too coarse to compare two readers that differ by a few reads. Counting system calls measures
// both readers the same way: every read of a data file, the file-opening reads included.
//
//   countReads(straceText, dir) -> { iops, bytes }
//   traceReads(cmd, args, { input, env, dir }) -> { iops, bytes } or null when strace is missing
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const STRACE = ['/usr/bin/strace', '/bin/strace'].find((p) => fs.existsSync(p)) || null;
export const haveStrace = () => STRACE !== null;

/// Parses `strace -f` output (openat, close and the read calls traced). A read counts when its
/// file descriptor was opened on a path under `dir` and not closed since; its bytes are the
/// call's return value, which may come on a later "resumed" line when threads interleave.
export function countReads(text, dir) {
  const root = path.resolve(dir) + path.sep;
  const open = new Map();     // pid-independent: descriptors are per process
  const pending = new Map();  // pid -> 'read' | 'open:<path>' | 'close:<fd>' for unfinished calls
  let iops = 0, bytes = 0;
  const under = (p) => path.resolve(p).startsWith(root);
  const finish = (kind, arg, ret) => {
    if (kind === 'open' && ret >= 0 && under(arg)) open.set(ret, arg);
    else if (kind === 'close') open.delete(arg);
    else if (kind === 'read' && ret > 0) bytes += ret;
  };
  for (const line of text.split('\n')) {
    const m = /^(\d+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const [, pid, rest] = m;
    const resumed = /^<\.\.\. (\w+) resumed>.*=\s*(-?\d+)(?:\s+[A-Z].*)?$/.exec(rest);
    if (resumed) {
      const p = pending.get(pid);
      pending.delete(pid);
      if (p) finish(p.kind, p.arg, Number(resumed[2]));
      continue;
    }
    const call = /^(\w+)\((.*)$/.exec(rest);
    if (!call) continue;
    const [, name, args] = call;
    // The return value ends the line (an error adds its name); read data may hold ") = ".
    const ret = /\)\s*=\s*(-?\d+)(?:\s+[A-Z].*)?$/.exec(args);
    const unfinished = args.includes('<unfinished ...>');
    let kind = null, arg = null;
    if (name === 'openat') { kind = 'open'; arg = (/^[^,]*,\s*"((?:[^"\\]|\\.)*)"/.exec(args) || [])[1]; }
    else if (name === 'close') { kind = 'close'; arg = Number(args.split(')')[0]); }
    else if (name === 'pread64' || name === 'preadv' || name === 'read') {
      const fd = Number(args.split(',')[0]);
      if (!open.has(fd)) continue;
      iops += 1;
      kind = 'read';
    }
    if (!kind) continue;
    if (kind === 'close') { open.delete(arg); continue; }
    if (unfinished) pending.set(pid, { kind, arg });
    else if (ret) finish(kind, arg, Number(ret[1]));
  }
  return { iops, bytes };
}

/// Runs `cmd args` under `strace -f` and counts its reads of files under `dir`.
export function traceReads(cmd, args, { input, env = {}, dir }) {
  if (!STRACE) return null;
  const out = path.join(os.tmpdir(), `lance-bench-strace-${process.pid}.txt`);
  const r = spawnSync(STRACE, ['-f', '-qq', '-e', 'trace=openat,close,read,pread64,preadv', '-o', out, cmd, ...args],
    { input, maxBuffer: 64 << 20, stdio: ['pipe', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed under strace: ${r.stderr}`);
  const counts = countReads(fs.readFileSync(out, 'utf8'), dir);
  fs.rmSync(out, { force: true });
  return counts;
}
