// ts-morph, loaded with `require`. Imported as an ES module, Node first scans ts-morph's CommonJS
// for its export names (cjs-module-lexer over its 1 MB file): about 0.14 s of every build's start
// (bench/README.md, "Build"). mcp-gen's sources import `#ts-morph` (package.json "imports").
import { createRequire } from "node:module";

const tsMorph = createRequire(import.meta.url)("ts-morph");

export const Project = tsMorph.Project;
export const ts = tsMorph.ts;
