// Dynamic BR Codes pinned at the send with the generic adapter (CONTRACT §2, §4): the scenarios
// of test/support/pinned-br-codes.ts against the sandbox's own API.
import { describePinnedBrCodes } from "../support/pinned-br-codes.ts";

describePinnedBrCodes("provider");
