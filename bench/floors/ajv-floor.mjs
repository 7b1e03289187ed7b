// Floor: Ajv alone compiling the validators of built contracts, as the build's validators emitter
// does (one Ajv per server, each distinct schema without its annotations compiled once, then Ajv's
// standalone code), with no TypeScript, no contract work and no other emitter.
// Usage: node bench/floors/ajv-floor.mjs <schemas/x.tools.json> [...]
import { readFileSync } from "node:fs";
import { createAjv, withoutAnnotations } from "@mcp-gen/schema";
import standaloneModule from "ajv/dist/standalone/index.js";

const standaloneCode = standaloneModule.default ?? standaloneModule;
const start = performance.now();
let schemas = 0;
let bytes = 0;
for (const file of process.argv.slice(2)) {
  const contract = JSON.parse(readFileSync(file, "utf8"));
  const ajv = createAjv({ source: true });
  const exports = {};
  const seen = new Set();
  for (const tool of contract.tools) {
    for (const slot of ["inputSchema", "outputSchema"]) {
      if (!tool[slot]) continue;
      const bare = withoutAnnotations(tool[slot]);
      const shape = JSON.stringify(bare);
      if (seen.has(shape)) continue;
      seen.add(shape);
      const key = `${slot}:${tool.name}`;
      ajv.addSchema(bare, key, undefined, false);
      ajv.getSchema(key);
      exports[`${tool.name}_${slot}`] = key;
      schemas++;
    }
  }
  bytes += standaloneCode(ajv, exports).length;
}
const ms = (performance.now() - start).toFixed(0);
process.stdout.write(
  `${schemas} schemas compiled, ${bytes} bytes of standalone code, ${ms} ms after start-up\n`,
);
