// A transfer's BR Code (Pix Copia e Cola): what was pasted and what it says. A static code names
// the key and the merchant kept on the transfer; a dynamic one names the payload URL the provider
// resolved before the hold (its merchant fields are the code's own words, not the provider's).
import { type BrCode, parseBrCode } from "../../pix/br-code.ts";
import type { TransferStory } from "../data/story.ts";
import { formatCents } from "../format.ts";
import { CodeFact } from "./code-fact.tsx";

export function BrCodeDetails({ story }: { story: TransferStory & { br_code: string } }) {
  const parsed = parseBrCode(story.br_code);
  // The code was parsed when the transfer was made; a parser grown stricter since must not hide it.
  const code = parsed.ok ? parsed.code : null;
  return (
    <dl class="facts panel">
      <dt>Kind</dt>
      <dd>
        {code === null
          ? "unreadable by today's parser"
          : code.kind === "static"
            ? "static: paid to the key it names"
            : "dynamic: resolved by the provider, paid as the code"}
      </dd>
      {code?.kind === "dynamic" ? (
        <>
          <dt>Payload URL</dt>
          <dd>
            <code>{`https://${code.url}`}</code>
          </dd>
        </>
      ) : null}
      <dt>Merchant</dt>
      <dd>{merchantOf(story, code)}</dd>
      <dt>Amount in the code</dt>
      <dd>{code === null || code.amountCents === null ? "none: the payer chose" : formatCents(code.amountCents)}</dd>
      <dt>txid</dt>
      <dd>{code === null || code.txid === null ? "—" : <code>{code.txid}</code>}</dd>
      <CodeFact label="Code" value={story.br_code} />
    </dl>
  );
}

function merchantOf(story: TransferStory, code: BrCode | null): string {
  if (story.merchant_name !== null) return `${story.merchant_name}, ${story.merchant_city ?? "—"}`;
  if (code === null) return "—";
  return `${code.merchantName}, ${code.merchantCity} (as the code says)`;
}
