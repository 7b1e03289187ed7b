// Floor: a bare ts-morph walk calling getType() on every parameter of every exported function of
// the project's own files (no diagnostics, no schema work). `--lean` reads the program as the build's
// extraction does while `tsc` type-checks: no automatic type packages (`types: []`) and only the
// target's ECMAScript libraries (no lib.dom).
// Usage: node bench/floors/ts-morph-walk.mjs <tsconfig.json> [--lean]
import path from "node:path";
import { Project, ts } from "ts-morph";

const tsconfig = path.resolve(process.argv[2]);
const lean = process.argv.includes("--lean");
const project = new Project({ tsConfigFilePath: tsconfig, skipAddingFilesFromTsConfig: lean });
if (lean) {
  const options = project.compilerOptions.get();
  const lib = ts.getDefaultLibFileName(options).replace(/\.full\.d\.ts$/, ".d.ts");
  project.compilerOptions.set({ types: [], lib: [lib] });
  project.addSourceFilesFromTsConfig(tsconfig);
}
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
