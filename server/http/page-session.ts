import { AsyncLocalStorage } from "node:async_hooks";
import connectPgSimple from "connect-pg-simple";
import type { Request, RequestHandler, Response } from "express";
import session from "express-session";
import type pg from "pg";
import type { StoredPageSession } from "../modules/accounts/accounts.service";
import type { PublicUser } from "../modules/accounts/user.model";
import type { FlashCookies } from "./flash-cookie";
import { asPageError } from "./page-errors";
import type { PageSession } from "./request-context";

declare module "express-session" {
  interface SessionData {
    userId?: string;
    /** The user's credentials version at sign-in (AccountsService.findSignedInUser). */
    credentialsVersion?: number;
  }
}

export const SESSION_COOKIE = "waqt.sid";
const SESSION_DAYS = 30;

/** What was read with the session: the user it signs in (still valid) and their cart's quantity. */
export type SignedIn = { user: PublicUser | null; cartCount: number };

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** Set by pageSessions when a stored session was read. */
      signedIn?: SignedIn;
    }
  }
}

/**
 * Browser sessions for the pages, kept in PostgreSQL so that several app servers share them.
 * The cookie holds only the signed session id: httpOnly, SameSite=Lax, Secure behind HTTPS.
 */
export function pageSessions(options: {
  pool: pg.Pool;
  secret: string;
  /** The session, its user and cart badge in one query (server/flows/page-session.ts). */
  readSession: (sessionId: string, now: Date) => Promise<StoredPageSession | null>;
}): RequestHandler {
  const PgStore = connectPgSimple(session);
  // express-session asks the store for a session by id only; what was read with it reaches the
  // request through this slot, opened around the session middleware for each request.
  const slots = new AsyncLocalStorage<{ signedIn?: SignedIn }>();
  class PageSessionStore extends PgStore {
    override get(sessionId: string, callback: (error: unknown, data?: session.SessionData | null) => void) {
      const slot = slots.getStore();
      options.readSession(sessionId, new Date()).then(
        (stored) => {
          if (stored && slot) slot.signedIn = { user: stored.user, cartCount: stored.cartCount };
          callback(null, (stored?.data as session.SessionData | undefined) ?? null);
        },
        (error: unknown) => callback(error),
      );
    }
  }
  const middleware = session({
    name: SESSION_COOKIE,
    secret: options.secret,
    store: new PageSessionStore({
      pool: options.pool,
      tableName: "sessions",
      createTableIfMissing: false,
      pruneSessionInterval: 15 * 60,
      // With rolling: false the cookie's expiry is fixed when the session is saved; a touch only
      // moved the row's expiry past it, with an UPDATE on every signed-in page view, written while
      // the page's last bytes waited (and failing them when the database went away, tests/load).
      disableTouch: true,
    }),
    resave: false,
    // A guest gets no session row and no cookie until something needs one.
    saveUninitialized: false,
    rolling: false,
    cookie: {
      httpOnly: true,
      sameSite: "lax",
      // "auto": Secure whenever the request is HTTPS, directly or through a trusted proxy.
      secure: "auto",
      maxAge: SESSION_DAYS * 24 * 3600 * 1000,
      path: "/",
    },
  });
  return (req, res, next) => {
    const slot: { signedIn?: SignedIn } = {};
    slots.run(slot, () =>
      middleware(req, res, (error?: unknown) => {
        if (slot.signedIn) res.locals.signedIn = slot.signedIn;
        next(error);
      }),
    );
  };
}

export function pageSessionOf(req: Request, res: Response, flashes: FlashCookies): PageSession {
  const save = () =>
    new Promise<void>((resolve, reject) =>
      req.session.save((saveError) => (saveError ? reject(asPageError(saveError)) : resolve())),
    );
  return {
    get id() {
      return req.session?.userId ? req.sessionID : null;
    },
    get userId() {
      return req.session?.userId ?? null;
    },
    get credentialsVersion() {
      // Sessions made before credentials versions existed are at the first version.
      return req.session?.credentialsVersion ?? 1;
    },
    setFlash(flash) {
      flashes.write(req, res, flash);
    },
    takeFlash() {
      return flashes.take(req, res);
    },
    // A session store that cannot write because the database is away: the 503 screen (page-errors.ts).
    signIn: (userId, credentialsVersion) =>
      new Promise<void>((resolve, reject) => {
        req.session.regenerate((regenerateError) => {
          if (regenerateError) return reject(asPageError(regenerateError));
          req.session.userId = userId;
          req.session.credentialsVersion = credentialsVersion;
          save().then(resolve, reject);
        });
      }),
    keepSignedIn: async (credentialsVersion) => {
      if (!req.session?.userId) return;
      req.session.credentialsVersion = credentialsVersion;
      await save();
    },
    signOut: () =>
      new Promise<void>((resolve, reject) => {
        if (!req.session) return resolve();
        req.session.destroy((error) => {
          if (error) return reject(asPageError(error));
          res.clearCookie(SESSION_COOKIE, { path: "/" });
          resolve();
        });
      }),
  };
}
