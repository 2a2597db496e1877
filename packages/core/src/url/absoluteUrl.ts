/**
 * The rule of the URLs a run's tools are reached at, shared by the run schemas and their fast paths.
 */

/** Whether `value` is a fully qualified `http(s)` URL with a host. */
export const isAbsoluteUrl = (value: string): boolean => {
  try {
    const url = new URL(value)
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== ""
  } catch {
    return false
  }
}
