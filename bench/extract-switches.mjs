// The extraction phase alone (`extract()` of the compiled packages: program, native check, IR),
// once per switch setting, in fresh processes, interleaved: the figures behind MCP_GEN_FULL_PROGRAM
// and MCP_GEN_NATIVE_CHECK.
// Usage: node bench/extract-switches.mjs <mcp-gen.config.ts> [rounds=5]
import { spawnSync } from "node:child_process";
import path from "node:path";

const [config, rounds = "5"] = process.argv.slice(2);
if (process.env.EXTRACT_CHILD) {
  const dist = path.resolve(import.meta.dirname, "../packages/codegen/dist");
  const { loadConfig } = await import(path.join(dist, "config/load.js"));
  const { extract } = await import(path.join(dist, "extract/index.js"));
  const resolved = await loadConfig({ configFile: path.resolve(config) });
  const start = performance.now();
  await extract(resolved);
  process.stdout.write(`${(performance.now() - start).toFixed(0)}\n`);
} else {
  const settings = {
    defaults: {},
    "MCP_GEN_FULL_PROGRAM=1": { MCP_GEN_FULL_PROGRAM: "1" },
    "MCP_GEN_NATIVE_CHECK=0": { MCP_GEN_NATIVE_CHECK: "0" },
  };
  const times = Object.fromEntries(Object.keys(settings).map((k) => [k, []]));
  for (let round = 0; round < Number(rounds); round++) {
    for (const [name, env] of Object.entries(settings)) {
      const child = spawnSync(process.execPath, [import.meta.filename, config], {
        env: { ...process.env, ...env, EXTRACT_CHILD: "1" },
        encoding: "utf8",
      });
      if (child.status !== 0) throw new Error(child.stderr);
      times[name].push(Number(child.stdout.trim()));
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const [name, xs] of Object.entries(times)) {
    process.stdout.write(`${name}: median ${median(xs)} ms (${xs.join(", ")})\n`);
  }
}
