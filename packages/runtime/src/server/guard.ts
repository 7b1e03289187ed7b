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

/** An object or array on the walk, and how it was reached (its pointer is built only on failure). */
interface Frame {
  value: object;
  parent: Frame | undefined;
  key: string | number;
  depth: number;
}

/**
 * Finds what no schema should have to think about: nesting deeper than `maxDepth`, an own
 * `__proto__` key, a `constructor.prototype` pair, or an object whose prototype is not a
 * plain object's (what a `__proto__` key becomes after a careless copy). Iterative, so deep
 * input cannot overflow the stack; JSON pointers are built only for what it reports. Returns
 * `undefined` when the value is safe.
 */
export function unsafeArguments(value: unknown, limits: ArgumentLimits): ValidationIssue | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const stack: Frame[] = [{ value, parent: undefined, key: "", depth: 0 }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { value: current, depth } = frame;
    if (depth >= limits.maxDepth) {
      return issue(pointerOf(frame), `at most ${limits.maxDepth} levels of nesting`, "deeper nesting");
    }
    const proto = Object.getPrototypeOf(current);
    if (Array.isArray(current)) {
      if (proto !== ARRAY_PROTOTYPE)
        return issue(pointerOf(frame), "a plain JSON array", "an array with a prototype");
      for (let i = current.length - 1; i >= 0; i--) {
        const item: unknown = current[i];
        if (item !== null && typeof item === "object")
          stack.push({ value: item, parent: frame, key: i, depth: depth + 1 });
      }
      continue;
    }
    if (proto !== OBJECT_PROTOTYPE && proto !== null) {
      return issue(
        pointerOf(frame),
        "a plain JSON object (no __proto__ key)",
        "an object with a foreign prototype",
      );
    }
    const record = current as Record<string, unknown>;
    if (Object.hasOwn(record, "__proto__")) {
      return issue(
        joinPointer(pointerOf(frame), "__proto__"),
        "no __proto__ key",
        summarize(Object.getOwnPropertyDescriptor(record, "__proto__")?.value),
      );
    }
    const ctor = Object.hasOwn(record, "constructor") ? record.constructor : undefined;
    if (ctor !== null && typeof ctor === "object" && Object.hasOwn(ctor, "prototype")) {
      return issue(
        joinPointer(pointerOf(frame), "constructor"),
        "no constructor.prototype keys",
        summarize(ctor),
      );
    }
    const keys = Object.keys(record);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      const item = record[key];
      if (item !== null && typeof item === "object")
        stack.push({ value: item, parent: frame, key, depth: depth + 1 });
    }
  }
  return undefined;
}

/** The JSON pointer of a frame, from the root down. */
function pointerOf(frame: Frame): string {
  const keys: (string | number)[] = [];
  for (let at: Frame | undefined = frame; at?.parent; at = at.parent) keys.push(at.key);
  let pointer = "";
  for (let i = keys.length - 1; i >= 0; i--) pointer = joinPointer(pointer, keys[i]!);
  return pointer;
}

function issue(pointer: string, expected: string, received: string): ValidationIssue {
  return { pointer, keyword: "unsafe", expected, received };
}
