// Where the production entry's start goes, step by step, in one process: CPU ms (process.cpuUsage)
// of each import in the order the entry loads them, then building the server. Copy into
// <project>/serve/ of a project `bench/installed.ts --keep` left (the N = 25 server) and run
// `for i in $(seq 9); do <node> start-steps.mjs; done` (bench/README.md, "Cold start, fourth round").
// An in-process attribution: steps move ±0.5 ms between runs; take medians.
const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const out = {};
let t = cpu();
const step = (name) => {
  const now = cpu();
  out[name] = +(now - t).toFixed(2);
  t = now;
};
await import("@modelcontextprotocol/server");
await import("@modelcontextprotocol/server/stdio");
step("SDK server + stdio");
await import("./dist/generated/server0/validators.js");
step("generated validators.js");
await import("@mcp-gen/runtime/validation");
step("runtime /validation");
await import("./dist/generated/server0/index.js");
step("generated index.js");
await import("./dist/generated/server0/tools.js");
await import("./dist/tools/module0.js");
step("generated tools.js + tool module");
const runtime = await import("@mcp-gen/runtime/server");
step("runtime /server");
const { manifest } = await import("./dist/generated/server0/server.js");
step("generated server.js");
runtime.createServer(manifest);
step("createServer (catalog, factory)");
console.log(JSON.stringify(out));
process.exit(0);
