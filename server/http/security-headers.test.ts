import type { AddressInfo } from "node:net";
import express, { type RequestHandler } from "express";
import helmet from "helmet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentSecurityPolicy, securityHeaders } from "./security-headers";

/** Helmet run on every request with the policy's nonce as a directive function: what securityHeaders replays. */
function helmetPerRequest(development: boolean): RequestHandler[] {
  return [
    (_req, res, next) => {
      res.locals.cspNonce = "bm9uY2Utb2YtdGhlLXRlc3Q=";
      next();
    },
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          "default-src": ["'self'"],
          "script-src": ["'self'", (_req, res) => `'nonce-${(res as unknown as express.Response).locals.cspNonce}'`],
          "style-src": development ? ["'self'", "'unsafe-inline'"] : ["'self'"],
          "img-src": ["'self'", "data:", "https:"],
          "font-src": ["'self'"],
          "connect-src": development ? ["'self'", "ws://127.0.0.1:*", "ws://localhost:*"] : ["'self'"],
          "form-action": ["'self'"],
          "frame-ancestors": ["'none'"],
          "base-uri": ["'self'"],
          "object-src": ["'none'"],
        },
      },
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    }),
  ];
}

let server: import("node:http").Server;
let base = "";
beforeAll(async () => {
  const app = express();
  for (const development of [false, true]) {
    const mode = development ? "development" : "production";
    app.get(`/${mode}/replayed`, securityHeaders({ development }), (_req, res) => {
      res.json({ nonce: res.locals.cspNonce });
    });
    app.get(`/${mode}/helmet`, ...helmetPerRequest(development), (_req: express.Request, res: express.Response) => {
      res.json({ nonce: res.locals.cspNonce });
    });
  }
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Every header but those of the one answer (date, length, etag), the nonce written as NONCE. */
async function headersOf(path: string): Promise<Record<string, string>> {
  const response = await fetch(base + path);
  const { nonce } = (await response.json()) as { nonce: string };
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) {
    if (["date", "content-length", "etag", "connection", "keep-alive"].includes(name)) continue;
    headers[name] = value.replaceAll(nonce, "NONCE");
  }
  return headers;
}

describe("security headers", () => {
  for (const mode of ["production", "development"]) {
    it(`are, in ${mode}, exactly the headers helmet sets when run for each request`, async () => {
      const replayed = await headersOf(`/${mode}/replayed`);
      expect(replayed["content-security-policy"]).toContain("script-src 'self' 'nonce-NONCE'");
      expect(replayed).toEqual(await headersOf(`/${mode}/helmet`));
    });
  }

  it("give every answer a nonce of its own", async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const policy = (await fetch(`${base}/production/replayed`)).headers.get("content-security-policy")!;
      nonces.add(/'nonce-([^']+)'/.exec(policy)![1]!);
    }
    expect(nonces.size).toBe(5);
  });

  it("write a cached page's policy as the nonce's, with its scripts' hashes in the nonce's place", () => {
    for (const development of [false, true]) {
      const policy = contentSecurityPolicy(development);
      const hashes = ["'sha256-AAAA'", "'sha256-BBBB'"];
      expect(policy.withHashes(hashes)).toBe(policy.withNonce("N").replace("'nonce-N'", hashes.join(" ")));
      expect(policy.withHashes([])).toBe(policy.withNonce("N").replace(" 'nonce-N'", ""));
    }
  });
});
