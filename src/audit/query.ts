// Which audit entries a reader asks for (GET /ops/audit and the console's audit page alike):
// the cursor is the sealed id of the last entry shown (cursor.ts), so anything the API did not
// issue is refused before it reaches SQL.
import { z } from "zod";
import { sealedCursorCharsMax } from "../lib/cursor-seal.ts";
import { accountIdPattern } from "../lib/ids.ts";

export const auditPageSizeMax = 100;
/** An Access email or `ops-token`; printable, bounded. */
const actorPattern = /^[^\s\p{Cc}]{1,320}$/u;

export const auditQuery = z.strictObject({
  account_id: z.string().regex(accountIdPattern).optional(),
  actor: z.string().regex(actorPattern).optional(),
  limit: z.coerce.number().int().min(1).max(auditPageSizeMax).default(50),
  cursor: z.string().max(sealedCursorCharsMax, "a next_cursor this API returned").optional(),
});
