import { defineApiRoute, type ApiRoute } from "../api-route";
import { brandTextSchema } from "../../modules/catalog/brands";
import { described, object, text } from "../../modules/shared/shapes";

const brandShape = object({
  name: text(),
  slug: described(text(), "The address of the brand's page: /brands/{slug}"),
  description: text({ maxLength: 2000 }),
});

/** Brands (docs/api.md, "Brands"): the admins write a brand's short text. */
export const brandsApiRoutes: ApiRoute[] = [
  defineApiRoute({
    method: "put",
    path: "/brands/:slug",
    tag: "Brands",
    summary:
      "Replace a brand's short text, shown on its page (/brands/{slug}) at once: { description } of at most 2,000 characters, trimmed (empty: no text). Unknown brand: 404",
    access: "admin",
    body: brandTextSchema,
    responseData: brandShape,
    errorStatuses: [404],
    handler: async ({ services, params, body }) => ({
      message: "Brand updated",
      data: await services.catalog.updateBrandText(params.slug, body),
    }),
  }),
];
