// Ceilings: a bare JSON-RPC line loop (stdio) and a bare node:http server answering a fixed
// tools/call result, with no MCP library at all.
import { createServer } from "node:http";
import { createInterface } from "node:readline";

const result = (id) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    result: { content: [{ type: "text", text: "[]" }], structuredContent: { result: [] } },
  });

if (process.argv[2] === "stdio") {
  createInterface({ input: process.stdin }).on("line", (line) => {
    const { id } = JSON.parse(line);
    if (id !== undefined) process.stdout.write(`${result(id)}\n`);
  });
} else {
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (c) => (body += c));
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" }).end(result(JSON.parse(body).id));
    });
  });
  server.listen(0, "127.0.0.1", () =>
    process.stderr.write(`bare: listening on http://127.0.0.1:${server.address().port}/mcp\n`),
  );
}
