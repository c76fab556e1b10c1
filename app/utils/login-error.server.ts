/** A sign-in refusal whose message is safe to show the person signing in. */
export class LoginError extends Error {}
