import { type RouteConfig, index } from "@react-router/dev/routes";

export default [index("home.tsx")] satisfies RouteConfig;
