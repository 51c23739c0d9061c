import { sql } from 'drizzle-orm';
import type { Database } from './database.js';
import { medicalSpecialities } from './schema.js';

type Names = { pt: string; en: string; de: string; es: string };

/** The medical specialities offered in the account settings, in the four interface languages. */
export const MEDICAL_SPECIALITIES: Record<string, Names> = {
  general_practice: { pt: 'Medicina Geral e Familiar', en: 'General Practice', de: 'Allgemeinmedizin', es: 'Medicina Familiar y Comunitaria' },
  internal_medicine: { pt: 'Medicina Interna', en: 'Internal Medicine', de: 'Innere Medizin', es: 'Medicina Interna' },
  cardiology: { pt: 'Cardiologia', en: 'Cardiology', de: 'Kardiologie', es: 'Cardiología' },
  dermatology: { pt: 'Dermatologia', en: 'Dermatology', de: 'Dermatologie', es: 'Dermatología' },
  endocrinology: { pt: 'Endocrinologia', en: 'Endocrinology', de: 'Endokrinologie', es: 'Endocrinología' },
  gastroenterology: { pt: 'Gastrenterologia', en: 'Gastroenterology', de: 'Gastroenterologie', es: 'Gastroenterología' },
  gynecology_obstetrics: {
    pt: 'Ginecologia e Obstetrícia',
    en: 'Obstetrics and Gynaecology',
    de: 'Gynäkologie und Geburtshilfe',
    es: 'Obstetricia y Ginecología',
  },
  neurology: { pt: 'Neurologia', en: 'Neurology', de: 'Neurologie', es: 'Neurología' },
  oncology: { pt: 'Oncologia Médica', en: 'Medical Oncology', de: 'Onkologie', es: 'Oncología Médica' },
  ophthalmology: { pt: 'Oftalmologia', en: 'Ophthalmology', de: 'Augenheilkunde', es: 'Oftalmología' },
  orthopedics: { pt: 'Ortopedia', en: 'Orthopaedics', de: 'Orthopädie', es: 'Traumatología y Ortopedia' },
  pediatrics: { pt: 'Pediatria', en: 'Paediatrics', de: 'Kinder- und Jugendmedizin', es: 'Pediatría' },
  psychiatry: { pt: 'Psiquiatria', en: 'Psychiatry', de: 'Psychiatrie', es: 'Psiquiatría' },
  pulmonology: { pt: 'Pneumologia', en: 'Pulmonology', de: 'Pneumologie', es: 'Neumología' },
  urology: { pt: 'Urologia', en: 'Urology', de: 'Urologie', es: 'Urología' },
  nephrology: { pt: 'Nefrologia', en: 'Nephrology', de: 'Nephrologie', es: 'Nefrología' },
  rheumatology: { pt: 'Reumatologia', en: 'Rheumatology', de: 'Rheumatologie', es: 'Reumatología' },
  otorhinolaryngology: { pt: 'Otorrinolaringologia', en: 'Otorhinolaryngology', de: 'Hals-Nasen-Ohren-Heilkunde', es: 'Otorrinolaringología' },
  physical_medicine: {
    pt: 'Medicina Física e de Reabilitação',
    en: 'Physical and Rehabilitation Medicine',
    de: 'Physikalische und Rehabilitative Medizin',
    es: 'Medicina Física y Rehabilitación',
  },
  other: { pt: 'Outra', en: 'Other', de: 'Andere', es: 'Otra' },
};

/** Idempotent: run at every start so new specialities or corrected names reach existing databases. */
export async function seedReferenceData(db: Database): Promise<void> {
  const rows = Object.entries(MEDICAL_SPECIALITIES).map(([id, names]) => ({ id, names }));
  await db
    .insert(medicalSpecialities)
    .values(rows)
    .onConflictDoUpdate({ target: medicalSpecialities.id, set: { names: sql`excluded.names` } });
}
