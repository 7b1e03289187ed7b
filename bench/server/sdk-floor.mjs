// Cold-start floor of any server built on the SDK v2's server package: the two modules mcp-gen's
// server loads (`@modelcontextprotocol/server` and its `/stdio` entry) are imported, then the
// opening line is answered by a fixed reply, with no server object at all. A server on the SDK
// cannot start faster than this; the row shows how much of the SDK server's own start it is.
import "@modelcontextprotocol/server";
import "@modelcontextprotocol/server/stdio";

process.stdin.once("data", () => process.stdout.write("{}\n"));
