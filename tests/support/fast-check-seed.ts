import fc from "fast-check";
import { inject } from "vitest";

/**
 * Every property-based test of the run starts from the one seed the global setup chose and
 * printed (FC_SEED=<seed> npm test repeats a run exactly); fast-check also prints the seed and
 * path of a counterexample when a property fails.
 */
fc.configureGlobal({ seed: inject("fastCheckSeed") });
