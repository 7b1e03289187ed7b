/**
 * How to map arguments a model produced under a provider dialect back to the canonical input.
 * Generated per tool (in `generated/<server>/normalize.ts`); absent where nothing changes.
 */
export interface ArgumentPlan {
  /** `null` means "omitted": the property was optional and does not accept `null` (OpenAI strict). */
  nullMeansAbsent?: true;
  /** The value travels as JSON text (Gemini has no schema for it): parse it. */
  json?: true;
  /** Plans of object properties. */
  properties?: Record<string, ArgumentPlan>;
  /** Plan of every array item. */
  items?: ArgumentPlan;
  /** Plans of tuple positions. */
  prefixItems?: ArgumentPlan[];
  /** Alternatives: the first whose `keys` hold every key of the value (or that has no `keys`) applies. */
  anyOf?: (ArgumentPlan & { keys?: string[] })[];
}

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
