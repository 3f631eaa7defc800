/**
 * Requests that Node's HTTP parser refuses before Express (server/http/http-server.ts) still
 * answer in the store's words: the API's envelope under /api/v1, a short text elsewhere, also on
 * a kept-alive connection that has already carried an answer.
 */
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** Sends exactly these bytes on a new connection and answers everything the server wrote back. */
function rawExchange(baseUrl: string, request: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    setTimeout(() => socket.destroy(), 10_000).unref();
  });
}

/** A GET with the header lines exactly as given (spaces, tabs and repeated headers kept). */
function rawGet(baseUrl: string, path: string, headerLines: string[]): Promise<string> {
  const host = new URL(baseUrl).host;
  return rawExchange(
    baseUrl,
    [`GET ${path} HTTP/1.1`, `Host: ${host}`, "Connection: close", ...headerLines, "", ""].join("\r\n"),
  );
}

describe("requests that Node refuses before Express", () => {
  const bigQuery = "q=" + "x".repeat(20 * 1024);

  it("answer 431 with the API's envelope under /api/v1", async () => {
    const answer = await rawGet(server.baseUrl, `/api/v1/products?${bigQuery}`, []);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({
      success: false,
      message: "Request header fields too large",
    });
    const viaFetch = await fetch(`${server.baseUrl}/api/v1/cart?${bigQuery}`);
    expect(viaFetch.status).toBe(431);
    expect(await viaFetch.json()).toMatchObject({ success: false });
  });

  it("answer on a kept-alive connection that has already carried an answer", async () => {
    // Clients reuse connections: a refusal there once closed the connection without a word
    // ("other side closed" in fetch) instead of answering 431.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string) =>
      new Promise<{ status: number; body: string; reusedSocket: boolean }>((resolve, reject) => {
        const request = http.get(server.baseUrl + path, { agent }, (response) => {
          let body = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => (body += chunk));
          response.on("end", () => resolve({ status: response.statusCode!, body, reusedSocket: request.reusedSocket }));
        });
        request.on("error", reject);
      });
    try {
      expect((await get("/healthz")).status).toBe(200);
      const refused = await get(`/api/v1/products?${bigQuery}`);
      expect(refused.reusedSocket).toBe(true);
      expect(refused.status).toBe(431);
      expect(JSON.parse(refused.body)).toEqual({ success: false, message: "Request header fields too large" });
    } finally {
      agent.destroy();
    }
  });

  it("answer 431 with a short text on pages, and 400 for a malformed request", async () => {
    const page = await rawGet(server.baseUrl, `/cart?${bigQuery}`, []);
    expect(page).toMatch(/^HTTP\/1\.1 431 /);
    expect(page).toMatch(/content-type: text\/plain/i);
    expect(page).toContain("Request header fields too large");
    const badApi = await rawExchange(
      server.baseUrl,
      "GET /api/v1/products HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n",
    );
    expect(badApi).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(badApi.slice(badApi.indexOf("\r\n\r\n") + 4))).toEqual({
      success: false,
      message: "Bad request",
    });
    const badPage = await rawExchange(server.baseUrl, "GET /products HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n");
    expect(badPage).toMatch(/^HTTP\/1\.1 400 /);
    expect(badPage).toContain("Bad request");
    // The server goes on answering.
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
  });
});
