import { statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeOutputs } from "../../src/write/atomic.ts";
import { type DiskMemo, findStale } from "../../src/write/outputs.ts";
import { tempProject } from "../support/project.ts";

const outputs = (content: string) => ({ files: [{ path: "out/a.txt", content }], ownedDirs: ["out"] });

describe("the disk memo of watch", () => {
  it("learns what it wrote, and reads a file again once its size or modification time moved", () => {
    const root = tempProject({});
    const memo: DiskMemo = new Map();
    expect(writeOutputs(outputs("one"), root, memo)).toStrictEqual(["out/a.txt"]);
    const file = path.join(root, "out/a.txt");
    expect(memo.get(file)).toMatchObject({ content: "one", size: 3 });
    expect(findStale(outputs("one"), root, memo)).toStrictEqual([]);
    // an edit by hand: the size moved, so the file is read and found changed
    writeFileSync(file, "one!");
    expect(findStale(outputs("one"), root, memo)).toStrictEqual([{ path: "out/a.txt", status: "changed" }]);
    expect(writeOutputs(outputs("one"), root, memo)).toStrictEqual(["out/a.txt"]);
    expect(findStale(outputs("two"), root, memo)).toStrictEqual([{ path: "out/a.txt", status: "changed" }]);
  });

  it("takes a file whose size and modification time are as recorded as unchanged, without reading it", () => {
    const root = tempProject({});
    const memo: DiskMemo = new Map();
    writeOutputs(outputs("one"), root, memo);
    const file = path.join(root, "out/a.txt");
    // a whole second, which every file system keeps exactly; read once and found equal, it is recorded
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    expect(findStale(outputs("one"), root, memo)).toStrictEqual([]);
    expect(memo.get(file)?.mtimeMs).toBe(statSync(file).mtimeMs);
    writeFileSync(file, "ONE");
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    // the memo's trade-off (as make's): same size, same time, so not read
    expect(findStale(outputs("one"), root, memo)).toStrictEqual([]);
    // a build without the memo reads it
    expect(findStale(outputs("one"), root)).toStrictEqual([{ path: "out/a.txt", status: "changed" }]);
  });
});
