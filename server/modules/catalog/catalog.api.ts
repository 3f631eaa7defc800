import { defineApiRoute, type ApiRoute } from "../../http/api-route";
import { PRODUCT_SORTS } from "./catalog-values";
import { productInputSchema, productListQuerySchema } from "./catalog.schemas";
import { CATEGORIES, forApiClients } from "./product.model";

const productSchema = {
  type: "object",
  properties: {
    _id: { type: "string", format: "uuid" },
    name: { type: "string" },
    description: { type: "string" },
    price: { type: "number", minimum: 0, description: "Rupees, at most two decimals" },
    category: { type: "string", enum: CATEGORIES },
    imageUrl: { type: "string", description: "Absolute URL (site paths are expanded with the public address)" },
    stock: { type: "integer", minimum: 0 },
    brand: { type: "string" },
    createdAt: { type: "string", format: "date-time" },
    updatedAt: { type: "string", format: "date-time" },
  },
};

/** /api/v1/products (API.md): anyone reads, admins write. */
export const catalogApiRoutes: ApiRoute[] = [
  defineApiRoute({
    method: "get",
    path: "/products",
    tag: "Products",
    summary: `List products. sort: ${PRODUCT_SORTS.join(", ")} (default -createdAt); with a search and no sort, by relevance. Empty values mean no filter.`,
    access: "public",
    query: productListQuerySchema,
    responseData: { type: "array", items: productSchema },
    handler: async ({ services, query, publicUrl }) => {
      const { products, pagination } = await services.catalog.listProducts(query);
      return {
        message: "OK",
        data: products.map((product) => forApiClients(product, publicUrl)),
        pagination,
      };
    },
  }),
  defineApiRoute({
    method: "get",
    path: "/products/:id",
    tag: "Products",
    summary: "One product",
    access: "public",
    responseData: productSchema,
    errorStatuses: [404],
    handler: async ({ services, params, publicUrl }) => ({
      message: "OK",
      data: forApiClients(await services.catalog.getProduct(params.id), publicUrl),
    }),
  }),
  defineApiRoute({
    method: "post",
    path: "/products",
    tag: "Products",
    summary: "Create a product",
    access: "admin",
    body: productInputSchema,
    successStatus: 201,
    responseData: productSchema,
    handler: async ({ services, body, publicUrl }) => ({
      message: "Product created successfully",
      data: forApiClients(await services.catalog.createProduct(body), publicUrl),
    }),
  }),
  defineApiRoute({
    method: "put",
    path: "/products/:id",
    tag: "Products",
    summary: "Replace a product's fields",
    access: "admin",
    body: productInputSchema,
    responseData: productSchema,
    errorStatuses: [404],
    handler: async ({ services, body, params, publicUrl }) => ({
      message: "Product updated successfully",
      data: forApiClients(await services.catalog.updateProduct(params.id, body), publicUrl),
    }),
  }),
  defineApiRoute({
    method: "delete",
    path: "/products/:id",
    tag: "Products",
    summary: "Delete a product (it leaves every cart; orders keep their copy)",
    access: "admin",
    errorStatuses: [404],
    handler: async ({ services, params }) => {
      await services.catalog.deleteProduct(params.id);
      return { message: "Product deleted successfully", data: null };
    },
  }),
];
