import { defineConfig } from "@mcp-gen/codegen/config";

export default defineConfig({
  schemas: "schemas",
  generated: "generated",
  servers: {
    "smart-home": { tools: ["examples/smart-home/tools.ts"] },
    economics: {
      tools: ["examples/economics/tools.ts"],
      title: "AI-economist simulation parameters",
      version: "1.0.0",
    },
    ledger: { tools: ["examples/ledger/tools.ts"] },
    "structured-output": { tools: ["examples/structured-output/submit.ts"] },
    conformance: {
      tools: [
        "examples/conformance/tools.ts",
        "examples/conformance/modern.ts",
        "examples/conformance/catalog.ts",
        "examples/conformance/tasks.ts",
        "examples/conformance/json-schema.ts",
      ],
    },
  },
});
