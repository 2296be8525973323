// A dynamic BR Code resolved again before a send, judged against what the transfer holds: only
// the same key, key type and amount (or a charge that leaves the amount to the payer) is unchanged.
import { describe, expect, it } from "vitest";
import type { BrCodeResolution, ResolvedBrCode } from "../../src/provider/port.ts";
import { brCodeCheckOf } from "../../src/saga-runtime/pinned-br-code.ts";
import { evidence } from "../saga/fixtures.ts";

const held = { amountCents: 60_000, pixKey: "ana@example.com", pixKeyType: "email" } as const;
const asHeld: ResolvedBrCode = { ...held, merchantName: "LOJA", merchantCity: "SAO PAULO", txid: "cob123" };
const resolved = (payment: Partial<ResolvedBrCode>): BrCodeResolution => ({
  kind: "resolved",
  payment: { ...asHeld, ...payment },
  evidence,
});

// biome-ignore format: a table reads best as a grid
const cases: [string, BrCodeResolution, ReturnType<typeof brCodeCheckOf>][] = [
  ["the same charge",                           resolved({}),                                                  { kind: "unchanged" }],
  ["another merchant name or txid",             resolved({ merchantName: "OUTRA", txid: "cob999" }),           { kind: "unchanged" }],
  ["an open amount (the payer chooses)",        resolved({ amountCents: null }),                               { kind: "unchanged" }],
  ["a raised amount",                           resolved({ amountCents: 65_000 }),                             { kind: "changed", what: "amount 60000 -> 65000" }],
  ["a lowered amount",                          resolved({ amountCents: 1 }),                                  { kind: "changed", what: "amount 60000 -> 1" }],
  ["another key",                               resolved({ pixKey: "mule@example.com" }),                      { kind: "changed", what: "key" }],
  ["the same text as another key type",         resolved({ pixKeyType: "evp" }),                               { kind: "changed", what: "key" }],
  ["a charge refused (removed, paid, expired)", { kind: "refused", code: "cobranca_removida", evidence },       { kind: "changed", what: "no longer payable: cobranca_removida" }],
  ["a charge paid (perhaps by this transfer's lost send)", { kind: "refused", code: "cobranca_concluida", evidence }, { kind: "unknown", why: "charge paid (cobranca_concluida)" }],
  ["no answer",                                 { kind: "unknown", why: "timeout", evidence },                 { kind: "unknown", why: "timeout" }],
];

describe("brCodeCheckOf", () => {
  it.each(cases)("%s", (_label, resolution, expected) => {
    expect(brCodeCheckOf(held, resolution)).toEqual(expected);
  });
});
