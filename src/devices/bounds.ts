// The bounds of an account's devices (CONTRACT §2 "Devices"), read by the edge's validation, the
// table's CHECKs and the registration function alike.

/** A device's name, as the customer sees it in the app ("Pixel 8 da Ana"): 1 to 64 characters. */
export const deviceNameLengthMax = 64;

/**
 * Devices one account may have, pending or registered: a person has a few phones, and the list
 * (GET /v1/devices) is answered whole. Past it: 422 until one is removed.
 */
export const devicesPerAccountMax = 50;
