#!/usr/bin/env python3
"""Node's compile cache for the production entry (bench/README.md, "Start-up the platform offers"):
would it pay for the runtime to turn the cache on itself? In the N = 25 server of a project
`bench/installed.ts --keep` left, writes two entries beside dist/src/server.js: `dyn-entry.js` (the
runtime and the generated server by dynamic import) and `cc-entry.js` (the same after
`module.enableCompileCache()`, the SDK thus compiled with the cache on: what the runtime could do).
Arms, interleaved, the order rotated each round: the static entry, the dynamic one, the runtime-enabled
cache warm and on a first start (its folder emptied before every start: a fresh container), and the
user's switch `NODE_COMPILE_CACHE` warm and first start. Each start: spawn -> `initialize` answered ->
stdin closed -> exit (the cache is written at a clean exit); user + sys CPU from wait4(2), medians.

usage: python3 bench/compile-cache-prod.py RUNS <node> <project>/serve"""
import os, sys, time, json, subprocess, statistics, select, shutil, tempfile
runs, node, cwd = int(sys.argv[1]), sys.argv[2], sys.argv[3]
dyn = 'const { serve } = await import("@mcp-gen/runtime/server");\nconst { manifest } = await import("../generated/server0/server.js");\nawait serve(manifest);\n'
open(os.path.join(cwd, "dist/src/dyn-entry.js"), "w").write(dyn)
open(os.path.join(cwd, "dist/src/cc-entry.js"), "w").write('import module from "node:module";\nmodule.enableCompileCache?.(process.env.CC_DIR);\n' + dyn)
line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "b", "version": "1"}}})
tmp = tempfile.mkdtemp(prefix="mcp-gen-cc-")
d = lambda name: os.path.join(tmp, name)
env0 = {k: v for k, v in os.environ.items() if k != "NODE_COMPILE_CACHE"}
arms = [("static entry, cache off", "dist/src/server.js", {}, None),
        ("dynamic entry, cache off", "dist/src/dyn-entry.js", {}, None),
        ("runtime-enabled cache, warm", "dist/src/cc-entry.js", {"CC_DIR": d("rt-warm")}, None),
        ("runtime-enabled cache, first start", "dist/src/cc-entry.js", {"CC_DIR": d("rt-first")}, d("rt-first")),
        ("NODE_COMPILE_CACHE, warm", "dist/src/server.js", {"NODE_COMPILE_CACHE": d("env-warm")}, None),
        ("NODE_COMPILE_CACHE, first start", "dist/src/server.js", {"NODE_COMPILE_CACHE": d("env-first")}, d("env-first"))]
def one(entry, env, wipe):
    if wipe: shutil.rmtree(wipe, ignore_errors=True)
    t0 = time.perf_counter()
    p = subprocess.Popen([node, entry], cwd=cwd, env={**env0, **env}, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    p.stdin.write((line + "\n").encode()); p.stdin.flush(); buf = b""
    while b'"id":1' not in buf:
        r, _, _ = select.select([p.stdout], [], [], 30)
        if not r: raise SystemExit("timeout " + entry)
        chunk = os.read(p.stdout.fileno(), 65536)
        if not chunk: raise SystemExit("eof " + entry)
        buf += chunk
    wall = (time.perf_counter() - t0) * 1000
    p.stdin.close()
    _, _, ru = os.wait4(p.pid, 0)
    return wall, (ru.ru_utime + ru.ru_stime) * 1000
for _, entry, env, wipe in arms:  # warm-up; writes the warm arms' caches
    one(entry, env, wipe); one(entry, env, wipe)
res = {a[0]: [] for a in arms}
for r in range(runs):
    for name, entry, env, wipe in arms[r % len(arms):] + arms[:r % len(arms)]:
        res[name].append(one(entry, env, wipe))
la = os.getloadavg()
print(f"{node} ({subprocess.run([node, '--version'], capture_output=True, text=True).stdout.strip()}): {runs} rounds, load {la[0]:.2f} {la[1]:.2f}")
base = None
for name, *_ in arms:
    w = statistics.median(x[0] for x in res[name]); c = statistics.median(x[1] for x in res[name])
    base = base or c
    print(f"{name:36s} wall {w:7.1f}  CPU to exit {c:7.1f} ms  ÷ static {c / base:.2f}")
shutil.rmtree(tmp, ignore_errors=True)
