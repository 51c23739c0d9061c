/**
 * How often a medicine is taken, as said, in the four languages, on folded text: 'twice daily' is twice daily,
 * never 'daily' (the longer way of saying it is tried first); 'bid', 'tid', 'qhs'; 'once a week', 'weekly';
 * '1-0-1'; 'as needed'. The words are kept as said: a note writes what was said, not a code for it.
 */
const FREQUENCIES = [
  // Counted per day or week first, so 'twice daily' never reads as 'daily'.
  String.raw`(?:once|twice|three times|four times|\d+ times|one time|two times)(?: a| per| each)? (?:day|daily|week|weekly|month|night|evening|morning)`,
  String.raw`(?:once|twice|three times|four times|\d+ times) daily`,
  String.raw`every (?:other )?(?:\d+ )?(?:hours?|days?|weeks?|morning|night|evening)`,
  String.raw`(?:bid|b\.i\.d|tid|t\.i\.d|qid|q\.i\.d|qd|q\.d|qhs|q\.h\.s|qam|qpm|prn|q\d+h)(?![\p{L}])`,
  String.raw`daily|weekly|nightly|at night|at bedtime|before bed|in the morning|in the evening|with meals|as needed|when needed`,
  String.raw`de \d+ em \d+ horas|\d+ vezes por (?:dia|semana)|uma vez por (?:dia|semana)|duas vezes por (?:dia|semana)|tres vezes por dia|(?:uma vez |)(?:por|a cada) semana|semanalmente|diariamente|ao deitar|a noite|de manha|em sos|se necessario`,
  String.raw`\d+ ?x ?(?:pro |am )?(?:tag|woche)|einmal (?:taglich|wochentlich|pro woche)|zweimal taglich|dreimal taglich|wochentlich|taglich|morgens|abends|zur nacht|bei bedarf|\d-\d-\d(?:-\d)?`,
  String.raw`cada \d+ horas|una vez (?:al dia|a la semana|por semana)|dos veces al dia|tres veces al dia|\d+ veces al dia|semanalmente|diariamente|por la noche|por la manana|al acostarse|si precisa|a demanda`,
];
const FREQUENCY = new RegExp(`(?<![\\p{L}])(?:${FREQUENCIES.join('|')})(?![\\p{L}])`, 'u');

/** The frequency said in a (folded) stretch of text, as said; undefined when none. */
export function frequencyIn(folded: string): string | undefined {
  return folded.match(FREQUENCY)?.[0];
}
