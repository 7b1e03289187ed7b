// Floor: `tsc --noEmit` with the TypeScript bundled in ts-morph (the compiler mcp-gen runs; its
// lib .d.ts files are served from memory by ts-morph, so the program is created through a Project).
// Usage: node bench/floors/tsc-ts-morph.mjs <tsconfig.json>
import { Project, ts } from "ts-morph";

const project = new Project({ tsConfigFilePath: process.argv[2] });
const program = project.getProgram().compilerObject;
const errors = ts.getPreEmitDiagnostics(program).filter((d) => d.category === ts.DiagnosticCategory.Error);
const files = project.getSourceFiles().length;
process.stdout.write(`TypeScript ${ts.version}: ${files} files, ${errors.length} errors\n`);
if (errors.length > 0) process.exitCode = 1;
