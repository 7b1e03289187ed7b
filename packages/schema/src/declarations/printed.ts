/* Printed TypeScript types: their text, how tightly they bind, and the punctuation between them. */

/** A printed type and how tightly it binds (unions and intersections need parentheses in some places). */
export interface Printed {
  text: string;
  kind: "atom" | "union" | "intersection";
}

/** The punctuation of printed types: spaced for people, tight for a model (`a|b`, `{a:T;b?:U}`). */
export interface Punctuation {
  or: string;
  and: string;
  colon: string;
  comma: string;
  semi: string;
  open: string;
  close: string;
  /**
   * The fewest string literals of a union spelled as a tuple's element type, `["a","b","c","d"][number]`
   * (the same type: `","` is one token where `"|"` is two, which pays for `[number]` from four on).
   */
  literalTuple: number;
}
const SPACED: Punctuation = {
  or: " | ",
  and: " & ",
  colon: ": ",
  comma: ", ",
  semi: "; ",
  open: "{ ",
  close: " }",
  literalTuple: Number.POSITIVE_INFINITY,
};
const TIGHT: Punctuation = {
  or: "|",
  and: "&",
  colon: ":",
  comma: ",",
  semi: ";",
  open: "{",
  close: "}",
  literalTuple: 4,
};
/** The punctuation of the readable form, or of the model's (`compact`). */
export const punctuation = (options: { compact?: boolean }): Punctuation =>
  options.compact === true ? TIGHT : SPACED;

export const atom = (text: string): Printed => ({ text, kind: "atom" });
export const UNKNOWN = atom("unknown");
export const literal = (v: unknown) => atom(v === null ? "null" : JSON.stringify(v));

/** A union of printed types, without duplicates or `never`; `unknown` absorbs the rest. */
export function union(parts: Printed[], p: Punctuation): Printed {
  const kept = parts.filter((q, i) => q.text !== "never" && parts.findIndex((r) => r.text === q.text) === i);
  if (kept.some((q) => q.text === "unknown")) return UNKNOWN;
  if (kept.length === 0) return atom("never");
  if (kept.length === 1) return kept[0]!;
  const strings = kept.filter((q) => q.text.startsWith('"'));
  if (strings.length >= p.literalTuple) {
    const tuple = atom(`[${strings.map((q) => q.text).join(p.comma)}][number]`);
    const rest = kept.filter((q) => !q.text.startsWith('"'));
    if (rest.length === 0) return tuple;
    kept.splice(0, kept.length, tuple, ...rest);
  }
  return {
    text: kept.map((q) => (q.kind === "intersection" ? `(${q.text})` : q.text)).join(p.or),
    kind: "union",
  };
}

/** An intersection of printed types, without `unknown`. */
export function intersection(parts: Printed[], p: Punctuation): Printed {
  const kept = parts.filter((q) => q.text !== "unknown");
  if (kept.length === 0) return UNKNOWN;
  if (kept.length === 1) return kept[0]!;
  return {
    text: kept.map((q) => (q.kind === "union" ? `(${q.text})` : q.text)).join(p.and),
    kind: "intersection",
  };
}

/** A type as an array's element: parenthesised unless it is an atom. */
export const element = (p: Printed) => (p.kind === "atom" ? p.text : `(${p.text})`);
