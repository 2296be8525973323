// Dynamic BR Codes pinned at the send with PROVIDER=efi (CONTRACT §2, §4b): the scenarios of
// test/support/pinned-br-codes.ts, the charge changed with Efí's PATCH /v2/cob/:txid and read
// again with qrcodes/detalhar.
import { describePinnedBrCodes } from "../support/pinned-br-codes.ts";

describePinnedBrCodes("efi");
