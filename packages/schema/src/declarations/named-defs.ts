import { escapeToken, isSchemaObject } from "../schema-utils.ts";
import type { ApiTool } from "./api.ts";

const pascal = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("") || "T";

const LIBRARY_TYPES = [
  "Array",
  "ReadonlyArray",
  "Record",
  "Promise",
  "PromiseLike",
  "Partial",
  "Required",
  "Readonly",
  "Pick",
  "Omit",
  "Map",
  "Set",
  "Date",
  "Error",
  "Object",
  "String",
  "Number",
  "Boolean",
  "Symbol",
  "Function",
  "JSON",
  "Math",
];

export interface PendingDef {
  name: string;
  schema: unknown;
  pointer: string;
  scope: Map<string, string>;
}

/** The `$defs` of a server's schemas as named types: one per distinct definition. */
export class Defs {
  readonly pending: PendingDef[] = [];
  private readonly byJson = new Map<string, string>();
  /**
   * Type names in use (the shared shapes' too), starting with the library's that the declarations
   * use or a program may: a `$defs` entry or a shape named `Record` must not hide `Record<K, V>`.
   */
  readonly taken = new Set<string>(LIBRARY_TYPES);

  /** Names the definitions of one schema of a tool; returns its `$ref` → type name scope. */
  collect(tool: ApiTool, i: number, slot: string): Map<string, string> {
    const scope = new Map<string, string>();
    const schema = slot === "inputSchema" ? tool.inputSchema : tool.outputSchema;
    if (!schema) return scope;
    const found: PendingDef[] = [];
    for (const key of ["$defs", "definitions"]) {
      const group = schema[key];
      if (!isSchemaObject(group)) continue;
      for (const [def, defSchema] of Object.entries(group)) {
        const json = `${def}\n${JSON.stringify(defSchema)}`;
        let name = this.byJson.get(json);
        if (name === undefined) {
          name = pascal(def);
          if (this.taken.has(name)) name = `${pascal(tool.name)}${name}`;
          while (this.taken.has(name)) name = `${name}_`;
          this.taken.add(name);
          this.byJson.set(json, name);
          found.push({
            name,
            schema: defSchema,
            pointer: `/tools/${i}/${slot}/${key}/${escapeToken(def)}`,
            scope,
          });
        }
        scope.set(`#/${key}/${escapeToken(def)}`, name);
        if (isSchemaObject(defSchema) && typeof defSchema.$anchor === "string")
          scope.set(`#${defSchema.$anchor}`, name);
      }
    }
    this.pending.push(...found);
    return scope;
  }

  resolver(scope: Map<string, string>): (ref: string) => string | undefined {
    return (ref) => scope.get(ref);
  }
}
