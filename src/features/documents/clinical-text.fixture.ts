/** What clinicians write that a Latin-1 font or a line-based reader gets wrong: for the PDF and the plain-text copy alike. */
export const CLINICAL_MARKDOWN = [
  '## Avaliação',
  '',
  'HbA1c ≥ 7,0 % e LDL ≤ 70 mg/dL; peso 82 ± 3 kg; metformina → insulina; B12 500 µg; febre 38,5 °C; ½ comprimido; SC 1,9 m²; volume 12 cm³; etanol 0,5 ‰.',
  '',
  'Gregas: α β γ δ κ μ π σ Δ Ω.',
  '',
  'pt: á à â ã ç é ê í ó ô õ ú Á À Â Ã Ç É Ê Í Ó Ô Õ Ú',
  '',
  'de: ä ö ü Ä Ö Ü ß',
  '',
  'es: ñ Ñ ¿ ¡ á é í ó ú ü',
].join('\n');

export const CLINICAL_STRINGS = [
  'HbA1c ≥ 7,0 %',
  '≤',
  '±',
  '→',
  'µg',
  '38,5 °C',
  '½',
  'm²',
  'cm³',
  '‰',
  'α β γ δ κ μ π σ Δ Ω',
  'á à â ã ç é ê í ó ô õ ú Á À Â Ã Ç É Ê Í Ó Ô Õ Ú',
  'ä ö ü Ä Ö Ü ß',
  'ñ Ñ ¿ ¡ á é í ó ú ü',
];
