// piscina worker entry: pure CPU tasks (parse, normalize, classify). Built to scrub-service/dist/worker.mjs.
export default function task(input: unknown): unknown {
  return input;
}
