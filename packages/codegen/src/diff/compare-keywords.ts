import { isDeepStrictEqual } from "node:util";
import type { JsonSchema } from "@mcp-gen/schema";
import { typesOf } from "@mcp-gen/schema";

/**
 * How a schema changed for the values it accepts: `narrowed` (accepts less), `widened`
 * (accepts more), or `changed` (neither is known to hold).
 */
export type Shift = "narrowed" | "widened" | "changed";

/** Receives one classified difference at a pointer. */
export type Report = (shift: Shift, pointer: string, message: string) => void;

const LOWER = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"];
const UPPER = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"];
const EXACT = ["pattern", "format", "multipleOf"];

const accepts = (types: string[], t: string) =>
  types.length === 0 || types.includes(t) || (t === "integer" && types.includes("number"));

export function compareTypes(a: JsonSchema, b: JsonSchema, pointer: string, report: Report): void {
  const ta = typesOf(a);
  const tb = typesOf(b);
  const at = `${pointer}/type`;
  if (ta.length > 0 && tb.length === 0) {
    report("widened", at, `type ${ta.join(" | ")} dropped: any type is accepted`);
    return;
  }
  if (ta.length === 0 && tb.length > 0) {
    report("narrowed", at, `now restricted to type ${tb.join(" | ")}`);
    return;
  }
  for (const t of ta) if (!accepts(tb, t)) report("narrowed", at, `no longer accepts type ${t}`);
  for (const t of tb) if (!accepts(ta, t)) report("widened", at, `now also accepts type ${t}`);
}

function valuesOf(schema: JsonSchema): unknown[] | undefined {
  if ("const" in schema) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
}

export function compareValues(a: JsonSchema, b: JsonSchema, pointer: string, report: Report): void {
  const va = valuesOf(a);
  const vb = valuesOf(b);
  const key = "const" in b ? "const" : "enum" in b ? "enum" : "const" in a ? "const" : "enum";
  const at = `${pointer}/${key}`;
  if (!va || !vb) {
    if (vb) report("narrowed", at, `now limited to ${list(vb)}`);
    if (va) report("widened", at, `no longer limited to ${list(va)}`);
    return;
  }
  const has = (vs: unknown[], v: unknown) => vs.some((x) => isDeepStrictEqual(x, v));
  for (const v of va) if (!has(vb, v)) report("narrowed", at, `value ${JSON.stringify(v)} removed`);
  for (const v of vb) if (!has(va, v)) report("widened", at, `value ${JSON.stringify(v)} added`);
}

function list(values: unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(", ");
}

export function compareBounds(a: JsonSchema, b: JsonSchema, pointer: string, report: Report): void {
  for (const [keys, tighter] of [
    [LOWER, (x: number, y: number) => y > x],
    [UPPER, (x: number, y: number) => y < x],
  ] as const) {
    for (const key of keys) {
      const x = a[key];
      const y = b[key];
      if (x === y) continue;
      const at = `${pointer}/${key}`;
      if (typeof x !== "number" && typeof y === "number") report("narrowed", at, `${key} ${y} added`);
      else if (typeof x === "number" && typeof y !== "number") report("widened", at, `${key} ${x} removed`);
      else if (typeof x === "number" && typeof y === "number")
        report(tighter(x, y) ? "narrowed" : "widened", at, `${key} changed from ${x} to ${y}`);
    }
  }
  for (const key of EXACT) {
    const x = a[key];
    const y = b[key];
    if (isDeepStrictEqual(x, y)) continue;
    const at = `${pointer}/${key}`;
    if (x === undefined) report("narrowed", at, `${key} ${JSON.stringify(y)} added`);
    else if (y === undefined) report("widened", at, `${key} ${JSON.stringify(x)} removed`);
    else report("changed", at, `${key} changed from ${JSON.stringify(x)} to ${JSON.stringify(y)}`);
  }
  if (a.uniqueItems !== b.uniqueItems && (a.uniqueItems === true || b.uniqueItems === true)) {
    report(
      b.uniqueItems === true ? "narrowed" : "widened",
      `${pointer}/uniqueItems`,
      `uniqueItems ${b.uniqueItems === true ? "added" : "removed"}`,
    );
  }
}
