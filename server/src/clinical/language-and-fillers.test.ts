import { describe, expect, it } from 'vitest';
import { isAssistantCommand, withoutFillers } from './fillers.js';
import { frequencyIn } from './frequency.js';
import { transcriptLanguage } from './language.js';
import { clauseAround, scopesOf } from './scope.js';
import { fold } from './text.js';

describe('the transcript language', () => {
  it('is told by its words, and left open when there are too few', () => {
    expect(transcriptLanguage('hi brian how are you. so i know the nurse told you a little bit about the pain in your knee and what is going on')).toBe('en');
    expect(
      transcriptLanguage('Bom dia. O que o traz cá? Tenho uma dor nas costas há três dias. Não tem febre? Não. Vou receitar um anti-inflamatório para a dor.'),
    ).toBe('pt');
    expect(
      transcriptLanguage('Guten Tag. Seit wann haben Sie Fieber? Seit Montag. Der Blutdruck ist hundertvierzig zu neunzig. Es handelt sich um einen Infekt.'),
    ).toBe('de');
    expect(
      transcriptLanguage(
        'Buenos días. ¿Tiene alergias? No. Creo que es una gastroenteritis. Vuelva en una semana. Tengo dolor de la barriga desde hace dos días.',
      ),
    ).toBe('es');
    expect(transcriptLanguage('ok')).toBeUndefined();
  });
});

describe('fillers', () => {
  it('go, with wake words and words said twice; words that mean something stay', () => {
    expect(withoutFillers('um , how long has that been going on for ?', 'en')).toBe('How long has that been going on for?');
    expect(withoutFillers('i , i just feel out of sorts lately .', 'en')).toBe('i just feel out of sorts lately.');
    // Said to a speech assistant, not to the patient: the whole sentence goes.
    expect(isAssistantCommand('hey, dragon, show me the vital signs')).toBe(true);
    expect(isAssistantCommand('i know the nurse told you about dax')).toBe(true);
    expect(isAssistantCommand('Hey Dragon, finalize the note.')).toBe(true);
    expect(isAssistantCommand('Um, hey dragon, uh, show me the rapid strep.')).toBe(true);
    expect(isAssistantCommand('Hey, dragon, order the medications and procedures discussed, and finalize the report.')).toBe(true);
    expect(isAssistantCommand('Okay. Hey dragon.')).toBe(true);
    expect(isAssistantCommand('Once they sign the report we will know if there is a fracture.')).toBe(false);
    // Dictated after the wake words, it is the note's: only the wake words go.
    expect(isAssistantCommand('Um, hey dragon, order a western blot pcr for lyme.')).toBe(false);
    expect(isAssistantCommand('All right, hey, dragon, ms. Thompson is a 43 year old female here for right knee pain.')).toBe(false);
    expect(withoutFillers('All right, hey, dragon, ms. Thompson is a 43 year old female here for right knee pain.', 'en')).toBe(
      'Ms. Thompson is a 43 year old female here for right knee pain.',
    );
    expect(withoutFillers('Um, hey dragon, order a western blot pcr for lyme.', 'en')).toBe('Order a western blot pcr for lyme.');
    expect(withoutFillers('They say hey to the dragon boat team.', 'en')).toBe('They say hey to the dragon boat team.');
    // A long run of hesitations that is no command is answered at once (one way to read the opening words).
    expect(isAssistantCommand(`${'um , '.repeat(5000)}x`)).toBe(false);
    expect(isAssistantCommand('I was golfing and hurt my back.')).toBe(false);
    // Said to the assistant without its wake word: the record's data, and nothing else in the sentence.
    expect(isAssistantCommand('Show me the vital signs.')).toBe(true);
    expect(isAssistantCommand('Okay, show me the back x-ray.')).toBe(true);
    expect(isAssistantCommand('Show me the rash on your arm.')).toBe(false);
    expect(isAssistantCommand('Show me the labs from last year, and then we talk about your sugar.')).toBe(false);
    // A stammered start said again goes; words with a hyphen stay.
    expect(withoutFillers("I-i'd like to increase the dose.", 'en')).toBe("I'd like to increase the dose.");
    expect(withoutFillers('Y-you know, it hurts.', 'en')).toBe('It hurts.');
    expect(withoutFillers('An x-ray of the knee.', 'en')).toBe('An x-ray of the knee.');
    for (const kept of ['Co-codamol 30/500 two tablets.', 'Start a P-P-I.', 'The A-a gradient is 30.', 'A T-tube.', 'I feel so-so.', 'Pre-pregnancy weight.'])
      expect(withoutFillers(kept, 'en')).toBe(kept);
    expect(withoutFillers('I-I think th-the knee is worse.', 'en')).toBe('I think the knee is worse.');
    expect(withoutFillers('mm-hmm .', 'en')).toBe('');
    expect(withoutFillers('do you know your blood pressure', 'en')).toBe('do you know your blood pressure');
    expect(withoutFillers("i'm not feeling well", 'en')).toBe("i'm not feeling well");
    expect(withoutFillers('Äh, ich habe seit zwei Tagen Fieber.', 'de')).toBe('Ich habe seit zwei Tagen Fieber.');
    expect(withoutFillers('Pues, este medicamento me sienta mal.', 'es')).toBe('Este medicamento me sienta mal.');
    expect(withoutFillers('Hum, pronto, tenho dores há três dias.', 'pt')).toBe('Tenho dores há três dias.');
  });
});

describe('frequencies', () => {
  it('take the whole way it was said', () => {
    expect(frequencyIn('metformin 1000 mg twice daily')).toBe('twice daily');
    expect(frequencyIn('methotrexate 2.5 mg once weekly')).toBe('once weekly');
    expect(frequencyIn('lisinopril 20 mg a day, one tablet bid')).toBe('bid');
    expect(frequencyIn(fold('metformina 850 mg duas vezes por dia'))).toBe('duas vezes por dia');
    expect(frequencyIn(fold('Ramipril 5 mg 1-0-1'))).toBe('1-0-1');
    expect(frequencyIn(fold('paracetamol cada 8 horas'))).toBe('cada 8 horas');
  });
});

describe('the scope of a statement', () => {
  const scopes = (sentence: string, word: string, language: 'en' | 'pt' | 'de' | 'es' = 'en') => {
    const text = fold(sentence);
    const at = text.indexOf(word);
    const clause = clauseAround(text, at, at + word.length, language);
    return [...scopesOf(text.slice(clause.start, clause.end), language)].sort();
  };
  it('is read within the clause, in the four languages', () => {
    expect(scopes('no fever, temperature 37.2', 'temperature')).toEqual([]);
    expect(scopes('if I weigh 250 pounds', 'weigh')).toEqual(['hypothetical']);
    expect(scopes('my mother had a stroke', 'stroke')).toEqual(['family', 'past']);
    expect(scopes("your blood pressure isn't 180", 'pressure')).toEqual(['negated']);
    expect(scopes('we will stop lisinopril', 'lisinopril')).toEqual(['planned', 'stopped']);
    expect(scopes('we will recheck it in 3 months', 'recheck')).toEqual(['planned']);
    expect(scopes('Não tem febre', 'febre', 'pt')).toEqual(['negated']);
    expect(scopes('Der Vater hatte einen Herzinfarkt', 'herzinfarkt', 'de')).toEqual(['family', 'past']);
    expect(scopes('Si le duele, tome paracetamol', 'duele', 'es')).toEqual(['hypothetical']);
  });
});

describe('words broken off', () => {
  it('go, hyphenated words stay', () => {
    expect(withoutFillers('I f- felt the pop, and a follow-up in 2 weeks.', 'en')).toBe('I felt the pop, and a follow-up in 2 weeks.');
  });
});
