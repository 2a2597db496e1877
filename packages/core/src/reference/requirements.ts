/**
 * Requirements as the reference service understands them: the conditions it can check on a result (word
 * and sentence limits, a language, a numbered or bulleted list, JSON, words to include or avoid, letter
 * case), how a run revises its draft to meet them, and how each requirement is scored.
 */
import * as CodePoints from "../text/codePoints.js"
import { countWords, type Requirement } from "../wire/runs.js"
import { detect, type Language, languages, phrases } from "./language.js"

/** A condition the service can check on a result. */
export type Check =
  | { readonly _tag: "MaxWords"; readonly limit: number }
  | { readonly _tag: "MinWords"; readonly limit: number }
  | { readonly _tag: "MaxSentences"; readonly limit: number }
  | { readonly _tag: "Language"; readonly language: Language }
  | { readonly _tag: "NumberedList"; readonly items: number | undefined }
  | { readonly _tag: "BulletList"; readonly items: number | undefined }
  | { readonly _tag: "Json" }
  | { readonly _tag: "Includes"; readonly terms: ReadonlyArray<string> }
  | { readonly _tag: "Excludes"; readonly terms: ReadonlyArray<string> }
  | { readonly _tag: "Uppercase" }
  | { readonly _tag: "Lowercase" }

const numberWords: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  single: 1
}

const count = "(\\d+|one|two|three|four|five|six|seven|eight|nine|ten|single)"

const toNumber = (text: string): number => numberWords[text.toLowerCase()] ?? Number(text)

/**
 * Only the first code points of a description are read: enough for any rule written for people, and a
 * bound on the work of the patterns below whatever a request sends.
 */
const readLength = 4096

/** The most words, and the most list items, a revision writes: a rule asking for more is met up to here. */
export const maxWrittenWords = 10_000
const maxWrittenItems = 1_000

const quotedTerms = (text: string): Array<string> =>
  [...text.matchAll(/"([^"\n]{1,256})"|“([^”\n]{1,256})”|'([^'\n]{1,256})'|«([^»\n]{1,256})»/gu)].map((m) =>
    (m[1] ?? m[2] ?? m[3] ?? m[4] ?? "").trim()
  )
    .filter((term) => term !== "")

/** The checks a requirement's description asks for; none when the service cannot check it. */
export const checksOf = (whole: string): ReadonlyArray<Check> => {
  const description = CodePoints.take(whole, readLength)
  const text = description.toLowerCase()
  const checks: Array<Check> = []
  const maxWords = new RegExp(
    `(?:at most|no more than|not more than|maximum of|max(?:imum)?|up to|within|not exceed(?:ing)?|limit(?:ed)? to)\\s+${count}\\s+words?`
  ).exec(text) ?? new RegExp(`${count}\\s+words?\\s+(?:or fewer|or less|max(?:imum)?|at most)`).exec(text)
  const underWords = new RegExp(`(?:under|fewer than|less than|below)\\s+${count}\\s+words?`).exec(text)
  if (maxWords !== null) checks.push({ _tag: "MaxWords", limit: toNumber(maxWords[1]!) })
  else if (underWords !== null) checks.push({ _tag: "MaxWords", limit: toNumber(underWords[1]!) - 1 })
  const minWords = new RegExp(
    `(?:at least|more than|no fewer than|no less than|minimum of)\\s+${count}\\s+words?`
  ).exec(text)
  if (minWords !== null) checks.push({ _tag: "MinWords", limit: toNumber(minWords[1]!) })
  const maxSentences = new RegExp(
    `(?:at most|no more than|maximum of|up to|exactly|in)\\s+${count}\\s+sentences?`
  ).exec(text) ?? /\b(one|a single) sentence\b/.exec(text)
  if (maxSentences !== null) {
    checks.push({ _tag: "MaxSentences", limit: maxSentences[1] === "a single" ? 1 : toNumber(maxSentences[1]!) })
  }
  for (const language of languages) {
    if (new RegExp(`\\b${language}\\b`).test(text)) {
      checks.push({ _tag: "Language", language })
      break
    }
  }
  const items = new RegExp(`${count}\\s+(?:items|points|steps|entries|bullets?|elements)`).exec(text)
  if (/numbered|enumerated|ordered list/.test(text)) {
    checks.push({ _tag: "NumberedList", items: items === null ? undefined : toNumber(items[1]!) })
  } else if (/bullet/.test(text)) {
    checks.push({ _tag: "BulletList", items: items === null ? undefined : toNumber(items[1]!) })
  }
  if (/\bjson\b/.test(text)) checks.push({ _tag: "Json" })
  if (/all caps|all capital|upper ?case|capital letters/.test(text)) checks.push({ _tag: "Uppercase" })
  else if (/lower ?case/.test(text)) checks.push({ _tag: "Lowercase" })
  const terms = quotedTerms(description)
  if (terms.length > 0) {
    const negative = /\b(?:do not|don't|does not|never|avoid|without|must not|should not|exclude|no)\b/.test(text)
    const positive = /\b(?:include|includes|including|mention|mentions|contain|contains|use|uses|with|feature)\b/.test(
      text
    )
    if (negative) checks.push({ _tag: "Excludes", terms })
    else if (positive) checks.push({ _tag: "Includes", terms })
  }
  return checks
}

const sentencesOf = (text: string): Array<string> =>
  text.split(/(?<=[.!?。؟])\s+|\n+/u).map((s) => s.trim()).filter((s) => s !== "")

const listItems = (text: string, marker: RegExp): number =>
  text.split("\n").filter((line) => marker.test(line.trim())).length

const numbered = /^\d+[.)]\s+\S/u
const bulleted = /^[-*•]\s+\S/u

const containsTerm = (text: string, term: string): boolean => text.toLowerCase().includes(term.toLowerCase())

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/** How well `result` meets a check, from 0 to 1, and why. */
export const score = (check: Check, result: string): { readonly score: number; readonly reason: string } => {
  switch (check._tag) {
    case "MaxWords": {
      const words = countWords(result)
      return words <= check.limit
        ? { score: 1, reason: `${words} words, within the limit of ${check.limit}.` }
        : { score: Math.max(0, check.limit) / words, reason: `${words} words, over the limit of ${check.limit}.` }
    }
    case "MinWords": {
      const words = countWords(result)
      return words >= check.limit
        ? { score: 1, reason: `${words} words, at least ${check.limit}.` }
        : { score: words / check.limit, reason: `${words} words, fewer than ${check.limit}.` }
    }
    case "MaxSentences": {
      const sentences = sentencesOf(result).length
      return sentences <= check.limit
        ? { score: 1, reason: `${sentences} sentences, within the limit of ${check.limit}.` }
        : { score: check.limit / sentences, reason: `${sentences} sentences, over the limit of ${check.limit}.` }
    }
    case "Language": {
      const found = detect(result)
      return found === check.language
        ? { score: 1, reason: `Written in ${check.language}.` }
        : { score: 0, reason: `Written in ${found ?? "an undetermined language"}, not ${check.language}.` }
    }
    case "NumberedList":
    case "BulletList": {
      const kind = check._tag === "NumberedList" ? "numbered" : "bulleted"
      const items = listItems(result, check._tag === "NumberedList" ? numbered : bulleted)
      if (items === 0) return { score: 0, reason: `Not a ${kind} list.` }
      if (check.items !== undefined && items !== check.items) {
        return { score: 0.5, reason: `A ${kind} list of ${items} items, not ${check.items}.` }
      }
      return { score: 1, reason: `A ${kind} list of ${items} items.` }
    }
    case "Json":
      return isJson(result) ? { score: 1, reason: "Valid JSON." } : { score: 0, reason: "Not valid JSON." }
    case "Includes": {
      const missing = check.terms.filter((term) => !containsTerm(result, term))
      return missing.length === 0
        ? { score: 1, reason: `Contains ${check.terms.map((t) => `"${t}"`).join(", ")}.` }
        : {
          score: 1 - missing.length / check.terms.length,
          reason: `Missing ${missing.map((t) => `"${t}"`).join(", ")}.`
        }
    }
    case "Excludes": {
      const present = check.terms.filter((term) => containsTerm(result, term))
      return present.length === 0
        ? { score: 1, reason: `Avoids ${check.terms.map((t) => `"${t}"`).join(", ")}.` }
        : { score: 0, reason: `Contains ${present.map((t) => `"${t}"`).join(", ")}.` }
    }
    case "Uppercase":
      return result === result.toUpperCase()
        ? { score: 1, reason: "All in capital letters." }
        : { score: 0, reason: "Not all in capital letters." }
    case "Lowercase":
      return result === result.toLowerCase()
        ? { score: 1, reason: "All in lowercase." }
        : { score: 0, reason: "Not all in lowercase." }
  }
}

/** The reason given for a requirement the service cannot check. */
export const uncheckedReason =
  "The reference service cannot check this requirement on the result; by its rule, an unchecked requirement counts as met."

/** A requirement's score and reason on a result. */
export const scoreRequirement = (requirement: Requirement, result: string) => {
  const checks = checksOf(requirement.description)
  if (checks.length === 0) return { score: 1, reason: uncheckedReason }
  const scored = checks.map((check) => score(check, result))
  return {
    score: Math.min(...scored.map((s) => s.score)),
    reason: scored.map((s) => s.reason).join(" ")
  }
}

const truncateWords = (text: string, limit: number): string => {
  const pieces = text.match(/\s*\S+/gu) ?? []
  return pieces.slice(0, Math.max(0, limit)).join("").trim()
}

const asList = (text: string, marker: (i: number) => string, items: number | undefined): string => {
  let parts = sentencesOf(text)
  if (items !== undefined && parts.length < items) {
    parts = parts.flatMap((part) => part.split(/,\s+|;\s+/u)).filter((p) => p !== "")
  }
  if (items !== undefined) {
    const wanted = Math.min(items, maxWrittenItems)
    parts = parts.slice(0, wanted)
    while (parts.length < wanted) parts.push("…")
  }
  return parts.map((part, i) => `${marker(i)} ${part}`).join("\n")
}

/** The result revised to meet `checks`, in an order that keeps earlier revisions intact. */
export const revise = (draft: string, checks: ReadonlyArray<Check>, language: Language): string => {
  let text = draft
  const has = <T extends Check["_tag"]>(tag: T) =>
    checks.filter((check): check is Extract<Check, { _tag: T }> => check._tag === tag)
  for (const check of has("Excludes")) {
    for (const term of check.terms) {
      text = text.replace(new RegExp(term.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&"), "giu"), "").replace(/ {2,}/gu, " ")
    }
  }
  const includes = has("Includes").flatMap((check) => check.terms).filter((term) => !containsTerm(text, term))
  if (includes.length > 0) text = `${phrases[language].terms} ${includes.join(", ")}. ${text}`
  for (const check of has("MaxSentences")) text = sentencesOf(text).slice(0, check.limit).join(" ")
  for (const check of has("MinWords")) {
    const missing = Math.min(check.limit, maxWrittenWords) - countWords(text)
    const honesty = phrases[language].honesty
    if (missing > 0) text += ` ${honesty}`.repeat(Math.ceil(missing / countWords(honesty)))
  }
  const maxWords = Math.min(...has("MaxWords").map((check) => check.limit))
  const numberedList = has("NumberedList")[0]
  const bulletList = has("BulletList")[0]
  if (numberedList !== undefined) text = asList(text, (i) => `${i + 1}.`, numberedList.items)
  else if (bulletList !== undefined) text = asList(text, () => "-", bulletList.items)
  if (Number.isFinite(maxWords)) {
    text = text.split("\n").reduce<{ lines: Array<string>; left: number }>((acc, line) => {
      if (acc.left <= 0) return acc
      const kept = truncateWords(line, acc.left)
      if (kept !== "") acc.lines.push(kept)
      return { lines: acc.lines, left: acc.left - countWords(kept) }
    }, { lines: [], left: maxWords }).lines.join("\n")
  }
  if (has("Uppercase").length > 0) text = text.toUpperCase()
  else if (has("Lowercase").length > 0) text = text.toLowerCase()
  if (has("Json").length > 0 && !isJson(text)) {
    const wrapped = JSON.stringify({ result: text })
    text = Number.isFinite(maxWords) && countWords(wrapped) > maxWords ? JSON.stringify({ result: "" }) : wrapped
  }
  return text
}
