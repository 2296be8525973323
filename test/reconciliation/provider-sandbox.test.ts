// Provider reconciliation end to end with the generic adapter over the sandbox (./scenarios.ts).
import { providerReconciliationScenarios } from "./scenarios.ts";

providerReconciliationScenarios("generic API", 30);
