// The ids and key types every room names, declared once: the edge validates with them, the
// database CHECKs and the provider's port are built from them.

/** A UUID as Postgres and crypto.randomUUID() print it (lowercase, dashed): transfer, credit, event ids. */
export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The same in either case, for ids written by others (a provider's webhook, a BR Code's key). */
export const uuidPatternAnyCase = new RegExp(uuidPattern.source, "i");

/** An account id (CONTRACT §2): the client JWT's `sub` and the operators' `{id}`. */
export const accountIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** A device id (CONTRACT §2 "Devices"): the client JWT's `device_id`, 1 to 128 printable ASCII characters. */
export const deviceIdPattern = /^[\x20-\x7e]{1,128}$/;

/** The DICT's Pix key types (CONTRACT §2). */
export const pixKeyTypes = ["cpf", "cnpj", "email", "phone", "evp"] as const;
export type PixKeyType = (typeof pixKeyTypes)[number];
