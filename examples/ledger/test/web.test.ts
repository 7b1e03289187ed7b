import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import type { PageEvent } from "../web/page-events.ts";
import { balancesOf, startWebFixture, transferScript, type WebFixture } from "./support/web.ts";

const SESSION = "test-session-1";

let fixture: WebFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** A raw HTTP request (node:http lets a test send any Host and Origin, as a rebinding page would). */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? "GET", headers: options.headers ?? {} }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** Posts one chat message and reads the NDJSON events; `onEvent` may answer permission requests. */
async function chat(
  web: WebFixture,
  message: string,
  onEvent: (event: PageEvent) => Promise<void> | void = () => {},
  signal?: AbortSignal,
): Promise<PageEvent[]> {
  const response = await fetch(new URL("/api/chat", web.web.url), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ session: SESSION, message }),
    ...(signal ? { signal } : {}),
  });
  expect(response.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
  const events: PageEvent[] = [];
  let buffered = "";
  for await (const chunk of response.body!.pipeThrough(new TextDecoderStream())) {
    buffered += chunk;
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    for (const line of lines) {
      const event = JSON.parse(line) as PageEvent;
      events.push(event);
      await onEvent(event);
    }
  }
  return events;
}

function decide(web: WebFixture, id: string, allow: boolean) {
  return fetch(new URL("/api/permission", web.web.url), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ session: SESSION, id, allow }),
  });
}

/** The events that tell the story of a run, without the streamed pieces. */
const outline = (events: PageEvent[]) =>
  events
    .filter((e) => e.type !== "text" && e.type !== "balances")
    .map((e) =>
      "decision" in e ? `${e.type}:${e.decision}` : "outcome" in e ? `${e.type}:${e.outcome}` : e.type,
    );

describe.each(["anthropic", "openai"] as const)("the ledger web chat (%s wire format)", (dialect) => {
  it("runs a transfer the user approves: trace, permission, result and new balances", async () => {
    fixture = await startWebFixture({ dialect, script: transferScript() });
    const web = fixture;
    const events = await chat(web, "给 bob 转 10 ETH", async (event) => {
      if (event.type === "permission-request") expect((await decide(web, event.id, true)).status).toBe(200);
    });
    expect(outline(events)).toStrictEqual([
      "assistant",
      "tool-call",
      "permission-request",
      "permission-decision:allow",
      "tool-result:ok",
      "assistant",
      "final",
    ]);
    expect(events.find((e) => e.type === "tool-call")).toMatchObject({
      name: "transfer_eth",
      args: { to_address: "bob", amount: "10" },
    });
    expect(events.find((e) => e.type === "tool-result")).toMatchObject({
      structured: { from: "alice", to: "bob", amount: "10", sender_balance: "90", replayed: false },
    });
    const balances = events.find((e) => e.type === "balances");
    expect(
      balances?.type === "balances" && balances.accounts.map((a) => [a.address, a.balance]),
    ).toStrictEqual([
      ["alice", "90"],
      ["bob", "110"],
      ["carol", "100"],
      ["dave", "100"],
    ]);
    expect(
      events
        .filter((e) => e.type === "text")
        .map((e) => (e as { text: string }).text)
        .join(""),
    ).toBe("好的，给 bob 转 10 ETH。已向 bob 转账 10 ETH（交易 #5），你的余额还有 90 ETH。");
    expect(await balancesOf(web.ledger)).toMatchObject({ alice: "90", bob: "110" });
    expect(web.model.requests[0]).toMatchObject({ lastUserText: "给 bob 转 10 ETH", stream: true });
    expect(web.model.requests[0]!.system).toContain("The user is the account `alice`");
    expect(web.model.requests[0]!.tools.sort()).toStrictEqual([
      "export_statement",
      "faucet",
      "get_balance",
      "list_accounts",
      "list_transactions",
      "transfer_eth",
    ]);
  });

  it("moves nothing when the user denies, and the model reads the denial", async () => {
    fixture = await startWebFixture({ dialect, script: transferScript() });
    const web = fixture;
    const before = await balancesOf(web.ledger);
    const events = await chat(web, "给 bob 转 10 ETH", async (event) => {
      if (event.type === "permission-request") await decide(web, event.id, false);
    });
    expect(outline(events)).toContain("tool-result:denied");
    expect(events.at(-1)).toStrictEqual({
      type: "final",
      // OpenAI tool messages have no error flag: the agent marks them with "Error: ".
      text: expect.stringMatching(
        /^没有转账：(Error: )?Permission denied: the user denied it in the web chat$/,
      ),
      stopReason: "end_turn",
    });
    expect(await balancesOf(web.ledger)).toStrictEqual(before);
    expect(await web.ledger.listTransactions({ address: "bob" })).toHaveLength(1); // the demo mint only
  });
});

describe("the ledger web chat server", () => {
  it("denies a call whose page went away, and the session takes the next message", async () => {
    fixture = await startWebFixture({ script: transferScript().slice(0, 1) });
    const web = fixture;
    const abort = new AbortController();
    const gone = chat(
      web,
      "给 bob 转 10 ETH",
      (event) => {
        if (event.type === "permission-request") abort.abort();
      },
      abort.signal,
    );
    await expect(gone).rejects.toThrow(/abort/i);
    // The run ends (the waiting call is denied) and the session takes the next message.
    web.model.enqueue({ text: "好的。" });
    const events = await chat(web, "算了");
    expect(events.at(-1)).toMatchObject({ type: "final", text: "好的。" });
    expect(await balancesOf(web.ledger)).toMatchObject({ alice: "100", bob: "100" });
  });

  it("serves the page with a strict content security policy", async () => {
    fixture = await startWebFixture();
    const page = await send(fixture.web.url);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<script type="module" src="/app.js"></script>');
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
    const script = await send(new URL("/app.js", fixture.web.url).href);
    expect([script.status, script.headers["content-type"]]).toStrictEqual([
      200,
      "text/javascript; charset=utf-8",
    ]);
    expect(script.text).not.toContain("innerHTML");
    const balances = await send(new URL("/api/balances", fixture.web.url).href);
    expect(JSON.parse(balances.text).accounts.map((a: { address: string }) => a.address)).toStrictEqual([
      "alice",
      "bob",
      "carol",
      "dave",
    ]);
  });

  it("refuses other hosts and origins (DNS rebinding, other sites) and malformed requests", async () => {
    fixture = await startWebFixture();
    const url = fixture.web.url;
    const port = new URL(url).port;
    const json = { "content-type": "application/json" };
    const body = JSON.stringify({ session: SESSION, message: "hi" });
    const cases: [string, Parameters<typeof send>[1], number, string][] = [
      [
        "/",
        { headers: { host: "evil.example" } },
        403,
        'Forbidden: Host header "evil.example" is not allowed',
      ],
      [
        "/api/chat",
        { method: "POST", headers: { ...json, origin: "http://evil.example" }, body },
        403,
        'Forbidden: Origin "http://evil.example" is not allowed',
      ],
      [
        "/api/chat",
        { method: "POST", headers: { "content-type": "text/plain" }, body },
        415,
        "send the body as application/json",
      ],
      ["/api/chat", { method: "POST", headers: json, body: "{" }, 400, "Parse error: Invalid JSON"],
      [
        "/api/chat",
        { method: "POST", headers: json, body: '{"session":"x","message":"hi"}' },
        400,
        "session: 8–64 letters, digits or -",
      ],
      ["/api/chat", { method: "GET" }, 405, "use POST /api/chat"],
      [
        "/api/permission",
        {
          method: "POST",
          headers: json,
          body: JSON.stringify({ session: SESSION, id: "toolu_x", allow: true }),
        },
        404,
        'no call "toolu_x" is waiting for a decision',
      ],
      ["/etc/passwd", {}, 404, "no page /etc/passwd"],
    ];
    for (const [path, options, status, error] of cases) {
      const response = await send(new URL(path, url).href, options);
      expect([path, response.status, JSON.parse(response.text)]).toStrictEqual([path, status, { error }]);
    }
    const local = await send(url, {
      headers: { host: `localhost:${port}`, origin: `http://localhost:${port}` },
    });
    expect(local.status).toBe(200);
  });
});
