import { isDeepStrictEqual } from "node:util";
import type { Contract, JsonSchema } from "@mcp-gen/schema";
import { compareSchemas, type SchemaChange } from "./compare-schema.ts";

/** A change of one resource, template or prompt; `subject` names it (`resource "rules"`). */
export interface ItemChange extends SchemaChange {
  subject: string;
}

type Kind = "resources" | "resourceTemplates" | "prompts";
const WORD: Record<Kind, string> = {
  resources: "resource",
  resourceTemplates: "resource template",
  prompts: "prompt",
};

interface Item {
  name: string;
  uri?: string;
  uriTemplate?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  arguments?: { name: string; required?: boolean }[];
}

/**
 * Compares the resources, resource templates and prompts of two contracts by name: a removed one,
 * a changed URI or URI template, a new required prompt argument or template variable, a removed
 * argument, a narrowed argument type or a resource value of another kind (text, binary, JSON) are
 * breaking; additions and documentation are not.
 */
export function diffItems(old: Contract, next: Contract): ItemChange[] {
  const changes: ItemChange[] = [];
  for (const kind of ["resources", "resourceTemplates", "prompts"] as const) {
    const before = new Map(((old[kind] ?? []) as Item[]).map((i) => [i.name, i]));
    const after = new Map(((next[kind] ?? []) as Item[]).map((i) => [i.name, i]));
    for (const [name, item] of before) {
      const subject = `${WORD[kind]} "${name}"`;
      const now = after.get(name);
      if (!now) changes.push({ subject, breaking: true, pointer: "", message: `${subject} removed` });
      else changes.push(...diffItem(kind, item, now, { old, next }).map((c) => ({ subject, ...c })));
    }
    for (const name of after.keys()) {
      const subject = `${WORD[kind]} "${name}"`;
      if (!before.has(name))
        changes.push({ subject, breaking: false, pointer: "", message: `${subject} added` });
    }
  }
  return changes;
}

function diffItem(
  kind: Kind,
  a: Item,
  b: Item,
  contracts: { old: Contract; next: Contract },
): SchemaChange[] {
  const out: SchemaChange[] = [];
  for (const key of ["uri", "uriTemplate"] as const) {
    if (a[key] !== b[key])
      out.push({ breaking: true, pointer: `/${key}`, message: `${key} changed from ${a[key]} to ${b[key]}` });
  }
  for (const key of ["title", "description", "mimeType"] as const) {
    if (a[key] !== b[key]) out.push({ breaking: false, pointer: `/${key}`, message: `${key} changed` });
  }
  const extras = (c: Contract) =>
    (
      c["x-mcp-gen"]?.[kind] as Record<string, { argumentsSchema?: JsonSchema; result?: unknown }> | undefined
    )?.[a.name];
  const before = extras(contracts.old);
  const after = extras(contracts.next);
  if (before?.argumentsSchema && after?.argumentsSchema) {
    out.push(
      ...compareSchemas({
        old: before.argumentsSchema,
        next: after.argumentsSchema,
        direction: "input",
        pointer: "/argumentsSchema",
      }).map((c) => ({ ...c, message: c.message.replace(/\bparameter\b/g, "argument") })),
    );
  } else if (kind === "prompts") out.push(...diffArguments(a, b));
  const kindOf = (result: unknown) =>
    typeof result === "string" ? result : (result as { kind?: string } | undefined)?.kind;
  if (
    kind !== "prompts" &&
    before?.result &&
    after?.result &&
    kindOf(before.result) !== kindOf(after.result)
  ) {
    out.push({
      breaking: true,
      pointer: "/result",
      message: `the value is now ${kindOf(after.result)} instead of ${kindOf(before.result)}`,
    });
  } else if (kind !== "prompts" && before?.result && after?.result) {
    const schema = (r: unknown) => (r as { schema?: JsonSchema }).schema;
    const [x, y] = [schema(before.result), schema(after.result)];
    if (x && y && !isDeepStrictEqual(x, y))
      out.push(...compareSchemas({ old: x, next: y, direction: "output", pointer: "/result/schema" }));
  }
  return out;
}

/** The arguments of prompts without typed schemas (pulled): by name and `required`. */
function diffArguments(a: Item, b: Item): SchemaChange[] {
  const out: SchemaChange[] = [];
  const before = new Map((a.arguments ?? []).map((x) => [x.name, x]));
  const after = new Map((b.arguments ?? []).map((x) => [x.name, x]));
  for (const [name] of before) {
    if (!after.has(name))
      out.push({
        breaking: true,
        pointer: "/arguments",
        message: `argument "${name}" removed; clients that send it are rejected`,
      });
  }
  for (const [name, now] of after) {
    const was = before.get(name);
    if (now.required && !was?.required)
      out.push({
        breaking: true,
        pointer: "/arguments",
        message: was ? `argument "${name}" is now required` : `new required argument "${name}"`,
      });
    else if (!was)
      out.push({ breaking: false, pointer: "/arguments", message: `optional argument "${name}" added` });
  }
  return out;
}
