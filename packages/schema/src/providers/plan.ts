/**
 * How to map arguments a model produced under a provider dialect back to the canonical input.
 * Made by the conversion, generated per tool into `generated/<server>/normalize.ts` (absent where
 * nothing changes) and applied by `applyArgumentPlan` of `@mcp-gen/runtime` (as `ArgumentPlan`).
 */
export interface Plan {
  /** `null` means "omitted": the property was optional and does not accept `null` (OpenAI strict). */
  nullMeansAbsent?: true;
  /** The value travels as JSON text (Gemini has no schema for it): parse it. */
  json?: true;
  /** Plans of object properties. */
  properties?: Record<string, Plan>;
  /** Plan of every array item. */
  items?: Plan;
  /** Plans of tuple positions. */
  prefixItems?: Plan[];
  /** Alternatives: the first whose `keys` hold every key of the value (or that has no `keys`) applies. */
  anyOf?: (Plan & { keys?: string[] })[];
}

/** Whether a plan changes anything (plans that only carry `keys` do not). */
export function isActive(plan: Plan | undefined): boolean {
  if (!plan) return false;
  if (plan.nullMeansAbsent || plan.json) return true;
  if (plan.items && isActive(plan.items)) return true;
  if (plan.prefixItems?.some(isActive)) return true;
  if (plan.anyOf?.some(isActive)) return true;
  return Object.values(plan.properties ?? {}).some(isActive);
}
