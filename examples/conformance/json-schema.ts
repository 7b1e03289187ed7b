/**
 * The tool of the conformance scenario `json-schema-2020-12` (SEP-1613, SEP-2106): its input schema
 * says what TypeScript types cannot — a `$defs` entry with an `$anchor`, "a phone or an email"
 * (`allOf`/`anyOf` of `required`) and "the phone when it is the contact method" (`if`/`then`/`else`) —
 * so it is written by hand in `json-schema-2020-12.json` and named with `@inputSchema`. The server
 * lists that schema as it is and refuses arguments it rejects before the function runs.
 */
import { type ToolResult, text } from "@mcp-gen/runtime";

/** A postal address. */
export interface Address {
  street?: string;
  city?: string;
}

/** The arguments `json-schema-2020-12.json` accepts, as the function reads them. */
export interface Contact {
  name?: string;
  address?: Address;
  contactMethod?: "phone" | "email";
  phone?: string;
  email?: string;
}

/**
 * Tool with JSON Schema 2020-12 features
 * @inputSchema ./json-schema-2020-12.json
 */
export function json_schema_2020_12_tool(contact: Contact): ToolResult {
  const reach = contact.contactMethod === "phone" ? contact.phone : (contact.email ?? contact.phone);
  return text(`name=${contact.name ?? ""}, address=${JSON.stringify(contact.address ?? {})}, reach=${reach}`);
}
