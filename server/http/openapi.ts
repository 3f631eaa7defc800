import type * as yup from "yup";
import { nothing } from "../modules/shared/shapes";
import type { ApiRoute } from "./api-route";
import { errorEnvelopeShape, successEnvelopeShape } from "./envelope";
import { REFUSED_REQUEST_STATUSES } from "./http-server";

type JsonSchema = Record<string, unknown>;

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  304: "Not modified: the answer is still the one whose ETag was sent in If-None-Match (no body)",
  400: "Invalid input, or a body that is not valid JSON",
  401: "Not signed in, or a bad, expired or revoked token",
  403: "Signed in without the needed role",
  404: "Not found",
  408: "Request timeout: the request did not arrive in time",
  409: "Conflict with the current state",
  413: "Body too large: JSON over 10 kB, a photo over 10 MB",
  415: "Body of a type this call does not take",
  429: "Too many requests (see Retry-After)",
  431: "Request header fields too large (over 16 kB)",
  500: "Something went wrong",
  503: "Service temporarily unavailable (see Retry-After)",
};

/**
 * Statuses any call may answer: Express reads a JSON body on every call, even one that takes
 * none, so a body that is not JSON (400), too large (413) or not UTF-8 (415) is refused on any
 * (server/http/api-errors.ts); Node's parser refuses some requests before Express sees them
 * (server/http/http-server.ts); 500 and 503 may come from anywhere.
 */
const ANY_CALL_STATUSES = [400, 413, 415, ...REFUSED_REQUEST_STATUSES, 500, 503];

const ETAG_HEADER = {
  description: "The answer's validator: send it back in If-None-Match to be answered 304 while the answer is the same",
  required: true,
  schema: { type: "string" },
};

/** A file the API answers (api-route.ts, defineFileRoute) is private: no cache keeps it, the browser's included. */
const PRIVATE_FILE_CACHE_HEADER = {
  description: "private, no-store",
  required: true,
  schema: { type: "string", const: "private, no-store" },
};

const RETRY_AFTER_HEADER = {
  description: "Seconds to wait before asking again",
  required: true,
  schema: { type: "string", pattern: "^[0-9]+$" },
};

/** `/products/:id` → `/products/{id}` */
export function toOpenApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

/**
 * The OpenAPI 3.1 document, made from the same route table that the router mounts, so the
 * document cannot drift from what the server answers; the envelope's schemas come from
 * server/http/envelope.ts, the one definition that the router's answers are typed by.
 */
export function buildOpenApiDocument(routes: ApiRoute[], options: { title: string; serverUrl: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = toOpenApiPath(route.path);
    // Every GET is a conditional read: Express gives its answer an ETag and answers 304 when the
    // caller's If-None-Match still matches it (res.json, with the app's default "etag" setting).
    const conditional = route.method === "get";
    const parameters = [
      ...[...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => ({
        name: match[1],
        in: "path",
        required: true,
        schema: { type: "string" },
      })),
      ...(route.query ? queryParameters(route.query) : []),
      ...(conditional
        ? [
            {
              name: "If-None-Match",
              in: "header",
              required: false,
              description: "The ETag of an answer this call gave before: 304, with no body, while it is unchanged",
              schema: { type: "string" },
            },
          ]
        : []),
    ];
    const errorStatuses = new Set([
      ...(route.errorStatuses ?? []),
      ...(route.access === "public" ? [] : [401]),
      ...(route.access === "admin" ? [403] : []),
      ...ANY_CALL_STATUSES,
    ]);
    const successStatus = route.successStatus ?? 200;
    const success = successEnvelopeShape(route.responseData ?? nothing(), route.responseExtras ?? {});
    paths[path] ??= {};
    paths[path]![route.method] = {
      tags: [route.tag],
      summary: route.summary,
      operationId: `${route.method}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
      ...(route.access === "public" ? { security: [] } : {}),
      // Who may call it, for tools and the contract tests: a 403 alone does not say (a review's
      // 403 is for a customer who did not buy the watch, not for a missing role).
      "x-access": route.access,
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.photoUpload
        ? {
            requestBody: {
              required: true,
              content: {
                "multipart/form-data": {
                  schema: {
                    type: "object",
                    required: ["image"],
                    properties: {
                      image: {
                        type: "string",
                        format: "binary",
                        description:
                          "The photo: its type is read from its bytes. At most 10 MB and 40 megapixels; EXIF metadata is not kept",
                      },
                    },
                  },
                },
              },
            },
          }
        : {}),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: {
                "application/json": { schema: yupToJsonSchema(route.body) },
                ...(route.photosWithBody
                  ? {
                      "multipart/form-data": {
                        schema: withPhotos(route.body, route.photosWithBody, route.photoField ?? "image"),
                      },
                    }
                  : {}),
              },
            },
          }
        : {}),
      responses: {
        [successStatus]: route.file
          ? {
              description: route.file.description,
              headers: { ...(conditional ? { ETag: ETAG_HEADER } : {}), "Cache-Control": PRIVATE_FILE_CACHE_HEADER },
              content: { [route.file.contentType]: { schema: { type: "string", format: "binary" } } },
            }
          : {
              description: STATUS_TEXT[successStatus] ?? "Success",
              ...(conditional ? { headers: { ETag: ETAG_HEADER } } : {}),
              content: { "application/json": { schema: success.schema } },
            },
        ...(conditional ? { 304: { description: STATUS_TEXT[304], headers: { ETag: ETAG_HEADER } } } : {}),
        ...Object.fromEntries(
          [...errorStatuses]
            .sort((a, b) => a - b)
            .map((status) => [
              status,
              {
                description: STATUS_TEXT[status] ?? "Error",
                ...(status === 429 || status === 503 ? { headers: { "Retry-After": RETRY_AFTER_HEADER } } : {}),
                content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
              },
            ]),
        ),
      },
    };
  }

  return {
    openapi: "3.1.0",
    info: {
      title: `${options.title} API`,
      version: "1.0.0",
      description:
        "JSON API of the store. Every answer has `success`, except a file a call answers (a transfer's screenshot); failures carry `message` and, for invalid input, `errors`. Money fields are JSON numbers in rupees. Every GET answers an ETag; sent back in If-None-Match, it gets 304 while the answer is unchanged.",
    },
    servers: [{ url: `${options.serverUrl}/api/v1` }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
      schemas: { Error: errorEnvelopeShape.schema },
    },
  };
}

function queryParameters(schema: yup.AnyObjectSchema) {
  const json = yupToJsonSchema(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: "query",
    required: required.has(name),
    schema: property,
  }));
}

type Description = {
  type: string;
  optional?: boolean;
  nullable?: boolean;
  oneOf?: unknown[];
  default?: unknown;
  tests?: { name?: string; params?: Record<string, unknown> }[];
  fields?: Record<string, Description>;
  innerType?: Description;
  /** A schema's `.meta({ description })`: what a field means, for clients. */
  meta?: { description?: unknown };
};

/** A JSON Schema for a yup schema: enough for the types, value sets and bounds that clients need. */
export function yupToJsonSchema(schema: yup.Schema): JsonSchema {
  return describeToJson(schema.describe() as Description);
}

function describeToJson(description: Description): JsonSchema {
  const json: JsonSchema = {};
  switch (description.type) {
    case "object": {
      json.type = "object";
      const fields = description.fields ?? {};
      json.properties = Object.fromEntries(
        Object.entries(fields).map(([name, field]) => [name, describeToJson(field)]),
      );
      const required = Object.entries(fields)
        .filter(([, field]) => field.optional === false)
        .map(([name]) => name);
      if (required.length > 0) json.required = required;
      break;
    }
    case "array":
      json.type = "array";
      if (description.innerType) json.items = describeToJson(description.innerType);
      break;
    case "number":
      json.type = description.tests?.some((test) => test.name === "integer") ? "integer" : "number";
      break;
    case "boolean":
      json.type = "boolean";
      break;
    case "date":
      json.type = "string";
      json.format = "date-time";
      break;
    default:
      json.type = "string";
  }
  const values = (description.oneOf ?? []).filter((value) => value !== undefined && value !== "");
  if (values.length > 0) json.enum = values;
  for (const test of description.tests ?? []) {
    const params = test.params ?? {};
    if (test.name === "min") json[json.type === "string" ? "minLength" : "minimum"] = params.min;
    if (test.name === "max") json[json.type === "string" ? "maxLength" : "maximum"] = params.max;
    if (test.name === "email") json.format = "email";
  }
  if (description.type !== "object" && description.default !== undefined && typeof description.default !== "function") {
    json.default = description.default;
  }
  if (typeof description.meta?.description === "string") json.description = description.meta.description;
  return json;
}

/** A body sent as a form: its fields as text parts, and up to `most` photos in the field `image`. */
function withPhotos(body: yup.AnyObjectSchema, most: number, field: string) {
  const schema = yupToJsonSchema(body) as { properties?: Record<string, unknown> };
  const howRead =
    "read like a product's photo (its type from its bytes, at most 10 MB and 40 megapixels; EXIF metadata is not kept). Optional";
  return {
    ...schema,
    properties: {
      ...schema.properties,
      [field]:
        most === 1
          ? { type: "string", format: "binary", description: `One image, ${howRead}` }
          : {
              type: "array",
              maxItems: most,
              items: { type: "string", format: "binary" },
              description: `Up to ${most} photos, the field repeated: each ${howRead}`,
            },
    },
  };
}
