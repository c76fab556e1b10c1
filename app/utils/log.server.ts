// The app's side of the structured logger (decision 140): server-only, so pino never reaches the browser bundle.
export { addLogContext, errorFields, log, runInLogContext, withLogContext } from "scrub-service";
