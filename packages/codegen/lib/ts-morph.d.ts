// The names `lib/ts-morph.js` exports, with ts-morph's own types (`ts` is the TypeScript namespace).
export { ts } from "ts-morph";

/** ts-morph's `Project` class (loads ts-morph on first use). */
export declare function tsMorphProject(): typeof import("ts-morph").Project;

/** The `lib.*.d.ts` texts ts-morph embeds (loads `@ts-morph/common`). */
export declare function tsMorphLibFiles(): readonly { fileName: string; text: string }[];

/** The version of `@ts-morph/common` (its embedded lib texts are keyed by it), without loading it. */
export declare function tsMorphCommonVersion(): string;
