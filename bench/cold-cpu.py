#!/usr/bin/env python3
"""Cold starts of stdio MCP servers with CPU time to the microsecond: spawn -> the answer to id 1
(`initialize`, or `server/discover` with --era 2026) read on stdout (wall), then SIGKILL and the
process's user + sys CPU from wait4(2) (every thread; Node cannot read a child's rusage, and /proc's
10 ms ticks are too coarse for differences of a few ms). One warm-up round, then RUNS interleaved
rounds, the order rotated each round; medians, and ratios to the first command.

usage: python3 bench/cold-cpu.py RUNS [--era 2025|2026] name=<cwd>::<command with args> ...
e.g.   python3 bench/cold-cpu.py 15 sdk=$P::node\ sdk-server.mjs entry=$P::node\ dist/src/server.js
(bench/README.md, "Cold start, third round", runs it in a project kept by bench/installed.ts --keep)"""
import os, sys, time, json, subprocess, statistics, select, signal
args = sys.argv[1:]
era = "2025"
if "--era" in args:
    i = args.index("--era"); era = args[i+1]; del args[i:i+2]
runs = int(args[0]); specs = []
for a in args[1:]:
    name, rest = a.split("=", 1)
    cwd, cmd = rest.split("::", 1)
    specs.append((name, cwd, cmd.split()))
ci = {"name":"b","version":"1"}
if era == "2025":
    line = json.dumps({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":ci}})
else:
    line = json.dumps({"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":ci,"io.modelcontextprotocol/clientCapabilities":{}}}})
def one(cwd, cmd):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    p.stdin.write((line+"\n").encode()); p.stdin.flush()
    buf = b""
    while b'"id":1' not in buf:
        r, _, _ = select.select([p.stdout], [], [], 30)
        if not r: raise SystemExit("timeout " + " ".join(cmd))
        chunk = os.read(p.stdout.fileno(), 65536)
        if not chunk: raise SystemExit("eof " + " ".join(cmd))
        buf += chunk
    wall = (time.perf_counter() - t0) * 1000
    p.send_signal(signal.SIGKILL)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = status
    return wall, (ru.ru_utime + ru.ru_stime) * 1000
res = {n: [] for n, _, _ in specs}
for r in range(-1, runs):
    order = specs[r % len(specs):] + specs[:r % len(specs)] if r >= 0 else specs
    for n, cwd, cmd in order:
        w, c = one(cwd, cmd)
        if r >= 0: res[n].append((w, c))
la = os.getloadavg()
base = None
print(f"era {era}, {runs} runs, load {la[0]:.2f} {la[1]:.2f}")
for n, _, _ in specs:
    w = statistics.median([x[0] for x in res[n]]); c = statistics.median([x[1] for x in res[n]])
    if base is None: base = (w, c)
    print(f"{n:28s} wall {w:7.1f}  cpu {c:7.1f}   wall/first {w/base[0]:.2f} cpu/first {c/base[1]:.2f}")
