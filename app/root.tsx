import { useEffect } from "react";
import {
  Links,
  Meta,
  Outlet,
  ScrollRestoration,
  data,
  isRouteErrorResponse,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import { SERVICE_UNAVAILABLE, SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS } from "../server/modules/shared/errors.shared";
import type { Route } from "./+types/root";
import { SiteFooter } from "./components/site-footer";
import { SiteHeader } from "./components/site-header";
import { CompareForm } from "./catalog/compare-controls";
import { comparedIdsOf } from "./catalog/compare-cookie.server";
import { SessionFlash } from "./components/flash-banner";
import { PageScripts } from "./components/page-scripts";
import { RouteErrorScreen } from "./components/route-error-screen";
import { requestContext } from "./context";
import { pageMeta, siteOf } from "./lib/meta";
import { useNonce } from "./lib/nonce";
import { useHydrated } from "./lib/use-hydrated";
import "./app.css";

/**
 * The database did not answer before the page began (its session or user could not be read):
 * the error screen with status 503, before any action or loader runs without them.
 */
export const middleware: Route.MiddlewareFunction[] = [
  ({ context }) => {
    if (context.get(requestContext).databaseUnavailable) {
      throw data(SERVICE_UNAVAILABLE, {
        status: 503,
        headers: { "Retry-After": String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS) },
      });
    }
  },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, cartCount, store, publicUrl, services, session, lite } = context.get(requestContext);
  return {
    lite,
    user: user ? { name: user.name, role: user.role } : null,
    // The badge in the top bar: the total quantity in the cart, on every page.
    cartCount: user ? (cartCount ?? (await services.cart.countItems(user._id))) : 0,
    // The top bar's Compare link: how many watches the shopper's cookie names (catalog/compare.tsx).
    comparedCount: services.comparison.count(await comparedIdsOf(request)),
    flash: session.takeFlash(),
    site: { name: store.name, tagline: store.tagline, publicUrl },
    store,
  };
}

export type RootData = Awaited<ReturnType<typeof loader>>;

export function useRootData(): RootData | undefined {
  return useRouteLoaderData<typeof loader>("root");
}

/**
 * The title of an error shown by this layout's boundary (e.g. another customer's order): the
 * page's own `meta` does not run then. Pages without an error have their own titles.
 */
export const meta: Route.MetaFunction = ({ error, matches }) => {
  if (!error) return [];
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return pageMeta(siteOf(matches), { title: notFound ? "Page not found" : "Something went wrong", noindex: true });
};

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

/**
 * A page made to be printed (a route handle `{ printable: true }`, e.g. packing slips) has no
 * header, footer or skip link: nothing but what goes on paper.
 */
function usePrintable(): boolean {
  return useMatches().some((match) => (match.handle as { printable?: boolean } | undefined)?.printable === true);
}

/**
 * The page's language: English, unless a route reads its own from its data (a route handle
 * `{ pageLanguage(data) }`, e.g. the order confirmation page in Urdu, right to left).
 */
function usePageLanguage(): { lang: string; dir: "ltr" | "rtl" } {
  for (const match of useMatches()) {
    const handle = match.handle as { pageLanguage?: (data: unknown) => string | null } | undefined;
    const language = handle?.pageLanguage?.(match.data);
    if (language === "ur") return { lang: "ur", dir: "rtl" };
    if (language) return { lang: language, dir: "ltr" };
  }
  return { lang: "en", dir: "ltr" };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const data = useRootData();
  const hydrated = useHydrated();
  useEffect(() => {
    // Set after the render that follows hydration, in which every control has taken over from
    // its plain form (docs/decisions/2026-11-23-before-hydration.md): the journeys wait on it.
    if (hydrated) document.documentElement.dataset.hydrated = "true";
  }, [hydrated]);
  const printable = usePrintable();
  const { lang, dir } = usePageLanguage();
  if (printable) {
    return (
      <html lang="en">
        <head>
          <meta charSet="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <Meta />
          <Links />
        </head>
        <body className="printable">
          <main id="main">{children}</main>
          {data?.lite ? null : (
            <>
              <ScrollRestoration nonce={nonce} />
              <PageScripts nonce={nonce} />
            </>
          )}
        </body>
      </html>
    );
  }
  return (
    <html lang={lang} dir={dir}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#14110f" />
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <SiteHeader
          user={data?.user ?? null}
          cartCount={data?.cartCount ?? 0}
          comparedCount={data?.comparedCount ?? 0}
          brand={data?.site.name ?? "Waqt"}
        />
        <main id="main" className="site-main">
          {data?.flash ? <SessionFlash key={data.flash.id} flash={data.flash} /> : null}
          {children}
        </main>
        <CompareForm />
        {data ? <SiteFooter store={data.store} lite={data.lite} /> : null}
        {data?.lite ? null : (
          <>
            <ScrollRestoration nonce={nonce} />
            <PageScripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** The generic error screen (docs/product.md, "Texts"); unknown paths get the 404 page instead. */
export function ErrorBoundary() {
  return <RouteErrorScreen error={useRouteError()} />;
}
