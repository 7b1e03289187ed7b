import { readFileSync } from "node:fs";
import type { Contract } from "@mcp-gen/schema";
import { type Diagnostic, diagnostic, McpGenError } from "@mcp-gen/schema/diagnostics";

const TOOL_KEYS = new Set([
  "name",
  "title",
  "description",
  "inputSchema",
  "outputSchema",
  "annotations",
  "_meta",
  "icons",
  "execution",
]);

/** Reads and checks a contract file (generated, pulled or hand-written). */
export function readContract(file: string, displayName = file): Contract {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new McpGenError(
      diagnostic("MCPG041", `cannot read contract: ${(error as Error).message}`, { file: displayName }),
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new McpGenError(
      diagnostic("MCPG041", `contract is not valid JSON: ${(error as Error).message}`, { file: displayName }),
    );
  }
  return checkContract(raw, displayName);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** Checks the shape of a parsed contract; every problem is reported with its JSON pointer. */
export function checkContract(raw: unknown, file: string): Contract {
  const problems: Diagnostic[] = [];
  const bad = (pointer: string, message: string) =>
    problems.push(diagnostic("MCPG040", message, { file, pointer }));
  if (!isObject(raw)) {
    bad("", 'a contract must be an object like { "server": "name", "tools": [...] }');
    throw new McpGenError(problems);
  }
  if (typeof raw.server !== "string" || raw.server === "")
    bad("/server", '"server" must be the server name (a string)');
  for (const key of ["title", "version"]) {
    if (raw[key] !== undefined && typeof raw[key] !== "string") bad(`/${key}`, `"${key}" must be a string`);
  }
  if (
    raw.icons !== undefined &&
    (!Array.isArray(raw.icons) || raw.icons.some((i) => !isObject(i) || typeof i.src !== "string"))
  )
    bad("/icons", '"icons" must be an array of icons like [{ "src": "https://example.com/icon.png" }]');
  if (!Array.isArray(raw.tools)) bad("/tools", '"tools" must be an array of tools in MCP tools/list shape');
  else {
    const names = new Set<string>();
    raw.tools.forEach((tool, i) => {
      const at = `/tools/${i}`;
      if (!isObject(tool)) {
        bad(at, "a tool must be an object");
        return;
      }
      for (const key of Object.keys(tool))
        if (!TOOL_KEYS.has(key)) bad(`${at}/${key}`, `unknown tool field "${key}"`);
      if (typeof tool.name !== "string" || tool.name === "")
        bad(`${at}/name`, '"name" must be a non-empty string');
      else if (names.has(tool.name)) bad(`${at}/name`, `duplicate tool name "${tool.name}"`);
      else names.add(tool.name);
      for (const key of ["title", "description"]) {
        if (tool[key] !== undefined && typeof tool[key] !== "string")
          bad(`${at}/${key}`, `"${key}" must be a string`);
      }
      for (const key of ["inputSchema", "outputSchema"]) {
        const schema = tool[key];
        if (schema === undefined && key === "outputSchema") continue;
        if (!isObject(schema)) bad(`${at}/${key}`, `"${key}" must be a JSON Schema object`);
        else if (schema.type !== "object")
          bad(`${at}/${key}/type`, `"${key}" must have "type": "object" at its root (MCP)`);
      }
      if (tool.annotations !== undefined && !isObject(tool.annotations))
        bad(`${at}/annotations`, '"annotations" must be an object');
    });
  }
  checkLists(raw, bad);
  const extras = raw["x-mcp-gen"];
  if (extras !== undefined && (!isObject(extras) || !isObject(extras.tools))) {
    bad("/x-mcp-gen", '"x-mcp-gen" must be an object like { "tools": { "<tool>": {...} } }');
  } else if (extras !== undefined) {
    for (const key of ["resources", "resourceTemplates", "prompts"]) {
      if (extras[key] !== undefined && !isObject(extras[key]))
        bad(`/x-mcp-gen/${key}`, `"${key}" must be an object by name`);
    }
  }
  if (problems.length > 0) throw new McpGenError(problems);
  return raw as unknown as Contract;
}

/** The MCP list fields a resource, template or prompt may have, and the one naming it. */
const LISTS = {
  resources: {
    id: "uri",
    keys: ["uri", "name", "title", "description", "mimeType", "size", "icons", "annotations", "_meta"],
  },
  resourceTemplates: {
    id: "uriTemplate",
    keys: ["uriTemplate", "name", "title", "description", "mimeType", "icons", "annotations", "_meta"],
  },
  prompts: { id: "name", keys: ["name", "title", "description", "arguments", "icons", "_meta"] },
} as const;

/** `resources`, `resourceTemplates` and `prompts`: optional arrays in MCP list shape, prompt names unique. */
function checkLists(raw: Record<string, unknown>, bad: (pointer: string, message: string) => void): void {
  for (const [list, spec] of Object.entries(LISTS)) {
    const items = raw[list];
    if (items === undefined) continue;
    if (!Array.isArray(items)) {
      bad(`/${list}`, `"${list}" must be an array in MCP list shape`);
      continue;
    }
    const names = new Set<string>();
    items.forEach((item, i) => {
      const at = `/${list}/${i}`;
      if (!isObject(item)) {
        bad(at, "an entry must be an object");
        return;
      }
      for (const key of Object.keys(item))
        if (!(spec.keys as readonly string[]).includes(key)) bad(`${at}/${key}`, `unknown field "${key}"`);
      for (const key of new Set([spec.id, "name"])) {
        if (typeof item[key] !== "string" || item[key] === "")
          bad(`${at}/${key}`, `"${key}" must be a non-empty string`);
      }
      // prompts are named by `name`; resources by their URI (MCP does not make their names unique)
      if (list === "prompts" && typeof item.name === "string") {
        if (names.has(item.name)) bad(`${at}/name`, `duplicate name "${item.name}"`);
        names.add(item.name);
      }
      for (const key of ["title", "description", "mimeType"]) {
        if (item[key] !== undefined && typeof item[key] !== "string")
          bad(`${at}/${key}`, `"${key}" must be a string`);
      }
      if (item.icons !== undefined && !Array.isArray(item.icons))
        bad(`${at}/icons`, '"icons" must be an array');
      if (item.arguments !== undefined) {
        if (!Array.isArray(item.arguments)) bad(`${at}/arguments`, '"arguments" must be an array');
        else
          item.arguments.forEach((arg, j) => {
            if (!isObject(arg) || typeof arg.name !== "string" || arg.name === "")
              bad(`${at}/arguments/${j}`, 'an argument must be an object with a "name"');
          });
      }
    });
  }
}

/** Serialises a contract: 2-space JSON, LF, trailing newline. */
export function serializeContract(contract: Contract): string {
  return `${JSON.stringify(contract, null, 2)}\n`;
}
