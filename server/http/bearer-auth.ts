import type { NextFunction, Request, Response } from "express";
import type { PublicUser } from "../modules/accounts/user.model";
import type { Services } from "../start-up/services";
import { markPersonalised } from "./personalised-answer";

export type ApiUser = PublicUser;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The caller of an API request, from its bearer token (the API never reads the cookie). */
      apiAuth?: { user: ApiUser; tokenId: string } | null;
    }
  }
}

/**
 * Reads `Authorization: Bearer <token>` and loads its user on every request, so a revoked token,
 * a role change or a deleted account takes effect at once. A missing token is a guest; a bad,
 * expired or revoked one is also a guest here, and the route's access level answers 401.
 */
export function bearerAuth(services: Services) {
  return async (req: Request, res: Response, next: NextFunction) => {
    req.apiAuth = null;
    const header = req.get("authorization");
    const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
    if (!match) return next();
    // Whatever this request answers is for the token's holder: never kept by the guest cache.
    markPersonalised(res);
    try {
      req.apiAuth = await services.accounts.authenticateToken(match[1]!);
      next();
    } catch (error) {
      next(error);
    }
  };
}
