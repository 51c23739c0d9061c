import { buildClinicalModel, canBuildClinicalModel, clinicalModelIsCurrent } from '../build-clinical-model.mjs';

/** Builds the local speech engine's clinical model when its sources changed and the tools are installed. */
export function ensureClinicalModel() {
  if (clinicalModelIsCurrent()) return true;
  if (!canBuildClinicalModel()) {
    console.warn('The clinical speech model cannot be built here (irstlm and sphinxbase-utils missing); the generic model is used.');
    return false;
  }
  const { sentences, words } = buildClinicalModel();
  console.log(`Built the clinical speech model (${sentences} sentences, ${words} words).`);
  return true;
}
