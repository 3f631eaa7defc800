import type { Router } from "express";
import { describe, expect, it } from "vitest";
import * as yup from "yup";
import { apiRoutes } from "./api/api-routes";
import type { Services } from "../start-up/services";
import { defineApiRoute, type ApiRoute } from "./api-route";
import { createApiRouter } from "./api-router";
import { buildOpenApiDocument, toOpenApiPath, yupToJsonSchema } from "./openapi";

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** The (method, path) pairs that an Express router really answers. */
function mountedRoutes(router: Router): string[] {
  const mounted: string[] = [];
  for (const layer of router.stack as { route?: { path: string; methods: Record<string, boolean> } }[]) {
    if (!layer.route) continue;
    for (const method of METHODS) {
      if (layer.route.methods[method]) mounted.push(`${method} ${toOpenApiPath(layer.route.path)}`);
    }
  }
  return mounted.sort();
}

function documentedRoutes(document: ReturnType<typeof buildOpenApiDocument>): string[] {
  return Object.entries(document.paths)
    .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`))
    .sort();
}

function routerFor(routes: ApiRoute[]) {
  return createApiRouter({
    routes,
    services: {} as Services,
    corsOrigins: [],
    siteName: "Waqt",
    publicUrl: "http://localhost:3000",
  });
}

describe("the OpenAPI document", () => {
  it("describes exactly the calls the API router mounts", () => {
    const document = buildOpenApiDocument(apiRoutes, { title: "Waqt", serverUrl: "http://localhost:3000" });
    const mounted = mountedRoutes(routerFor(apiRoutes)).filter((route) => route !== "get /openapi.json");
    expect(documentedRoutes(document)).toEqual(mounted);
  });

  it("would notice a call that is mounted but not described", () => {
    const probe = defineApiRoute({
      method: "get",
      path: "/probe/:id",
      tag: "Probe",
      summary: "A probe",
      access: "admin",
      query: yup.object({ page: yup.number().integer().min(1) }),
      handler: async () => ({ message: "ok", data: null }),
    });
    const document = buildOpenApiDocument([probe], { title: "Waqt", serverUrl: "http://x" });
    expect(documentedRoutes(document)).toEqual(["get /probe/{id}"]);
    const operation = document.paths["/probe/{id}"]!.get as Record<string, any>;
    expect(operation.parameters).toContainEqual({ name: "id", in: "path", required: true, schema: { type: "string" } });
    expect(operation.parameters).toContainEqual(
      expect.objectContaining({
        name: "page",
        in: "query",
        schema: expect.objectContaining({ type: "integer", minimum: 1 }),
      }),
    );
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["200", "401", "403"]));
    expect(mountedRoutes(routerFor([probe]))).toContain("get /probe/{id}");
  });

  it("documents the email change: currentPassword on update-profile, pendingEmail on every user", () => {
    const document = buildOpenApiDocument(apiRoutes, { title: "Waqt", serverUrl: "http://x" }) as any;
    const update = document.paths["/auth/update-profile"].put;
    expect(update.requestBody.content["application/json"].schema.properties.currentPassword).toMatchObject({
      type: "string",
      description: expect.stringContaining("Required with an email other than the account's"),
    });
    expect(update.summary).toContain("pendingEmail");
    expect(Object.keys(update.responses)).toEqual(expect.arrayContaining(["400", "409", "429"]));
    const user =
      document.paths["/auth/me"].get.responses["200"].content["application/json"].schema.properties.data.properties
        .user;
    expect(user.required).toContain("pendingEmail");
    expect(user.properties.pendingEmail).toMatchObject({ type: ["string", "null"], format: "email" });
  });

  it("documents every GET as a conditional read (If-None-Match in, ETag and 304 out), and no other call", () => {
    const document = buildOpenApiDocument(apiRoutes, { title: "Waqt", serverUrl: "http://x" }) as any;
    for (const [path, operations] of Object.entries(document.paths) as [string, Record<string, any>][]) {
      for (const [method, operation] of Object.entries(operations)) {
        const conditional = method === "get";
        const ifNoneMatch = (operation.parameters ?? []).find((parameter: any) => parameter.name === "If-None-Match");
        expect(Boolean(ifNoneMatch), `${method} ${path}`).toBe(conditional);
        expect("304" in operation.responses, `${method} ${path}`).toBe(conditional);
        if (conditional) {
          expect(operation.responses["304"].content, `${method} ${path}`).toBeUndefined();
          expect(operation.responses["304"].headers.ETag.required).toBe(true);
          expect(operation.responses["200"].headers.ETag.required).toBe(true);
        }
        // What Express and Node refuse before any handler, on any call.
        expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(
          expect.arrayContaining(["400", "408", "413", "415", "431", "500", "503"]),
        );
      }
    }
  });

  it("turns yup schemas into JSON Schema with types, value sets and bounds", () => {
    const schema = yup.object({
      email: yup.string().email().required(),
      role: yup.string().oneOf(["customer", "admin"]),
      quantity: yup.number().integer().min(1).required(),
    });
    expect(yupToJsonSchema(schema)).toEqual({
      type: "object",
      properties: {
        email: { type: "string", format: "email" },
        role: { type: "string", enum: ["customer", "admin"] },
        quantity: { type: "integer", minimum: 1 },
      },
      required: ["email", "quantity"],
    });
  });
});
