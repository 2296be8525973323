// `npm run typecheck`: the Worker's and Node's programs, side by side (scripts/lib/typecheck.ts).
import { typecheck } from "./lib/typecheck.ts";

const result = await typecheck();
process.stdout.write(result.output);
process.exitCode = result.ok ? 0 : 1;
