// Codes for the BR Code tests: the Central Bank manual's published examples, third-party codes
// whose CRCs were checked with an independent implementation (Python's binascii.crc_hqx with
// init 0xFFFF), and a hand-rolled TLV writer so malformed codes do not depend on the builder.
import type { DynamicBrCodeFields, StaticBrCodeFields } from "../../src/pix/br-code.ts";
import { crcHex } from "../../src/pix/crc16.ts";

/** Manual de Padrões para Iniciação do Pix, static example: a random key, no amount, txid ***. */
export const manualStatic =
  "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";
/** The manual's dynamic example: a payload URL and point of initiation 12. */
export const manualDynamic =
  "00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***630464E4";
/** The manual's composite example: the static one with an amount of 100.50 and a template 80 (Pix Automático). */
export const manualComposite =
  "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865406100.505802BR5913Fulano de Tal6008BRASILIA62070503***80740014br.gov.bcb.pix2552pix.example.com/rec/2353c790eefb11eaadc10242ac12000263042875";
/** A PSP's dynamic code as published in an API's documentation: an amount of 1310.10. */
export const pspDynamicWithAmount =
  "00020101021226820014br.gov.bcb.pix2560qrpix-h.bradesco.com.br/9d36b84f-c70b-478f-b95c-12729b90ca2552040000530398654071310.105802BR5905ASAAS6009JOINVILLE62070503***63049917";
/** A PSP's dynamic code with a postal code (61) and a name of exactly 23 characters. */
export const pspDynamicWithPostalCode =
  "00020101021226800014br.gov.bcb.pix2558pix.asaas.com/qr/cobv/924f157f-cc00-45cb-ba01-630b423ac0325204000053039865802BR5923VIA AIR AGENCIA REPRESE6009Paranavai61088770712062070503***63046F70";
/** Seen in the wild: its CRC is right but its TLV is not (an extra "01" after the format indicator). */
export const crcValidButMalformed =
  "0002010101021226630014BR.GOV.BCB.PIX0132420ab7c44d6346d4809ecd3eebc129ec0205BARBA52040000530398654041.005802BR5922RAFAEL DE ANDRADE DIAS6004LAJE62160512AG000000023863047C58";

export type RawField = readonly [id: string, value: string];

export function tlv(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, "0")}${value}`;
}

/** Writes the fields as given (any order, any content) and signs them with a correct CRC. */
export function signedCode(fields: readonly RawField[]): string {
  const unsigned = `${fields.map(([id, value]) => tlv(id, value)).join("")}6304`;
  return `${unsigned}${crcHex(unsigned)}`;
}

export const evpKey = "123e4567-e12b-12d1-a456-426655440000";
export const pixAccount = (key = evpKey): string => `${tlv("00", "br.gov.bcb.pix")}${tlv("01", key)}`;

/** The manual's static example as raw fields, for tests that change one of them. */
export function manualStaticFields(changes: Readonly<Record<string, string | null>> = {}): RawField[] {
  const fields: RawField[] = [
    ["00", "01"],
    ["26", pixAccount()],
    ["52", "0000"],
    ["53", "986"],
    ["58", "BR"],
    ["59", "Fulano de Tal"],
    ["60", "BRASILIA"],
    ["62", tlv("05", "***")],
  ];
  const changed = fields.flatMap(([id, value]): RawField[] => {
    const change = changes[id];
    if (change === undefined) return [[id, value]];
    return change === null ? [] : [[id, change]];
  });
  const added = Object.entries(changes).flatMap(([id, value]): RawField[] =>
    value !== null && !fields.some(([known]) => known === id) ? [[id, value]] : [],
  );
  return [...changed, ...added];
}

/** The manual's static example (`manualStatic`) as the fields it parses to and is built from. */
export const staticFields: StaticBrCodeFields = {
  kind: "static",
  pixKey: evpKey,
  pixKeyType: "evp",
  initiationMethod: null,
  info: null,
  merchantCategoryCode: "0000",
  amountCents: null,
  merchantName: "Fulano de Tal",
  merchantCity: "BRASILIA",
  postalCode: null,
  txid: null,
  extraFields: [],
  extraAccountFields: [],
  extraAdditionalFields: [],
};

export const dynamicFields: DynamicBrCodeFields = (() => {
  const { pixKey: _pixKey, pixKeyType: _pixKeyType, ...common } = staticFields;
  return { ...common, kind: "dynamic", url: "pix.example.com/qr/v2/1" };
})();
