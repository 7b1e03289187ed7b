import { isDeepStrictEqual } from "node:util";
import type { JsonSchema } from "@mcp-gen/schema";
import { escapeToken, isNeverSchema, isSchemaObject, resolveLocalRef } from "@mcp-gen/schema";
import { compareBounds, compareTypes, compareValues, type Report, type Shift } from "./compare-keywords.ts";

/** One classified difference inside a schema. */
export interface SchemaChange {
  breaking: boolean;
  /** Pointer inside the tool (`/inputSchema/properties/query`). */
  pointer: string;
  message: string;
}

/**
 * `input`: clients send these values, so a narrowed schema breaks them. `output`: clients receive
 * (and, in generated clients, validate) these values, so a widened schema breaks them.
 */
export type Direction = "input" | "output";
export type { Shift };

interface Ctx {
  direction: Direction;
  /** Whether both roots define the same `$defs`: then equal subtrees are equal even through refs. */
  sameDefs: boolean;
  oldRoot: JsonSchema;
  newRoot: JsonSchema;
  seen: Set<string>;
  out: SchemaChange[];
}

const WORDS: Record<Direction, { field: string; fields: string }> = {
  input: { field: "parameter", fields: "parameters" },
  output: { field: "result field", fields: "result fields" },
};

/**
 * Compares two versions of a tool schema and classifies each difference as breaking or not
 * for the clients of the tool. Local `$ref`s are followed; documentation changes are not reported.
 *
 * @example
 * compareSchemas({ old: a, next: b, direction: "input", pointer: "/inputSchema" });
 */
export function compareSchemas(options: {
  old: JsonSchema;
  next: JsonSchema;
  direction: Direction;
  pointer: string;
}): SchemaChange[] {
  const ctx: Ctx = {
    direction: options.direction,
    sameDefs: isDeepStrictEqual(options.old.$defs, options.next.$defs),
    oldRoot: options.old,
    newRoot: options.next,
    seen: new Set(),
    out: [],
  };
  compare(options.old, options.next, options.pointer, ctx);
  return ctx.out;
}

/** Equal subtrees that hold no `$ref` (or whose roots share their definitions) need no comparing. */
function same(a: unknown, b: unknown, ctx: Ctx): boolean {
  return isDeepStrictEqual(a, b) && (ctx.sameDefs || !JSON.stringify(a ?? null).includes('"$ref"'));
}

function report(ctx: Ctx, shift: Shift, pointer: string, message: string): void {
  const breaking =
    shift === "changed" || (ctx.direction === "input" ? shift === "narrowed" : shift === "widened");
  ctx.out.push({ breaking, pointer, message });
}

/** A schema with its `$ref` replaced by the target (siblings kept), and the ref followed. */
function deref(schema: unknown, root: JsonSchema): { schema: unknown; ref?: string } {
  if (!isSchemaObject(schema) || typeof schema.$ref !== "string") return { schema };
  const { $ref, ...siblings } = schema;
  const target = resolveLocalRef(root, $ref as string);
  const base = isSchemaObject(target) ? target : target === false ? { not: {} } : {};
  return { schema: { ...base, ...siblings }, ref: $ref as string };
}

function compare(oldRaw: unknown, newRaw: unknown, pointer: string, ctx: Ctx): void {
  const a = deref(oldRaw, ctx.oldRoot);
  const b = deref(newRaw, ctx.newRoot);
  if (a.ref !== undefined || b.ref !== undefined) {
    const key = `${a.ref}|${b.ref}`;
    if (ctx.seen.has(key)) return;
    ctx.seen.add(key);
  }
  // `{ "not": {} }` (a property that must be absent, with its description) accepts nothing, like `false`
  const oldS = a.schema === true ? {} : isNeverSchema(a.schema) ? false : a.schema;
  const newS = b.schema === true ? {} : isNeverSchema(b.schema) ? false : b.schema;
  if (same(oldS, newS, ctx)) return;
  if (oldS === false || newS === false) {
    report(
      ctx,
      oldS === false ? "widened" : "narrowed",
      pointer,
      oldS === false ? "now accepts values" : "now accepts no value",
    );
    return;
  }
  if (!isSchemaObject(oldS) || !isSchemaObject(newS)) return;
  const shifted: Report = (shift, at, message) => report(ctx, shift, at, message);
  compareTypes(oldS, newS, pointer, shifted);
  compareValues(oldS, newS, pointer, shifted);
  compareBounds(oldS, newS, pointer, shifted);
  compareObjects(oldS, newS, pointer, ctx);
  compareArrays(oldS, newS, pointer, ctx);
  compareCombinators(oldS, newS, pointer, ctx);
  if (
    !isDeepStrictEqual(oldS.default, newS.default) &&
    oldS.default !== undefined &&
    newS.default !== undefined
  ) {
    ctx.out.push({
      breaking: false,
      pointer: `${pointer}/default`,
      message: `default changed from ${JSON.stringify(oldS.default)} to ${JSON.stringify(newS.default)}`,
    });
  }
}

function compareObjects(a: JsonSchema, b: JsonSchema, pointer: string, ctx: Ctx): void {
  const pa = isSchemaObject(a.properties) ? a.properties : {};
  const pb = isSchemaObject(b.properties) ? b.properties : {};
  const ra = new Set(Array.isArray(a.required) ? a.required.map(String) : []);
  const rb = new Set(Array.isArray(b.required) ? b.required.map(String) : []);
  const closedA = a.additionalProperties === false;
  const closedB = b.additionalProperties === false;
  const { field } = WORDS[ctx.direction];
  const input = ctx.direction === "input";
  const names = [...new Set([...Object.keys(pa), ...ra, ...Object.keys(pb), ...rb])];
  for (const name of names) {
    const at = `${pointer}/properties/${escapeToken(name)}`;
    const inA = name in pa || ra.has(name);
    const inB = name in pb || rb.has(name);
    if (inA && !inB) {
      const breaking = input ? closedB : ra.has(name);
      const why = input
        ? closedB
          ? "; clients that send it are rejected"
          : ""
        : ra.has(name)
          ? "; clients that read it break"
          : "";
      ctx.out.push({ breaking, pointer: at, message: `${field} "${name}" removed${why}` });
    } else if (!inA && inB) {
      const breaking = input ? rb.has(name) : closedA;
      const kind = input ? (rb.has(name) ? "new required" : "new optional") : "new";
      const why =
        !input && closedA ? "; clients generated from the old contract reject results that carry it" : "";
      ctx.out.push({ breaking, pointer: at, message: `${kind} ${field} "${name}"${why}` });
    } else {
      if (ra.has(name) && !rb.has(name)) {
        ctx.out.push({
          breaking: !input,
          pointer: at,
          message: `${field} "${name}" is now optional${input ? "" : "; it may be missing"}`,
        });
      } else if (!ra.has(name) && rb.has(name)) {
        ctx.out.push({ breaking: input, pointer: at, message: `${field} "${name}" is now required` });
      }
      compare(pa[name] ?? {}, pb[name] ?? {}, at, ctx);
    }
  }
  const at = `${pointer}/additionalProperties`;
  const addA = a.additionalProperties;
  const addB = b.additionalProperties;
  if (isDeepStrictEqual(addA, addB)) return;
  const open = (v: unknown) => v === undefined || v === true;
  if (open(addA) && open(addB)) return;
  if (closedB && !closedA)
    report(ctx, "narrowed", at, `other ${WORDS[ctx.direction].fields} are no longer accepted`);
  else if (closedA && !closedB)
    report(ctx, "widened", at, `other ${WORDS[ctx.direction].fields} are now accepted`);
  else if (open(addA)) report(ctx, "narrowed", at, "other properties are now constrained");
  else if (open(addB)) report(ctx, "widened", at, "other properties are no longer constrained");
  else compare(addA, addB, at, ctx);
}

function compareArrays(a: JsonSchema, b: JsonSchema, pointer: string, ctx: Ctx): void {
  const prefixA = Array.isArray(a.prefixItems) ? a.prefixItems : [];
  const prefixB = Array.isArray(b.prefixItems) ? b.prefixItems : [];
  const shared = Math.min(prefixA.length, prefixB.length);
  for (let i = 0; i < shared; i++) compare(prefixA[i], prefixB[i], `${pointer}/prefixItems/${i}`, ctx);
  if (prefixA.length !== prefixB.length)
    report(
      ctx,
      "changed",
      `${pointer}/prefixItems`,
      `tuple length changed from ${prefixA.length} to ${prefixB.length}`,
    );
  const at = `${pointer}/items`;
  if (a.items === undefined && b.items !== undefined)
    report(ctx, "narrowed", at, "items are now constrained");
  else if (a.items !== undefined && b.items === undefined)
    report(ctx, "widened", at, "items are no longer constrained");
  else if (a.items !== undefined) compare(a.items, b.items, at, ctx);
}

function compareCombinators(a: JsonSchema, b: JsonSchema, pointer: string, ctx: Ctx): void {
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const la = Array.isArray(a[key]) ? (a[key] as unknown[]) : undefined;
    const lb = Array.isArray(b[key]) ? (b[key] as unknown[]) : undefined;
    const at = `${pointer}/${key}`;
    if (!la && !lb) continue;
    if (!la || !lb) {
      report(ctx, "changed", at, `${key} ${la ? "removed" : "added"}`);
      continue;
    }
    const restA = la.filter((x) => !lb.some((y) => same(x, y, ctx)));
    const restB = lb.filter((y) => !la.some((x) => same(x, y, ctx)));
    const pairs = Math.min(restA.length, restB.length);
    for (let i = 0; i < pairs; i++) compare(restA[i], restB[i], `${at}/${lb.indexOf(restB[i])}`, ctx);
    const all = key === "allOf";
    for (const _ of restA.slice(pairs))
      report(ctx, all ? "widened" : "narrowed", at, `${all ? "a condition" : "an alternative"} removed`);
    for (const _ of restB.slice(pairs))
      report(ctx, all ? "narrowed" : "widened", at, `${all ? "a condition" : "an alternative"} added`);
  }
  for (const key of [
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "patternProperties",
    "dependentRequired",
    "dependentSchemas",
  ]) {
    if (!isDeepStrictEqual(a[key], b[key])) report(ctx, "changed", `${pointer}/${key}`, `${key} changed`);
  }
}
