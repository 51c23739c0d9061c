/**
 * Words that make a sentence clinical: symptoms, body parts, events, treatments, tests and habits, as word
 * starts (stems) in the four languages, folded (lower case, no accents); a stem marked '=' is a whole word only
 * ('ear', not 'early'). A sentence of a consultation with none of them, no number, medicine or diagnosis, and no
 * cue of findings, conclusion or plan is conversation, and a note leaves it out. Kept as data; wide on purpose:
 * a word wrongly here only keeps a sentence.
 */
import type { Language } from '../../../contract/constants.js';

const STEMS: Record<Language, string> = {
  en: `pain ache aching hurt sore tender swell swollen cough fever chill sweat nause vomit diarrh constipat fatigue tired exhaust dizz lightheaded headache migrain rash itch numb tingl weak bleed blood breath wheez palpitat chest heart sleep insomnia appetite weight urin =pee stool bowel back neck knee hip shoulder ankle wrist elbow =foot feet =leg legs =arm arms =hand hands finger =toe toes =head =eye eyes =ear ears nose throat stomach belly abdom skin joint muscle bone spine =fall =fell injur sprain strain fractur broke surgery operat hospital emergency medic pill tablet dose allerg smok alcohol drink drug diet exercis walk stairs symptom worse better improv flare anxi depress mood stress pregnan period menstru vision hearing memory confus faint =seiz seizure stroke cancer diabet sugar pressure cholesterol thyroid kidney liver lung asthma copd infect virus covid =flu vaccin =shot test x-ray xray scan =mri =ct lab result referr refer therap physical specialist follow appointment prescri refill insulin inhaler cream ointment inject burn =cut =cuts bite wound lump mass cyst discharge cramp spasm stiff limp bruis tremor shak sick ill nurse doctor clinic history family smoke drinks caffeine coffee work job murmur edema oedema jvd rales crackl lesion ulcer polyp nodul tumor tumour hernia reflux heartburn gerd =ibs gout arthrit sinus congest runny sneez phlegm mucus sputum =ef ejection echo ekg ecg stent cath biopsy colonoscop endoscop mammogra =psa =inr =tsh hemoglobin anemi platelet potassium sodium creatinine glucose a1c =bp pulse temperature oxygen saturat`,
  pt: `dor dores doi doe tosse febre arrepi suor nause vomit diarrei obstipa cansa fadiga tontura tonto cabeca enxaqueca erupc comichao prurido dorm formigu fraqueza sangr respira =ar pieira palpita peito coracao sono apetite peso urin fezes intestin costas lombar pescoco joelho anca ombro tornozelo pulso cotovelo =pe pes perna braco mao maos dedo olho ouvido nariz garganta estomago barriga abdom pele articula musculo osso coluna queda =cai =caiu lesao entorse fratura cirurgia operac hospital urgencia medica comprimido dose alergi fum alcool bebe dieta exercicio anda escadas sintoma pior melhor ansie depress humor gravid menstrua visao memoria desmai convuls diabet acucar tensao colesterol tiroide =rim rins figado pulmao asma infec virus gripe vacina analise exame raio =tac ressonancia resultado fisio consulta receita insulina inalador pomada injec queimad ferida nodulo caroco caibra rigidez tremor incha trabalho sopro edema crepita sibilo lesao ulcera tumor hernia refluxo azia gota artrite sinus congest expetora hemoglobina potassio sodio creatinina glicose glicemia pulso temperatura oxigenio saturac`,
  de: `schmerz =weh husten fieber schuttel schwitz ubel erbrech durchfall verstopf mude erschopf schwindel kopf migrane ausschlag juck taub kribbel schwache blut atem atmen luft herz brust schlaf appetit gewicht urin wasserlassen stuhl darm rucken nacken hals knie hufte schulter knochel handgelenk ellbogen fuss fuß bein beine =arm arme =hand hande finger zeh auge augen =ohr ohren nase magen bauch haut gelenk muskel knochen wirbelsaule sturz gesturzt verletz verstauch zerr bruch operation krankenhaus notaufnahme medikament tablette dosis allergi rauch alkohol trink diat sport treppe symptom schlimmer besser angst depress stimmung schwanger periode =regel sehen gedachtnis ohnmacht krampf diabet zucker blutdruck cholesterin schilddruse niere leber lunge asthma infekt virus grippe impf test rontgen =ct =mrt labor befund uberweis therap physio termin rezept insulin inhal salbe spritze verbrenn wunde knoten steif zittern geschwollen schwellung arbeit gerausch odem rassel giemen lasion geschwur tumor hernie reflux sodbrennen gicht arthrit sinus auswurf hamoglobin kalium natrium kreatinin glukose puls temperatur sauerstoff sattigung`,
  es: `dolor duele =tos fiebre escalofr sudor nause vomit diarrea estren cansa fatiga mareo cabeza migrana erupcion picor =pica hormigue entumec debilidad sangr respira =aire sibil palpita pecho corazon sueno dormir apetito peso orina heces intestin espalda lumbar cuello rodilla cadera hombro tobillo muneca codo =pie pies pierna brazo mano dedo =ojo ojos oido nariz garganta estomago barriga tripa abdom piel articula musculo hueso columna caida =cai lesion esguince fractura cirugia operacion hospital urgencia medica pastilla comprimido dosis alergi fum alcohol bebe dieta ejercicio camina escaleras sintoma peor mejor ansie depres animo embaraz =regla menstrua vision memoria desmay convuls diabet azucar tension colesterol tiroides rinon higado pulmon asma infecc virus gripe vacuna analisis prueba radiografia escaner resonancia resultado fisio cita receta insulina inhalador crema pomada inyecc quemad herida bulto calambre rigidez temblor hinchad hinchazon trabajo soplo edema crepitant sibilanc lesion ulcera tumor hernia reflujo ardor gota artritis sinus congest flema esputo hemoglobina potasio sodio creatinina glucosa pulso temperatura oxigeno saturac`,
};

const PATTERNS = Object.fromEntries(
  (Object.keys(STEMS) as Language[]).map((l) => {
    const items = STEMS[l].split(/\s+/).filter(Boolean);
    const whole = items.filter((w) => w.startsWith('=')).map((w) => w.slice(1));
    const starts = items.filter((w) => !w.startsWith('='));
    const esc = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return [l, new RegExp(`(?<![\\p{L}])(?:(?:${whole.map(esc).join('|')})(?![\\p{L}])|(?:${starts.map(esc).join('|')}))`, 'u')];
  }),
) as Record<Language, RegExp>;

/** Whether a folded sentence names something clinical by its words. */
export const namesClinicalThing = (folded: string, language: Language) => PATTERNS[language].test(folded);

/**
 * Whether a folded sentence names something clinical in any of the four languages: a short transcript whose
 * language could not be told is read in the clinician's, and its words must not be taken for conversation then.
 */
export const namesClinicalThingInAny = (folded: string) => (Object.keys(PATTERNS) as Language[]).some((l) => PATTERNS[l].test(folded));
