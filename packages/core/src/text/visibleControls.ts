/**
 * Text from the Studio service made safe to show on a terminal: a model's answer or an error's detail may hold
 * control characters that a terminal obeys (ESC starts the sequences that write the clipboard (OSC 52), set the
 * window's title or clear the screen; C1 codes such as U+009B do the same in one character). Shown as `\xHH`
 * escapes, they are seen instead of obeyed.
 *
 * @since 0.1.0
 */

/** C0 controls but tab and line feed, DEL, and the C1 controls. */
const controls = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g

const escape = (character: string): string => `\\x${character.charCodeAt(0).toString(16).padStart(2, "0")}`

/**
 * `text` with every control character a terminal would act on written as a `\xHH` escape (ESC as `\x1b`,
 * carriage return as `\x0d`); tabs and line feeds are kept, so lines stay lines. Text without such characters
 * is returned as it is.
 *
 * @since 0.1.0
 * @category text
 */
export const visibleControls = (text: string): string => text.replace(controls, escape)
