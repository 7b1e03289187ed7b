import { summarize, type ValidationIssue } from "../validation/describe.ts";
import { joinPointer } from "../validation/pointer.ts";

/** The deepest nesting of arguments accepted unless a server says otherwise (`maxArgumentDepth`). */
export const DEFAULT_MAX_ARGUMENT_DEPTH = 64;

/** Limits applied to an arguments object before schema validation. */
export interface ArgumentLimits {
  /** Deepest nesting of objects and arrays accepted. */
  maxDepth: number;
}

const OBJECT_PROTOTYPE = Object.prototype;
const ARRAY_PROTOTYPE = Array.prototype;

/**
 * Finds what no schema should have to think about: nesting deeper than `maxDepth`, an own
 * `__proto__` key, a `constructor.prototype` pair, or an object whose prototype is not a
 * plain object's (what a `__proto__` key becomes after a careless copy). Iterative, so deep
 * input cannot overflow the stack. Returns `undefined` when the value is safe.
 */
export function unsafeArguments(value: unknown, limits: ArgumentLimits): ValidationIssue | undefined {
  const stack: { value: unknown; pointer: string; depth: number }[] = [{ value, pointer: "", depth: 0 }];
  while (stack.length > 0) {
    const { value: current, pointer, depth } = stack.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth >= limits.maxDepth) {
      return issue(pointer, `at most ${limits.maxDepth} levels of nesting`, "deeper nesting");
    }
    const proto = Object.getPrototypeOf(current);
    if (Array.isArray(current)) {
      if (proto !== ARRAY_PROTOTYPE) return issue(pointer, "a plain JSON array", "an array with a prototype");
      for (let i = current.length - 1; i >= 0; i--)
        stack.push({ value: current[i], pointer: joinPointer(pointer, i), depth: depth + 1 });
      continue;
    }
    if (proto !== OBJECT_PROTOTYPE && proto !== null) {
      return issue(pointer, "a plain JSON object (no __proto__ key)", "an object with a foreign prototype");
    }
    const record = current as Record<string, unknown>;
    if (Object.hasOwn(record, "__proto__")) {
      return issue(
        joinPointer(pointer, "__proto__"),
        "no __proto__ key",
        summarize(Object.getOwnPropertyDescriptor(record, "__proto__")?.value),
      );
    }
    const ctor = Object.hasOwn(record, "constructor") ? record.constructor : undefined;
    if (ctor !== null && typeof ctor === "object" && Object.hasOwn(ctor, "prototype")) {
      return issue(joinPointer(pointer, "constructor"), "no constructor.prototype keys", summarize(ctor));
    }
    const keys = Object.keys(record);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      stack.push({ value: record[key], pointer: joinPointer(pointer, key), depth: depth + 1 });
    }
  }
  return undefined;
}

function issue(pointer: string, expected: string, received: string): ValidationIssue {
  return { pointer, keyword: "unsafe", expected, received };
}
