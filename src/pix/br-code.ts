// BR Code (Pix Copia e Cola): parse a pasted code, build one. Pure, no I/O, no clock.
// The parts: tlv.ts (the EMV framing), crc16.ts (field 63), amount.ts (field 54 <-> centavos),
// static-key.ts (a static code's key), merchant-account.ts (26), additional-data.ts (62),
// br-code-fields.ts (the rest), br-code-parse.ts and br-code-build.ts (the two directions).
export { buildBrCode } from "./br-code-build.ts";
export type {
  BrCode,
  BrCodeField,
  BrCodeFields,
  BrCodeProblem,
  BrCodeProblemCode,
  BrCodeResult,
  DynamicBrCodeFields,
  InitiationMethod,
  StaticBrCodeFields,
} from "./br-code-model.ts";
export { brCodeLengthMax } from "./br-code-model.ts";
export { parseBrCode } from "./br-code-parse.ts";
