// biome-ignore-all format: word lists and patterns, one language or one group to a line, read better as written
/**
 * The clinical sentences the local speech engine's language model learns from, written for this project:
 * what clinicians say in a consultation (history, examination, medication, plans), in lower case words as
 * they are spoken. Templates multiply the patterns with drugs, doses, frequencies, symptoms and durations.
 */

const symptoms = ['chest pain', 'a headache', 'a cough', 'a fever', 'back pain', 'shortness of breath', 'abdominal pain', 'nausea', 'dizziness', 'a sore throat', 'joint pain', 'fatigue', 'palpitations', 'a rash', 'swollen ankles', 'diarrhoea', 'vomiting', 'trouble sleeping', 'low mood', 'anxiety', 'knee pain', 'blurred vision', 'a runny nose', 'ear pain', 'burning when passing urine'];
const durations = ['two days', 'three days', 'a week', 'two weeks', 'a month', 'three months', 'since yesterday', 'since this morning', 'for a few hours', 'six months'];
const drugs = ['metformin', 'lisinopril', 'atorvastatin', 'amlodipine', 'ramipril', 'simvastatin', 'omeprazole', 'paracetamol', 'ibuprofen', 'amoxicillin', 'aspirin', 'bisoprolol', 'furosemide', 'levothyroxine', 'salbutamol', 'prednisolone', 'warfarin', 'apixaban', 'insulin', 'sertraline', 'citalopram', 'gabapentin', 'clopidogrel', 'losartan', 'doxycycline', 'codeine', 'tramadol', 'diclofenac', 'lansoprazole', 'bendroflumethiazide'];
const doses = ['five milligrams', 'ten milligrams', 'twenty milligrams', 'forty milligrams', 'fifty milligrams', 'one hundred milligrams', 'two hundred and fifty milligrams', 'five hundred milligrams', 'one gram', 'two puffs'];
const frequencies = ['once a day', 'twice a day', 'three times a day', 'at night', 'in the morning', 'every eight hours', 'when needed', 'with food', 'once a week'];
const tests = ['a blood test', 'a full blood count', 'kidney function', 'liver function', 'an x ray', 'an ecg', 'an ultrasound', 'a urine test', 'cholesterol', 'troponin', 'thyroid function', 'hba1c', 'a chest x ray', 'a scan'];
const numbers = ['one hundred and twenty', 'one hundred and thirty', 'one hundred and forty', 'one hundred and fifty', 'ninety', 'eighty', 'seventy', 'sixty'];
const relatives = ['mother', 'father', 'brother', 'sister'];
const conditions = ['diabetes', 'high blood pressure', 'asthma', 'heart disease', 'a stroke', 'cancer', 'copd', 'high cholesterol', 'depression', 'arthritis', 'kidney disease', 'atrial fibrillation', 'heart failure', 'hypertension', 'hypothyroidism'];
const people = ['the patient', 'she', 'he'];

const fixed = [
  'good morning how can i help you today',
  'what brings you in today',
  'how long have you had these symptoms',
  'does anything make it better or worse',
  'do you have any allergies to medication',
  'no known drug allergies',
  'are you taking any other medication',
  'do you smoke or drink alcohol',
  'she stopped smoking three years ago',
  'he drinks about ten units a week',
  'any family history of heart disease',
  'let me listen to your chest',
  'the heart sounds are normal',
  'the lungs are clear',
  'the abdomen is soft and not tender',
  'there is no swelling of the legs',
  'the throat is red and the tonsils are enlarged',
  'the ears look normal',
  'reflexes are normal',
  'take a deep breath in and out',
  'please lie down on the couch',
  'we will check your blood pressure',
  'your blood pressure is a little high today',
  'the temperature is thirty eight point five',
  'oxygen saturation is ninety eight percent',
  'the heart rate is regular',
  'the wound is healing well',
  'i think this is a viral infection',
  'this looks like a chest infection',
  'it is probably a muscle strain',
  'we should rule out a heart problem',
  'i would like you to see a cardiologist',
  'i will refer you to the hospital',
  'i will write you a sick note for one week',
  'you should rest and drink plenty of fluids',
  'come back if it gets worse',
  'please come back in two weeks',
  'we will review the results next week',
  'call an ambulance if the chest pain comes back',
  'the plan is to continue the current treatment',
  'we will stop the ibuprofen',
  'subjective objective assessment and plan',
  'the patient agrees with the plan',
  'any other questions',
  'thank you see you soon',
];

export function clinicalSentences() {
  const out = new Set(fixed);
  for (const p of people) {
    for (const s of symptoms) {
      out.add(`${p} has had ${s} for ${durations[(s.length + p.length) % durations.length]}`);
      out.add(`${p} complains of ${s}`);
      out.add(`no ${s.replace(/^an? /, '')}`);
    }
    for (const c of conditions) out.add(`${p} has a history of ${c}`);
  }
  for (const s of symptoms) for (const d of durations) out.add(`i have had ${s} for ${d}`);
  for (const [i, drug] of drugs.entries()) {
    out.add(`she takes ${drug} ${frequencies[i % frequencies.length]}`);
    out.add(`he is on ${drug} ${doses[i % doses.length]} ${frequencies[(i + 3) % frequencies.length]}`);
    for (const dose of doses.slice(0, 5)) out.add(`we will start ${drug} ${dose} ${frequencies[(i + dose.length) % frequencies.length]}`);
    out.add(`continue ${drug}`);
    out.add(`stop the ${drug}`);
    out.add(`increase the ${drug} to ${doses[(i + 2) % doses.length]}`);
    out.add(`any side effects from the ${drug}`);
  }
  for (const test of tests) {
    out.add(`we will arrange ${test}`);
    out.add(`the results of ${test} are normal`);
    out.add(`please have ${test} before the next appointment`);
  }
  for (const a of numbers) for (const b of ['ninety', 'eighty', 'seventy']) out.add(`blood pressure is ${a} over ${b}`);
  for (const r of relatives) for (const c of conditions) out.add(`her ${r} had ${c}`);
  return [...out];
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(clinicalSentences().join('\n'));
