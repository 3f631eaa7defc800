import http from "node:http";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertProducts } from "../support/fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

// A streamed page's flushes are gathered before they reach the compressor
// (server/http/response-compression.ts): whatever the encoding, a browser must get the same page.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await insertProducts(
    server,
    Array.from({ length: 12 }, (_, index) => ({ name: `Compressed Watch ${index}`, stock: 3 })),
  );
});
afterAll(async () => {
  await server?.close();
});

function get(path: string, encoding: string): Promise<{ encoding: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(server.baseUrl + path, { headers: { "accept-encoding": encoding } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const raw = Buffer.concat(chunks);
          const contentEncoding = response.headers["content-encoding"];
          const body =
            contentEncoding === "br"
              ? zlib.brotliDecompressSync(raw)
              : contentEncoding === "gzip"
                ? zlib.gunzipSync(raw)
                : raw;
          resolve({ encoding: contentEncoding, body: body.toString("utf8") });
        });
      })
      .on("error", reject);
  });
}

// Each answer has its own CSP nonce; everything else is the same page.
const withoutNonces = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""');

describe("compressed pages", () => {
  it("sends the same whole page with brotli, with gzip and uncompressed", async () => {
    const plain = await get("/products", "identity");
    const brotli = await get("/products", "br");
    const gzip = await get("/products", "gzip");
    expect(plain.encoding).toBeUndefined();
    expect(brotli.encoding).toBe("br");
    expect(gzip.encoding).toBe("gzip");
    expect(plain.body).toContain("Compressed Watch 11");
    expect(plain.body.trimEnd()).toMatch(/<\/html>$/);
    expect(withoutNonces(brotli.body)).toBe(withoutNonces(plain.body));
    expect(withoutNonces(gzip.body)).toBe(withoutNonces(plain.body));
  });
});
