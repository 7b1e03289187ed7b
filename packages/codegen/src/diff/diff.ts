import { isDeepStrictEqual } from "node:util";
import type { Contract, ContractTool } from "@mcp-gen/schema";
import { escapeToken, scanMcpHeaders } from "@mcp-gen/schema";
import { compareSchemas, type SchemaChange } from "./compare-schema.ts";
import { diffItems } from "./resources.ts";
import { diffScopes } from "./scopes.ts";

/** One classified difference between two versions of a contract. */
export interface ContractChange extends SchemaChange {
  /** The tool it concerns, or the resource, template or prompt (`resource "rules"`, `prompt "review"`). */
  tool: string;
}

/**
 * Compares two versions of a contract tool by tool and classifies every difference as breaking
 * for existing clients or not: a removed tool, a new required parameter, a narrowed type or
 * constraint, a removed enum value, or a result that may now carry what old clients reject are
 * breaking; additions that old clients can ignore are not. Sorted by tool, then pointer; the
 * changes of resources, resource templates and prompts follow (see `diffItems`).
 *
 * @example
 * const changes = diffContracts(readContract("old.json"), readContract("schemas/memory.tools.json"));
 * const breaking = changes.filter((c) => c.breaking);
 */
export function diffContracts(old: Contract, next: Contract): ContractChange[] {
  const changes: ContractChange[] = [];
  const before = new Map(old.tools.map((t) => [t.name, t]));
  const after = new Map(next.tools.map((t) => [t.name, t]));
  for (const [name, tool] of before) {
    const now = after.get(name);
    if (!now) changes.push({ tool: name, breaking: true, pointer: "", message: `tool "${name}" removed` });
    else changes.push(...diffTool(tool, now, { old, next }).map((c) => ({ tool: name, ...c })));
  }
  for (const name of after.keys()) {
    if (!before.has(name))
      changes.push({ tool: name, breaking: false, pointer: "", message: `tool "${name}" added` });
  }
  changes.sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
  // resources, templates and prompts after the tools, in list order and then by name
  for (const { subject, ...change } of diffItems(old, next)) changes.push({ tool: subject, ...change });
  return changes;
}

/**
 * Arguments mirrored into `Mcp-Param-*` headers (MCP 2026-07-28): gateways and load balancers route
 * on them, and a server refuses a call whose header disagrees, so adding, removing or renaming
 * one is breaking for clients and infrastructure built on the old contract.
 */
function diffHeaders(a: ContractTool, b: ContractTool): SchemaChange[] {
  const byPath = (tool: ContractTool) =>
    new Map(scanMcpHeaders(tool.inputSchema).headers.map((h) => [h.path.join("\u0000"), h]));
  const before = byPath(a);
  const after = byPath(b);
  const pointerOf = (path: string[]) =>
    `/inputSchema${path.map((p) => `/properties/${escapeToken(p)}`).join("")}/x-mcp-header`;
  const out: SchemaChange[] = [];
  for (const [key, old] of before) {
    const now = after.get(key);
    const at = pointerOf(old.path);
    const argument = old.path.join(".");
    if (!now) {
      out.push({
        breaking: true,
        pointer: at,
        message: `argument "${argument}" no longer travels as header Mcp-Param-${old.name}`,
      });
    } else if (now.name !== old.name) {
      out.push({
        breaking: true,
        pointer: at,
        message: `argument "${argument}" now travels as header Mcp-Param-${now.name} instead of Mcp-Param-${old.name}`,
      });
    }
  }
  for (const [key, now] of after) {
    if (!before.has(key)) {
      out.push({
        breaking: true,
        pointer: pointerOf(now.path),
        message: `argument "${now.path.join(".")}" now also travels as header Mcp-Param-${now.name}; servers refuse 2026-07-28 calls without it`,
      });
    }
  }
  return out;
}

function diffTool(
  a: ContractTool,
  b: ContractTool,
  contracts: { old: Contract; next: Contract },
): SchemaChange[] {
  const out: SchemaChange[] = [];
  for (const key of ["title", "description"] as const) {
    if (a[key] !== b[key]) out.push({ breaking: false, pointer: `/${key}`, message: `${key} changed` });
  }
  if (!isDeepStrictEqual(a.annotations ?? {}, b.annotations ?? {})) {
    out.push({ breaking: false, pointer: "/annotations", message: "annotations changed" });
  }
  if (a.execution?.taskSupport !== b.execution?.taskSupport) {
    const required = b.execution?.taskSupport === "required";
    out.push({
      breaking: required,
      pointer: "/execution/taskSupport",
      message: `task support changed from ${a.execution?.taskSupport ?? "unset"} to ${b.execution?.taskSupport ?? "unset"}`,
    });
  }
  out.push(
    ...compareSchemas({
      old: a.inputSchema,
      next: b.inputSchema,
      direction: "input",
      pointer: "/inputSchema",
    }),
  );
  out.push(...diffHeaders(a, b));
  out.push(...diffScopes(b.name, contracts));
  const wrapped = (c: Contract, name: string) => c["x-mcp-gen"]?.tools[name]?.resultWrapped === true;
  if (wrapped(contracts.old, a.name) !== wrapped(contracts.next, b.name)) {
    out.push({
      breaking: true,
      pointer: "/outputSchema",
      message: "the result is now sent differently (wrapped as { result } or not)",
    });
  } else if (a.outputSchema && b.outputSchema) {
    out.push(
      ...compareSchemas({
        old: a.outputSchema,
        next: b.outputSchema,
        direction: "output",
        pointer: "/outputSchema",
      }),
    );
  } else if (a.outputSchema) {
    out.push({
      breaking: true,
      pointer: "/outputSchema",
      message: "output schema removed: results are no longer typed",
    });
  } else if (b.outputSchema) {
    out.push({
      breaking: false,
      pointer: "/outputSchema",
      message: "output schema added: results are now typed",
    });
  }
  return out;
}
