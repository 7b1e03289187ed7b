import type { JsonSchema } from "../contract.ts";
import { escapeToken, isSchemaObject, mapSubschemas, resolveLocalRef } from "../schema-utils.ts";
import type { IngestIssue } from "./issues.ts";

/** What to do with one `$ref` string. */
type Plan = { kind: "keep" } | { kind: "to"; ref: string } | { kind: "unresolved"; why: string };

const DEF_POINTER = /^\/\$defs\/([^/]+)$/;

/**
 * Makes every `$ref` of a (2020-12-rewritten) schema one the emitters can follow: pointers into
 * old keyword positions follow their subschema (`#/definitions/X` → `#/$defs/X`), and pointers
 * to anything but a top-level definition (`#/properties/address`, nested `$defs`) get a copy of
 * their target hoisted into the root `$defs`. References that lead nowhere, or outside the
 * schema (mcp-gen never fetches), are reported; with `drop` they are removed so the rest of the
 * schema still compiles (the part then accepts any value and is typed `unknown`).
 */
export function rewriteRefs(options: {
  schema: unknown;
  moved: Map<string, string>;
  issues: IngestIssue[];
  drop: boolean;
}): unknown {
  const { schema, moved, issues, drop } = options;
  if (!isSchemaObject(schema)) return schema;
  const back = new Map([...moved].map(([from, to]) => [to, from]));
  const hoisted = new Map<string, string>();
  const taken = new Set(Object.keys(isSchemaObject(schema.$defs) ? schema.$defs : {}));
  const plans = new Map<string, Plan>();
  const ids = collectIds(schema);

  const planFor = (ref: string): Plan => {
    if (ref === "#") return { kind: "keep" };
    if (ref.startsWith("#/")) {
      const target = moved.get(decodePointer(ref.slice(1)));
      if (target === undefined) return { kind: "unresolved", why: "points to nothing in this schema" };
      if (target === "") return { kind: "to", ref: "#" };
      if (DEF_POINTER.test(target))
        return target === decodePointer(ref.slice(1)) ? { kind: "keep" } : to(target);
      let name = hoisted.get(target);
      if (!name) {
        name = freshName(target, taken);
        hoisted.set(target, name);
      }
      return to(`/$defs/${escapeToken(name)}`);
    }
    if (ref.startsWith("#") && ids.anchors.has(ref.slice(1))) return { kind: "keep" };
    if (ids.ids.has(ref.split("#")[0]!)) return { kind: "keep" };
    return ref.startsWith("#")
      ? { kind: "unresolved", why: "names an anchor this schema does not define" }
      : { kind: "unresolved", why: "is not local, and mcp-gen never fetches schemas" };
  };

  const rewrite = (node: unknown, pointer: string): unknown => {
    if (!isSchemaObject(node)) return node;
    const out = mapSubschemas(node, (sub, suffix) => rewrite(sub, `${pointer}${suffix}`));
    if (typeof out.$ref !== "string") return out;
    const ref = out.$ref;
    let plan = plans.get(ref);
    if (!plan) {
      plan = planFor(ref);
      plans.set(ref, plan);
    }
    if (plan.kind === "to") out.$ref = plan.ref;
    else if (plan.kind === "unresolved") {
      const at = `${pointer}/$ref`;
      issues.push({
        code: "MCPG122",
        pointer: { from: `${back.get(pointer) ?? pointer}/$ref`, to: at },
        message: `$ref "${ref}" ${plan.why}; typed as unknown, accepts any value`,
      });
      if (drop) delete out.$ref;
    }
    return out;
  };

  const result = rewrite(schema, "") as JsonSchema;
  if (hoisted.size === 0) return result;
  const defs: JsonSchema = { ...(isSchemaObject(result.$defs) ? result.$defs : {}) };
  for (const [target, name] of hoisted) defs[name] = structuredClone(resolveLocalRef(result, `#${target}`));
  return { ...result, $defs: defs };
}

function to(pointer: string): Plan {
  return { kind: "to", ref: `#${encodePointer(pointer)}` };
}

/** `#/a%20b/c~1d` → `/a b/c~1d` (URI fragment decoding; JSON pointer escapes stay). */
function decodePointer(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

function encodePointer(pointer: string): string {
  return pointer.replace(/[%"<>\\^`{|} ]/g, (c) => encodeURIComponent(c));
}

/** A definition name for a hoisted target: its last meaningful token, made unique. */
function freshName(target: string, taken: Set<string>): string {
  const tokens = target
    .split("/")
    .slice(1)
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  let base = tokens.at(-1) ?? "def";
  if (/^\d+$/.test(base)) base = `${tokens.at(-2) ?? "item"}${base}`;
  base = base.replace(/[^A-Za-z0-9_-]/g, "_") || "def";
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  taken.add(name);
  return name;
}

/** `$id`s (without fragment) and `$anchor`s declared anywhere in the schema. */
function collectIds(schema: JsonSchema): { ids: Set<string>; anchors: Set<string> } {
  const ids = new Set<string>();
  const anchors = new Set<string>();
  const visit = (node: unknown): unknown => {
    if (!isSchemaObject(node)) return node;
    if (typeof node.$id === "string" && node.$id !== "") ids.add(node.$id.split("#")[0]!);
    if (typeof node.$anchor === "string") anchors.add(node.$anchor);
    return mapSubschemas(node, visit);
  };
  visit(schema);
  ids.delete("");
  return { ids, anchors };
}
