/**
 * Medicines by name, as data: international names as written in the four languages, common brand names said in
 * consultations (US and European), and the endings most other names share. Folded (lower case, no accents). A
 * name that is also an everyday word or a lab (iron, potassium, magnesium) is left out: a medicine list must not
 * hold what was a lab value.
 */
const NAMES = `
paracetamol acetaminophen tylenol panadol ibuprofen ibuprofeno advil motrin brufen naproxen naproxeno aleve diclofenac diclofenaco voltaren metamizol metamizole nolotil aspirin aspirina
acido-acetilsalicilico codeine codeina codein tramadol morphine morfina morphin oxycodone oxycodon hydrocodone norco percocet fentanyl buprenorphine methadone
meloxicam mobic celecoxib celebrex ketorolac toradol indomethacin etoricoxib cyclobenzaprine flexeril methocarbamol robaxin tizanidine baclofen
amoxicillin amoxicilina amoxicillin augmentin clavulanate clavulanico azithromycin azitromicina zithromax z-pack clarithromycin claritromicina doxycycline doxiciclina
ciprofloxacin ciprofloxacino cipro levofloxacin nitrofurantoin nitrofurantoina macrobid fosfomycin fosfomicina cephalexin cefalexina keflex cefuroxime ceftriaxone clindamycin clindamicina
metronidazole metronidazol flagyl trimethoprim bactrim sulfamethoxazole vancomycin penicillin penicilina oseltamivir tamiflu paxlovid acyclovir aciclovir valacyclovir valtrex fluconazole diflucan
metformin metformina glucophage insulin insulina lantus humalog novolog glargine gliclazide gliclazida glipizide glimepiride sitagliptin sitagliptina januvia empagliflozin empagliflozina jardiance
dapagliflozin dapagliflozina farxiga forxiga semaglutide ozempic wegovy liraglutide victoza dulaglutide trulicity tirzepatide mounjaro
omeprazole omeprazol prilosec pantoprazole pantoprazol protonix esomeprazole esomeprazol nexium lansoprazole famotidine pepcid ranitidine ondansetron zofran metoclopramide
salbutamol albuterol ventolin proair budesonide budesonido symbicort fluticasone flovent flonase advair seretide montelukast singulair tiotropium spiriva ipratropium
prednisolone prednisolona prednisolon prednisone prednisona methylprednisolone medrol dexamethasone dexametasona hydrocortisone triamcinolone
levothyroxine levotiroxina levothyroxin synthroid euthyrox methimazole
furosemide furosemida furosemid lasix torsemide bumetanide hydrochlorothiazide hidroclorotiazida chlorthalidone indapamide indapamida spironolactone espironolactona aldactone eplerenone
amlodipine amlodipina amlodipin norvasc nifedipine diltiazem verapamil lisinopril ramipril enalapril perindopril losartan cozaar valsartan irbesartan olmesartan candesartan telmisartan
metoprolol atenolol bisoprolol carvedilol propranolol nebivolol labetalol hydralazine clonidine nitroglycerin isosorbide digoxin amiodarone
warfarin varfarina coumadin apixaban apixabano eliquis rivaroxaban rivaroxabano xarelto dabigatran edoxaban clopidogrel plavix ticagrelor heparin enoxaparin lovenox
atorvastatin lipitor rosuvastatin crestor simvastatin pravastatin ezetimibe zetia
sertraline sertralina sertralin zoloft fluoxetine fluoxetina prozac escitalopram lexapro citalopram celexa paroxetine paxil duloxetine cymbalta venlafaxine effexor bupropion wellbutrin
mirtazapine trazodone amitriptyline nortriptyline quetiapine seroquel aripiprazole olanzapine risperidone lithium lamotrigine lamictal
alprazolam xanax diazepam valium lorazepam ativan clonazepam klonopin zolpidem ambien buspirone hydroxyzine melatonin
gabapentin neurontin pregabalin lyrica levetiracetam keppra valproate depakote topiramate topamax carbamazepine phenytoin
sumatriptan imitrex rizatriptan propranolol
cetirizine cetirizina cetirizin zyrtec loratadine loratadina loratadin claritin fexofenadine allegra diphenhydramine benadryl
allopurinol alopurinol colchicine colchicina colchicin febuxostat methotrexate metotrexato hydroxychloroquine plaquenil adalimumab humira
tamsulosin flomax finasteride sildenafil viagra tadalafil oxybutynin mirabegron
polyethylene-glycol miralax lactulose senna docusate colace loperamide imodium bisacodyl
`;

/** Single-word names; the ones written with a hyphen here are said as two words ('polyethylene glycol'). */
export const MEDICINE_WORDS = new Set(NAMES.split(/\s+/).filter((n) => n && !n.includes('-')));
export const MEDICINE_PHRASES = NAMES.split(/\s+/)
  .filter((n) => n.includes('-'))
  .map((n) => n.replace(/-/g, ' '))
  .concat(['vitamin d', 'vitamina d']);
/** The endings most medicine names share. */
export const MEDICINE_ENDING =
  /^\p{L}{3,}(?:pril|olol|ilol|alol|sartan|statin|statina|estatina|dipine|dipina|formin|cillin|cilina|floxacin|floxacino|prazole|prazol|azole|azol|tidine|tidina|mab|lukast|gliflozin|gliptin|glutide|oxacin|cycline|ciclina|mycin|micina|semide|thiazide|parin|xaban|triptan|tiapine|etine|oxetine|pam|lam)$/u;
