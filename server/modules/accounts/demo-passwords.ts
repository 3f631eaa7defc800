/**
 * The demo accounts' passwords (seeds/demo-accounts.ts): published in the README and in the
 * start-up log, so no account may face a network with one (server/start-up/start-store.ts) and no one may
 * choose one (accounts.schemas.ts). docs/decisions/2026-11-29-demo-passwords.md.
 */
export const DEMO_PASSWORDS = { admin: "admin12345", customer: "customer12345" } as const;

export const PUBLISHED_PASSWORDS: readonly string[] = Object.values(DEMO_PASSWORDS);

export const PUBLISHED_PASSWORD_REFUSED = "This password is published with the demo store: choose another";
