import { reviveDates, reviveUrls } from "@mcp-gen/runtime/server";
import { describe, expect, it } from "vitest";

describe("reviveDates", () => {
  it("turns the strings at the paths into Dates, through arrays and maps, without changing the input", () => {
    const args = {
      at: "2026-11-21T10:00:00Z",
      list: [{ when: "2026-01-01T00:00:00Z", note: "2026-01-01T00:00:00Z" }],
      map: { a: "2026-02-01T00:00:00Z" },
      missing: null,
    };
    const copy = structuredClone(args);
    const revived = reviveDates(args, ["/at", "/list/*/when", "/map/*", "/missing", "/absent"]);
    expect(revived).toStrictEqual({
      at: new Date("2026-11-21T10:00:00Z"),
      list: [{ when: new Date("2026-01-01T00:00:00Z"), note: "2026-01-01T00:00:00Z" }],
      map: { a: new Date("2026-02-01T00:00:00Z") },
      missing: null,
    });
    expect(args).toStrictEqual(copy);
  });

  it("follows tuple indexes and escaped tokens", () => {
    expect(reviveDates({ "a/b": ["x", "2026-03-01T00:00:00Z"] }, ["/a~1b/1"])).toStrictEqual({
      "a/b": ["x", new Date("2026-03-01T00:00:00Z")],
    });
  });
});

describe("reviveUrls", () => {
  it("turns the strings at the paths into URLs, copying the arguments", () => {
    const args = { site: "https://example.com/a?b=1", links: ["http://x.test/", 3], keep: "https://y.test/" };
    const revived = reviveUrls(args, ["/site", "/links/*", "/missing"]);
    expect(revived.site).toBeInstanceOf(URL);
    expect(String(revived.site)).toBe("https://example.com/a?b=1");
    expect(revived.links[0]).toBeInstanceOf(URL);
    expect(revived.links[1]).toBe(3);
    expect(revived.keep).toBe("https://y.test/");
    expect(args.site).toBe("https://example.com/a?b=1");
  });
});
