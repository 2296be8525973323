// Provider reconciliation end to end with PROVIDER=efi: the sandbox's Efí statement, paged,
// read by the Efí adapter (../reconciliation/scenarios.ts).
import { providerReconciliationScenarios } from "../reconciliation/scenarios.ts";

providerReconciliationScenarios("Efí", 12);
