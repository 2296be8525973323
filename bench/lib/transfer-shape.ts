// What every bench transfer looks like: one real, cheap amount, and a key whose sandbox answer
// is a payment made that no provider webhook reports, so only the metric's own status checks or
// webhooks move the saga.
export const benchAmountCents = 100;
export const silentPixKey = "silent@sandbox.test";
