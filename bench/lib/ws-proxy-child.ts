// Entry of a child process that runs the WebSocket-to-TCP proxy (scripts/lib/ws-proxy.ts). The
// bench keeps it out of its own process, as `npm start` keeps it out of workerd: relaying every
// byte on the load generator's event loop would make the client the bottleneck of every ratio.
import { startWsProxy } from "../../scripts/lib/ws-proxy.ts";

const proxy = await startWsProxy();
process.stdout.write(`${JSON.stringify({ address: proxy.address })}\n`);

const stop = async (): Promise<void> => {
  await proxy.close();
  process.exit(0);
};
// The parent holds our stdin: when it ends (the bench stopped or died), so do we.
process.stdin.on("end", () => void stop());
process.stdin.resume();
process.on("SIGTERM", () => void stop());
