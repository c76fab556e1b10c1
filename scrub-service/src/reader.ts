/**
 * The input reader without a service (`scrub-service/reader`): an upload's preview, its record count and its
 * batches as the scrub reads them, and the numbers a list file holds, each the way a request or a list load
 * reads a file; for the app's bad-input tests and the hostile-file benchmark, which drive the reader directly.
 */
export { BatchReader, RecordTooLargeError, countRecords, previewCsv } from "./pipeline/read";
export { numbersOfFile } from "./lists/input";
