import { defineApiRoute, type ApiRoute } from "../api-route";
import { PRODUCT_SORTS } from "../../modules/catalog/catalog-values.shared";
import * as yup from "yup";
import {
  imageUrlField,
  notifyMeSchema,
  productListQuerySchema,
  productSchema,
} from "../../modules/catalog/catalog.schemas";
import { productShape } from "../../modules/catalog/product.model";
import { facetsShape } from "../../modules/catalog/catalog-filters";
import { paginationShape } from "../../modules/shared/list-query";
import { withRules } from "../../modules/shared/input-rules.shared";
import { arrayOf } from "../../modules/shared/shapes";

/**
 * The API's own rule for a product it writes: the Image URL is required, since a photo comes by
 * another call (POST /products/{id}/image), where the product form may send a photo instead.
 */
const IMAGE_URL_REQUIRED = "Image URL is required";
const apiProductRules = yup.object({ imageUrl: yup.string().trim().required(IMAGE_URL_REQUIRED) });
/** The body as the OpenAPI document describes it: the product's schema, its Image URL required. */
const apiProductSchema = productSchema.shape({ imageUrl: imageUrlField().required(IMAGE_URL_REQUIRED) });

/** /api/v1/products (docs/api.md): anyone reads, admins write. */
export const catalogApiRoutes: ApiRoute[] = [
  defineApiRoute({
    method: "get",
    path: "/products",
    tag: "Products",
    summary: `List products. sort: ${PRODUCT_SORTS.join(", ")} (default -createdAt); with a search and no sort, by relevance. Empty values mean no filter. Filters combine as AND across filters and OR within one (brand, movement, caseSize, strap, dial and feature may be repeated; brand matches without regard to case). facets=1 adds \`facets\`: each filter's options with how many products each would give with every other filter applied.`,
    access: "public",
    query: productListQuerySchema,
    responseData: arrayOf(productShape),
    responseExtras: { pagination: paginationShape, facets: facetsShape },
    handler: async ({ services, query }) => {
      const { products, pagination, facets } = await services.catalog.listProducts(query);
      return { message: "OK", data: products, pagination, ...(facets ? { facets } : {}) };
    },
  }),
  defineApiRoute({
    method: "get",
    path: "/products/:id",
    tag: "Products",
    summary: "One product",
    access: "public",
    responseData: productShape,
    errorStatuses: [404],
    handler: async ({ services, params }) => ({
      message: "OK",
      data: await services.catalog.getProduct(params.id),
    }),
  }),
  defineApiRoute({
    method: "post",
    path: "/products/:id/notify",
    tag: "Products",
    summary:
      "Ask for one mail when this out-of-stock product is back in stock (no sign-in needed; asking again changes nothing). In stock: 400",
    access: "public",
    body: notifyMeSchema,
    successStatus: 202,
    errorStatuses: [404, 429],
    handler: async ({ services, body, params, req }) => {
      await services.stockAlerts.requestAlert(params.id, body, { ip: req.ip ?? "" });
      return { message: "We will email you when it is back in stock", data: null };
    },
  }),
  defineApiRoute({
    method: "post",
    path: "/products",
    tag: "Products",
    summary: "Create a product",
    access: "admin",
    body: apiProductSchema,
    successStatus: 201,
    responseData: productShape,
    handler: async ({ services, body }) => ({
      message: "Product created successfully",
      data: await services.catalog.createProduct(withRules(body, apiProductRules)),
    }),
  }),
  defineApiRoute({
    method: "put",
    path: "/products/:id",
    tag: "Products",
    summary:
      "Replace a product's fields. Send back the `imageUrl` you were given to keep an uploaded photo; another address replaces the photo",
    access: "admin",
    body: apiProductSchema,
    responseData: productShape,
    errorStatuses: [404],
    handler: async ({ services, body, params }) => ({
      message: "Product updated successfully",
      data: await services.catalog.updateProduct(params.id, withRules(body, apiProductRules)),
    }),
  }),
  defineApiRoute({
    method: "post",
    path: "/products/:id/image",
    tag: "Products",
    summary:
      "Upload the product's photo: multipart/form-data with the file in the field `image` (JPEG, PNG, WebP, AVIF, or HEIC where the server reads it; at most 10 MB and 40 megapixels). It replaces any photo; the Image URL is kept for when the photo is removed. Answers the product with `images` and `imageUrl` (the largest variant)",
    access: "admin",
    photoUpload: true,
    responseData: productShape,
    errorStatuses: [400, 404, 413, 415],
    handler: async ({ services, params, readForm }) => ({
      message: "Product photo uploaded successfully",
      // An admin's call (the router checked the role): the photo is read at once.
      data: await services.catalog.setProductPhoto(params.id, (await readForm()).photo),
    }),
  }),
  defineApiRoute({
    method: "delete",
    path: "/products/:id/image",
    tag: "Products",
    summary:
      "Remove the product's photo: the product shows its Image URL again, or the placeholder when it has none (orders keep the photo they sold)",
    access: "admin",
    responseData: productShape,
    errorStatuses: [404],
    handler: async ({ services, params }) => ({
      message: "Product photo removed successfully",
      data: await services.catalog.removeProductPhoto(params.id),
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
      await services.productRemoval.deleteProduct(params.id);
      return { message: "Product deleted successfully", data: null };
    },
  }),
];
