// biome-ignore-all format: word lists and patterns, one language or one group to a line, read better as written
/**
 * What a consultation's sentences say by their words, in the app's four languages, on normalised text (lower
 * case, no accents): greetings and small talk, questions, and the cues that place a sentence in a note's
 * sections. Each list is a whole-word pattern; kept short on purpose, each entry a common way of saying it.
 */
import type { Language } from '../../../../contract/constants.js';

type Cues = Record<Language, string[]>;

const words = (list: string[]) => new RegExp(`(?<![\\p{L}\\d])(?:${list.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![\\p{L}\\d])`, 'u');
const compile = (cues: Cues) => Object.fromEntries(Object.entries(cues).map(([l, list]) => [l, words(list)])) as Record<Language, RegExp>;

/** Sentences that carry nothing clinical. */
export const SMALL_TALK = compile({
  en: ['good morning', 'good afternoon', 'good evening', 'hello', 'hi', 'hey', 'how are you doing', "how're you doing", 'how you doing', 'how have you been', "how've you been", 'how are you', "how're you", 'nice to see you', 'good to see you', "it's good to see you", 'nice to meet you', 'please sit down', 'have a seat', 'thank you', 'thanks', 'goodbye', 'bye', 'see you', 'take care', 'you are welcome', "you're welcome", 'okay', 'ok', 'right', 'alright', 'all right', 'come in', 'you too', 'sounds good', 'that sounds good', "that's fine", 'that is fine', 'no problem', 'how does that sound', 'any questions', 'not at this point', 'of course', 'absolutely', 'perfect', 'great', 'wonderful', 'awesome', 'excellent', 'i appreciate it', 'appreciate it', 'have a good day', 'have a great day', 'talk to you soon', 'see you later', 'sure', 'cool'],
  pt: ['bom dia', 'boa tarde', 'boa noite', 'ola', 'como esta', 'tudo bem', 'sente-se', 'faca favor', 'obrigado', 'obrigada', 'adeus', 'ate logo', 'ate a proxima', 'de nada', 'entao', 'pronto', 'muito bem', 'esta bem', 'entre', 'perfeito', 'otimo', 'combinado', 'com certeza', 'alguma duvida', 'ate breve'],
  de: ['guten morgen', 'guten tag', 'guten abend', 'hallo', 'wie geht es ihnen', 'nehmen sie platz', 'danke', 'vielen dank', 'auf wiedersehen', 'tschuss', 'bitte schon', 'gern geschehen', 'also', 'gut', 'alles klar', 'kommen sie herein'],
  es: ['buenos dias', 'buenas tardes', 'buenas noches', 'hola', 'que tal', 'como esta', 'sientese', 'gracias', 'muchas gracias', 'adios', 'hasta luego', 'de nada', 'bueno', 'vale', 'muy bien', 'pase'],
});

/** How a question starts, where the engine wrote no question mark. */
export const QUESTION_START: Record<Language, RegExp> = {
  en: /^(?:what|how|when|where|why|which|who|do you|does it|does the|did you|did it|are you|is it|is there|have you|has it|has the|any|can you|could you)\b/,
  pt: /^(?:o que|como|quando|onde|porque|por que|qual|quais|tem|teve|toma|ha quanto tempo|sente|costuma|ja|e alergic[oa]|doi|a dor)\b/,
  de: /^(?:was|wie|wann|wo|warum|welche|welcher|haben sie|hatten sie|nehmen sie|sind sie|gibt es|seit wann|tut es|strahlt)\b/,
  es: /^(?:que|como|cuando|donde|por que|cual|cuales|tiene|ha tenido|toma|desde cuando|le duele|es alergic[oa]|siente)\b/,
};

/** Examination findings and measurements. */
export const OBJECTIVE = compile({
  en: ['on examination', 'examination', 'exam', 'physical exam', 'vital signs', 'vitals', 'x-ray', 'xray', 'ct scan', 'mri', 'ultrasound', 'echocardiogram', 'echo', 'ejection fraction', 'range of motion', 'straight leg raise', 'strength', 'alignment', 'lungs', 'edema', 'pulses', 'swollen', 'swelling', 'bruising', 'labs', 'lab work', 'blood work', 'a1c', 'hemoglobin a1c', 'kidney function', 'respiratory rate', 'oxygen', 'blood pressure', 'pressure is', 'heart rate', 'pulse', 'temperature', 'saturation', 'oxygen saturation', 'spo2', 'weight', 'weighs', 'bmi', 'auscultation', 'chest is clear', 'lungs are clear', 'heart sounds', 'murmur', 'tender', 'tenderness', 'swelling', 'rash', 'reflexes', 'abdomen is', 'throat is', 'ears are', 'crackles', 'wheeze', 'wheezing', 'palpation', 'hba1c', 'cholesterol', 'ecg shows', 'x-ray shows', 'results show', 'fracture', 'nontender', 'non-tender', 'soft', 'regular rate', 'rhythm', 'bowel sounds', 'capillary refill', 'pupils', 'jvd', 'bruits', 'bruit', 'rales', 'rhonchi', 'i appreciate', 'i do appreciate', 'i see', "i don't see", 'i do see', 'i do not see', 'i hear', "i don't hear", 'i can hear', 'i do hear', 'i notice', 'i do notice', 'when i press', 'when i palpate', 'looks normal', 'unremarkable'],
  pt: ['no exame', 'ao exame', 'exame objetivo', 'exame fisico', 'tensao arterial', 'a tensao', 'pressao arterial', 'frequencia cardiaca', 'pulso', 'temperatura', 'saturacao', 'peso', 'pesa', 'imc', 'auscultacao', 'murmurio', 'sopro', 'dor a palpacao', 'palpacao', 'contratura', 'edema', 'eritema', 'reflexos', 'abdomen', 'orofaringe', 'fervores', 'sibilos', 'hemoglobina glicada', 'colesterol', 'o ecg mostra', 'as analises'],
  de: ['bei der untersuchung', 'untersuchung', 'befund', 'blutdruck', 'herzfrequenz', 'puls', 'temperatur', 'sattigung', 'sauerstoffsattigung', 'gewicht', 'wiegt', 'bmi', 'auskultation', 'lunge frei', 'herztone', 'herzgerausch', 'druckschmerz', 'druckschmerzhaft', 'schwellung', 'ausschlag', 'reflexe', 'bauch', 'rachen', 'rasselgerausche', 'giemen', 'palpation', 'cholesterin', 'laborwerte'],
  es: ['a la exploracion', 'exploracion', 'en la exploracion', 'tension arterial', 'la tension', 'presion arterial', 'frecuencia cardiaca', 'pulso', 'temperatura', 'saturacion', 'peso', 'pesa', 'imc', 'auscultacion', 'murmullo', 'soplo', 'dolor a la palpacion', 'palpacion', 'contractura', 'edema', 'eritema', 'reflejos', 'abdomen', 'orofaringe', 'crepitantes', 'sibilancias', 'hemoglobina glicada', 'colesterol', 'los analisis'],
});

/** Laboratory and test results named by their test, which a note keeps among the findings. */
export const RESULTS = compile({
  en: ['tsh', 'tpo', 'crp', 'ferritin', 'haemoglobin', 'hemoglobin', 'hb', 'creatinine', 'egfr', 'potassium', 'sodium', 'glucose', 'inr', 'leucocytes', 'leukocytes', 'nitrites', 'nitrite', 'dipstick', 'ecg', 'peak flow', 'blood sugar'],
  pt: ['tsh', 'tpo', 'pcr', 'ferritina', 'hemoglobina', 'hb', 'creatinina', 'tfg', 'potassio', 'sodio', 'glicemia', 'glicose', 'inr', 'leucocitos', 'nitritos', 'tira de urina', 'combur', 'ecg', 'eletrocardiograma', 'debito expiratorio'],
  de: ['tsh', 'tpo', 'crp', 'ferritin', 'hamoglobin', 'hb', 'kreatinin', 'egfr', 'kalium', 'natrium', 'blutzucker', 'glukose', 'inr', 'leukozyten', 'nitrit', 'urinstix', 'teststreifen', 'ekg', 'peak-flow'],
  es: ['tsh', 'tpo', 'pcr', 'ferritina', 'hemoglobina', 'hb', 'creatinina', 'filtrado', 'potasio', 'sodio', 'glucemia', 'glucosa', 'inr', 'leucocitos', 'nitritos', 'tira reactiva', 'combur', 'ecg', 'electrocardiograma', 'pico flujo'],
});

/** The patient telling what they already take: history, though 'take' also starts a plan. */
export const TAKES_ALREADY = compile({
  en: ['i take', 'i am taking', "i'm taking", 'i am on', "i'm on", "i've been taking", 'i have been taking', 'i use', 'i still take'],
  pt: ['tomo', 'estou a tomar', 'ando a tomar', 'faco', 'uso', 'costumo tomar', 'ja tomo'],
  de: ['ich nehme', 'nehme ich', 'ich nehme seit', 'ich benutze', 'ich verwende'],
  es: ['tomo', 'estoy tomando', 'uso', 'utilizo', 'suelo tomar'],
});

/** A plan given by its time alone ('Ultrasound in six weeks', 'Control en dos semanas'): a time ahead, not past. */
export const TIME_AHEAD: Record<Language, RegExp> = {
  en: /(?<![\p{L}\d])(?:(?:in|within) (?:(?:about|around|approximately|roughly) )?|after )(?:\d+|a|an|one|a few|a couple of) (?:days?|weeks?|months?)(?![\p{L}\d])|(?<![\p{L}\d])next (?:week|month)(?![\p{L}\d])/u,
  pt: /(?<![\p{L}\d])(?:daqui a|dentro de|ao fim de|em) (?:\d+|um|uma) (?:dias?|semanas?|mes|meses)(?![\p{L}\d])|(?<![\p{L}\d])(?:proxima|na proxima) (?:semana|mes)(?![\p{L}\d])/u,
  de: /(?<![\p{L}\d])(?:in|nach) (?:\d+|einer|einem|ein paar) (?:tag|tagen|woche|wochen|monat|monaten)(?![\p{L}\d])|(?<![\p{L}\d])nachste woche(?![\p{L}\d])/u,
  es: /(?<![\p{L}\d])(?:en|dentro de|al cabo de) (?:\d+|un|una) (?:dias?|semanas?|mes|meses)(?![\p{L}\d])|(?<![\p{L}\d])(?:la semana que viene|el mes que viene|proxima semana|proximo mes)(?![\p{L}\d])/u,
};

/** A patient's own words about themselves: a diagnosis they name is history, not the clinician's conclusion. */
export const FIRST_PERSON: Record<Language, RegExp> = {
  en: /(?<![\p{L}])(?:i|i'm|i've|i'd|my|me)(?![\p{L}])/u,
  pt: /(?<![\p{L}])(?:tenho|tive|sou|estou|ando|sinto|senti|o meu|a minha|os meus|as minhas)(?![\p{L}])/u,
  de: /(?<![\p{L}])(?:ich|mein|meine|meinen|meinem|mir|mich)(?![\p{L}])/u,
  es: /(?<![\p{L}])(?:tengo|tuve|soy|estoy|siento|senti|mi|mis|me)(?![\p{L}])/u,
};

/** What the clinician concludes. */
export const ASSESSMENT = compile({
  en: ['i think', 'i believe', 'it looks like', 'it seems', 'this is', 'this looks', 'most likely', 'probably', 'diagnosis', 'consistent with', 'suggests', 'i suspect', 'sounds like'],
  pt: ['acho que', 'parece', 'parece-me', 'trata-se', 'e provavel', 'provavelmente', 'diagnostico', 'compativel com', 'sugere', 'suspeito', 'penso que'],
  de: ['ich denke', 'ich glaube', 'es sieht aus', 'es handelt sich', 'wahrscheinlich', 'vermutlich', 'diagnose', 'vereinbar mit', 'spricht fur', 'verdacht auf', 'am ehesten'],
  es: ['creo que', 'parece', 'se trata', 'probablemente', 'es probable', 'diagnostico', 'compatible con', 'sugiere', 'sospecho', 'pienso que'],
});

/** What will be done: prescriptions, tests, referrals, advice, follow-up, sick leave. */
export const PLAN = compile({
  en: ['i will', "i'll", 'we will', "we'll", 'i am going to', 'i am prescribing', 'i prescribe', 'prescribe', 'request', 'order', 'refer', 'referral', 'start', 'stop taking', 'continue', 'take', 'come back', 'follow up', 'follow-up', 'review in', 'see you in', 'see you back in', 'see you again in', 'see you back within', 'see you again within', 'sick note', 'certificate', 'off work', 'rest', 'avoid', 'drink plenty', "i'm gonna", "we're gonna", 'increase the', 'increase your', 'decrease the', 'decrease your', 'recommend', 'schedule', 'refill'],
  pt: ['vou', 'vamos', 'receito', 'receitar', 'passar', 'pedir', 'peco', 'encaminhar', 'encaminho', 'referenciar', 'referencio', 'comece', 'suspenda', 'mantenha', 'tome', 'volte', 'voltar', 'regresse', 'reavaliacao', 'revisao', 'proxima consulta', 'certificado', 'baixa', 'repouso', 'evite', 'beba'],
  de: ['ich werde', 'wir werden', 'ich verschreibe', 'verschreiben', 'verordne', 'verordnen', 'veranlasse', 'veranlassen', 'uberweise', 'uberweisung', 'beginnen sie', 'setzen sie', 'nehmen sie', 'kommen sie', 'wiedervorstellung', 'kontrolle in', 'krankschreibung', 'krankgeschrieben', 'arbeitsunfahig', 'schonen', 'vermeiden', 'trinken sie'],
  es: ['voy a', 'vamos a', 'le receto', 'receto', 'recetar', 'pedir', 'pido', 'solicito', 'derivar', 'derivo', 'le derivo', 'empiece', 'suspenda', 'mantenga', 'tome', 'vuelva', 'volver', 'revision', 'proxima consulta', 'baja', 'certificado', 'reposo', 'evite', 'beba'],
});

/** Allergies named ('allergic to penicillin', 'alérgica à penicilina', 'Allergie gegen', 'alérgico a'). */
export const ALLERGY = compile({
  en: ['allergic to', 'allergy to', 'allergies', 'allergy'],
  pt: ['alergico a', 'alergica a', 'alergia a', 'alergias', 'alergia'],
  de: ['allergisch gegen', 'allergie gegen', 'allergien', 'allergie'],
  es: ['alergico a', 'alergica a', 'alergia a', 'alergias', 'alergia'],
});
export const NO_ALLERGY = compile({
  en: ['no allergies', 'no known allergies', 'not allergic', 'no allergy'],
  pt: ['sem alergias', 'nao tem alergias', 'nao sou alergic', 'nenhuma alergia', 'sem alergias conhecidas'],
  de: ['keine allergien', 'keine allergie', 'nicht allergisch', 'keine bekannten allergien'],
  es: ['sin alergias', 'no tengo alergias', 'no soy alergic', 'ninguna alergia', 'no alergias conocidas'],
});

/** The question that opens a consultation, whose answer is why the patient came (on folded text, any language). */
export const OPENING_QUESTION =
  /(?:what brings you|what brought you|what can i do for you|how can i help|what's going on|what is going on|what happened|what seems to be|what's the problem|o que o traz|o que a traz|em que posso ajudar|o que se passa|o que aconteceu|was fuhrt sie|wie kann ich (?:ihnen )?helfen|was ist passiert|was fehlt ihnen|que le trae|en que puedo ayudar|que le pasa|que le ocurre)/;

/** A bare 'no' answer in each language. */
export const NO_ANSWER: Record<Language, RegExp> = { en: /^no\b/, pt: /^(?:nao|nunca)\b/, de: /^(?:nein|nie)\b/, es: /^(?:no|nunca)\b/ };
