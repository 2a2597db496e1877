/**
 * The size limits of the client, as they are set and as their errors word them: a size written as people
 * write it, the check that a limit is a size at all, and the reason given when something passes one (each
 * names its option and what to do).
 *
 * @since 0.1.0
 */

/**
 * A size as people write it: `32 MiB`, `8 KiB`, `100 bytes`.
 *
 * @since 0.1.0
 * @category sizes
 */
export const formatSize = (size: number): string =>
  size >= 1024 * 1024 && size % (1024 * 1024) === 0
    ? `${size / (1024 * 1024)} MiB`
    : size >= 1024 && size % 1024 === 0
    ? `${size / 1024} KiB`
    : `${size} bytes`

/**
 * The issue of each size limit given that is not a whole number of bytes, at least 1, by the option's name.
 *
 * @since 0.1.0
 * @category sizes
 */
export const sizeIssues = (
  sizes: Readonly<Record<string, number | undefined>>
): ReadonlyArray<{ readonly path: string; readonly message: string }> => {
  const issues: Array<{ readonly path: string; readonly message: string }> = []
  for (const [path, size] of Object.entries(sizes)) {
    if (size !== undefined && !(Number.isSafeInteger(size) && size >= 1)) {
      issues.push({ path, message: `${size} is not a size: use a whole number of bytes, such as 8388608` })
    }
  }
  return issues
}

/**
 * What passed a limit, and the advice that follows its name.
 *
 * @since 0.1.0
 * @category sizes
 */
const limits = {
  maxResponseSize: ["the response", "raise maxResponseSize if it is expected, or check what answers at this address"],
  maxEventSize: ["an event", "raise maxEventSize if it is expected, or check what answers at this address"],
  maxAccumulatedSize: [
    "the accumulated completion",
    "pass a larger maxAccumulatedSize to Chat.accumulate if such answers are expected"
  ],
  maxUploadSize: ["the file", "raise maxUploadSize to send it"],
  maxDownloadSize: ["the download", "raise maxDownloadSize to read it"]
} as const

/**
 * The reason an error gives for what passed the size limit `option` set to `limit`:
 * `an event is larger than 8 MiB (maxEventSize): raise maxEventSize if it is expected, ...`.
 *
 * @since 0.1.0
 * @category sizes
 */
export const tooLargeReason = (option: keyof typeof limits, limit: number): string => {
  const [what, advice] = limits[option]
  return `${what} is larger than ${formatSize(limit)} (${option}): ${advice}`
}
