import { readFileSync } from "node:fs";
import { convertContract } from "./packages/codegen/src/emit/providers/convert.ts";
import { dialectFileContent } from "./packages/codegen/src/emit/providers/index.ts";
import { checkDialectFile } from "./packages/codegen/src/lint/rules/index.ts";

const c = JSON.parse(readFileSync(process.argv[2]!, "utf8"));
const r = convertContract(c, ["anthropic", "openai", "gemini"]);
console.log(
  JSON.stringify(
    { problems: r.problems, fallbacks: r.fallbacks, moved: r.moved.length, plans: r.plans },
    null,
    1,
  ),
);
for (const d of r.dialects) {
  const v = checkDialectFile(d, dialectFileContent(r, d));
  if (v.length) console.log(d, v);
  if (process.argv[3] === d) console.log(JSON.stringify(dialectFileContent(r, d), null, 1));
}
