import { publicUserShape } from "../../modules/accounts/user.model";
import { arrayOf, integer, object, text } from "../../modules/shared/shapes";
import { defineApiRoute, type ApiRoute } from "../api-route";
import { RESET_LINK_SENT } from "../../modules/accounts/accounts-values.shared";
import {
  changePasswordSchema,
  createAdminSchema,
  forgotPasswordSchema,
  loginSchema,
  profileSchema,
  registerSchema,
  resetPasswordSchema,
  roleSchema,
  userListQuerySchema,
} from "../../modules/accounts/accounts.schemas";

const userAndToken = object({ user: publicUserShape, token: text() });
const oneUser = object({ user: publicUserShape });
/** The users list keeps its first pagination: total, page and pages (docs/api.md). */
const userList = object({
  users: arrayOf(publicUserShape),
  pagination: object({ total: integer(), page: integer(), pages: integer() }),
});

/** /api/v1/auth and /api/v1/users (docs/api.md). */
export const accountsApiRoutes: ApiRoute[] = [
  defineApiRoute({
    method: "post",
    path: "/auth/register",
    tag: "Auth",
    summary: "Create a customer account and sign in",
    access: "public",
    body: registerSchema,
    successStatus: 201,
    responseData: userAndToken,
    errorStatuses: [409, 429],
    handler: async ({ services, body, req }) => {
      const { user, credentialsVersion } = await services.accounts.register(body, { ip: req.ip ?? "" });
      const { token } = await services.accounts.issueToken(user._id, credentialsVersion);
      return { message: "User registered successfully", data: { user, token } };
    },
  }),
  defineApiRoute({
    method: "post",
    path: "/auth/login",
    tag: "Auth",
    summary: "Sign in with email and password",
    access: "public",
    body: loginSchema,
    responseData: userAndToken,
    errorStatuses: [401, 429],
    handler: async ({ services, body, req }) => {
      const { user, credentialsVersion } = await services.accounts.logIn(body, { ip: req.ip ?? "" });
      const { token } = await services.accounts.issueToken(user._id, credentialsVersion);
      return { message: "Logged in successfully", data: { user, token } };
    },
  }),
  defineApiRoute({
    method: "post",
    path: "/auth/logout",
    tag: "Auth",
    summary: "Sign out: the token stops working",
    access: "signed-in",
    handler: async ({ services, req }) => {
      await services.accounts.revokeToken(req.apiAuth!.tokenId);
      return { message: "Logged out successfully", data: null };
    },
  }),
  defineApiRoute({
    method: "get",
    path: "/auth/me",
    tag: "Auth",
    summary: "The signed-in user",
    access: "signed-in",
    responseData: oneUser,
    handler: async ({ user }) => ({ message: "OK", data: { user: user! } }),
  }),
  defineApiRoute({
    method: "put",
    path: "/auth/update-profile",
    tag: "Auth",
    summary:
      "Update name, phone and address at once. A new `email` needs `currentPassword` (missing or wrong: 400 on `currentPassword`, nothing saved; counted with password changes, 429 past the limit) and takes effect only when the link mailed to it is opened: until then `email` stays, and `pendingEmail` is the new address. The same `email` needs no password",
    access: "signed-in",
    body: profileSchema,
    responseData: oneUser,
    errorStatuses: [409, 429],
    handler: async ({ services, user, body, req }) => {
      const { user: updated, confirmationSentTo } = await services.profile.updateProfile(user!._id, body, {
        ip: req.ip ?? "",
      });
      return {
        message: confirmationSentTo
          ? `Profile updated. Your email changes to ${confirmationSentTo} once you open the link we sent there.`
          : "Profile updated successfully",
        data: { user: updated },
      };
    },
  }),
  defineApiRoute({
    method: "put",
    path: "/auth/change-password",
    tag: "Auth",
    summary: "Change the password; every other session and token ends, a fresh token is returned",
    access: "signed-in",
    body: changePasswordSchema,
    responseData: object({ token: text() }),
    errorStatuses: [401, 429],
    handler: async ({ services, user, body, req }) => {
      const { credentialsVersion } = await services.passwordChanges.changePassword(
        user!._id,
        body,
        { tokenId: req.apiAuth!.tokenId },
        { ip: req.ip ?? "" },
      );
      const { token } = await services.accounts.issueToken(user!._id, credentialsVersion);
      return { message: "Password changed successfully", data: { token } };
    },
  }),
  defineApiRoute({
    method: "post",
    path: "/auth/forgot-password",
    tag: "Auth",
    summary:
      "Mail a link to reset the password (valid 1 hour, single-use). The answer is the same whether or not the email has an account, and takes as long",
    access: "public",
    body: forgotPasswordSchema,
    errorStatuses: [429],
    handler: async ({ services, body, req }) => {
      await services.passwordChanges.requestPasswordReset(body, { ip: req.ip ?? "" });
      return { message: RESET_LINK_SENT, data: null };
    },
  }),
  defineApiRoute({
    method: "post",
    path: "/auth/reset-password",
    tag: "Auth",
    summary:
      "Set a new password with the token of a reset link; every session and token of the user ends, and a fresh token is returned. A used, expired or unknown token: 400",
    access: "public",
    body: resetPasswordSchema,
    responseData: userAndToken,
    handler: async ({ services, body }) => {
      const { user, credentialsVersion } = await services.passwordChanges.resetPassword(body);
      const { token } = await services.accounts.issueToken(user._id, credentialsVersion);
      return { message: "Password reset successfully", data: { user, token } };
    },
  }),
  defineApiRoute({
    method: "get",
    path: "/users",
    tag: "Users",
    summary: "List users (search by name or email, filter by role)",
    access: "admin",
    query: userListQuerySchema,
    responseData: userList,
    handler: async ({ services, query }) => {
      const { users, pagination } = await services.accounts.listUsers(query);
      // An empty list still has one (empty) page here, as it always had.
      return {
        message: "OK",
        data: {
          users,
          pagination: { total: pagination.total, page: pagination.page, pages: Math.max(1, pagination.totalPages) },
        },
      };
    },
  }),
  defineApiRoute({
    method: "post",
    path: "/users/create-admin",
    tag: "Users",
    summary: "Create an admin account",
    access: "admin",
    body: createAdminSchema,
    successStatus: 201,
    responseData: oneUser,
    errorStatuses: [409],
    handler: async ({ services, body }) => {
      const user = await services.accounts.createAdmin(body);
      return { message: "Admin user created successfully!", data: { user } };
    },
  }),
  defineApiRoute({
    method: "put",
    path: "/users/:userId/role",
    tag: "Users",
    summary: "Change a user's role (not one's own; never the last admin's)",
    access: "admin",
    body: roleSchema,
    responseData: oneUser,
    errorStatuses: [404],
    handler: async ({ services, user, params, body }) => {
      const updated = await services.accounts.changeRole(user!._id, params.userId!, body);
      return { message: "User role updated successfully!", data: { user: updated } };
    },
  }),
  defineApiRoute({
    method: "delete",
    path: "/users/:userId",
    tag: "Users",
    summary: "Delete a user (their orders are kept)",
    access: "admin",
    errorStatuses: [404],
    handler: async ({ services, user, params }) => {
      await services.accounts.deleteUser(user!._id, params.userId!);
      return { message: "User deleted successfully!", data: null };
    },
  }),
];
