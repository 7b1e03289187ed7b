import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BROWSER_SKIP, launchChromium } from "./support/browser.ts";
import { balancesOf, startWebFixture, transferScript, type WebFixture } from "./support/web.ts";

/**
 * The whole chain from a real browser: headless Chromium types into the page, the agent streams
 * from the scripted model (Anthropic wire format), asks the page for permission, and calls
 * `transfer_eth` through an MCP client on `mcp-gen serve ledger`, which writes SQLite.
 */
describe.skipIf(BROWSER_SKIP)("the ledger web chat in Chromium", () => {
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let fixture: WebFixture | undefined;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    await page?.close();
    await fixture?.close();
    fixture = undefined;
    expect(pageErrors.splice(0)).toStrictEqual([]);
  });

  async function open(script = transferScript()): Promise<WebFixture> {
    fixture = await startWebFixture({ script });
    page = await browser.context.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") pageErrors.push(message.text());
    });
    await page.goto(fixture.web.url);
    await balanceCell("bob", "100").waitFor();
    return fixture;
  }

  const balanceCell = (address: string, balance: string) =>
    page.locator(`#balances tr[data-address="${address}"] td:last-child`, {
      hasText: new RegExp(`^${balance}$`),
    });
  const transferCard = (status: string) =>
    page.locator(`#log li.tool[data-tool="transfer_eth"][data-status="${status}"]`);
  const assistantText = (step: number) =>
    page.locator(`#log li.assistant[data-step="${step}"]`).textContent();

  /** Sends a message from the page and waits for the permission prompt of the transfer. */
  async function askForTransfer(): Promise<void> {
    await page.fill("#input", "给 bob 转 10 ETH");
    await page.press("#input", "Enter");
    const card = transferCard("waiting");
    await card.waitFor();
    expect(JSON.parse((await card.locator("pre.args").textContent())!)).toStrictEqual({
      to_address: "bob",
      amount: "10",
    });
    expect(await card.locator(".permission").textContent()).toBe(
      "Allow transfer_eth? It moves money.ApproveDeny",
    );
    expect(await page.locator("#log li.user").textContent()).toBe("给 bob 转 10 ETH");
    expect(await assistantText(1)).toBe("好的，给 bob 转 10 ETH。");
  }

  /** Waits until the page takes input again (the run is over). */
  const runFinished = () => page.locator("#input:enabled").waitFor();

  it("sends 给 bob 转 10 ETH, approves, and shows the tool trace and bob's new balance", async () => {
    const web = await open();
    await askForTransfer();
    expect(await balancesOf(web.ledger)).toMatchObject({ alice: "100", bob: "100" });

    await page.click("#log li.tool .permission button.approve");
    const done = transferCard("ok");
    await done.waitFor();
    expect(await done.locator(".status").textContent()).toBe("ok");
    expect(JSON.parse((await done.locator("pre.result").textContent())!)).toMatchObject({
      kind: "transfer",
      from: "alice",
      to: "bob",
      amount: "10",
      sender_balance: "90",
      replayed: false,
    });
    await balanceCell("bob", "110").waitFor();
    await balanceCell("alice", "90").waitFor();
    await runFinished();
    expect(await assistantText(2)).toBe("已向 bob 转账 10 ETH（交易 #5），你的余额还有 90 ETH。");
    expect(await balancesOf(web.ledger)).toMatchObject({ alice: "90", bob: "110" });
    expect(web.model.requests.map((r) => [r.lastUserText, r.toolResults.length])).toStrictEqual([
      ["给 bob 转 10 ETH", 0],
      [undefined, 1],
    ]);
  });

  it("moves nothing when the user denies", async () => {
    const web = await open();
    const before = await balancesOf(web.ledger);
    await askForTransfer();

    await page.click("#log li.tool .permission button.deny");
    const denied = transferCard("denied");
    await denied.waitFor();
    expect(await denied.locator(".status").textContent()).toBe("denied (the user denied it in the web chat)");
    await runFinished();
    expect(await assistantText(2)).toBe("没有转账：Permission denied: the user denied it in the web chat");
    expect(await page.locator("#log li.tool .permission").count()).toBe(0);
    expect(await balanceCell("bob", "100").count()).toBe(1);
    expect(await balancesOf(web.ledger)).toStrictEqual(before);
    expect((await web.ledger.listTransactions()).map((t) => t.kind)).toStrictEqual([
      "mint",
      "mint",
      "mint",
      "mint",
    ]);
  });

  it("shows markup from the model as text", async () => {
    const text = `<img src=x onerror="document.title='pwned'"><script>document.title='pwned'</script> **10 ETH**`;
    await open([{ text }]);
    await page.fill("#input", "hi");
    await page.press("#input", "Enter");
    await runFinished();
    expect(await assistantText(1)).toBe(text);
    expect(await page.locator("#log img, #log script").count()).toBe(0);
    expect(await page.title()).toBe("Ledger chat · mcp-gen");
  });
});
