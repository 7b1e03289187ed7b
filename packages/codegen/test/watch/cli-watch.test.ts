import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BIN } from "../support/cli.ts";
import { tempProject } from "../support/project.ts";

const TOOLS = `/**
 * Say hello.
 * @param name Who
 */
export function hello(name: string): string {
  return \`hello \${name}\`;
}
`;

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

/** Starts `mcp-gen build --watch` and lets the test wait for its output, line by line. */
function startWatch(cwd: string) {
  const child = spawn(process.execPath, [BIN, "build", "--watch"], {
    cwd,
    env: { ...process.env, NO_COLOR: "1" },
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  const waiters: { count: number; pattern: RegExp; resolve: () => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) {
      if ((stdout.match(new RegExp(w.pattern.source, `${w.pattern.flags}g`)) ?? []).length >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  child.stdout.on("data", (d) => {
    stdout += d;
    check();
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  return {
    /** Resolves once `pattern` has appeared `count` times on stdout. */
    until(pattern: RegExp, count: number) {
      return new Promise<void>((resolve) => {
        waiters.push({ count, pattern, resolve });
        check();
      });
    },
    output: () => ({ stdout, stderr }),
    async stop() {
      child.kill("SIGINT");
      return exited;
    },
  };
}

describe("mcp-gen build --watch (real CLI)", () => {
  it("rebuilds on change, reports errors and keeps running, and stops on SIGINT", {
    timeout: 300_000,
  }, async () => {
    const dir = tempProject({
      "mcp-gen.config.ts": `import { defineConfig } from "@mcp-gen/codegen/config";
export default defineConfig({ targets: [], servers: { hi: { tools: ["src/hi.ts"] } } });
`,
      "src/hi.ts": TOOLS,
    });
    const contract = () => readFileSync(path.join(dir, "schemas/hi.tools.json"), "utf8");
    const watch = startWatch(dir);
    await watch.until(/^watching \d+ files for changes/m, 1);
    expect(watch.output().stdout).toMatch(/^✓ built 1 server in \d+ ms: wrote \d+ files$/m);
    expect(contract()).toContain('"description": "Say hello."');

    writeFileSync(path.join(dir, "src/hi.ts"), TOOLS.replace("Say hello.", "Greet someone."));
    await watch.until(/^watching/m, 2);
    expect(watch.output().stdout).toMatch(
      /^✓ rebuilt hi \(1 module extracted\) in \d+ ms: wrote \d+ files$/m,
    );
    expect(contract()).toContain('"description": "Greet someone."');

    writeFileSync(path.join(dir, "src/hi.ts"), TOOLS.replace(/return `hello .*`;/, "return 42;"));
    await watch.until(/^watching/m, 3);
    expect(watch.output().stdout).toContain(
      "✗ build failed with 1 error; nothing was written. Fix and save to retry.",
    );
    expect(watch.output().stderr).toContain(
      "error MCPG010: TS2322: Type 'number' is not assignable to type 'string'.",
    );
    expect(contract()).toContain('"description": "Greet someone."');

    writeFileSync(path.join(dir, "src/hi.ts"), TOOLS.replace("Say hello.", "Say hi."));
    await watch.until(/^watching/m, 4);
    expect(contract()).toContain('"description": "Say hi."');
    expect(await watch.stop()).toBe(0);
  });
});
