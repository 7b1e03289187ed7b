// Floor: a bare ts-morph walk calling getType() on every parameter of every exported function of
// the project's own files (no diagnostics, no schema work).
// Usage: node bench/floors/ts-morph-walk.mjs <tsconfig.json>
import path from "node:path";
import { Project } from "ts-morph";

const tsconfig = path.resolve(process.argv[2]);
const project = new Project({ tsConfigFilePath: tsconfig });
const root = `${path.dirname(tsconfig)}${path.sep}`;
let parameters = 0;
let functions = 0;
for (const file of project.getSourceFiles()) {
  if (!file.getFilePath().startsWith(root)) continue;
  for (const fn of file.getFunctions()) {
    if (!fn.isExported()) continue;
    functions++;
    for (const param of fn.getParameters()) {
      param.getType();
      parameters++;
    }
  }
}
process.stdout.write(`${functions} exported functions, ${parameters} parameters typed\n`);
