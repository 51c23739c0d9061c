// biome-ignore-all format: word lists and patterns, one language or one group to a line, read better as written
/**
 * The scorer's own word lists, kept as data and independent of the product's lexicons (the point is to measure
 * those from outside). Each entry is one concept with its spellings: a generic and its US brands, a diagnosis and
 * the plain words patients use for it; a note saying either spelling keeps the fact, and a note naming a concept
 * the transcript never named in any spelling has invented it.
 */

/** Common medicines in primary-care and specialist notes: generic|brand|… (one concept per line). */
export const MEDICINES: string[] = [
  'acetaminophen|tylenol|paracetamol', 'ibuprofen|advil|motrin', 'naproxen|aleve|naprosyn', 'aspirin', 'meloxicam|mobic', 'celecoxib|celebrex',
  'diclofenac|voltaren', 'ketorolac|toradol', 'tramadol|ultram', 'oxycodone|percocet|oxycontin', 'hydrocodone|norco|vicodin', 'morphine', 'codeine',
  'lisinopril|zestril|prinivil', 'enalapril', 'ramipril', 'losartan|cozaar', 'valsartan|diovan', 'sacubitril|entresto', 'amlodipine|norvasc',
  'hydrochlorothiazide|hctz', 'chlorthalidone', 'metoprolol|lopressor|toprol', 'carvedilol|coreg', 'atenolol|tenormin', 'propranolol', 'diltiazem|cardizem',
  'verapamil', 'hydralazine', 'clonidine', 'furosemide|lasix', 'bumetanide|bumex', 'torsemide', 'spironolactone|aldactone', 'digoxin',
  'nitroglycerin', 'isosorbide|imdur', 'warfarin|coumadin', 'apixaban|eliquis', 'rivaroxaban|xarelto', 'dabigatran|pradaxa', 'clopidogrel|plavix',
  'heparin', 'enoxaparin|lovenox', 'atorvastatin|lipitor', 'simvastatin|zocor', 'rosuvastatin|crestor', 'pravastatin', 'ezetimibe|zetia',
  'metformin|glucophage', 'insulin|lantus|humalog|novolog|levemir|basaglar|tresiba', 'glipizide', 'glyburide', 'glimepiride',
  'empagliflozin|jardiance', 'dapagliflozin|farxiga', 'canagliflozin|invokana', 'sitagliptin|januvia', 'semaglutide|ozempic|wegovy|rybelsus',
  'dulaglutide|trulicity', 'liraglutide|victoza|saxenda', 'tirzepatide|mounjaro', 'levothyroxine|synthroid', 'methimazole',
  'prednisone', 'prednisolone', 'methylprednisolone|medrol', 'dexamethasone|decadron', 'hydrocortisone', 'triamcinolone|kenalog',
  'albuterol|proair|ventolin', 'fluticasone|flonase|flovent', 'budesonide|pulmicort', 'budesonide formoterol|symbicort', 'fluticasone salmeterol|advair',
  'montelukast|singulair', 'tiotropium|spiriva', 'cetirizine|zyrtec', 'loratadine|claritin', 'fexofenadine|allegra', 'diphenhydramine|benadryl',
  'hydroxyzine|atarax', 'famotidine|pepcid', 'omeprazole|prilosec', 'pantoprazole|protonix', 'esomeprazole|nexium', 'ranitidine|zantac',
  'ondansetron|zofran', 'meclizine|antivert', 'docusate|colace', 'polyethylene glycol|miralax', 'senna|senokot', 'loperamide|imodium',
  'amoxicillin', 'amoxicillin clavulanate|augmentin', 'azithromycin|zithromax|z-pack|zpack', 'doxycycline', 'cephalexin|keflex', 'ceftriaxone|rocephin',
  'ciprofloxacin|cipro', 'levofloxacin|levaquin', 'sulfamethoxazole|bactrim', 'nitrofurantoin|macrobid', 'clindamycin', 'penicillin',
  'metronidazole|flagyl', 'vancomycin', 'mupirocin|bactroban', 'fluconazole|diflucan', 'valacyclovir|valtrex', 'acyclovir|zovirax', 'oseltamivir|tamiflu',
  'sertraline|zoloft', 'fluoxetine|prozac', 'citalopram|celexa', 'escitalopram|lexapro', 'paroxetine|paxil', 'venlafaxine|effexor',
  'duloxetine|cymbalta', 'bupropion|wellbutrin', 'trazodone', 'mirtazapine|remeron', 'amitriptyline|elavil', 'nortriptyline', 'buspirone|buspar',
  'alprazolam|xanax', 'lorazepam|ativan', 'clonazepam|klonopin', 'diazepam|valium', 'zolpidem|ambien', 'melatonin', 'quetiapine|seroquel',
  'aripiprazole|abilify', 'risperidone|risperdal', 'olanzapine|zyprexa', 'lithium', 'lamotrigine|lamictal', 'gabapentin|neurontin',
  'pregabalin|lyrica', 'topiramate|topamax', 'levetiracetam|keppra', 'sumatriptan|imitrex', 'methylphenidate|ritalin|concerta', 'amphetamine|adderall',
  'cyclobenzaprine|flexeril', 'methocarbamol|robaxin', 'baclofen', 'tizanidine|zanaflex', 'allopurinol|zyloprim', 'colchicine', 'alendronate|fosamax',
  'vitamin d', 'vitamin b12|b12', 'folic acid', 'tamsulosin|flomax', 'finasteride|proscar', 'oxybutynin|ditropan', 'sildenafil|viagra', 'tadalafil|cialis',
  'estradiol|estrogen', 'progesterone', 'methotrexate', 'adalimumab|humira', 'etanercept|enbrel', 'hydroxychloroquine|plaquenil', 'epinephrine|epipen',
  'hydromorphone|dilaudid', 'fentanyl', 'orphenadrine|norflex', 'promethazine|phenergan', 'prochlorperazine|compazine', 'metoclopramide|reglan',
  'cefdinir|omnicef', 'terbinafine|lamisil', 'nystatin', 'clotrimazole|lotrimin', 'ketoconazole|nizoral', 'benzonatate|tessalon', 'guaifenesin|mucinex',
  'pseudoephedrine|sudafed', 'isotretinoin|accutane', 'tretinoin|retin-a', 'ferrous sulfate', 'lactulose', 'bisoprolol', 'nifedipine|procardia',
  'lidocaine', 'nicotine patch', 'varenicline|chantix', 'naloxone|narcan', 'buprenorphine|suboxone', 'methadone',
];

/** Common diagnoses and problems (symptoms included): name|synonym|… */
export const DIAGNOSES: string[] = [
  'hypertension|high blood pressure|htn', 'diabetes|diabetic|dm', 'hyperlipidemia|high cholesterol|dyslipidemia', 'heart failure|chf',
  'coronary artery disease|cad', 'atrial fibrillation|afib|a fib', 'myocardial infarction|heart attack', 'stroke|cva', 'transient ischemic attack|tia',
  'deep vein thrombosis|dvt|blood clot', 'pulmonary embolism', 'murmur', 'palpitations', 'asthma', 'copd|chronic obstructive pulmonary disease|emphysema',
  'pneumonia', 'bronchitis', 'sinusitis|sinus infection', 'pharyngitis|strep throat|sore throat', 'otitis|ear infection', 'influenza|flu',
  'covid|coronavirus', 'common cold|upper respiratory infection|uri', 'allergic rhinitis|seasonal allergies|hay fever', 'sleep apnea|osa',
  'urinary tract infection|uti|bladder infection', 'kidney stone|nephrolithiasis', 'chronic kidney disease|ckd|kidney disease|renal insufficiency',
  'gerd|reflux|heartburn', 'irritable bowel syndrome|ibs', "crohn's disease|crohn", 'colitis', 'diverticulitis', 'gastroenteritis',
  'constipation', 'diarrhea', 'nausea', 'vomiting', 'hepatitis', 'cirrhosis', 'pancreatitis', 'cholecystitis|gallstones|gallbladder',
  'appendicitis', 'hernia', 'hypothyroidism', 'hyperthyroidism', 'osteoarthritis|arthritis', 'rheumatoid arthritis', 'gout', 'osteoporosis',
  'fracture', 'sprain', 'strain', 'tendinitis|tendonitis', 'bursitis', 'carpal tunnel', 'back pain|lumbago', 'sciatica', 'neck pain',
  'knee pain', 'shoulder pain', 'hip pain', 'chest pain', 'abdominal pain|stomach pain|belly pain', 'headache', 'migraine', 'concussion',
  'seizure|epilepsy', 'neuropathy', 'multiple sclerosis', "parkinson's disease|parkinson", "dementia|alzheimer's|alzheimer", 'depression',
  'anxiety', 'insomnia', 'bipolar', 'adhd|attention deficit', 'anemia', 'obesity', 'cancer|carcinoma|malignancy|tumor', 'melanoma',
  'eczema|dermatitis', 'psoriasis', 'cellulitis', 'rash', 'acne', 'shingles|zoster', 'lupus', 'fibromyalgia', 'plantar fasciitis',
  'meniscus tear|torn meniscus', 'rotator cuff', 'acl tear', 'glaucoma', 'cataract', 'conjunctivitis|pink eye', 'hematuria',
  'benign prostatic hyperplasia|bph|enlarged prostate', 'erectile dysfunction', 'fatigue', 'dizziness|vertigo|lightheaded|lightheadedness',
  'syncope|fainting|passed out', 'shortness of breath|dyspnea', 'cough', 'fever', 'edema|swelling', 'infection',
];

/**
 * Filler words and speech habits that belong to a conversation, not a note. Each is a pattern on the note's
 * lower-case text; 'like' only as a filler (', like ,' and 'like, '), 'so' only opening a sentence ('so ,'), 'er'
 * not after an article or preposition (notes say 'seen in the ER').
 */
export const FILLERS: { name: string; pattern: RegExp }[] = [
  ['um', /\bum+\b/g], ['uh', /\buh+\b(?![- ]huh)/g], ['er', /(?<!\b(?:the|an|to|in|at|from)\s)\ber+\b/g], ['erm', /\berm\b/g], ['hmm', /(?<!\bm+[- ])\bhm+\b/g], ['mm-hmm', /\bmm+[- ]?hmm+\b/g],
  ['mhm', /\bmhm+\b/g], ['uh-huh', /\buh[- ]?huh\b/g], ['okay', /\bokay\b/g], ['ok', /\bok\b/g], ['yeah', /\byeah\b/g], ['yep', /\byep\b/g],
  ['alright', /\balright\b/g], ['all right', /\ball right\b/g], ['you know', /\byou know\b/g], ['i mean', /\bi mean\b/g],
  ['like (filler)', /,\s*like\s*,|\blike,/g], ['hey dragon', /\bhey,? dragon\b/g], ['dax', /\bdax\b/g], ['so (sentence start)', /(?:^|[.?!]\s+|\n[-*]?\s*)so\s*,/g],
].map(([name, pattern]) => ({ name: name as string, pattern: pattern as RegExp }));

/** Words that open a measurement line ('Blood pressure: 25/76 mmHg'): every number on such a line is checked. */
export const MEASUREMENT_LABELS =
  /^\s*(?:[-*•]\s*)?(?:\*\*)?(?:blood pressure|bp|heart rate|pulse|hr|respiratory rate|respirations|rr|temperature|temp|weight|height|bmi|body mass index|oxygen saturation|o2 sat(?:uration)?|spo2|saturation|pulse ox(?:imetry)?|glucose|blood sugar|a1c|hba1c|hemoglobin a1c|cholesterol|ldl|hdl|ejection fraction|ef|measurements?|vitals?|vital signs)\b[^:\n]{0,20}:/i;

/** What a reference says when it sets the next visit: follow up, return, see you again, recheck… */
export const FOLLOW_UP_CUES = /\b(?:follow[- ]?up|followup|return|come back|see (?:you|him|her|them|the patient)|recheck|re-?evaluat\w*|revisit|check back|next (?:visit|appointment|consultation)|reassess\w*)\b/i;
