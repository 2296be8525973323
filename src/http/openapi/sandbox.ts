// How the sandbox's operations are described: the PSP API answers `{ code }` like a real PSP's,
// and every /sandbox path exists only while SANDBOX_PROVIDER=on.
import { schemaRef } from "./component-ids.ts";
import type { Operation, ResponseObject } from "./types.ts";

const sandboxNote = "Sandbox only: present when `SANDBOX_PROVIDER=on`; otherwise every /sandbox path is `404`.";

export function pspResponse(description: string): ResponseObject {
  return { description, content: { "application/json": { schema: schemaRef("ProviderAnswer") } } };
}

export function sandboxOperation(operation: Omit<Operation, "tags" | "x-sandbox-only">): Operation {
  return { ...operation, description: `${operation.description}\n\n${sandboxNote}`, tags: ["sandbox"], "x-sandbox-only": true };
}
