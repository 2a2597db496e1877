/**
 * The languages the reference service writes in, its fixed sentences in each, and a small detector used
 * both to answer in the caller's language and to check a language requirement.
 */
import * as CodePoints from "../text/codePoints.js"
import { type ResponseLanguage, responseLanguages } from "../wire/runs.js"

/** A language a run can answer in. */
export type Language = ResponseLanguage

/** Every language, in the order the interface lists them. */
export const languages: ReadonlyArray<Language> = responseLanguages

interface Phrases {
  /** Restates the request; `q` is the caller's text. */
  readonly asked: (q: string) => string
  /** Says plainly what the reference service is and what it does not know. */
  readonly honesty: string
  /** Introduces terms a requirement asked for. */
  readonly terms: string
  /** Used when the conversation has no user text. */
  readonly empty: string
}

/** The fixed sentences of the reference service, in each language. */
export const phrases: Readonly<Record<Language, Phrases>> = {
  arabic: {
    asked: (q) => `لقد طلبت: «${q}».`,
    honesty: "هذه الإجابة من الخدمة المرجعية، التي تعمل فقط من المحادثة ولا تعرف حقائق خارجها.",
    terms: "المصطلحات المطلوبة:",
    empty: "لم تتضمن المحادثة أي طلب."
  },
  dutch: {
    asked: (q) => `U vroeg: „${q}”.`,
    honesty:
      "Dit antwoord komt van de referentiedienst, die alleen met het gesprek werkt en geen feiten daarbuiten kent.",
    terms: "Gevraagde termen:",
    empty: "Het gesprek bevat geen vraag."
  },
  english: {
    asked: (q) => `You asked: "${q}".`,
    honesty:
      "This answer comes from the reference service, which works only from the conversation and does not know facts beyond it.",
    terms: "Requested terms:",
    empty: "The conversation contains no request."
  },
  french: {
    asked: (q) => `Vous avez demandé : « ${q} ».`,
    honesty:
      "Cette réponse vient du service de référence, qui travaille uniquement à partir de la conversation et ne connaît pas de faits au-delà de celle-ci.",
    terms: "Termes demandés :",
    empty: "La conversation ne contient pas de demande."
  },
  german: {
    asked: (q) => `Sie haben gefragt: „${q}“.`,
    honesty:
      "Diese Antwort kommt von dem Referenzdienst, der nur mit dem Gespräch arbeitet und keine Fakten darüber hinaus kennt.",
    terms: "Gewünschte Begriffe:",
    empty: "Das Gespräch enthält keine Frage."
  },
  hebrew: {
    asked: (q) => `שאלת: „${q}”.`,
    honesty: "התשובה הזו מגיעה משירות הייחוס, שעובד רק מתוך השיחה ואינו יודע עובדות מעבר לה.",
    terms: "מונחים מבוקשים:",
    empty: "השיחה אינה מכילה בקשה."
  },
  italian: {
    asked: (q) => `Lei ha chiesto: «${q}».`,
    honesty:
      "Questa risposta viene dal servizio di riferimento, che lavora solo con la conversazione e non conosce fatti oltre a essa.",
    terms: "Termini richiesti:",
    empty: "La conversazione non contiene una richiesta."
  },
  portuguese: {
    asked: (q) => `Você perguntou: «${q}».`,
    honesty:
      "Esta resposta vem do serviço de referência, que trabalha apenas com a conversa e não conhece fatos além dela.",
    terms: "Termos pedidos:",
    empty: "A conversa não contém um pedido."
  },
  spanish: {
    asked: (q) => `Usted preguntó: «${q}».`,
    honesty:
      "Esta respuesta viene del servicio de referencia, que trabaja solo con la conversación y no conoce hechos más allá de ella.",
    terms: "Términos pedidos:",
    empty: "La conversación no contiene una petición."
  }
}

const stopWords: Readonly<Partial<Record<Language, ReadonlySet<string>>>> = {
  english: new Set(
    "the and is are you this that of to from which only with not it a an in for what how does do your".split(" ")
  ),
  french: new Set(
    "le la les de des et est vous une un qui du ne pas cette à avec pour que au sur dans quel quelle".split(" ")
  ),
  spanish: new Set(
    "el la los las de y es usted una un que del no con para esta solo más por qué cómo está".split(" ")
  ),
  german: new Set(
    "der die das und ist sie ein eine nicht mit von zu den dem nur kommt keine haben wie was ich".split(" ")
  ),
  italian: new Set("il di e è che non una un con per del della questa solo lei oltre gli come sono".split(" ")),
  portuguese: new Set("o de e é que não uma um com para do da esta apenas você além os como são".split(" ")),
  dutch: new Set("de het een en is van niet met die dat u dit alleen geen komt wat hoe ik zijn".split(" "))
}

/** Text outside quotations: a quoted request does not make an answer be in the request's language. */
const unquoted = (text: string): string =>
  text.replace(/"[^"\n]{0,256}"|«[^»\n]{0,256}»|„[^“”\n]{0,256}[“”]|“[^”\n]{0,256}”/gu, " ")

/** Only the first code points of a text are read: enough to tell its language, and a bound on the work. */
const readLength = 4096

/**
 * The language a text is written in, or `undefined` when nothing in it says. Arabic and Hebrew are told by
 * their scripts; the other languages by their most common words. Only the first 4,096 code points are read.
 */
export const detect = (text: string): Language | undefined => {
  const plain = unquoted(CodePoints.take(text, readLength))
  const arabic = (plain.match(/\p{Script=Arabic}/gu) ?? []).length
  const hebrew = (plain.match(/\p{Script=Hebrew}/gu) ?? []).length
  const latin = (plain.match(/\p{Script=Latin}/gu) ?? []).length
  if (arabic > latin && arabic >= hebrew && arabic > 0) return "arabic"
  if (hebrew > latin && hebrew > 0) return "hebrew"
  const words = plain.toLowerCase().match(/[\p{L}]+/gu) ?? []
  let best: Language | undefined
  let bestScore = 0
  for (const language of languages) {
    const list = stopWords[language]
    if (list === undefined) continue
    let score = 0
    for (const word of words) if (list.has(word)) score++
    if (score > bestScore) {
      best = language
      bestScore = score
    }
  }
  return best
}
