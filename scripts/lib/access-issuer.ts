// A stand-in for Cloudflare Access on one machine: an RSA signing key, its certs served over
// HTTP as Access serves them (`/cdn-cgi/access/certs`), and assertions minted for an email.
// The tests and the browser checks point ACCESS_CERTS_URL here.
//
//   const access = await startAccessIssuer();
//   access.certsUrl                                   // http://127.0.0.1:PORT/cdn-cgi/access/certs
//   await mintAccessAssertion(access.privateJwk, { email: "ana@example.com" })   // access-assertion.ts
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { testAccessKid } from "./access-assertion.ts";

export interface AccessIssuer {
  certsUrl: string;
  /** The signing key, as JSON Web Key with its kid, to mint assertions elsewhere. */
  privateJwk: JWK;
  close(): Promise<void>;
}

export async function startAccessIssuer(): Promise<AccessIssuer> {
  const { publicKey, privateKey } = await generateKeyPair("RS256", { modulusLength: 2048, extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid: testAccessKid, alg: "RS256", use: "sig" };
  const privateJwk = { ...(await exportJWK(privateKey)), kid: testAccessKid, alg: "RS256" };
  const body = JSON.stringify({ keys: [publicJwk], public_cert: { kid: testAccessKid }, public_certs: [] });
  const server = createServer((request, response) => {
    if (request.url !== "/cdn-cgi/access/certs") {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": "application/json" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    certsUrl: `http://127.0.0.1:${port}/cdn-cgi/access/certs`,
    privateJwk,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
