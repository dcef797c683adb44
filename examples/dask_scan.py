#!/usr/bin/env python3
"""Scan a Lance dataset with dask.distributed: one task per shard of `lance-cli plan`.

Usage:
  examples/dask_scan.py PATH OUTDIR [--shards N] [--format arrow|jsonl] [--version V]
                        [--workers N] [--processes] [--scheduler ADDRESS] [--lance-cli BIN]

1. `lance-cli plan PATH --shards N --json` pins a version (the latest unless --version) and
   splits its fragments into byte-balanced shards of consecutive fragments.
2. One dask task per shard runs
   `lance-cli scan PATH --version V --fragments <ids> -f FORMAT -o OUTDIR/part-K.<ext>`.
3. It waits for every task and prints the rows each shard wrote (from `--stats=json`),
   checked against the plan.

Part files are named part-K with K zero-padded to the width of the last shard number, so
`cat OUTDIR/part-*.jsonl` concatenates them in shard order, which is exactly the row order
of one full `lance-cli scan PATH --version V`. (Arrow parts are separate IPC streams.)

Without --scheduler it starts a LocalCluster of --workers workers (default: one per shard,
at most 4), threads in this process unless --processes: each task only waits for its
lance-cli child, so threads are enough. With --scheduler tcp://host:8786 the tasks run on an
existing cluster; every worker then needs lance-cli (--lance-cli or $LANCE_CLI or PATH) and
PATH at the same location (a shared file system), and OUTDIR must be shared too.

Debian: apt-get install python3-distributed; run with /usr/bin/python3 if another python3
comes first on PATH. Exit status: 0 ok, 1 when planning or any shard fails.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time

EXTENSIONS = {"arrow": "arrow", "jsonl": "jsonl"}


def run_lance_cli(argv):
    """Runs lance-cli; returns (stdout, stderr) or raises RuntimeError with its error line."""
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        detail = proc.stderr.strip().splitlines()[-1:] or ["(no message)"]
        raise RuntimeError(f"{' '.join(argv[:2])} exited {proc.returncode}: {detail[0]}")
    return proc.stdout, proc.stderr


def scan_shard(lance_cli, path, version, fragments, fmt, out_path):
    """One dask task: scans one shard into out_path. Returns what it wrote and where it ran."""
    ids = ",".join(str(f) for f in fragments)
    started = time.monotonic()
    _, err = run_lance_cli([lance_cli, "scan", path, "--version", str(version), "--fragments", ids,
                            "-f", fmt, "-o", out_path, "--stats=json", "-q"])
    stats = json.loads(err.strip().splitlines()[-1])
    try:
        from distributed import get_worker
        worker = get_worker().address
    except (ImportError, ValueError):
        worker = "?"
    return {"rows": stats["rows_out"], "bytes_read": stats["bytes_read"], "worker": worker,
            "seconds": time.monotonic() - started}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("path", help="Lance dataset directory")
    ap.add_argument("outdir", help="directory for part-K files (created if missing)")
    ap.add_argument("--shards", type=int, default=4, help="number of shards to plan (default: 4)")
    ap.add_argument("--format", choices=sorted(EXTENSIONS), default="arrow", help="output format (default: arrow)")
    ap.add_argument("--version", type=int, help="dataset version (default: the latest, pinned by the plan)")
    ap.add_argument("--workers", type=int, help="LocalCluster workers (default: shards, at most 4)")
    ap.add_argument("--processes", action="store_true", help="LocalCluster workers as processes, not threads")
    ap.add_argument("--scheduler", help="address of an existing dask scheduler instead of a LocalCluster")
    ap.add_argument("--lance-cli", default=os.environ.get("LANCE_CLI") or shutil.which("lance-cli") or "lance-cli",
                    help="lance-cli binary (default: $LANCE_CLI, else lance-cli on PATH)")
    args = ap.parse_args()
    if args.shards < 1:
        ap.error("--shards must be at least 1")

    try:
        from distributed import Client, LocalCluster
    except ImportError:
        sys.exit("dask_scan: dask.distributed is not installed (Debian: apt-get install python3-distributed)")

    lance_cli = os.path.abspath(args.lance_cli) if os.sep in args.lance_cli else args.lance_cli
    path = os.path.abspath(args.path)
    outdir = os.path.abspath(args.outdir)
    plan_argv = [lance_cli, "plan", path, "--shards", str(args.shards), "--json"]
    if args.version is not None:
        plan_argv += ["--version", str(args.version)]
    try:
        plan = json.loads(run_lance_cli(plan_argv)[0])
    except (RuntimeError, OSError) as e:
        sys.exit(f"dask_scan: {e}")
    version, shards = plan["version"], plan["shards"]
    os.makedirs(outdir, exist_ok=True)
    width = len(str(max(len(shards) - 1, 0)))
    ext = EXTENSIONS[args.format]
    outputs = [os.path.join(outdir, f"part-{k:0{width}d}.{ext}") for k in range(len(shards))]

    if args.scheduler:
        cluster, client = None, Client(args.scheduler)
    else:
        workers = args.workers or max(1, min(len(shards), 4))
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=args.processes,
                               dashboard_address=None)
        client = Client(cluster)
    failed = False
    try:
        n_workers = len(client.scheduler_info()["workers"])
        print(f"{path} version {version}: {plan['rows']} rows in {len(shards)} shards, {n_workers} workers",
              flush=True)
        futures = [client.submit(scan_shard, lance_cli, path, version, shard["fragments"], args.format, out,
                                 key=f"lance-scan-v{version}-shard-{k}", pure=False)
                   for k, (shard, out) in enumerate(zip(shards, outputs))]
        total = 0
        for k, (shard, future, out) in enumerate(zip(shards, futures, outputs)):
            try:
                r = future.result()
            except Exception as e:  # a failed shard: report it, keep collecting the others
                print(f"shard {k}: FAILED: {e}", file=sys.stderr)
                failed = True
                continue
            note = "" if r["rows"] == shard["rows"] else f" (the plan said {shard['rows']})"
            failed |= bool(note)
            total += r["rows"]
            print(f"shard {k}: fragments {','.join(map(str, shard['fragments']))}: {r['rows']} rows{note}, "
                  f"{r['bytes_read']} bytes read in {r['seconds']:.2f} s on {r['worker']} -> {out}", flush=True)
        print(f"total: {total} rows in {len(shards)} parts", flush=True)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
