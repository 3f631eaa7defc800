/**
 * Upload progress for a form that carries a file, with JavaScript (the form works without it).
 * React Router submits forms with fetch(), which cannot report how much of a body was sent; while
 * installed, this sends a POST whose FormData holds a chosen file with XMLHttpRequest instead,
 * reporting progress, and hands React Router an ordinary Response. Every other request goes to
 * fetch() untouched.
 */
export function trackUploadProgress(onProgress: (fraction: number) => void): () => void {
  const original = window.fetch;
  const tracked: typeof fetch = (input, init) => {
    const body = init?.body;
    const method = (init?.method ?? "GET").toUpperCase();
    if (method !== "POST" || !(body instanceof FormData) || !holdsFile(body)) return original(input, init);
    return sendWithProgress(input, { ...init, body }, onProgress);
  };
  window.fetch = tracked;
  return () => {
    if (window.fetch === tracked) window.fetch = original;
  };
}

function holdsFile(body: FormData): boolean {
  for (const value of body.values()) if (typeof value !== "string" && value.size > 0) return true;
  return false;
}

function sendWithProgress(
  input: RequestInfo | URL,
  init: RequestInit & { body: FormData },
  onProgress: (fraction: number) => void,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    const url = input instanceof Request ? input.url : String(input);
    request.open(init.method ?? "POST", url);
    request.responseType = "arraybuffer";
    onProgress(0);
    new Headers(init.headers).forEach((value, name) => request.setRequestHeader(name, value));
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    request.addEventListener("load", () => {
      const headers = new Headers();
      for (const line of request
        .getAllResponseHeaders()
        .trim()
        .split(/[\r\n]+/)) {
        const colon = line.indexOf(":");
        if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      // A Response with these statuses may not have a body.
      const noBody = [101, 204, 205, 304].includes(request.status);
      resolve(
        new Response(noBody ? null : (request.response as ArrayBuffer), {
          status: request.status,
          statusText: request.statusText,
          headers,
        }),
      );
    });
    request.addEventListener("error", () => reject(new TypeError("Failed to fetch")));
    request.addEventListener("abort", () => reject(new DOMException("The upload was cancelled", "AbortError")));
    init.signal?.addEventListener("abort", () => request.abort());
    request.send(init.body);
  });
}
