import routeConfig from "../../app/routes";
import { loadServerBuild } from "./test-server";

/**
 * Every page of app/routes.ts as the tests that walk all pages read it (the authorization matrix,
 * the hostile-input and cross-site form tests): its full path, nested routes included, and whether
 * the build gives it a form action.
 */
export type PageRoute = { path: string; hasAction: boolean };

type ConfigRoute = { id?: string; path?: string; index?: boolean; file: string; children?: ConfigRoute[] };

function configRoutes(routes: ConfigRoute[], parent = ""): { path: string; file: string; id?: string }[] {
  return routes.flatMap((route) => {
    const path = route.index || !route.path ? parent : `${parent}/${route.path}`.replace(/\/+/g, "/");
    const own = route.path !== undefined || route.index ? [{ path: path || "/", file: route.file, id: route.id }] : [];
    return [...own, ...configRoutes(route.children ?? [], path)];
  });
}

export async function pageRoutes(): Promise<PageRoute[]> {
  const build = await (await loadServerBuild()).loadPageBuild();
  return configRoutes(routeConfig as ConfigRoute[]).map(({ path, file, id: given }) => {
    // A file serving two paths has an id of its own for each (app/routes.ts).
    const id = given ?? file.replace(/\.[jt]sx?$/, "");
    const module = build.routes[id]?.module as { action?: unknown } | undefined;
    if (!module) throw new Error(`app/routes.ts names ${file}, which the build does not have (rebuild?)`);
    return { path, hasAction: typeof module.action === "function" };
  });
}
