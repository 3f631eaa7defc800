import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { ServerRouter, type EntryContext, type RouterContextProvider } from "react-router";
import { requestContext } from "./context";
import { NonceProvider } from "./lib/nonce";

export const streamTimeout = 5_000;

/**
 * A page or page data made for a signed-in user (their cart, orders, profile, the admin's
 * lists) is never stored by a shared cache or kept for the back button after log-out.
 */
function keepPrivate(headers: Headers, loadContext: Readonly<RouterContextProvider>) {
  if (loadContext.get(requestContext).user && !headers.has("Cache-Control"))
    headers.set("Cache-Control", "private, no-store");
}

export function handleDataRequest(response: Response, { context }: { context: Readonly<RouterContextProvider> }) {
  keepPrivate(response.headers, context);
  return response;
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.get(requestContext).cspNonce;
  keepPrivate(responseHeaders, loadContext);

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        // The whole document, sent as one body once everything is rendered (docs/decisions/
        // 2026-11-23-whole-page-answers.md): no loader defers data, so the rest follows the shell
        // within microseconds, and one write costs the compressor and the socket far less than the
        // dozen small ones a stream makes.
        onAllReady() {
          const chunks: Buffer[] = [];
          pipe(
            new Writable({
              write(chunk: Buffer, _encoding, callback) {
                chunks.push(chunk);
                callback();
              },
              final(callback) {
                clearTimeout(timeoutId);
                timeoutId = undefined;
                responseHeaders.set("Content-Type", "text/html; charset=utf-8");
                resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }));
                callback();
              },
            }),
          );
        },
        onShellError(error: unknown) {
          clearTimeout(timeoutId);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
