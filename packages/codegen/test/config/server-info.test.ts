import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { McpGenError } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.ts";
import { validateConfig } from "../../src/config/validate.ts";
import { contractFromIr } from "../../src/contract/from-ir.ts";

const problems = (raw: unknown) => {
  try {
    validateConfig(raw, "mcp-gen.config.json");
    return [];
  } catch (error) {
    return (error as McpGenError).diagnostics.map((d) => `${d.pointer} ${d.message}`);
  }
};

describe("config: a server's title, version and icons", () => {
  it("reach the resolved server with the icon fields in a fixed order", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mcp-gen-config-"));
    const icon = { theme: "dark", sizes: ["48x48"], mimeType: "image/png", src: "https://example.com/a.png" };
    writeFileSync(
      path.join(dir, "mcp-gen.config.json"),
      JSON.stringify({
        servers: { home: { tools: ["tools.ts"], title: "Home", version: "1.2.0", icons: [icon] } },
      }),
    );
    const [server] = (await loadConfig({ cwd: dir })).servers;
    expect(server?.info).toStrictEqual({
      title: "Home",
      version: "1.2.0",
      icons: [{ src: "https://example.com/a.png", mimeType: "image/png", sizes: ["48x48"], theme: "dark" }],
    });
    expect(JSON.stringify(server?.info?.icons?.[0])).toBe(
      '{"src":"https://example.com/a.png","mimeType":"image/png","sizes":["48x48"],"theme":"dark"}',
    );
    const contract = contractFromIr({ name: "home", tools: [], definitions: {} }, server!.info);
    expect([contract.server, contract.title, contract.version, contract.icons?.length]).toStrictEqual([
      "home",
      "Home",
      "1.2.0",
      1,
    ]);
  });

  it("are refused with their pointers when malformed", () => {
    expect(
      problems({
        servers: {
          home: {
            tools: ["tools.ts"],
            title: "",
            version: 2,
            icons: [{ src: "", sizes: "48x48", theme: "blue", size: 1 }, "x"],
          },
        },
      }),
    ).toStrictEqual([
      '/servers/home/title "title" must be a non-empty string',
      '/servers/home/version "version" must be a non-empty string',
      '/servers/home/icons/0/src "src" must be the icon\'s URL (a non-empty string)',
      '/servers/home/icons/0/sizes "sizes" must be an array of strings like ["48x48", "any"]',
      '/servers/home/icons/0/theme "theme" must be "light" or "dark"',
      '/servers/home/icons/0/size unknown icon key "size" (known: src, mimeType, sizes, theme)',
      '/servers/home/icons/1 an icon must be an object like { src: "https://example.com/icon.png" }',
    ]);
    expect(problems({ servers: { home: { tools: ["tools.ts"], icons: {} } } })).toStrictEqual([
      '/servers/home/icons "icons" must be an array like [{ src: "https://example.com/icon.png", mimeType: "image/png" }]',
    ]);
  });
});
