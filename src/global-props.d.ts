// Types ctx.exports (loopback bindings to this Worker's own exports): the saga reaches the
// sandbox provider and the sandbox reaches the webhook route through them, without a network.
declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("./worker.ts");
    durableNamespaces: "TransferSaga" | "SandboxProvider";
  }
}
