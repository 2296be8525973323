// The bounds of trusted recipients (CONTRACT §2 "Trusted recipients"), apart from the table so
// the edge, the store and the schema's CHECK share them without importing drizzle.

/** The Central Bank leaves the list to the institution; the contract fixes 50 per account. */
export const trustedRecipientsPerAccountMax = 50;
/** A label the customer reads in the app, as long as a device's name. */
export const trustedRecipientNameLengthMax = 64;
