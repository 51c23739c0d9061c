import { describe, expect, it } from 'vitest';
import { asInstruction, pertinentNegative, withoutLinkingWords } from './concise.js';

describe('a sentence said aloud, written as a note writes it', () => {
  it('drops the words that only link a sentence to the last, in the four languages', () => {
    expect(withoutLinkingWords('And so, I have had a cough for two weeks.', 'en')).toBe('I have had a cough for two weeks.');
    expect(withoutLinkingWords('But no fever.', 'en')).toBe('No fever.');
    expect(withoutLinkingWords('E então comecei a ter febre.', 'pt')).toBe('Comecei a ter febre.');
    expect(withoutLinkingWords('Und dann kam das Fieber.', 'de')).toBe('Dann kam das Fieber.');
    expect(withoutLinkingWords('Pues me duele desde el lunes.', 'es')).toBe('Me duele desde el lunes.');
    expect(withoutLinkingWords('Well, I think it is better.', 'en')).toBe('I think it is better.');
    expect(withoutLinkingWords('Well controlled on two tablets.', 'en')).toBe('Well controlled on two tablets.');
    expect(withoutLinkingWords("Let me go ahead, I'll check your knee.", 'en')).toBe("I'll check your knee.");
    expect(withoutLinkingWords('We will go ahead with the injection.', 'en')).toBe('We will go ahead with the injection.');
    // An engine's lower case stays lower case.
    expect(withoutLinkingWords('and it hurts when i walk', 'en')).toBe('it hurts when i walk');
  });

  it('keeps them where they carry meaning: sequence, "so far", "now that", the verb "é"', () => {
    expect(withoutLinkingWords('So far so good.', 'en')).toBe('So far so good.');
    expect(withoutLinkingWords('Now that you mention it, yes.', 'en')).toBe('Now that you mention it, yes.');
    expect(withoutLinkingWords('Then stop the tablets.', 'en')).toBe('Then stop the tablets.');
    expect(withoutLinkingWords('É gota.', 'pt')).toBe('É gota.');
    expect(withoutLinkingWords('Depois tome o outro.', 'pt')).toBe('Depois tome o outro.');
    expect(withoutLinkingWords('Luego tome la otra.', 'es')).toBe('Luego tome la otra.');
    expect(withoutLinkingWords('Now you take 20 mg.', 'en')).toBe('Now you take 20 mg.');
    expect(withoutLinkingWords('And so did my brother, at 45.', 'en')).toBe('So did my brother, at 45.');
    expect(withoutLinkingWords('So-called white coat hypertension.', 'en')).toBe('So-called white coat hypertension.');
    expect(withoutLinkingWords('Assim que possível, faça as análises.', 'pt')).toBe('Assim que possível, faça as análises.');
    expect(withoutLinkingWords('Pois não.', 'pt')).toBe('Pois não.');
    expect(withoutLinkingWords('Ahora mismo no tengo dolor.', 'es')).toBe('Ahora mismo no tengo dolor.');
    // German puts the verb first after these: without them a statement would read as an order or a question.
    expect(withoutLinkingWords('Deshalb nehmen Sie kein Ibuprofen mehr.', 'de')).toBe('Deshalb nehmen Sie kein Ibuprofen mehr.');
    expect(withoutLinkingWords('Jetzt habe ich keine Schmerzen mehr.', 'de')).toBe('Jetzt habe ich keine Schmerzen mehr.');
    // 'go ahead' without its 'and' is a decision.
    expect(withoutLinkingWords('The surgery can go ahead next week.', 'en')).toBe('The surgery can go ahead next week.');
    // A sentence that is nothing but its linking word stays as said.
    expect(withoutLinkingWords('And?', 'en')).toBe('And?');
  });

  it('writes a clinician’s decided plan as the instruction it is', () => {
    expect(asInstruction("And I'm gonna go ahead and prescribe meloxicam 15 mg once a day.", 'en', true)).toBe('Prescribe meloxicam 15 mg once a day.');
    expect(asInstruction('I would like to increase your metformin to 1,000 mg twice daily.', 'en', true)).toBe(
      'Increase your metformin to 1,000 mg twice daily.',
    );
    expect(asInstruction("We'll see you in two weeks.", 'en', true)).toBe('See you in two weeks.');
    expect(asInstruction('I want you to take that once a day.', 'en', true)).toBe('Take that once a day.');
    expect(asInstruction("Let's go ahead and order an x-ray.", 'en', true)).toBe('Order an x-ray.');
    expect(asInstruction('If it gets worse, we will go ahead and get an MRI.', 'en', true)).toBe('If it gets worse, we will get an MRI.');
    expect(asInstruction('Vou pedir umas análises ao sangue.', 'pt', true)).toBe('Pedir umas análises ao sangue.');
    expect(asInstruction('Vamos a pedir una radiografía.', 'es', true)).toBe('Pedir una radiografía.');
  });

  it('leaves a plan said as a possibility, or a patient’s intention, in its own words', () => {
    expect(asInstruction('I might increase the dose later.', 'en', true)).toBe('I might increase the dose later.');
    expect(asInstruction('We could try physiotherapy.', 'en', true)).toBe('We could try physiotherapy.');
    expect(asInstruction('I think we should start a statin.', 'en', true)).toBe('I think we should start a statin.');
    // A reservation, a condition or a question keeps the clinician's words.
    expect(asInstruction("I'd like to start a statin but let's wait for the labs.", 'en', true)).toBe(
      "I'd like to start a statin but let's wait for the labs.",
    );
    expect(asInstruction('I would like to try a statin, what do you think?', 'en', true)).toBe('I would like to try a statin, what do you think?');
    expect(asInstruction("I'll refer myself to physio.", 'en', true)).toBe("I'll refer myself to physio.");
    expect(asInstruction("We'll see.", 'en', true)).toBe("We'll see.");
    expect(asInstruction("I'm gonna decrease the insulin when I exercise.", 'en', false)).toBe("I'm gonna decrease the insulin when I exercise.");
    // Who spoke is not known: 'stop' may be the patient's own intention; 'prescribe' is only ever a prescriber's.
    expect(asInstruction("I'm going to stop smoking.", 'en', false)).toBe("I'm going to stop smoking.");
    expect(asInstruction("I'm going to prescribe amoxicillin.", 'en', false)).toBe('Prescribe amoxicillin.');
    // German says its plan with the verb second ('Ich verschreibe Ihnen …'): left as said.
    expect(asInstruction('Ich verschreibe Ihnen Ibuprofen.', 'de', true)).toBe('Ich verschreibe Ihnen Ibuprofen.');
  });

  it('writes a symptom asked about and answered only no as a pertinent negative', () => {
    expect(pertinentNegative('Have you had any fever or chills?', 'I have not.', 'en')).toBe('No fever or chills.');
    expect(pertinentNegative('Any burning when you urinate or anything like that?', 'Not at all.', 'en')).toBeUndefined();
    expect(pertinentNegative('Any chest pain or shortness of breath at all?', 'No.', 'en')).toBe('No chest pain or shortness of breath.');
    expect(pertinentNegative('Tem febre?', 'Não.', 'pt')).toBe('Sem febre.');
    expect(pertinentNegative('¿Ha tenido vómitos?', 'No, ninguno.', 'es')).toBe('Sin vómitos.');
    // An answer that says more, a question about something else, or one with a number keeps its words.
    expect(pertinentNegative('Have you had any fever?', 'No, but I had a cough.', 'en')).toBeUndefined();
    expect(pertinentNegative('Have you had any fever?', 'Yes.', 'en')).toBeUndefined();
    expect(pertinentNegative('Did you take your metformin today?', 'No.', 'en')).toBeUndefined();
    expect(pertinentNegative('Any fever above 38 degrees?', 'No.', 'en')).toBeUndefined();
    expect(pertinentNegative('Hast du Fieber?', 'Nein.', 'de')).toBeUndefined();
    // A choice, a limit, a hedge or a participle is not a question of whether there is any.
    expect(pertinentNegative('Any fever or just a cough?', 'No.', 'en')).toBeUndefined();
    expect(pertinentNegative('Any chest pain at rest or only with exercise?', 'No.', 'en')).toBeUndefined();
    expect(pertinentNegative('Have you had any fever, or has it gone away?', 'No.', 'en')).toBeUndefined();
    expect(pertinentNegative('Do you have pain only at night?', 'No.', 'en')).toBeUndefined();
    expect(pertinentNegative('Have you had any fever?', 'Not really.', 'en')).toBeUndefined();
    expect(pertinentNegative('Tem febre ou só tosse?', 'Não.', 'pt')).toBeUndefined();
    expect(pertinentNegative('¿Ha tenido fiebre o solo tos?', 'No.', 'es')).toBeUndefined();
    expect(pertinentNegative('Tem tomado a metformina?', 'Não.', 'pt')).toBeUndefined();
    expect(pertinentNegative('Tem dormido bem?', 'Não.', 'pt')).toBeUndefined();
  });
});
