import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

/**
 * The API's contract as a client that validates its answers holds it: the OpenAPI document the
 * server serves (GET /api/v1/openapi.json), checked against the OpenAPI 3.1 schema, and each
 * answer checked against it: a status it lists for the call, the headers it requires, a body of
 * its schema (no body where it describes none, as for 304). TestClient.api checks every answer of
 * the API tests this way (tests/support/http-client.ts).
 */
export type ApiAnswer = {
  method: string;
  /** Below /api/v1, with its query if any: `/products?limit=5`. */
  path: string;
  status: number;
  headers: Headers;
  text: string;
};

type Operation = { responses: Record<string, ResponseDescription> };
type ResponseDescription = {
  headers?: Record<string, { required?: boolean; schema?: Record<string, unknown> }>;
  content?: Record<string, { schema: Record<string, unknown> }>;
};
type OpenApiDocument = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};

const DOCUMENT_ID = "https://contract.test/openapi.json";
const pointerPart = (part: string) => part.replace(/~/g, "~0").replace(/\//g, "~1");

export class ApiContract {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();

  private constructor(readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addSchema(document, DOCUMENT_ID);
  }

  /** The document a server serves, once it is a valid OpenAPI document (else the validator's findings). */
  static async served(baseUrl: string): Promise<ApiContract> {
    const response = await fetch(`${baseUrl}/api/v1/openapi.json`);
    if (response.status !== 200) throw new Error(`GET /api/v1/openapi.json answered ${response.status}`);
    const document = (await response.json()) as OpenApiDocument;
    const { valid, errors } = await new Validator().validate(document);
    if (!valid) throw new Error(`The served OpenAPI document is not valid:\n${JSON.stringify(errors, null, 2)}`);
    return new ApiContract(document);
  }

  /** The documented path template an address falls under: literal segments win over `{parameters}`. */
  pathOf(address: string): string | null {
    // As the server gets it: `/cart/items/.` is sent as `/cart/items/`.
    const segments = new URL(address, "http://api.test").pathname.split("/");
    let best: { path: string; parameters: number } | null = null;
    for (const path of Object.keys(this.document.paths)) {
      const template = path.split("/");
      if (template.length !== segments.length) continue;
      let parameters = 0;
      const matches = template.every((part, index) => {
        if (/^\{[^}]+\}$/.test(part)) {
          parameters += 1;
          return segments[index] !== "";
        }
        return part === segments[index];
      });
      if (matches && (!best || parameters < best.parameters)) best = { path, parameters };
    }
    return best?.path ?? null;
  }

  /** Everything in an answer that the document does not allow, in words; empty when it matches. */
  problemsWith(answer: ApiAnswer): string[] {
    const method = answer.method.toLowerCase();
    const call = `${answer.method.toUpperCase()} ${new URL(answer.path, "http://api.test").pathname}`;
    // The document itself is served plain, without the envelope (docs/api.md).
    if (call.endsWith(" /openapi.json")) return [];
    const path = this.pathOf(answer.path);
    const operation = path ? this.document.paths[path]![method] : undefined;
    if (!path || !operation) {
      // A call the document does not have: the router's JSON 404, or a refusal of the body that
      // Express reads before any route, always in the error envelope.
      return this.bodyProblems(call, answer, "#/components/schemas/Error");
    }
    const response = operation.responses[String(answer.status)];
    if (!response) {
      const listed = Object.keys(operation.responses).join(", ");
      return [`${call} answered ${answer.status}, which the document does not list for ${method} ${path} (${listed})`];
    }
    const problems: string[] = [];
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      if (header.required && answer.headers.get(name) === null) {
        problems.push(`${call} answered ${answer.status} without the ${name} header the document requires`);
      }
    }
    const json = response.content?.["application/json"];
    const files = Object.keys(response.content ?? {});
    if (!json && files.length > 0) {
      // A file (a transfer's screenshot): of a type the document gives.
      const type = answer.headers.get("content-type") ?? "";
      if (!files.some((file) => type === file || type.startsWith(`${file};`)))
        problems.push(`${call} answered ${answer.status} as ${type}, not ${files.join(" or ")}`);
      return problems;
    }
    if (!json) {
      if (answer.text !== "")
        problems.push(`${call} answered ${answer.status} with a body; the document describes none`);
      return problems;
    }
    const pointer = ["paths", path, method, "responses", String(answer.status), "content", "application/json", "schema"]
      .map(pointerPart)
      .join("/");
    return [...problems, ...this.bodyProblems(call, answer, `#/${pointer}`)];
  }

  private bodyProblems(call: string, answer: ApiAnswer, pointer: string): string[] {
    if (!/^application\/json\b/.test(answer.headers.get("content-type") ?? "")) {
      return [`${call} answered ${answer.status} as ${answer.headers.get("content-type")}, not JSON`];
    }
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return [`${call} answered ${answer.status} with a body that is not JSON`];
    }
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
      this.validators.set(pointer, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (error) =>
        `${call} answered ${answer.status} with a body that does not match the document: ${error.instancePath || "(the body)"} ${error.message}${
          error.params && "additionalProperty" in error.params ? ` (${String(error.params.additionalProperty)})` : ""
        }`,
    );
  }
}

const contracts = new Map<string, Promise<ApiContract>>();

/** The contract of a running server, read once per server. */
export function contractOf(baseUrl: string): Promise<ApiContract> {
  let contract = contracts.get(baseUrl);
  if (!contract) {
    contract = ApiContract.served(baseUrl);
    contracts.set(baseUrl, contract);
    // A server that could not be read (not up yet, already closed) is read again next time.
    contract.catch(() => contracts.delete(baseUrl));
  }
  return contract;
}
