import type * as yup from "yup";
import type { ApiRoute } from "./api-route";

type JsonSchema = Record<string, unknown>;

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  400: "Invalid input",
  401: "Not signed in, or a bad, expired or revoked token",
  403: "Signed in without the needed role",
  404: "Not found",
  409: "Conflict with the current state",
  413: "Body too large: JSON over 10 kB, a photo over 10 MB",
  415: "Body of a type this call does not take",
  429: "Too many requests (see Retry-After)",
  500: "Something went wrong",
  503: "Service temporarily unavailable",
};

/** `/products/:id` → `/products/{id}` */
export function toOpenApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

/**
 * The OpenAPI 3.1 document, made from the same route table that the router mounts, so the
 * document cannot drift from what the server answers.
 */
export function buildOpenApiDocument(routes: ApiRoute[], options: { title: string; serverUrl: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = toOpenApiPath(route.path);
    const parameters = [
      ...[...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => ({
        name: match[1],
        in: "path",
        required: true,
        schema: { type: "string" },
      })),
      ...(route.query ? queryParameters(route.query) : []),
    ];
    const errorStatuses = new Set([
      ...(route.errorStatuses ?? []),
      ...(route.body || route.query ? [400] : []),
      ...(route.access === "public" ? [] : [401]),
      ...(route.access === "admin" ? [403] : []),
      500,
      503,
    ]);
    const successStatus = route.successStatus ?? 200;
    paths[path] ??= {};
    paths[path]![route.method] = {
      tags: [route.tag],
      summary: route.summary,
      operationId: `${route.method}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
      ...(route.access === "public" ? { security: [] } : {}),
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
              content: { "application/json": { schema: yupToJsonSchema(route.body) } },
            },
          }
        : {}),
      responses: {
        [successStatus]: {
          description: STATUS_TEXT[successStatus] ?? "Success",
          content: {
            "application/json": {
              schema: {
                allOf: [
                  { $ref: "#/components/schemas/Success" },
                  { type: "object", properties: { data: route.responseData?.schema ?? { type: "null" } } },
                ],
              },
            },
          },
        },
        ...Object.fromEntries(
          [...errorStatuses].sort().map((status) => [
            status,
            {
              description: STATUS_TEXT[status] ?? "Error",
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
        "JSON API of the store. Every answer has `success`; failures carry `message` and, for invalid input, `errors`. Money fields are JSON numbers in rupees.",
    },
    servers: [{ url: `${options.serverUrl}/api/v1` }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
      schemas: {
        Success: {
          type: "object",
          required: ["success", "message", "data"],
          properties: {
            success: { const: true },
            message: { type: "string" },
            data: {},
            pagination: { type: "object" },
            meta: { type: "object" },
          },
        },
        Error: {
          type: "object",
          required: ["success", "message"],
          properties: {
            success: { const: false },
            message: { type: "string" },
            errors: {
              type: "array",
              items: {
                type: "object",
                required: ["field", "message"],
                properties: { field: { type: "string" }, message: { type: "string" } },
              },
            },
          },
        },
      },
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
