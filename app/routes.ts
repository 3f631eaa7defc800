import { type RouteConfig, index, route } from "@react-router/dev/routes";

/** Every page of the store. The authorization tests read this table too. */
export default [
  index("content/home.tsx"),
  // Any other path: the 404 page.
  route("*", "content/not-found.tsx"),
] satisfies RouteConfig;
