/**
 * An idle kept-alive connection stays open longer than the proxies in front keep theirs
 * (server/http/http-server.ts): a client or proxy that reuses one after a pause is answered, never
 * reset because the store closed it as the request was sent.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe("kept-alive connections", () => {
  it("say they stay open a minute, and answer a request sent on one after a pause longer than Node's 5 s", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string) =>
      new Promise<{ status: number; keepAlive: string | undefined; reusedSocket: boolean }>((resolve, reject) => {
        const request = http.get(server.baseUrl + path, { agent }, (response) => {
          response.resume();
          response.on("end", () =>
            resolve({
              status: response.statusCode!,
              keepAlive: response.headers["keep-alive"]?.toString(),
              reusedSocket: request.reusedSocket,
            }),
          );
        });
        request.on("error", reject);
      });
    try {
      const first = await get("/healthz");
      expect(first.status).toBe(200);
      expect(first.keepAlive).toBe("timeout=65");
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const after = await get("/api/v1/products?limit=1");
      expect(after.reusedSocket).toBe(true);
      expect(after.status).toBe(200);
    } finally {
      agent.destroy();
    }
  }, 30_000);
});
