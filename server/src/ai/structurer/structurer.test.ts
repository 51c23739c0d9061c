/**
 * The clinical structurer that writes notes without a model: sentences placed in a note's sections by their
 * cues, facts read from them, and simple change requests applied, in the four languages.
 */
import { describe, expect, it } from 'vitest';
import { composeDocument } from '../offline-composer.js';
import type { DocumentRequest } from '../text-generator.js';
import { allergiesIn, followUpIn, measurementsIn, medicinesIn, referralIn, sickLeaveIn } from './facts.js';
import { digitsForSpokenNumbers } from '../../clinical/units.js';
import { structure } from './structure.js';
import { applyTextCommand } from './text-commands.js';

const sections = (transcript: string, language: DocumentRequest['language']) => structure(transcript, language).map((s) => [s.section, s.text]);

describe('spoken numbers', () => {
  it('are written in digits in the four languages, a lone article left alone', () => {
    expect(digitsForSpokenNumbers('one hundred and fifty over ninety five, one tablet, thirty eight point four', 'en')).toBe('150 over 95, one tablet, 38.4');
    expect(digitsForSpokenNumbers('cento e quarenta e dois por oitenta e cinco, uma semana', 'pt')).toBe('142 por 85, uma semana');
    expect(digitsForSpokenNumbers('hundertfünfzig zu fünfundneunzig, eine Woche, zweitausendzwanzig', 'de')).toBe('150 zu 95, eine Woche, 2020');
    expect(digitsForSpokenNumbers('ciento cincuenta y dos con noventa, treinta y ocho coma cinco', 'es')).toBe('152 con 90, 38,5');
  });
});

describe('numbers as a note writes them', () => {
  it('reads a decimal digit that is also an article, a half, and abbreviates units', () => {
    expect(digitsForSpokenNumbers('your temperature is thirty seven point one', 'en')).toBe('your temperature is 37.1');
    expect(digitsForSpokenNumbers('peso sessenta e sete quilos e meio', 'pt')).toBe('peso 67,5 kg');
    expect(digitsForSpokenNumbers('os cinquenta miligramas de manhã', 'pt')).toBe('os 50 mg de manhã');
    expect(digitsForSpokenNumbers('zwanzig Milligramm, sieben Prozent', 'de')).toBe('20 mg, 7 %');
    // A word that only looks like a digit stays as it is.
    expect(digitsForSpokenNumbers('version two point final', 'en')).toBe('version 2 point final');
  });
});

describe('sections', () => {
  it('tells history from plan and findings from conclusions by more than the first cue word', () => {
    expect(sections('I take metformin 500 mg twice a day.', 'en')).toEqual([['subjective', 'I take metformin 500 mg twice a day.']]);
    expect(sections('Ultraschall in sechs Wochen.', 'de')).toEqual([['plan', 'Ultraschall in 6 Wochen.']]);
    expect(sections('Control en dos semanas.', 'es')).toEqual([['plan', 'Control en 2 semanas.']]);
    // Past time is history: 'for two weeks', 'há duas semanas', 'seit zwei Wochen'.
    expect(sections('The cough started two weeks ago.', 'en')[0]![0]).toBe('subjective');
    expect(sections('Die TSH liegt bei neun Komma acht.', 'de')).toEqual([['objective', 'Die TSH liegt bei 9,8.']]);
    expect(sections('So, a flare of your COPD.', 'en')).toEqual([['assessment', 'A flare of your COPD.']]);
    // The same diagnosis in the patient's own words is history.
    expect(sections('I have had asthma since I was a child.', 'en')[0]![0]).toBe('subjective');
    expect(sections('Prednisolone 40 mg once a day for five days.', 'en')[0]![0]).toBe('plan');
  });

  it('cuts a conclusion from the plan that follows it after a comma, and keeps a question a long yes confirms', () => {
    expect(sections('Portanto é uma depressão moderada em melhoria parcial, por isso vamos aumentar a sertralina para cem miligramas.', 'pt')).toEqual([
      ['assessment', 'É uma depressão moderada em melhoria parcial,'],
      ['plan', 'Vamos aumentar a sertralina para 100 mg.'],
    ]);
    const confirmed = sections(
      'Six weeks on sertraline now, isn’t it? Yes, I take the fifty milligrams every morning and I feel a little better, though I still wake up at four in the morning.',
      'en',
    );
    expect(confirmed[0]).toEqual(['subjective', '6 weeks on sertraline now, isn’t it?']);
    expect(confirmed[1]![1]).toContain('50 mg every morning');
  });

  it('drops greetings and small talk, keeps a question with its short answer, and places each sentence by its cues', () => {
    expect(
      sections(
        'Good morning. Please sit down. What brings you in? A cough for five days. Let me listen to your chest. There are crackles on the right. I think this is pneumonia. I will prescribe amoxicillin. Thank you, goodbye.',
        'en',
      ),
    ).toEqual([
      ['subjective', 'A cough for 5 days.'],
      ['objective', 'There are crackles on the right.'],
      ['assessment', 'I think this is pneumonia.'],
      ['plan', 'Prescribe amoxicillin.'],
    ]);
    expect(
      sections(
        'Guten Tag. Seit wann haben Sie Fieber? Seit Montag. Der Blutdruck ist hundertvierzig zu neunzig. Es handelt sich um einen Infekt. Ich verschreibe Ibuprofen.',
        'de',
      ),
    ).toEqual([
      ['subjective', 'Seit wann haben Sie Fieber? Seit Montag.'],
      ['objective', 'Der Blutdruck ist 140 zu 90.'],
      ['assessment', 'Es handelt sich um einen Infekt.'],
      ['plan', 'Ich verschreibe Ibuprofen.'],
    ]);
    expect(
      sections('Buenos días. ¿Tiene alergias? No. A la exploración, abdomen blando. Creo que es una gastroenteritis. Vuelva en una semana.', 'es'),
    ).toEqual([
      ['subjective', 'Sin alergias.'],
      ['objective', 'A la exploración, abdomen blando.'],
      ['assessment', 'Creo que es una gastroenteritis.'],
      ['plan', 'Vuelva en una semana.'],
    ]);
  });

  it('cuts a transcript with no punctuation where a question, a greeting or a statement starts', () => {
    expect(sections('bom dia o que o traz cá tenho dores nas costas há três dias vou pedir uma radiografia', 'pt')).toEqual([
      ['subjective', 'O que o traz cá tenho dores nas costas há 3 dias'],
      ['plan', 'vou pedir uma radiografia'],
    ]);
  });

  it('keeps a negation, a condition and a finding with the words they belong to', () => {
    const texts = (t: string, l: 'en' | 'pt' | 'es' | 'de') => structure(t, l).map((s) => s.text);
    // A long sentence with commas is one sentence: a negation or a condition is never cut from what it governs.
    const es = texts(
      'Mire, usted no tiene fiebre ni placas y por eso no voy a recetar antibióticos esta vez, tome solo paracetamol y beba mucha agua durante unos días hasta que mejore.',
      'es',
    );
    expect(es.join(' ')).toContain('no voy a recetar antibióticos');
    const unpunctuated = texts(
      'Patient: my head hurts\nClinician: so your blood pressure is high today and if it is still high when you come back in two weeks i am going to increase the lisinopril to twenty milligrams',
      'en',
    );
    expect(unpunctuated.some((t) => /if it is still high.*increase the lisinopril/.test(t))).toBe(true);
    // A greeting by name is small talk; a question a long answer speaks for on its own goes, one answered yes or no stays.
    const dialogue = texts(
      [
        "Clinician: Hey lawrence how're you doing",
        "Patient: I'm doing alright aside from this elbow pain",
        'Clinician: Okay and then so tell me a little bit more about that elbow pain where does it hurt exactly',
        'Patient: You know it hurts a lot in the inside of my elbow and it started last week when I was doing a lot of pottery at home',
        'Clinician: Any numbness or tingling in your hand or fingers',
        'Patient: No not really I have been working with my hands every day and they feel normal apart from the elbow pain',
      ].join('\n'),
      'en',
    );
    expect(dialogue.join(' | ')).not.toMatch(/lawrence|tell me|^Then/i);
    expect(dialogue).toContain('Any numbness or tingling in your hand or fingers');
    // What makes it worse or better: the answer's words alone would say either.
    expect(
      texts(
        'Clinician: what makes the pain worse\nPatient: walking up the stairs and lying flat at night and when I carry the shopping home from the market',
        'en',
      ).join(' '),
    ).toMatch(/worse/);
    expect(dialogue.join(' | ')).toMatch(/it hurts a lot in the inside of my elbow/);
    // A breath is never cut after a subject or an article, nor a measurement's decimal from its name.
    const a1c = texts(
      "Patient: My sugars are fine.\nClinician: Okay we checked your hemoglobin a1c last time i'm looking at your records in epic and it showed that it was you know seven. One so it's good but it could be better any you know we talked about your diet and exercise at home",
      'en',
    );
    expect(a1c.join(' | ')).toMatch(/a1c last time I'm looking at your records[^|]*7\.1/);
    // How to move for the examination, and an intention broken off, say nothing to write.
    for (const instruction of [
      'Clinician: I want you to raise your hand.\nClinician: Make a fist.',
      "Clinician: I'm gonna have you turn your wrist for me.\nClinician: I'm gonna go ahead and.",
    ])
      expect(texts(`${instruction}\nPatient: Okay.`, 'en')).toEqual([]);
    // Advice to rest, and a question about putting on weight, are no examination's instructions.
    expect(texts('Patient: It hurts.\nClinician: Rest your ankle and keep it elevated.', 'en')).toContain('Rest your ankle and keep it elevated.');
    expect(texts('Clinician: Have you put on any weight?\nPatient: Yes, about ten pounds.', 'en').join(' ')).toMatch(/put on any weight/);
    // Findings said after an examination's announcement stay.
    for (const finding of ["I'm gonna listen to your heart, there's a murmur.", 'Follow my finger, no nystagmus.', 'Lie down if you feel faint.'])
      expect(texts(`Clinician: ${finding}`, 'en')).toHaveLength(1);
    // A statement that starts as a question might is not taken for an unanswered question.
    expect(texts('Médico: Toma varfarina, por isso nada de anti-inflamatórios.\nMédico: Receito paracetamol.', 'pt')).toHaveLength(2);
    expect(texts('Médico: Es alérgico a la penicilina.\nMédico: Le receto azitromicina.', 'es')).toHaveLength(2);
    // Only the consultation's opening question folds into its answer; one about something keeps it.
    expect(texts('Clinician: What happened after you took the second dose?\nPatient: I broke out in hives all over.', 'en')).toEqual([
      'What happened after you took the second dose? I broke out in hives all over.',
    ]);
  });

  it('cuts where the local engine heard a pause (one line per utterance)', () => {
    expect(sections('she has had a cough for a week\nthe lungs are clear\nwe will start amoxicillin', 'en')).toEqual([
      ['subjective', 'she has had a cough for a week'],
      ['objective', 'the lungs are clear'],
      ['plan', 'we will start amoxicillin'],
    ]);
    // An engine's line that opens with a question holds its answer: history, whatever the examination's or plan's
    // words the question names; a 'no' before the next question answers the last one.
    expect(
      sections(
        "when did it start about a day or two ago any itchiness yes a lot have you had swelling of your lips or throat no have you applied anything to the rash no why don't we start a cream twice a day",
        'en',
      ),
    ).toEqual([
      ['subjective', 'when did it start about a day or 2 ago'],
      ['subjective', 'any itchiness yes a lot'],
      ['subjective', 'have you had swelling of your lips or throat no'],
      ['subjective', 'have you applied anything to the rash no'],
      ['plan', "why don't we start a cream twice a day"],
    ]);
  });

  it('reads who spoke where the transcript says it: the patient’s words are history whatever their cues, a clinician’s question keeps its answer', () => {
    const transcript =
      'Clinician: what brings you in today\nPatient: i think it is the stress at work and i take ibuprofen\nClinician: the lungs are clear\nPatient: i will come back next week if it gets worse\nClinician: i think this is a tension headache\nClinician: we will start amitriptyline';
    expect(sections(transcript, 'en')).toEqual([
      ['subjective', 'i think it is the stress at work and i take ibuprofen'],
      ['objective', 'the lungs are clear'],
      ['subjective', 'i will come back next week if it gets worse'],
      ['assessment', 'i think this is a tension headache'],
      ['plan', 'start amitriptyline'],
    ]);
    // The same words unlabelled: the patient's guess reads as a conclusion and their intention as a plan.
    expect(sections(transcript.replace(/^\w+: /gm, ''), 'en').map(([section]) => section)).toContain('plan');
    // Labels are never part of a sentence; spans start at the words and hold the sentence as said ('we will start
    // amitriptyline' for the instruction 'start amitriptyline').
    for (const s of structure(transcript, 'en')) {
      expect(s.text).not.toMatch(/Clinician|Patient/);
      const span = transcript.slice(s.start, s.end);
      expect(span).toMatch(/^\p{L}/u);
      expect(span).toContain(s.text.slice(0, 8));
    }
    // Taken for a question only because the patient spoke next: with a long answer, the clinician's plan stays.
    const plan =
      'Clinician: when you start the amlodipine five milligrams take it every morning\nPatient: i will try but i usually forget my tablets in the morning because i leave for work very early most days';
    expect(sections(plan, 'en')[0]).toEqual(['plan', 'when you start the amlodipine 5 mg take it every morning']);
    expect(sections('Médico: Tem alergias?\nDoente: Não.\nDoente: Acho que é da coluna.', 'pt')).toEqual([
      ['subjective', 'Sem alergias.'],
      ['subjective', 'Acho que é da coluna.'],
    ]);
  });

  it('keeps every sentence’s span in the transcript', () => {
    const transcript = 'Hello. I have a rash on my arm.';
    const [s] = structure(transcript, 'en');
    expect(transcript.slice(s!.start, s!.end)).toBe('I have a rash on my arm.');
  });
});

describe('facts', () => {
  const said = [
    'Your blood pressure is 150 over 95 and your pulse 88.',
    'Temperature 38.4, saturation 97 %.',
    'Any allergies? Penicillin.',
    'Are you taking anything? Metformin 500 mg twice a day.',
    'I will refer you to cardiology and give you a sick note for 5 days.',
    'Come back in 2 weeks.',
  ];
  it('reads follow-ups said the usual ways, hay fever as no drug allergy, a declined referral as none, and a negated medicine as not taken', () => {
    expect(followUpIn(['I wanna see you again in about 3 to 4 weeks.'])?.value).toBe('about 3 to 4 weeks');
    expect(followUpIn(['If it does not improve, come back in 2 days.'])).toBeUndefined();
    expect(followUpIn(['Come back in 2 days if it does not improve.'])).toBeUndefined();
    expect(sections('Patient: I have a sore throat.\nClinician: I would like to see you back in about a week to check on it.', 'en').at(-1)?.[0]).toBe('plan');
    expect(sections('Patient: I have a sore throat.\nClinician: It is lovely to see you back, your throat looks red.', 'en').at(-1)?.[0]).not.toBe('plan');
    // A condition that opens a later clause, or 'see if', leaves the follow-up as said; a range stays a range.
    expect(followUpIn(["We're gonna check you in 2 weeks to see if those bones have realigned and if they haven't, we'll talk about surgery."])?.value).toBe(
      '2 weeks',
    );
    expect(followUpIn(['I wanna see you back in about a week to 2 weeks and if you are still having symptoms we can talk.'])?.value).toBe(
      'about a week to 2 weeks',
    );
    expect(followUpIn(['Your appointment with the cardiologist is in 4 months.', 'See you in 6 weeks.'])).toBeUndefined();
    expect(followUpIn(["We're gonna check you in 2 weeks to see if those bones have healed."])?.value).toBe('2 weeks');
    expect(followUpIn(['You have had pain for 2 weeks, let me take a look at it.'])).toBeUndefined();
    expect(allergiesIn(['No seasonal allergies.'], 'en')).toBeUndefined();
    expect(allergiesIn(['No seasonal allergies, but I am allergic to penicillin.'], 'en')?.value).toBe('penicillin');
    expect(allergiesIn(['Any allergies to medications? No.'], 'en')?.value).toBe('none');
    // The question's words are never the allergy, and an answer that names nothing is none or nothing.
    expect(allergiesIn(['É alérgico a algum medicamento? Não, a nada.'], 'pt')?.value).toBe('none');
    expect(allergiesIn(['Are you allergic to any medicine?', "I don't think so."], 'en')?.value).toBe('none');
    expect(allergiesIn(['Any allergies?', 'Just the usual.'], 'en')).toBeUndefined();
    expect(allergiesIn(['Any allergies?', 'Penicillin.'], 'en')?.value).toBe('Penicillin');
    expect(referralIn(["We could refer you to cardiology, but you don't want that."], 'en')).toBeUndefined();
    expect(referralIn(['I will refer you to cardiology.'], 'en')?.value).toBe('cardiology');
    expect(medicinesIn(['I stopped taking aspirin last year, and I take metformin 500 mg twice daily.'], 'en').map((m) => m.value)).toEqual([
      'metformin 500 mg twice daily',
    ]);
    expect(medicinesIn(['Lisinopril 20 mg and metformin 1000 mg twice daily.'], 'en').map((m) => m.value)).toEqual([
      'Lisinopril 20 mg',
      'metformin 1000 mg twice daily',
    ]);
    // A name the clinician corrects at once is not the patient's medicine.
    expect(medicinesIn(["We're gonna treat you with penicillin or, I'm sorry, amoxicillin 500 mg three times a day."], 'en').map((m) => m.value)).toEqual([
      'amoxicillin 500 mg three times a day',
    ]);
    expect(medicinesIn(['Vou receitar ramipril, quer dizer, lisinopril 10 mg.'], 'pt').map((m) => m.value)).toEqual(['lisinopril 10 mg']);
    expect(medicinesIn(['Penicillin or amoxicillin, whichever the pharmacy has.'], 'en').map((m) => m.value)).toEqual(['Penicillin', 'amoxicillin']);
    expect(medicinesIn(['Start lisinopril 10 mg, sorry, losartan 50 mg daily.'], 'en').map((m) => m.value)).toEqual(['losartan 50 mg daily']);
    expect(medicinesIn(['Tome enalapril, o sea, losartán.'], 'es').map((m) => m.value)).toEqual(['losartán']);
    expect(medicinesIn(['Metformin, sorry, insulin too, and aspirin.'], 'en').map((m) => m.value)).toEqual(['Metformin', 'insulin', 'aspirin']);
    // 'Actually' adds as often as it corrects, and a sentence's end is no correction.
    expect(medicinesIn(['I take metformin, actually lisinopril as well.'], 'en').map((m) => m.value)).toEqual(['metformin', 'lisinopril']);
    expect(medicinesIn(['I take metformin. Sorry. Lisinopril too.'], 'en').map((m) => m.value)).toEqual(['metformin', 'Lisinopril']);
  });

  it('reads measurements, medicines, allergies, referral, sick leave and follow-up with their source', () => {
    expect(measurementsIn(said, 'en')).toMatchObject({
      bloodpressure: { value: '150/95 mmHg' },
      heartrate: { value: '88 bpm' },
      temperature: { value: '38.4 °C' },
      saturation: { value: '97 %' },
    });
    expect(medicinesIn(said)).toEqual([{ value: 'Metformin 500 mg twice a day', source: said[3] }]);
    expect(allergiesIn(said, 'en')).toEqual({ value: 'Penicillin', source: said[2] });
    expect(referralIn(said)?.value).toBe('cardiology');
    expect(sickLeaveIn(said)?.value).toBe(5);
    expect(followUpIn(said)?.value).toBe('2 weeks');
  });

  it('reads them in Portuguese, German and Spanish too', () => {
    expect(allergiesIn(['É alérgica à penicilina.'], 'pt')?.value).toBe('penicilina');
    expect(allergiesIn(['Tem alergias? Não.'], 'pt')?.value).toBe('none');
    expect(sickLeaveIn(['Dou-lhe um certificado de incapacidade por uma semana.'])?.value).toBe(7);
    expect(sickLeaveIn(['Ich schreibe Sie für 3 Tage krank, Krankschreibung bis Freitag.'])?.value).toBe(3);
    expect(referralIn(['Vou encaminhar para ortopedia.'])?.value).toBe('ortopedia');
    expect(medicinesIn(['Ramipril auf 10 mg erhöhen, einmal täglich.'])[0]?.value).toBe('Ramipril 10 mg einmal taglich');
  });
});

describe('documents without a model', () => {
  const request = (over: Partial<DocumentRequest>): DocumentRequest => ({
    documentKind: 'consultation_notes',
    language: 'en',
    transcript:
      'Good morning. What brings you in? Back pain since Monday after lifting boxes. Any allergies? None. On examination there is lumbar muscle spasm. I think this is a lumbar strain. I will prescribe ibuprofen 400 mg three times a day and give you a sick note for one week. Come back in 2 weeks.',
    data: {},
    clinician: { name: 'Dr. A. Lima' },
    date: new Date('2026-11-23T10:00:00Z'),
    ...over,
  });

  it('write SOAP notes from the consultation’s own sentences, the notes data beside them', () => {
    const text = composeDocument(request({ data: { text: 'Works in a warehouse.', bloodpressure: '130/80' } }));
    // The opening question folds into its answer, which says why the patient came on its own.
    expect(text).toContain('## Subjective\n- Works in a warehouse.\n- Back pain since Monday after lifting boxes.');
    expect(text).toContain('**Allergies:** no known allergies');
    expect(text).toContain('## Objective\n- Blood pressure: 130/80\n- On examination there is lumbar muscle spasm.');
    expect(text).toContain('## Assessment\n- I think this is a lumbar strain.');
    expect(text).toContain('- Medication: ibuprofen 400 mg 3 times a day');
    expect(text).toContain('- Next consultation: 2 weeks');
    expect(text).not.toContain('Good morning');
  });

  it('fill the certificate’s period and diagnosis from what was said', () => {
    const text = composeDocument(request({ documentKind: 'sick_leave_certificate' }));
    expect(text).toContain('**Period:** from 23 November 2026 to 29 November 2026');
    expect(text).toContain('**Diagnosis:** I think this is a lumbar strain.');
  });

  it('carry the clinician’s medication into the summary and the referral letter', () => {
    for (const documentKind of ['clinical_summary', 'referral_letter']) {
      expect(composeDocument(request({ documentKind, data: { medication: 'ibuprofen 400 mg tid' } }))).toContain('ibuprofen 400 mg tid');
    }
  });
});

describe('change requests without a model', () => {
  const note = '# Notes\n\n## Subjective\n- Cough for 5 days. Smokes 10 a day.\n\n## Plan\n- Amoxicillin 500 mg.\n- Medication: amoxicillin\n';
  it('add a line to a section, remove the sentence about something, replace a value', () => {
    expect(applyTextCommand(note, 'Add chest X-ray if no better in a week to the plan', 'en')).toContain(
      '- Medication: amoxicillin\n- Chest X-ray if no better in a week\n',
    );
    expect(applyTextCommand(note, 'Remove the sentence about smoking', 'en')).toBeUndefined();
    expect(applyTextCommand(note, 'Remove the sentence about smokes', 'en')).toContain('- Cough for 5 days.\n');
    expect(applyTextCommand(note, 'Replace 500 mg with 875 mg', 'en')).toContain('- Amoxicillin 875 mg.');
  });

  it('understand the requests in Portuguese, German and Spanish', () => {
    const pt = '# Notas\n\n## Plano\n- Ibuprofeno 400 mg.\n';
    expect(applyTextCommand(pt, 'Acrescentar repouso relativo ao plano', 'pt')).toContain('- Ibuprofeno 400 mg.\n- Repouso relativo\n');
    expect(applyTextCommand(pt, 'Substituir 400 mg por 600 mg', 'pt')).toContain('- Ibuprofeno 600 mg.');
    const de = '# Notizen\n\n## Plan\n- Ibuprofen 400 mg.\n- Kontrolle in 2 Wochen.\n';
    expect(applyTextCommand(de, 'Füge Wärmeanwendung zum Plan hinzu', 'de')).toContain('- Wärmeanwendung\n');
    expect(applyTextCommand(de, 'Lösche den Satz über Kontrolle', 'de')).not.toContain('Kontrolle');
    const es = '# Notas\n\n## Plan\n- Ibuprofeno 400 mg.\n';
    expect(applyTextCommand(es, 'Cambia 400 mg por 600 mg', 'es')).toContain('- Ibuprofeno 600 mg.');
  });

  it('leave any other request, or one that finds nothing to change, to a model', () => {
    expect(applyTextCommand(note, 'Make it more formal', 'en')).toBeUndefined();
    expect(applyTextCommand(note, 'Replace 250 mg with 500 mg', 'en')).toBeUndefined();
    expect(applyTextCommand(note, 'Add a line to the appendix', 'en')).toBeUndefined();
  });
});

describe('a short consultation read in another language than it was said', () => {
  it('keeps its clinical sentences: a clinical word in any of the four languages is no conversation', () => {
    expect(structure('Chest pain for two days, worse on effort. Started aspirin.', 'pt').map((s) => s.text)).toEqual([
      'Chest pain for two days, worse on effort.',
      'Started aspirin.',
    ]);
  });
});
