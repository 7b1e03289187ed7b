import type { Plan } from "@mcp-gen/schema";

/** How to map a dialect's arguments back to the canonical input (see `Plan` of `@mcp-gen/schema`). */
export type ArgumentPlan = Plan;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Applies a plan to a value and returns the canonical value (the input is not modified).
 * Values that do not have the planned shape are returned as they are, for the validator to explain.
 *
 * @example
 * applyArgumentPlan({ properties: { limit: { nullMeansAbsent: true } } }, { query: "x", limit: null });
 * // → { query: "x" }
 */
export function applyArgumentPlan(plan: ArgumentPlan, value: unknown): unknown {
  let current = value;
  if (plan.json && typeof current === "string") {
    try {
      current = JSON.parse(current);
    } catch {
      return current;
    }
  }
  if (plan.anyOf) {
    const branch = plan.anyOf.find(
      (b) => !b.keys || (isRecord(current) && Object.keys(current).every((k) => b.keys!.includes(k))),
    );
    if (branch)
      current = applyArgumentPlan({ ...branch, json: undefined, keys: undefined } as ArgumentPlan, current);
  }
  if (plan.properties && isRecord(current)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(current)) {
      const child = plan.properties[key];
      if (!child) out[key] = v;
      else if (v === null && child.nullMeansAbsent) continue;
      else out[key] = v === null ? v : applyArgumentPlan(child, v);
    }
    current = out;
  }
  if (Array.isArray(current) && (plan.items || plan.prefixItems)) {
    current = current.map((item, i) => {
      const child = plan.prefixItems?.[i] ?? plan.items;
      return child && item !== null ? applyArgumentPlan(child, item) : item;
    });
  }
  return current;
}
