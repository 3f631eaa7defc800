import type { Config } from "../settings/config";
import type { PublicUser } from "../modules/accounts/user.model";
import type { Services } from "../start-up/services";
import type { StoreDetails } from "../settings/store-details";
import type { PhotoForm } from "./photo-upload";

export type { PhotoForm };

/** A message for the next page a shopper sees (after a redirect), shown once. */
export type Flash = { tone: "success" | "error"; message: string; id?: number };

/** The browser session of the pages (the cookie holds only its id; the data lives in PostgreSQL). */
export type PageSession = {
  /** The session's id (to keep this session when a password change ends the others). */
  id: string | null;
  userId: string | null;
  /** The credentials version the session signed in at. */
  credentialsVersion: number;
  /** Starts a signed-in session under a new id (no session fixation). */
  signIn(userId: string, credentialsVersion: number): Promise<void>;
  /** After this session changed the password: it carries on at the new credentials version. */
  keepSignedIn(credentialsVersion: number): Promise<void>;
  /** A message for the next page, in a signed cookie (never the session row). */
  setFlash(flash: Flash): void;
  /** The waiting message, removed as it is read. */
  takeFlash(): Flash | null;
  signOut(): Promise<void>;
};

export type RequestContext = {
  services: Services;
  store: StoreDetails;
  publicUrl: string;
  env: Config["env"];
  user: PublicUser | null;
  /**
   * The quantity in the signed-in user's cart (the top bar's badge), read with the session; null
   * for a guest, or when it must be read afresh (an action ran in this request).
   */
  cartCount: number | null;
  /** The client's address (through TRUST_PROXY), for rate limits. */
  clientIp: string;
  session: PageSession;
  cspNonce: string;
  /** Pages go without scripts (lite-mode.ts). */
  lite: boolean;
  requestId: string;
  /**
   * Reads the product form's post, multipart with a photo or urlencoded (photo-upload.ts): the
   * action calls it after its guard, or hands it to an operation that calls it once it has
   * authorised the caller for the order or the review, so nobody else's upload is ever read
   * (docs/decisions/2026-11-29-uploads-authorised-first.md). The files are those sent as
   * `fileField` (the photos' `image` unless said).
   */
  readPhotoForm(request: Request, fileField?: string): Promise<PhotoForm>;
  /** The database did not answer before the pages began (session or user lookup): a 503. */
  databaseUnavailable: boolean;
};
