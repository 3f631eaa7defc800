/**
 * Where the e2e store's courier fakes listen (tests/support/courier-fakes-server.ts): ports
 * derived from the store's own E2E_PORT, so worktrees running their journeys side by side, each
 * with its own E2E_PORT, never share a fake.
 */
export function courierFakePorts(e2ePort: number): { postex: number; leopards: number } {
  return { postex: e2ePort + 10_000, leopards: e2ePort + 20_000 };
}
