/**
 * Where an e2e store's courier fakes listen (tests/support/courier-fakes-server.ts): ports
 * derived from the store's own port (E2E_PORT + the worker's index: tests/e2e/worker-store.ts),
 * so workers, and worktrees running their journeys side by side, never share a fake.
 */
export function courierFakePorts(e2ePort: number): { postex: number; leopards: number } {
  return { postex: e2ePort + 10_000, leopards: e2ePort + 20_000 };
}
