/** A JSON value: what crosses RPC and HTTP boundaries unchanged. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
