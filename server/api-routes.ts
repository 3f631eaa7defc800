import type { ApiRoute } from "./http/api-route";

/** Every /api/v1 call, module by module; the router and the OpenAPI document are made from this. */
export const apiRoutes: ApiRoute[] = [];
